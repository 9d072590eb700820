# A dynamodb-onetable schema, planned as a design with entities: its models' value templates are the
# entities' keys, its saved queries the access patterns. The schema holds no traffic: it is added here.
locals {
  app    = provider::dynamokeys::from_onetable_schema(file("${path.module}/schema.json"))
  writes = { account = 5, user = 50, invoice = 200 }
}

data "dynamokeys_keydesign" "app" {
  partition_key            = local.app.partition_key
  sort_key                 = local.app.sort_key
  global_secondary_indexes = local.app.global_secondary_indexes
  segments                 = local.app.segments
  entities                 = { for name, e in local.app.entities : name => merge(e, { traffic = { writes_per_second = local.writes[name] } }) }
  access_patterns          = { for name, p in local.app.access_patterns : name => merge(p, { reads_per_second = 100 }) }
}

output "findings" {
  value = data.dynamokeys_keydesign.app.findings
}

# What of the schema is no input of the design (Scans, values computed by code), with why.
output "skipped" {
  value = local.app.skipped
}
