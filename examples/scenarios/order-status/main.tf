# Orders keyed by status: four values, so at most four partitions ever carry the table. The plan passes
# with warning DK302 (low-cardinality partition key): lead with the order or customer id instead.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "status", template = "{status}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    status   = { kind = "enum", values = ["pending", "paid", "shipped", "delivered"] }
    order_id = { kind = "id", max_length = 26 }
  }
  traffic = { writes_per_second = 200, reads_per_second = 800 }
}

output "findings" {
  value = [for f in data.dynamokeys_keydesign.orders.findings : "${f.rule} ${f.severity}: ${f.message}"]
}
