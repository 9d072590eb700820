variable "table_name" {
  type = string
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"
  range_key    = "created_at"

  attribute {
    name = "status"
    type = "S"
  }
  attribute {
    name = "created_at"
    type = "S"
  }
}

# A clean table: the status-keyed index below is reported on the index, not here.
resource "aws_dynamodb_table" "events" {
  name         = "events"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"

  attribute {
    name = "customer_id"
    type = "S"
  }
}

resource "aws_dynamodb_global_secondary_index" "events_by_state" {
  table_name = aws_dynamodb_table.events.name
  index_name = "by_state"

  key_schema {
    attribute_name = "state"
    attribute_type = "S"
    key_type       = "HASH"
  }
  projection {
    projection_type = "KEYS_ONLY"
  }
}

# The table's name comes from a variable without a value: not checked, and a notice says so.
resource "aws_dynamodb_table" "named_later" {
  name         = var.table_name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }
}
