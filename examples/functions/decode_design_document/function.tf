data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500 }
}

# The document the policies evaluate, as indented JSON: in a plan, a change of the design shows here field
# by field. jsondecode gives its values.
output "design_document" {
  value = provider::dynamokeys::decode_design_document(data.dynamokeys_keydesign.events.design_document)
}

output "busiest_key_write_units" {
  value = jsondecode(provider::dynamokeys::decode_design_document(data.dynamokeys_keydesign.events.design_document)).derived.capacity.hot_key_write_units
}
