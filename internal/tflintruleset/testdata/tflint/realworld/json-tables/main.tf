locals {
  tables = jsondecode(file("${path.module}/tables.json"))
}

resource "aws_dynamodb_table" "per_entry" {
  for_each     = local.tables
  name         = each.key
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = each.value.hash_key

  attribute {
    name = each.value.hash_key
    type = each.value.type
  }

  global_secondary_index {
    name            = "by_environment"
    hash_key        = "environment"
    projection_type = "KEYS_ONLY"
  }
}
