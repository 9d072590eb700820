locals {
  peak    = { writes = 2500 }
  day_key = "DAY#{day}"
}

resource "dynamokeys_sharded_table" "events" {
  name          = "events"
  partition_key = { name = "pk", template = local.day_key }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = local.peak.writes, item_size_bytes = 800 }
}
