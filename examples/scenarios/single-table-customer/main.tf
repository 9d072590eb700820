# The textbook single table: each customer's PROFILE item beside their ORDER# items under one partition key;
# GSI1, overloaded (a customer by email, an order by id) and sparse (invoices write no GSI1 key); and an
# invoice entity whose sort key repeats the order's shape. DK109 fails the plan: an invoice and an order can
# write the same PK and SK, and one would silently replace the other. Give INVOICE# its own prefix (the
# "Single-table design" guide walks it).
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "customers" {
  partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  global_secondary_indexes = {
    GSI1 = { partition_key = [{ name = "GSI1PK" }], sort_key = [{ name = "GSI1SK" }] }
  }
  segments = {
    customer_id = { kind = "id", max_length = 26, characters = "0-9A-Z" }
    order_id    = { kind = "id", max_length = 26, characters = "0-9A-Z" }
    invoice_id  = { kind = "id", max_length = 26, characters = "0-9A-Z" }
    order_date  = { kind = "time", granularity = "day" }
    email       = { kind = "id", max_length = 254 }
  }
  entities = {
    customer = {
      keys    = { PK = "CUSTOMER#{customer_id}", SK = "PROFILE", GSI1PK = "EMAIL#{email}", GSI1SK = "CUSTOMER" }
      traffic = { writes_per_second = 20, item_size_bytes = 600, item_count = 2000000, max_items_per_partition_key = 1 }
    }
    order = {
      keys    = { PK = "CUSTOMER#{customer_id}", SK = "ORDER#{order_date}#{order_id}", GSI1PK = "ORDER#{order_id}", GSI1SK = "ORDER" }
      traffic = { writes_per_second = 300, item_size_bytes = 1500, max_items_per_partition_key = 5000 }
    }
    invoice = {
      keys    = { PK = "CUSTOMER#{customer_id}", SK = "ORDER#{order_date}#{invoice_id}" }
      traffic = { writes_per_second = 50, item_size_bytes = 900, max_items_per_partition_key = 5000 }
    }
  }
  access_patterns = {
    # The profile and the orders of a customer in one Query of their collection (the invoices come along:
    # DK110 says so).
    customer_with_orders = { entities = ["customer", "order"], equals = ["customer_id"], items = 21, reads_per_second = 200 }
    # GSI1 holds the profiles by email and the orders by id.
    profile_by_email = { entities = ["customer"], index = "GSI1", equals = ["email"], reads_per_second = 50 }
    order_by_id      = { entities = ["order"], index = "GSI1", equals = ["order_id"], reads_per_second = 100 }
  }
}

output "findings" {
  value = [for f in data.dynamokeys_keydesign.customers.findings : "${f.rule} ${f.severity}: ${f.message}"]
}
