# The provider's policy_dirs, read relative to the root module's directory as Terraform reads them. A called
# module without a provider block of its own uses this configuration; a block of another alias, that one's.
provider "dynamokeys" {
  policy = { policy_dirs = ["policies"] }
}

provider "dynamokeys" {
  alias = "lenient"
}

resource "dynamokeys_sharded_table" "orders" {
  name          = "orders"
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments = {
    customer_id = { kind = "id" }
  }
}

resource "dynamokeys_sharded_table" "scratch" {
  provider = dynamokeys.lenient

  name          = "scratch"
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments = {
    customer_id = { kind = "id" }
  }
}

module "invoices" {
  source = "./modules/table"
  name   = "invoices"
}
