output "hash_key" {
  description = "The table's partition key attribute, as wired into aws_dynamodb_table."
  value       = local.hash_key
}

output "range_key" {
  description = "The table's sort key attribute."
  value       = local.range_key
}

output "attributes" {
  description = "The attribute definitions of the table and its indexes, with their resolved types."
  value       = local.attributes
}

output "global_secondary_indexes" {
  description = "The index definitions as aws_dynamodb_table takes them."
  value       = local.global_secondary_indexes
}

output "report" {
  description = "The key design's capacity report."
  value       = data.dynamokeys_keydesign.orders.report
}

output "cost_per_region" {
  description = "Monthly dollars in each replica Region (on-demand and provisioned totals), and every Region together."
  value = {
    regions     = { for r, c in data.dynamokeys_keydesign.orders.cost.replica_regions : r => { on_demand = c.on_demand.total, provisioned = c.provisioned.total } }
    all_regions = data.dynamokeys_keydesign.orders.cost.all_regions
  }
}
