resource "dynamokeys_sharded_table" "orders" {
  name = "orders"

  # Table keys. Templates are design metadata: they drive the plan-time checks and never touch the table.
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id", max_length = 26 }
  }

  # One customer (a marketplace seller) takes 30% of 3,000 writes/s: spread it over calculated shards.
  sharding = { strategy = "calculated", source = "order_id" }
  traffic  = { writes_per_second = 3000, reads_per_second = 6000, hot_key_share = 0.3, item_size_bytes = 1500, max_items_per_partition_key = 50000 }

  global_secondary_indexes = {
    by_status_date = {
      # A multi-attribute partition key: status alone would be a hot GSI partition.
      partition_key = [{ name = "status", cardinality = 5 }, { name = "sellerId", cardinality = 20000 }]
      sort_key      = [{ name = "createdAt" }]
    }
  }
  local_secondary_indexes = {
    by_total = { sort_key = { name = "total", type = "N" }, projection_type = "KEYS_ONLY" }
  }

  billing_mode           = "PAY_PER_REQUEST"
  on_demand_throughput   = { max_write_request_units = 20000 } # a runaway-cost guard above the peak
  ttl                    = { attribute_name = "expiresAt" }
  point_in_time_recovery = { enabled = true, recovery_period_in_days = 35 }
  deletion_protection    = true
  tags                   = { team = "orders" }

  # Order events for a Lambda consumer (aws_lambda_event_source_mapping.event_source_arn = stream_arn),
  # encrypted with the team's customer managed key (give its ARN, e.g. aws_kms_key.orders.arn).
  stream                 = { enabled = true, view_type = "NEW_AND_OLD_IMAGES" }
  contributor_insights   = { mode = "THROTTLED_KEYS" } # names the hot keys if a shard runs hot
  server_side_encryption = { enabled = true, kms_key_arn = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab" }

  timeouts = {
    create = "30m"
    update = "60m"
  }
}
