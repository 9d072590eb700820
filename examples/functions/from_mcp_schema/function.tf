# A table of the AWS DynamoDB MCP server's data model (schema.json), planned as a design with entities. The
# model holds no traffic: each entity's and each pattern's rates are added here.
locals {
  shop   = provider::dynamokeys::from_mcp_schema(file("${path.module}/schema.json"), "Shop")
  writes = { customer = 20, order = 300 }
}

data "dynamokeys_keydesign" "shop" {
  partition_key            = local.shop.partition_key
  sort_key                 = local.shop.sort_key
  global_secondary_indexes = local.shop.global_secondary_indexes
  segments                 = local.shop.segments
  entities                 = { for name, e in local.shop.entities : name => merge(e, { traffic = { writes_per_second = local.writes[name] } }) }
  access_patterns          = { for name, p in local.shop.access_patterns : name => merge(p, { reads_per_second = 100 }) }
}

output "findings" {
  value = data.dynamokeys_keydesign.shop.findings
}

# The model's patterns that are not reads through a key (writes, Scans), with why.
output "skipped" {
  value = local.shop.skipped
}
