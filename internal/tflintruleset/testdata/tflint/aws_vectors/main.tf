# The AWS provider's aws_dynamodb_vector_index (terraform-provider-aws PR #49375), joined to its table.
resource "aws_dynamodb_table" "notes" {
  name           = "notes"
  billing_mode   = "PROVISIONED"
  read_capacity  = 5
  write_capacity = 5
  hash_key       = "note_id"

  attribute {
    name = "note_id"
    type = "S"
  }
}

# A HASH that is the table's only key: one item, one vector, per value.
resource "aws_dynamodb_vector_index" "notes_by_note" {
  table_name        = aws_dynamodb_table.notes.name
  index_name        = "by_note"
  dimensions        = 8192
  distance_function = "COSINE"

  vector_attribute {
    attribute_name = "embedding"
  }
  projection {
    projection_type = "KEYS_ONLY"
  }
  search_schema {
    attribute_name = "note_id"
    attribute_type = "S"
    type           = "HASH"
  }
}
