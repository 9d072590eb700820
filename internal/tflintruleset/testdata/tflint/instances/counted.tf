resource "aws_dynamodb_table" "counted" {
  count        = "2"
  name         = "counted-${count.index}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"

  attribute {
    name = "status"
    type = "S"
  }
}
