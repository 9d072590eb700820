# Quickstart: an event log keyed by day. At 2,500 writes/s of 800-byte items one day's key takes 2,500 WCU,
# 2.5 times the 1,000 WCU a partition serves; at the default 80% target utilization that is 4 shards, so
# the table spreads each day over 4 keys with a calculated suffix. The plan computes the shard count, the
# routing spec the application follows, and a report; the policies check the design before any API call.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

variable "endpoint" {
  description = "DynamoDB-API endpoint, e.g. a local server. Null uses the AWS endpoint of the region."
  type        = string
  default     = null
}

provider "dynamokeys" {
  region   = "us-east-1"
  endpoint = var.endpoint
}

resource "dynamokeys_sharded_table" "events" {
  name = "quickstart-events"
  # The demo destroys the table at the end; keep the default (true) for real tables.
  deletion_protection = false

  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800 }

  global_secondary_indexes = {
    by_customer = {
      partition_key = [{ name = "customerId", cardinality = 1000000 }]
      sort_key      = [{ name = "createdAt" }]
    }
  }
  ttl  = { attribute_name = "expiresAt" }
  tags = { app = "quickstart" }
}

output "shard_count" {
  value = dynamokeys_sharded_table.events.shard_count
}

output "routing" {
  description = "What application code needs to compute the same shard as Terraform."
  value       = dynamokeys_sharded_table.events.routing
}

output "example_key" {
  description = "The partition key of event 4f1c2b7e-… written on 2026-11-30."
  value = provider::dynamokeys::render_key(dynamokeys_sharded_table.events.partition_key.template, {
    day   = "2026-11-30"
    shard = provider::dynamokeys::shard_suffix("4f1c2b7e-9a8d-4b1e-8f00-000000000001", dynamokeys_sharded_table.events.shard_count)
  })
}

output "report" {
  value = dynamokeys_sharded_table.events.report
}
