# The provider's policy_dirs, read relative to the root module's directory as Terraform reads them. A block
# of another alias uses that configuration's settings; a called module, the configuration its module block
# passes it (providers), else the default one.
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

module "drafts" {
  source = "./modules/table"
  name   = "drafts"
  providers = {
    dynamokeys = dynamokeys.lenient
  }
}

# The provider's settings govern its own resources: an AWS table gets the built-in rules only.
resource "aws_dynamodb_table" "legacy" {
  name         = "legacy"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }
}
