package dynamokeys.rules.vectors_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.vectors

# index is a sound multi-tenant vector index as internal/keydesign/vectors derives it: 1,000 tenants, a doc
# entity writing 600 items a second of 4,242 bytes each.
index(name, overrides) := object.union(
	{
		"name": name, "path": ["vector_indexes", name], "vector_attribute": "embedding", "dimensions": 1024,
		"distance_function": "COSINE", "partition_key": {"name": "tenant_id", "type": "S", "cardinality": null},
		"inline_filters": [], "projection_type": "KEYS_ONLY", "non_key_attributes": [], "vector_bytes": 4096,
		"shared_dimensions": [],
		"entities": [{
			"entity": "doc", "has_hash": true, "member": true, "hash_template": "{tenant_id}", "projected_bytes": 146,
			"write_bytes_per_item": 4242, "writes_per_second": 600, "write_bytes_per_second": 2545200, "hot_hash_share": 0.001,
			"path": ["entities", "doc"],
		}],
		"hash_values": 1000, "hash_values_basis": "template", "hash_unique_per_item": false, "hash_unique_entities": [],
		"write_bytes_per_second": 2545200, "hot_hash_write_bytes_per_second": 2545.2, "hot_hash_entities": ["doc"],
		"hash_values_needed": 1,
		"searches": [{
			"pattern": "similar", "path": ["access_patterns", "similar", "vector_search"], "top_k": 10, "hash_given": true,
			"projected_item_bytes": 146, "response_bytes": 1460, "reads_per_second": 20,
		}],
		"cost": {},
	},
	overrides,
)

with_indexes(indexes) := fixtures.doc({"derived": {"vector_indexes": indexes}})

with_index(overrides) := with_indexes([index("by_embedding", overrides)])

test_sound_multi_tenant_index_is_clean if {
	count(vectors.findings) == 0 with input as with_index({})
}

test_no_vector_index_is_clean if {
	count(vectors.findings) == 0 with input as fixtures.doc({"table": {"billing_mode": "PROVISIONED"}})
}

test_provisioned_table_is_an_error if {
	doc := object.union(with_index({}), {"table": {"billing_mode": "PROVISIONED"}})
	some f in vectors.findings with input as doc
	f.rule == "DK504"
	f.severity == "error"
	f.path == ["billing_mode"]
	contains(f.message, "by_embedding")
}

test_six_indexes_are_an_error if {
	doc := with_indexes([index(sprintf("i%d", [i]), {}) | some i in numbers.range(1, 6)])
	some f in vectors.findings with input as doc
	f.rule == "DK505"
	f.message == "6 vector indexes: a table has at most 5"
}

test_five_indexes_pass if {
	doc := with_indexes([index(sprintf("i%d", [i]), {}) | some i in numbers.range(1, 5)])
	not "DK505" in fixtures.ids(vectors.findings) with input as doc
}

test_dimensions_out_of_range if {
	some f in vectors.findings with input as with_index({"dimensions": 8192})
	f.rule == "DK506"
	f.message == `vector index "by_embedding" has 8,192 dimensions: DynamoDB takes 1 to 4,096`
	f.path == ["vector_indexes", "by_embedding", "dimensions"]
}

test_dimensions_unknown_stay_silent if {
	count(vectors.findings) == 0 with input as with_index({"dimensions": null})
}

test_mismatched_dimensions if {
	some f in vectors.findings with input as with_index({"shared_dimensions": ["by_title"]})
	f.rule == "DK506"
	contains(f.message, `which 1 index(es) by_title read with other dimensions`)
}

test_top_k_500_is_an_error if {
	search := object.union(index("x", {}).searches[0], {"top_k": 500, "response_bytes": 73000})
	some f in vectors.findings with input as with_index({"searches": [search]})
	f.rule == "DK507"
	f.message == `pattern "similar" asks vector index "by_embedding" for top_k 500: a search returns 1 to 100`
	f.path == ["access_patterns", "similar", "vector_search", "top_k"]
}

test_hot_tenant_is_an_error_with_the_values_needed if {
	doc := with_index({
		"hash_values": 2, "write_bytes_per_second": 21210000, "hot_hash_write_bytes_per_second": 10605000,
		"hash_values_needed": 3,
	})
	some f in vectors.findings with input as doc
	f.rule == "DK508"
	f.message == concat("", [
		`vector index "by_embedding" writes 10.1 MB/s of vectors to its busiest HASH value, written by entity "doc" `,
		"(a value takes 10 MB/s; 8 MB/s at target_utilization 0.8): its 20.2 MB/s of writes need at least 3 evenly used ",
		"HASH values, it has 2",
	])
	f.path == ["vector_indexes", "by_embedding", "partition_key"]
}

test_hot_hash_unknown_traffic_stays_silent if {
	doc := with_index({"hot_hash_write_bytes_per_second": null, "write_bytes_per_second": null, "hash_values_needed": null})
	count(vectors.findings) == 0 with input as doc
}

test_unique_hash_warns if {
	doc := with_index({"hash_unique_per_item": true, "hash_unique_entities": ["doc"], "hash_values": null})
	some f in vectors.findings with input as doc
	f.rule == "DK509"
	f.severity == "warning"
	contains(f.message, `renders a value per item (entity "doc")`)
}

test_boolean_hash_warns if {
	some f in vectors.findings with input as with_index({"hash_values": 2})
	f.rule == "DK509"
	f.severity == "warning"
	contains(f.message, "of 2 value(s)")
}

test_index_without_hash_is_not_few_valued if {
	doc := with_index({"partition_key": null, "hash_values": 1, "hash_values_basis": "no_hash"})
	count(vectors.findings) == 0 with input as doc
}

test_entity_without_hash_warns if {
	note := {
		"entity": "note", "has_hash": false, "member": false, "hash_template": "", "projected_bytes": 70,
		"write_bytes_per_item": 4166, "writes_per_second": null, "write_bytes_per_second": null, "hot_hash_share": null,
		"path": ["entities", "note"],
	}
	doc := with_index({"entities": array.concat(index("x", {}).entities, [note])})
	some f in vectors.findings with input as doc
	f.rule == "DK510"
	f.path == ["entities", "note"]
	f.message == concat("", [
		`entity "note" carries vector attribute "embedding" but no template of vector index "by_embedding"'s HASH "tenant_id": `,
		"its items are written and never indexed",
	])
}

test_response_over_16_mb_is_an_error if {
	search := object.union(index("x", {}).searches[0], {"top_k": 100, "projected_item_bytes": 204800, "response_bytes": 20480000})
	some f in vectors.findings with input as with_index({"projection_type": "ALL", "searches": [search]})
	f.rule == "DK511"
	f.message == `pattern "similar" returns up to 19.5 MB per search of vector index "by_embedding" (top_k 100 × 204,800 bytes projected): a response holds 16 MB`
}

test_search_without_hash_is_an_error if {
	search := object.union(index("x", {}).searches[0], {"hash_given": false})
	some f in vectors.findings with input as with_index({"searches": [search]})
	f.rule == "DK512"
	f.path == ["access_patterns", "similar", "vector_search", "index"]
}

test_main_gathers_the_vector_rules if {
	doc := object.union(with_index({"dimensions": 0}), {"table": {"billing_mode": "PROVISIONED"}})
	{"DK504", "DK506"} == {f.rule | some f in data.dynamokeys.errors; startswith(f.rule, "DK5")} with input as doc
}
