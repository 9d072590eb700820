# The shard of an order among 16: the first 4 bytes of SHA-256("order-1042"), big-endian, mod 16.
output "shard" {
  value = provider::dynamokeys::shard("order-1042", 16)
}
