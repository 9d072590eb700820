variable "name" {
  type = string
}

variable "billing_mode" {
  type = string
}

variable "hash_key" {
  type    = string
  default = null
}

variable "lsi_names" {
  type    = list(string)
  default = []
}

resource "aws_dynamodb_table" "this" {
  name         = var.name
  billing_mode = var.billing_mode
  hash_key     = var.hash_key
  range_key    = "sk"

  dynamic "local_secondary_index" {
    for_each = var.lsi_names
    content {
      name            = "by_${local_secondary_index.value}"
      range_key       = "created"
      projection_type = "KEYS_ONLY"
    }
  }
}
