# A table of a NoSQL Workbench data model, planned as a design with entities. Each facet is an entity; the
# templates its aliases do not write are inferred from its sample items, and the model is checked against
# itself. The model holds no traffic: each entity's rate is added here.
locals {
  shop   = provider::dynamokeys::from_workbench_model(file("${path.module}/model.json"), "Shop")
  writes = { customer = 20, order = 300 }
}

data "dynamokeys_keydesign" "shop" {
  partition_key            = local.shop.partition_key
  sort_key                 = local.shop.sort_key
  global_secondary_indexes = local.shop.global_secondary_indexes
  segments                 = local.shop.segments
  entities                 = { for name, e in local.shop.entities : name => merge(e, { traffic = { writes_per_second = local.writes[name] } }) }
}

output "findings" {
  value = data.dynamokeys_keydesign.shop.findings
}

# The templates the modeler did not write, with the samples they came from: review them.
output "inferred" {
  value = { for i in local.shop.inferred : "${i.entity}.${i.attribute}" => i.template }
}

# Sample items the templates cannot render, and aliases that disagree with the samples.
output "mismatches" {
  value = local.shop.mismatches
}

# Sample primary keys that two facets both hold.
output "collisions" {
  value = local.shop.collisions
}
