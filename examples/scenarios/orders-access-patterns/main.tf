# An orders table modeled from its access patterns: an order by id, the orders of a customer by date, and
# the orders of one status in a warehouse. Each pattern is served by one Query; the report's access-pattern
# table shows which key serves it and what it reads. The guide "Modeling access patterns" walks from the
# patterns to these keys.
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
  sort_key      = { name = "sk", template = "ORDER#{order_date}#{order_id}" }
  segments = {
    customer_id = { kind = "id", max_length = 26 }
    order_date  = { kind = "time", granularity = "day", monotonic = false }
    order_id    = { kind = "id", max_length = 26 }
    status      = { kind = "enum", values = ["PENDING", "PAID", "SHIPPED", "DELIVERED"] }
  }
  global_secondary_indexes = {
    by_order = { partition_key = [{ name = "order_id" }] }
    by_status = {
      partition_key      = [{ name = "status" }, { name = "warehouse_id" }]
      sort_key           = [{ name = "order_date" }]
      projection_type    = "INCLUDE"
      non_key_attributes = ["total"]
    }
  }
  traffic = { writes_per_second = 50, item_size_bytes = 1200 }

  access_patterns = {
    order_by_id = { equals = ["order_id"], reads_per_second = 300 }
    orders_of_customer = {
      equals           = ["customer_id"]
      sort             = { on = "order_date", condition = "between" }
      reads_per_second = 200
      items            = 25
    }
    orders_by_status = {
      index            = "by_status"
      equals           = ["status", "warehouse_id"]
      sort             = { on = "order_date", condition = ">=" }
      reads_per_second = 50
      items            = 100
      item_size_bytes  = 200
      attributes       = ["total", "customer_id"]
    }
  }
}

output "report" {
  value = data.dynamokeys_keydesign.orders.report
}

output "findings" {
  value = [for f in data.dynamokeys_keydesign.orders.findings : "${f.rule} ${f.severity}: ${f.message}"]
}
