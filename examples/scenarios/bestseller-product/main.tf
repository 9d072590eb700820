# A bestseller: one product item is read 12,000 times a second with strong consistency, 100x the others.
# One item lives in one partition (3,000 RCU), and no key sharding can split an item, so the plan fails
# with DK304 (hot item): cache the item (DAX) or keep several copies of it and read one at random.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "catalog" {
  partition_key = { name = "pk", template = "PRODUCT#{product_id}" }
  segments = {
    product_id = { kind = "id", cardinality = 5000 }
  }
  traffic = {
    reads_per_second              = 60000
    read_consistency              = "strong"
    hottest_item_reads_per_second = 12000
  }
}
