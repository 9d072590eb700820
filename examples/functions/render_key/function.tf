output "key" {
  value = provider::dynamokeys::render_key("DAY#{day}#SHARD#{shard}", {
    day   = "2026-11-30"
    shard = provider::dynamokeys::shard_suffix("event-7", 4)
  })
}
