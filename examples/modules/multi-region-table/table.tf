# A global table (version 2019.11.21): one aws_dynamodb_table with a replica block per extra region. The
# keys, attribute definitions, indexes and replicas come from the key design, which checked them;
# dynamokeys_sharded_table does not manage replicas.
resource "aws_dynamodb_table" "this" {
  name                        = var.name
  region                      = var.region
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = local.hash_key
  range_key                   = local.range_key
  deletion_protection_enabled = true

  # Replication reads the table's stream: replicas need NEW_AND_OLD_IMAGES.
  stream_enabled   = true
  stream_view_type = "NEW_AND_OLD_IMAGES"

  dynamic "attribute" {
    for_each = local.attributes
    content {
      name = attribute.value.name
      type = attribute.value.type
    }
  }

  dynamic "global_secondary_index" {
    for_each = local.global_secondary_indexes
    content {
      name               = global_secondary_index.value.name
      hash_key           = global_secondary_index.value.hash_key
      range_key          = global_secondary_index.value.range_key
      projection_type    = global_secondary_index.value.projection_type
      non_key_attributes = global_secondary_index.value.non_key_attributes

      dynamic "key_schema" {
        for_each = global_secondary_index.value.key_schema
        content {
          attribute_name = key_schema.value.attribute_name
          key_type       = key_schema.value.key_type
        }
      }
    }
  }

  point_in_time_recovery {
    enabled = true
  }

  dynamic "replica" {
    for_each = var.replica_regions
    content {
      region_name            = replica.value
      consistency_mode       = upper(var.consistency)
      point_in_time_recovery = true
      propagate_tags         = true
    }
  }

  dynamic "global_table_witness" {
    for_each = var.witness_region == null ? [] : [var.witness_region]
    content {
      region_name = global_table_witness.value
    }
  }
}
