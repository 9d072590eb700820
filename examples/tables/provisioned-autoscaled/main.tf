# A PROVISIONED table whose capacity Application Auto Scaling manages, on the table and on one GSI. The
# `autoscaling` ranges equal the aws_appautoscaling_target ranges (see the resource page); read_capacity and
# write_capacity are the capacity at creation, after which the autoscaler owns it (no ignore_changes).
resource "dynamokeys_sharded_table" "orders" {
  name          = "orders-provisioned"
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id", max_length = 26 }
  }
  traffic = { writes_per_second = 200, reads_per_second = 400, item_size_bytes = 1200 }

  billing_mode   = "PROVISIONED"
  read_capacity  = 5
  write_capacity = 5
  autoscaling = {
    read  = { min = 5, max = 500 }
    write = { min = 5, max = 600 }
  }

  global_secondary_indexes = {
    by_status = {
      partition_key  = [{ name = "status", cardinality = 5 }, { name = "customerId", cardinality = 100000 }]
      sort_key       = [{ name = "createdAt" }]
      read_capacity  = 5
      write_capacity = 5
      autoscaling = {
        read = { min = 5, max = 200 }
      }
    }
  }
}
