package provider

// Designs with vector indexes for the parity tests (policy_parity_test.go, design_reader_test.go): a sound
// multi-tenant design stays clean, and between them the others fire DK504–DK512, which the bundle and TFLint
// must report as the provider does.
func init() {
	parityDesigns["vector_multi_tenant"] = `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { tenant_id = { kind = "id", cardinality = 5000 }, doc_id = { kind = "id", max_length = 26 } }
  vector_indexes = {
    by_embedding = {
      vector_attribute  = "embedding"
      dimensions        = 1024
      distance_function = "COSINE"
      partition_key     = { name = "tenant_id", type = "S" }
      inline_filters    = [{ name = "category" }]
      projection_type   = "KEYS_ONLY"
    }
  }
  entities = {
    doc = {
      keys              = { PK = "DOC#{doc_id}", SK = "V", tenant_id = "{tenant_id}" }
      vector_attributes = ["embedding"]
      traffic           = { writes_per_second = 600, item_size_bytes = 4500, item_count = 2000000 }
    }
  }
  access_patterns = {
    similar = { entities = ["doc"], equals = ["tenant_id"], vector_search = { index = "by_embedding", top_k = 10 }, reads_per_second = 20 }
  }
  pricing = { vector_prices = { write_gb = 0.5 } }`
	// Two tenants (a boolean in all but name) under 5,000 writes a second: DK508 and DK509.
	parityDesigns["vector_hot_tenant"] = `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { tenant_id = { kind = "enum", values = ["a", "b"] }, doc_id = { kind = "id", max_length = 26 } }
  vector_indexes = {
    by_embedding = { vector_attribute = "embedding", dimensions = 1024, distance_function = "COSINE", partition_key = { name = "tenant_id" }, projection_type = "KEYS_ONLY" }
  }
  entities = {
    doc = { keys = { PK = "DOC#{doc_id}", SK = "V", tenant_id = "{tenant_id}" }, vector_attributes = ["embedding"], traffic = { writes_per_second = 5000, item_size_bytes = 4500 } }
  }`
	// Six indexes, one of 8,192 dimensions on a shared attribute, a HASH unique per item, an entity without
	// the HASH, a top_k of 500 whose response is over 16 MB, and a search without its HASH: DK505–DK507,
	// DK509–DK512.
	parityDesigns["vector_limits"] = `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { doc_id = { kind = "id", max_length = 26 }, tenant_id = { kind = "id" } }
  vector_indexes = {
    a = { vector_attribute = "embedding", dimensions = 8192, distance_function = "COSINE", partition_key = { name = "doc_key" } }
    b = { vector_attribute = "embedding", dimensions = 1024, distance_function = "COSINE" }
    c = { vector_attribute = "embedding", dimensions = 1024, distance_function = "EUCLIDEAN" }
    d = { vector_attribute = "embedding", dimensions = 1024, distance_function = "DOT_PRODUCT" }
    e = { vector_attribute = "embedding", dimensions = 1024, distance_function = "COSINE", partition_key = { name = "tenant_id" } }
    f = { vector_attribute = "embedding", dimensions = 1024, distance_function = "COSINE" }
  }
  entities = {
    doc  = { keys = { PK = "DOC#{doc_id}", SK = "V", doc_key = "{doc_id}", tenant_id = "{tenant_id}" }, vector_attributes = ["embedding"], traffic = { writes_per_second = 10, item_size_bytes = 40000 } }
    note = { keys = { PK = "NOTE#{doc_id}", SK = "N" }, vector_attributes = ["embedding"], traffic = { writes_per_second = 5 } }
  }
  access_patterns = {
    many    = { entities = ["doc"], vector_search = { index = "b", top_k = 500 }, reads_per_second = 1 }
    no_hash = { entities = ["doc"], vector_search = { index = "e", top_k = 10 }, reads_per_second = 1 }
  }`
	// DK504: a vector index on a provisioned table.
	parityTables["vector_provisioned"] = `name           = "docs-provisioned"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 10
  partition_key  = { name = "pk", template = "DOC#{doc_id}" }
  segments       = { doc_id = { kind = "id" } }
  traffic        = { writes_per_second = 5 }
  vector_indexes = {
    by_embedding = { vector_attribute = "embedding", dimensions = 256, distance_function = "COSINE" }
  }`
}
