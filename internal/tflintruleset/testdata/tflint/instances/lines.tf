# An instance's finding inside a multi-line attribute lands on the item it concerns, as a single block's does.
resource "dynamokeys_sharded_table" "each" {
  for_each      = toset(["a"])
  name          = "each-orders-${each.key}"
  partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments = {
    order_id = { kind = "id" }
  }
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customer_id" }] }
    by_status = {
      partition_key = [{ name = "status", cardinality = 3 }]
    }
  }
  traffic = { writes_per_second = 3000 }
}
