# The classic hot design from the partition-key guidance: every event of a day under one key. At
# 2,500 writes/s (800-byte items) that key needs 2,500 WCU, and one partition serves 1,000, so the plan
# fails with DK301 and DK303 and names the shard count. examples/quickstart is the fixed design.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800 }
}
