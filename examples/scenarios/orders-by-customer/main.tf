# Orders keyed by customer: an unbounded id spreads traffic evenly, so one shard is enough and the plan
# passes. The GSI by status leads with the status but adds the customer to a multi-attribute key, so no GSI
# partition runs hot. Plan: shard_count = 1, no findings.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id", max_length = 26 }
  }
  traffic = { writes_per_second = 1500, reads_per_second = 4000, item_size_bytes = 2000 }
  global_secondary_indexes = {
    by_status = {
      partition_key = [{ name = "status", cardinality = 4 }, { name = "customerId", cardinality = 2000000 }]
      sort_key      = [{ name = "createdAt" }]
    }
  }
}

output "findings" {
  value = data.dynamokeys_keydesign.orders.findings
}
