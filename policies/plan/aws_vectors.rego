# Terraform plan adapter, aws_dynamodb_vector_index
# The AWS provider's standalone vector index resource (terraform-provider-aws PR #49375): table_name,
# index_name, dimensions, distance_function, vector_attribute (attribute_name), projection (projection_type,
# non_key_attributes) and search_schema blocks (attribute_name, attribute_type, type HASH or INLINE_FILTER).
# Each planned one is joined to its aws_dynamodb_table in the same plan as a standalone GSI is (aws_gsi.rego):
# the table's document gains it in derived.vector_indexes with what the plan alone tells, no templates or
# traffic, so the vector rules that need none judge it (billing mode, count, dimensions, a HASH that is the
# table's only key). One whose table is not in the plan gets a document of its own.
package dynamokeys.plan

# standalone_vector_indexes are the planned vector index resources: their address, the table they join (null
# when none in the plan) and the index mapped to derived.vector_indexes' shape.
standalone_vector_indexes := [{
	"address": rc.address, "table": gsi_table(rc, after), "table_name": after.table_name,
	"index": vector_index_doc(after, au), "unknown": unknown, "existed": is_object(object.get(rc.change, "before", null)),
} |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_vector_index"
	is_string(rc.address)
	is_object(rc.change.after)
	after := with_defaults(rc.change.after, {
		"table_name": null, "index_name": "", "dimensions": null, "distance_function": "",
		"vector_attribute": {}, "projection": [], "search_schema": [],
	})
	au := map_entries(object.get(rc.change, "after_unknown", {}))
	unknown := [concat(".", ["vector_indexes", after.index_name]) |
		some attr in ["dimensions", "vector_attribute", "search_schema", "projection", "index_name"]
		holds_unknown(object.get(au, attr, false))
	]
]

# vector_index_doc is one index as the vectors stage writes it, from what the plan knows: a value known only
# after apply is null (dimensions) or left out (a search_schema block), and every figure that needs the
# entities' templates or traffic is null.
vector_index_doc(after, au) := {
	"name": after.index_name,
	"path": ["vector_indexes", after.index_name],
	"vector_attribute": object.get(block_of(after.vector_attribute), "attribute_name", ""),
	"dimensions": dimensions,
	"distance_function": after.distance_function,
	"partition_key": search_key_or_null([k | some k in schema; k.kind == "HASH"]),
	"inline_filters": [{"name": k.name, "type": k.type} | some k in schema; k.kind == "INLINE_FILTER"],
	"projection_type": object.get(projection, "projection_type", "ALL"),
	"non_key_attributes": array_or_empty(object.get(projection, "non_key_attributes", [])),
	"vector_bytes": vector_bytes(dimensions),
	"shared_dimensions": [],
	"entities": [],
	"hash_values": hash_values(schema),
	"hash_values_basis": hash_values_basis(schema),
	"hash_unique_per_item": false,
	"hash_unique_entities": [],
	"write_bytes_per_second": null,
	"hot_hash_write_bytes_per_second": null,
	"hot_hash_entities": [],
	"hash_values_needed": null,
	"searches": [],
	"cost": {
		"write_gb_per_month": null, "search_gb_per_month": null, "storage_gb": null, "write_monthly_usd": null,
		"search_monthly_usd": null, "storage_monthly_usd": null, "monthly_usd": null, "region": "", "prices": null,
	},
} if {
	dimensions := known_number(after.dimensions, object.get(au, "dimensions", false))
	projection := block_of(after.projection)
	schema := search_schema(after.search_schema, object.get(au, "search_schema", false))
}

# block_of reads a nested block written as an object (vector_attribute) or as a list of one (projection).
block_of(block) := block if is_object(block)

else := first_block(block)

known_number(n, unknown) := n if {
	unknown == false
	is_number(n)
} else := null

# search_schema are the known search_schema blocks as {name, type, kind}; the provider writes the element's
# type as type (PR #49375), the API as key_type.
search_schema(blocks, unknown) := [] if holds_unknown(unknown)

else := [{
	"name": object.get(s, "attribute_name", ""),
	"type": object.get(s, "attribute_type", "S"),
	"kind": object.get(s, "type", object.get(s, "key_type", "")),
} |
	some s in array_or_empty(blocks)
	is_object(s)
	is_string(object.get(s, "attribute_name", null))
]

search_key_or_null(list) := {"name": list[0].name, "type": list[0].type} if count(list) > 0

else := null

vector_bytes(dimensions) := dimensions * 4 if {
	is_number(dimensions)
	dimensions > 0
} else := 0

# An index without HASH is one value; with one, its values need the templates the plan does not have.
hash_values(schema) := null if has_hash(schema)

else := 1

hash_values_basis(schema) := "unknown" if has_hash(schema)

else := "no_hash"

has_hash(schema) if {
	some k in schema
	k.kind == "HASH"
}

# vector_documents replace the documents of the planned tables that standalone vector indexes join (after
# the GSIs' join), with those indexes in derived.vector_indexes, sorted by name as the vectors stage sorts.
vector_documents := {address: with_vectors(doc, [v.index | some v in sort_vectors(standalone_vector_indexes); v.table == address]) |
	some address in {v.table | some v in standalone_vector_indexes; v.table != null}
	doc := object.get(joined_documents, address, aws_documents[address])
}

sort_vectors(indexes) := [v | some name in sort({v.index.name | some v in indexes}); some v in indexes; v.index.name == name]

# with_vectors adds the indexes to a table's document: the facts that need the other indexes (dimensions
# shared on a vector attribute) or the table (a HASH that is the table's only key, unique per item) are set
# here. Those that existed before the plan join the table's prior too, so that only a created one is new.
with_vectors(doc, indexes) := object.union_n([doc, prior_vectors(doc), {
	"derived": object.union(doc.derived, {"vector_indexes": [with_table_facts(v, indexes, doc.table) | some v in indexes]}),
	"unknown": array.concat(doc.unknown, [u | some v in standalone_vector_indexes; v.table == doc.address; some u in v.unknown]),
}])

with_table_facts(v, indexes, table) := object.union(v, {
	"shared_dimensions": [o.name |
		some o in indexes
		o.name != v.name
		o.vector_attribute == v.vector_attribute
		is_number(o.dimensions)
		is_number(v.dimensions)
		o.dimensions != v.dimensions
	],
	"hash_unique_per_item": unique,
	"hash_unique_entities": ["" | unique],
}) if {
	unique := hash_is_only_key(v.partition_key, table)
}

# hash_is_only_key holds for a HASH that is the table's partition key on a table without a sort key: every
# item has a value of its own, so each HASH value holds one vector.
default hash_is_only_key(_, _) := false

hash_is_only_key(hash, table) if {
	is_object(hash)
	not is_object(table.sort_key)
	hash.name == table.partition_key.name
}

prior_vectors(doc) := {"prior": object.union(doc.prior, {"derived": object.union(object.get(doc.prior, "derived", {}), {"vector_indexes": [
with_table_facts(v.index, [], doc.table) |
	some v in sort_vectors(standalone_vector_indexes)
	v.table == doc.address
	v.existed
]})})} if {
	is_object(doc.prior)
} else := {}

# lone_vector_documents are the documents of standalone vector indexes whose table is not in the plan: the
# index alone, on a table whose billing mode, keys and other indexes this plan does not show.
lone_vector_documents := {v.address: lone_vector_document(v) | some v in standalone_vector_indexes; v.table == null}

# lone_vectors name them, with the table they point at, for the warning that says what was not checked.
lone_vectors := {v.address: v.table_name | some v in standalone_vector_indexes; v.table == null}

lone_vector_document(v) := object.union(base, {
	"kind": "aws_dynamodb_vector_index",
	"table": {
		"name": "", "billing_mode": "", "read_capacity": null, "write_capacity": null,
		"on_demand_throughput": null, "warm_throughput": null, "autoscaling": null,
		"partition_key": null, "sort_key": null, "lsis": [], "gsis": [],
	},
	"derived": object.union(base.derived, {
		"key_attributes": [],
		"partition_key": null,
		"sort_key": null,
		"vector_indexes": [v.index],
	}),
	"unknown": array.concat(base.unknown, v.unknown),
}) if {
	base := aws_document(v.address, {"name": ""}, {})
}

# standalone_vector_addresses maps each planned table that standalone vector indexes join to their addresses
# by index name, as standalone_gsi_addresses does for GSIs.
standalone_vector_addresses := {table: {v.index.name: v.address | some v in standalone_vector_indexes; v.table == table} |
	some table in {v.table | some v in standalone_vector_indexes; v.table != null}
}

# standalone_index_addresses are both, by the document path's first part: the owners finding_address reads.
standalone_index_addresses := {table: {
	"global_secondary_indexes": object.get(standalone_gsi_addresses, table, {}),
	"vector_indexes": object.get(standalone_vector_addresses, table, {}),
} |
	some table in (object.keys(standalone_gsi_addresses) | object.keys(standalone_vector_addresses))
}
