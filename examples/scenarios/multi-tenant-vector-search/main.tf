# A multi-tenant document store searched by similarity: each tenant's documents carry an embedding, and a
# vector index whose partition key (the search schema's HASH) is the tenant confines every search to one
# tenant. The plan computes each tenant's vector write bytes per second against the per-value limit, which
# items the index holds, what a search returns and what the index costs. The guide "Vector indexes" walks
# through it.
terraform {
  required_version = ">= 1.8"
  required_providers {
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}

data "dynamokeys_keydesign" "documents" {
  partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments = {
    tenant_id = { kind = "id", max_length = 26, cardinality = 20000 }
    doc_id    = { kind = "id", max_length = 26 }
    version   = { kind = "number", max_length = 6 }
  }

  vector_indexes = {
    by_embedding = {
      vector_attribute  = "embedding"
      dimensions        = 1024
      distance_function = "COSINE"
      partition_key     = { name = "tenant_id", type = "S" }
      inline_filters    = [{ name = "category", type = "S" }]
      projection_type   = "KEYS_ONLY"
    }
  }

  entities = {
    # A document's current version: the only item with the vector and the tenant, so the only one indexed.
    document = {
      keys              = { PK = "DOC#{doc_id}", SK = "CURRENT", tenant_id = "{tenant_id}" }
      vector_attributes = ["embedding"]
      traffic           = { writes_per_second = 600, item_size_bytes = 4500, item_count = 20000000 }
    }
    # Older versions keep no vector: they are not in the index and use none of its storage.
    version = {
      keys    = { PK = "DOC#{doc_id}", SK = "V#{version}" }
      traffic = { writes_per_second = 600, item_size_bytes = 4500 }
    }
  }

  access_patterns = {
    similar_documents = {
      entities         = ["document"]
      equals           = ["tenant_id"]
      vector_search    = { index = "by_embedding", top_k = 10 }
      reads_per_second = 200
    }
  }
}

output "vector_index_facts" {
  value = jsondecode(provider::dynamokeys::decode_design_document(data.dynamokeys_keydesign.documents.design_document)).derived.vector_indexes
}

output "ok" {
  value = data.dynamokeys_keydesign.documents.ok
}
