terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
provider "dynamokeys" {}
resource "dynamokeys_sharded_table" "orders" {
  name                = "upgrade-orders"
  deletion_protection = false
  partition_key       = { name = "pk", template = "CUST#{customer_id}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id", max_length = 36, cardinality = 2 }
    order_id    = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "order_id", count = 4 }
  traffic  = { writes_per_second = 3000, reads_per_second = 1200, item_size_bytes = 900, max_items_per_partition_key = 10000 }
  local_secondary_indexes = {
    by_created = { sort_key = { name = "createdAt" }, projection_type = "KEYS_ONLY" }
  }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = 5000 }], sort_key = [{ name = "createdAt" }] }
    by_sku    = { partition_key = [{ name = "sku", cardinality = 100000 }], projection_type = "INCLUDE", non_key_attributes = ["total"] }
  }
  stream = { enabled = true, view_type = "NEW_AND_OLD_IMAGES" }
  tags   = { team = "orders" }
}
