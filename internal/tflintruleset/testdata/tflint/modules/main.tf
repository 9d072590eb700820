module "events" {
  source            = "./modules/events"
  writes_per_second = 2500
}
