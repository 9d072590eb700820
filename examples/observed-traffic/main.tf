# A design checked against what CloudWatch measured. The exports in fixtures/ are a calm window of the
# orders table; the plan passes. Point metric_data and the reports at your own exports (the query file in
# this directory produces them), or read the table live with table_name and lookback instead.
terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}

data "dynamokeys_observed_traffic" "orders" {
  table_name            = "orders"
  metric_data           = file("${path.module}/fixtures/calm-metric-data.json")
  accessed_keys_report  = file("${path.module}/fixtures/calm-accessed-keys.json")
  throttled_keys_report = file("${path.module}/fixtures/calm-throttled-keys.json")
}

data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  traffic       = { writes_per_second = 500, reads_per_second = 1000, read_consistency = "strong" }

  # DK701–DK704 compare the design with the measurement.
  observed = data.dynamokeys_observed_traffic.orders.observed
}

output "report" {
  value = data.dynamokeys_keydesign.orders.report
}
