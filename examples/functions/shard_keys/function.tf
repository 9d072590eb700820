# Every key a reader queries to read one day of a 4-shard event log (one Query per shard, then merge).
output "keys" {
  value = provider::dynamokeys::shard_keys("DAY#{day}#SHARD#{shard}", { day = "2026-11-30" }, 4)
}

# During a migration from 4 shards to 8 (see the key-scheme migration guide), a reader of both layouts
# queries the keys of each count; on the same template the 4-shard keys are among the 8.
output "keys_of_both_layouts" {
  value = distinct(concat(
    provider::dynamokeys::shard_keys("DAY#{day}#SHARD#{shard}", { day = "2026-11-30" }, 4),
    provider::dynamokeys::shard_keys("DAY#{day}#SHARD#{shard}", { day = "2026-11-30" }, 8),
  ))
}
