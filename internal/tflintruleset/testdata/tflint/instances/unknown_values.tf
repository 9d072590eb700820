resource "aws_dynamodb_table" "unknown_values" {
  for_each     = { first = var.regions, second = var.regions }
  name         = "unknown-${each.key}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "kind"

  attribute {
    name = "kind"
    type = "S"
  }
}

data "dynamokeys_keydesign" "disabled" {
  count = 0

  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  traffic       = { writes_per_second = 5000 }
}
