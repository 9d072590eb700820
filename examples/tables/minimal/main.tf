# The smallest useful table: a partition key and what it holds. Everything else has a default: on-demand
# billing, no sort key, deletion protection on, one shard (no traffic figure, so nothing asks for more).
resource "dynamokeys_sharded_table" "users" {
  name          = "users"
  partition_key = { name = "pk", template = "USER#{user_id}" }
  segments = {
    user_id = { kind = "id" }
  }
}

output "report" {
  value = dynamokeys_sharded_table.users.report
}
