variable "key_from_root" {
  type = string
}

module "orders" {
  source       = "./modules/table"
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = var.key_from_root
  lsi_names    = ["a1", "a2", "a3", "a4", "a5", "a6"]
}

module "events" {
  source       = "./modules/table"
  name         = "events"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "event_day"
  lsi_names    = []
}
