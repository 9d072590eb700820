variable "writes_per_second" {
  type = number
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments = {
    day = { kind = "time", granularity = "day" }
  }
  traffic = { writes_per_second = var.writes_per_second }
}
