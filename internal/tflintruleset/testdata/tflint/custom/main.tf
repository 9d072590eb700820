# The provider's policy_dirs, read relative to the directory TFLint runs in as Terraform reads them.
provider "dynamokeys" {
  policy = { policy_dirs = ["policies"] }
}

resource "dynamokeys_sharded_table" "orders" {
  name          = "orders"
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments = {
    customer_id = { kind = "id" }
  }
}
