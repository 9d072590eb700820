# Terraform 0.12-era syntax: interpolation-only strings, list() and map(), which later Terraform removed.
variable "table_name" {
  default = "legacy_orders"
}

resource "aws_dynamodb_table" "legacy" {
  name           = "${var.table_name}"
  billing_mode   = "PROVISIONED"
  read_capacity  = 5
  write_capacity = 5
  hash_key       = "${element(list("role", "tenant"), 0)}"

  attribute {
    name = "role"
    type = "S"
  }

  tags = "${map("team", "billing")}"
}

resource "aws_dynamodb_table" "modern" {
  name         = "${var.table_name}_v2"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "userRole"

  attribute {
    name = "userRole"
    type = "S"
  }
}
