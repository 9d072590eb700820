# A reusable module's table, as the popular DynamoDB modules write it: created only when enabled, every key
# and name from a variable that defaults to null, indexes from dynamic blocks over a variable.
variable "create_table" {
  type    = bool
  default = true
}

variable "enabled" {
  type = bool
}

variable "name" {
  type    = string
  default = null
}

variable "hash_key" {
  type    = string
  default = null
}

variable "range_key" {
  type    = string
  default = null
}

variable "global_secondary_indexes" {
  type = list(object({ name = string, hash_key = string, projection_type = string }))
  default = [
    { name = "by_status", hash_key = "status", projection_type = "KEYS_ONLY" },
    { name = "by_customer", hash_key = "customer_id", projection_type = "ALL" },
  ]
}

resource "aws_dynamodb_table" "this" {
  count        = var.create_table ? 1 : 0
  name         = var.name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = var.hash_key
  range_key    = var.range_key

  dynamic "global_secondary_index" {
    for_each = var.global_secondary_indexes
    content {
      name            = global_secondary_index.value.name
      hash_key        = global_secondary_index.value.hash_key
      projection_type = global_secondary_index.value.projection_type
    }
  }
}

# count not known before the plan: nothing to check, and no issue unless notices are asked for.
resource "aws_dynamodb_table" "maybe" {
  count        = var.enabled ? 1 : 0
  name         = "maybe"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"
}
