# The key design, checked at plan time: capacity, hot keys and the dynamokeys policies. Findings of error
# severity fail the plan before the aws provider creates anything.
data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }

  segments = {
    customer_id = { kind = "id", max_length = 36 }
    order_id    = { kind = "id", max_length = 36 }
  }

  traffic = {
    writes_per_second = var.writes_per_second
    reads_per_second  = var.reads_per_second
    item_size_bytes   = 900
  }

  # The global table: every replica performs every Region's writes, so the capacity, shard count and hot-key
  # rules use all of them, and `cost` prices each Region. MRSC's limits (DK604, DK605) fail the plan here,
  # before aws_dynamodb_table is applied.
  pricing = { region = var.region }
  replicas = {
    regions = { for r in concat([var.region], var.replica_regions) : r => {
      write_share = var.write_shares == null ? null : lookup(var.write_shares, r, 0)
    } }
    consistency = var.consistency
    witness     = var.witness_region
  }

  global_secondary_indexes = {
    by_status = {
      partition_key   = [{ name = "status", cardinality = 6 }]
      sort_key        = [{ name = "created_at", type = "N" }]
      projection_type = "KEYS_ONLY"
    }
    # A multi-attribute key: no concatenated "TENANT#...#REGION#..." attribute to maintain.
    by_tenant_region = {
      partition_key = [{ name = "tenant_id", cardinality = 50000 }, { name = "region", cardinality = 12 }]
      sort_key      = [{ name = "created_at", type = "N" }]
    }
  }
}

# The data source's outputs in the shapes aws_dynamodb_table takes. Key types and projection types come
# back resolved (S and ALL when left out), so no coalesce is needed.
locals {
  design = data.dynamokeys_keydesign.orders

  hash_key  = local.design.partition_key.name
  range_key = local.design.sort_key == null ? null : local.design.sort_key.name

  # Every key attribute of the table and its indexes, once, with its type.
  attribute_types = merge(
    { (local.design.partition_key.name) = local.design.partition_key.type },
    local.design.sort_key == null ? {} : { (local.design.sort_key.name) = local.design.sort_key.type },
    [for gsi in values(local.design.global_secondary_indexes) :
      { for k in concat(gsi.partition_key, gsi.sort_key == null ? [] : gsi.sort_key) : k.name => k.type }
    ]...
  )
  attributes = [for name in sort(keys(local.attribute_types)) : { name = name, type = local.attribute_types[name] }]

  # Each index's key attribute names, and whether the key has one attribute on each side.
  gsi_keys = { for name, gsi in local.design.global_secondary_indexes : name => {
    hash   = [for k in gsi.partition_key : k.name]
    range  = gsi.sort_key == null ? [] : [for k in gsi.sort_key : k.name]
    single = length(gsi.partition_key) == 1 && (gsi.sort_key == null ? true : length(gsi.sort_key) <= 1)
  } }

  # One object per index, in the shape of a global_secondary_index block. A key of one attribute a side uses
  # hash_key and range_key; a multi-attribute key uses key_schema blocks (HASH elements in order, then RANGE
  # elements in order) and leaves hash_key and range_key null.
  global_secondary_indexes = [for name, gsi in local.design.global_secondary_indexes : {
    name      = name
    hash_key  = local.gsi_keys[name].single ? local.gsi_keys[name].hash[0] : null
    range_key = local.gsi_keys[name].single && length(local.gsi_keys[name].range) == 1 ? local.gsi_keys[name].range[0] : null
    key_schema = local.gsi_keys[name].single ? [] : concat(
      [for a in local.gsi_keys[name].hash : { attribute_name = a, key_type = "HASH" }],
      [for a in local.gsi_keys[name].range : { attribute_name = a, key_type = "RANGE" }],
    )
    projection_type    = gsi.projection_type
    non_key_attributes = gsi.projection_type == "INCLUDE" ? gsi.non_key_attributes : null
  }]
}
