# A document table with a vector index searched per tenant. The index is created with the table; a later
# change to any of its attributes (dimensions, distance function, partition_key, inline_filters, projection)
# deletes it and creates it again under the same name, the table and its items kept. The HASH (tenant_id) and
# the inline filter (category) join the table's attribute definitions; the vector attribute does not.
resource "dynamokeys_sharded_table" "documents" {
  name          = "documents"
  partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments = {
    tenant_id = { kind = "id", max_length = 26, cardinality = 20000 }
    doc_id    = { kind = "id", max_length = 26 }
  }

  vector_indexes = {
    by_embedding = {
      vector_attribute  = "embedding"
      dimensions        = 1024
      distance_function = "COSINE"
      partition_key     = { name = "tenant_id" }
      inline_filters    = [{ name = "category" }]
      projection_type   = "KEYS_ONLY"
    }
  }

  entities = {
    document = {
      keys              = { PK = "DOC#{doc_id}", SK = "CURRENT", tenant_id = "{tenant_id}" }
      vector_attributes = ["embedding"]
      traffic           = { writes_per_second = 600, item_size_bytes = 4500 }
    }
  }
}
