variable "name" {
  type = string
}

resource "dynamokeys_sharded_table" "this" {
  name          = var.name
  partition_key = { name = "pk", template = "INVOICE#{invoice_id}" }
  segments = {
    invoice_id = { kind = "id" }
  }
}
