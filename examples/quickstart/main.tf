# Quickstart: an event log keyed by day. 2,500 writes/s into one day's key would need 4 partitions, so the
# design shards it with a calculated suffix; the plan computes the shard count, the routing spec for the
# application and a report.
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

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800 }
}

output "shard_count" {
  value = data.dynamokeys_keydesign.events.shard_count
}

output "routing" {
  description = "What application code needs to compute the same shard as Terraform."
  value       = data.dynamokeys_keydesign.events.routing
}

output "example_key" {
  description = "The key of event 4f1c… written on 2026-11-30."
  value = provider::dynamokeys::render_key(data.dynamokeys_keydesign.events.partition_key_template, {
    day   = "2026-11-30"
    shard = provider::dynamokeys::shard_suffix("4f1c2b7e-9a8d-4b1e-8f00-000000000001", data.dynamokeys_keydesign.events.shard_count)
  })
}

output "report" {
  value = data.dynamokeys_keydesign.events.report
}
