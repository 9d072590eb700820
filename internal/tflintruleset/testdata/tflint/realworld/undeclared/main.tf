# Undeclared references beside and in checked blocks, as an editor sees them while a reference is typed.
variable "unused" {}

resource "aws_sqs_queue" "queue" {
  count = var.nope ? 1 : 0
  name  = "${var.nope}_queue"
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"

  attribute {
    name = "status"
    type = "S"
  }
}

resource "aws_dynamodb_table" "typing" {
  name         = "${var.prefix}-events"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = local.event_key

  attribute {
    name = "pk"
    type = "S"
  }
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  traffic       = { writes_per_second = var.rate }
}

# A count being typed: the table is not checked, and one issue on the count says why.
resource "aws_dynamodb_table" "counted" {
  count        = var.enable ? 1 : 0
  name         = "counted"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"
}
