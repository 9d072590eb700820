# count and for_each. TFLint expands a resource block into its instances, each checked with its own
# values; what instances report alike is reported once, naming them. A count or for_each not known before
# the plan leaves no instance to check: a notice says so. A data block TFLint does not expand: its
# each.value and count.index are unknown, which the notice says.
variable "regions" {
  type = number
}

resource "aws_dynamodb_table" "by_key" {
  for_each     = { orders = "status", events = "event_day" }
  name         = each.key
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = each.value

  attribute {
    name = each.value
    type = "S"
  }
}

resource "aws_dynamodb_table" "copies" {
  count        = 2
  name         = "copy-${count.index}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"

  attribute {
    name = "status"
    type = "S"
  }
}

resource "aws_dynamodb_table" "per_region" {
  count        = var.regions
  name         = "region-${count.index}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"

  attribute {
    name = "status"
    type = "S"
  }
}

resource "dynamokeys_sharded_table" "daily" {
  for_each = { hot = 2500, calm = 100 }

  name          = "daily-${each.key}"
  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = each.value, reads_per_second = 400, item_size_bytes = 800 }
}

data "dynamokeys_keydesign" "daily" {
  for_each = { hot = 2500, calm = 100 }

  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = each.value, reads_per_second = 400, item_size_bytes = 800 }
}
