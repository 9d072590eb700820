# The zero-padded suffix the application appends to the partition key: "00" to "15" for 16 shards.
output "suffix" {
  value = provider::dynamokeys::shard_suffix("order-1042", 16)
}
