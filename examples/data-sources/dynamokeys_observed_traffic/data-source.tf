# Offline: the JSON the AWS CLI printed, exported by a CI job (see the guide "Checking a design against
# measured traffic"). No credentials, no network call.
data "dynamokeys_observed_traffic" "orders" {
  table_name            = "orders"
  metric_data           = file("${path.module}/metric-data.json")
  accessed_keys_report  = file("${path.module}/accessed-keys.json")
  throttled_keys_report = file("${path.module}/throttled-keys.json")
}

output "measured_peak_writes" {
  value = data.dynamokeys_observed_traffic.orders.observed.traffic.writes_per_second
}

output "measured_report" {
  value = data.dynamokeys_observed_traffic.orders.report
}
