# A design whose write rate comes from a variable: its default, or a --var-file value, is what TFLint checks.
variable "writes_per_second" {
  type    = number
  default = 2500
}

# No default and no value: the rate is unknown before the plan, so DK303 stays silent and a notice says why.
variable "reads_per_second" {
  type = number
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments = {
    day = { kind = "time", granularity = "day" }
  }
  traffic = { writes_per_second = var.writes_per_second, item_size_bytes = 800 }
}

data "dynamokeys_keydesign" "reads" {
  partition_key = { name = "pk", template = "USER#{user_id}" }
  segments = {
    user_id = { kind = "id", cardinality = 2 }
  }
  traffic = { reads_per_second = var.reads_per_second, item_size_bytes = 4000, read_consistency = "strong" }
}
