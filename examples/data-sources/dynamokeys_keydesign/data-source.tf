# An event log keyed by day, sharded with a calculated suffix. With 2,500 writes/s of 800-byte items
# the busiest key (today's) needs 2,500 WCU; at 80% of a partition's 1,000 WCU that is 4 shards.
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }

  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }

  sharding = {
    strategy = "calculated" # shard = sha256(event_id) mod count
    source   = "event_id"
  }

  traffic = {
    writes_per_second = 2500
    reads_per_second  = 400
    item_size_bytes   = 800
  }

  global_secondary_indexes = {
    by_customer = {
      partition_key = [{ name = "customerId", cardinality = 1000000 }]
      sort_key      = [{ name = "createdAt" }]
    }
  }
}

output "shard_count" {
  value = data.dynamokeys_keydesign.events.shard_count # 4
}

output "routing" {
  value = data.dynamokeys_keydesign.events.routing # sha256-be32-mod, count 4, width 1, source event_id
}

output "report" {
  value = data.dynamokeys_keydesign.events.report
}
