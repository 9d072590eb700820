module "events" {
  source            = "./modules/events"
  writes_per_second = 2500
}

module "copies" {
  count             = 2
  source            = "./modules/events"
  writes_per_second = 3000
}
