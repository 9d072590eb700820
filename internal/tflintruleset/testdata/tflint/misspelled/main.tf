# Every attribute misspelled here is dropped by Terraform before the provider sees it, and so switches a
# check off in silence; the TFLint test lints a copy spelled right too, which reports none of them.
provider "dynamokeys" {
  region = "us-east-1"
  policy = { enforec = true, disabled_rules = ["DK106"] }
}

data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_date}#{order_id}" }
  segments = merge(local.common_segments, {
    order_date = { kind = "time", granularty = "day" }
  })
  traffic = { writes_per_secnd = 50, item_size_bytes = 1000 }
  global_secondary_indexes = {
    by_date = {
      partition_key = [{ name = "order_date", type = "S", cardnality = 365 }]
      sort_key      = [{ name = "order_id" }]
    }
  }
  access_patterns = {
    orders_of_customer = { equals = ["customer_id"], sort = { on = "order_date", conditon = "between" }, reads_per_second = 20 }
  }
  migration = {
    phase = "done"
    from = {
      partition_key_template = "ORDER#{order_id}"
      sharding               = { stratgy = "none", scheme_version = 1 }
    }
    backfill_writes_per_second = 200
  }
}

resource "dynamokeys_sharded_table" "events" {
  for_each      = local.tables
  name          = each.key
  partition_key = { name = "pk" }
  segments      = { event_id = { kind = "id", max_length = 36 } }
  entities = { for name, entity in local.entities : name => {
    keys    = { pk = entity.key }
    traffic = merge(each.value.traffic, { item_szie_bytes = 400 })
  } }
  point_in_time_recovery = { enabled = true, recovery_period_in_dyas = 7 }
  deletion_protection    = false
}

data "dynamokeys_observed_traffic" "events" {
  table_name = "events"
  timeouts   = { raed = "1m" }
}
