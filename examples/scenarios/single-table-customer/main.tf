# The textbook single table: each customer's PROFILE item beside their ORDER# items under one partition key,
# an overloaded GSI1 that only the profile writes (a sparse index: look a customer up by email), and an
# invoice entity whose sort key repeats the order's shape. DK109 fails the plan: an invoice and an order
# can write the same PK and SK, and one would silently replace the other. Give INVOICE# its own prefix.
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
      keys    = { PK = "CUSTOMER#{customer_id}", SK = "ORDER#{order_date}#{order_id}" }
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
    # GSI1 holds only the profiles: a customer found by email.
    profile_by_email = { entities = ["customer"], index = "GSI1", equals = ["email"], reads_per_second = 50 }
  }
}

output "findings" {
  value = [for f in data.dynamokeys_keydesign.customers.findings : "${f.rule} ${f.severity}: ${f.message}"]
}
