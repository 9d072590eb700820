# Every key a reader queries to read one day of a 4-shard event log (one Query per shard, then merge).
output "keys" {
  value = provider::dynamokeys::shard_keys("DAY#{day}#SHARD#{shard}", { day = "2026-11-30" }, 4)
}
