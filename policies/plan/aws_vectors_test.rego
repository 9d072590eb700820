package dynamokeys.plan_aws_vectors_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

# The shapes of terraform-provider-aws PR #49375: vector_attribute an object, projection and search_schema
# block lists, a search_schema element's kind in type.
table_change(address, name, billing_mode, range_key) := {
	"address": address, "mode": "managed", "type": "aws_dynamodb_table", "name": split(address, ".")[1],
	"change": {"actions": ["create"], "before": null, "after_unknown": {}, "after": {
		"name": name, "hash_key": "docId", "range_key": range_key, "billing_mode": billing_mode,
		"attribute": [{"name": "docId", "type": "S"}], "global_secondary_index": [], "local_secondary_index": [],
	}},
}

vector_change(address, table_name, index_name, attribute, dimensions, schema) := {
	"address": address, "mode": "managed", "type": "aws_dynamodb_vector_index", "name": split(address, ".")[1],
	"change": {"actions": ["create"], "before": null, "after_unknown": {"arn": true}, "after": {
		"table_name": table_name, "index_name": index_name, "dimensions": dimensions, "distance_function": "COSINE",
		"vector_attribute": {"attribute_name": attribute},
		"projection": [{"projection_type": "KEYS_ONLY", "non_key_attributes": null}],
		"search_schema": [{"attribute_name": s[0], "attribute_type": s[1], "type": s[2]} | some s in schema],
	}},
}

docs := table_change("aws_dynamodb_table.docs", "docs", "PAY_PER_REQUEST", "chunk")

by_tenant := vector_change(
	"aws_dynamodb_vector_index.by_tenant", "docs", "by_tenant", "embedding", 1024,
	[["tenantId", "S", "HASH"], ["category", "S", "INLINE_FILTER"]],
)

ids(plan_input) := found if {
	# regal ignore:with-outside-test-context
	results := conftest.deny | conftest.warn with input as plan_input
	found := {[r.rule, r.address] | some r in results; r.rule}
}

test_vector_index_joins_its_table_by_name if {
	joined := {"resource_changes": [docs, by_tenant]}
	doc := plan.documents["aws_dynamodb_table.docs"] with input as joined
	[v] := doc.derived.vector_indexes
	v.name == "by_tenant"
	v.path == ["vector_indexes", "by_tenant"]
	v.vector_attribute == "embedding"
	v.dimensions == 1024
	v.vector_bytes == 4096
	v.distance_function == "COSINE"
	v.partition_key == {"name": "tenantId", "type": "S"}
	v.inline_filters == [{"name": "category", "type": "S"}]
	v.projection_type == "KEYS_ONLY"
	v.non_key_attributes == []
	v.hash_values == null
	v.hash_values_basis == "unknown"
	v.hash_unique_per_item == false
	v.entities == []
	v.hot_hash_write_bytes_per_second == null
	not "aws_dynamodb_vector_index.by_tenant" in object.keys(plan.documents) with input as joined

	# A sound index on an on-demand table with a sort key: nothing to say.
	ids(joined) == set()
}

test_vector_index_on_a_provisioned_table if {
	joined := {"resource_changes": [table_change("aws_dynamodb_table.docs", "docs", "PROVISIONED", "chunk"), by_tenant]}
	ids(joined) == {["DK504", "aws_dynamodb_table.docs"]}
}

test_six_vector_indexes if {
	six := {"resource_changes": array.concat([docs], [vector_change(sprintf("aws_dynamodb_vector_index.v%d", [i]), "docs", sprintf("v%d", [i]), sprintf("e%d", [i]), 8, []) |
		some i in numbers.range(1, 6)
	])}
	ids(six) == {["DK505", "aws_dynamodb_table.docs"]}
	doc := plan.documents["aws_dynamodb_table.docs"] with input as six
	[v.name | some v in doc.derived.vector_indexes] == ["v1", "v2", "v3", "v4", "v5", "v6"]
	[v.hash_values_basis | some v in doc.derived.vector_indexes; v.hash_values == 1] == ["no_hash", "no_hash", "no_hash", "no_hash", "no_hash", "no_hash"]
}

test_dimensions_out_of_range_and_mismatched_carry_the_index_address if {
	mismatched := {"resource_changes": [
		docs, by_tenant,
		vector_change("aws_dynamodb_vector_index.small", "docs", "small", "embedding", 256, []),
		vector_change("aws_dynamodb_vector_index.huge", "docs", "huge", "big", 8192, []),
	]}
	ids(mismatched) == {
		["DK506", "aws_dynamodb_vector_index.by_tenant"], ["DK506", "aws_dynamodb_vector_index.small"],
		["DK506", "aws_dynamodb_vector_index.huge"],
	}
	doc := plan.documents["aws_dynamodb_table.docs"] with input as mismatched
	{v.name: v.shared_dimensions | some v in doc.derived.vector_indexes} == {"by_tenant": ["small"], "small": ["by_tenant"], "huge": []}
}

# A HASH that is the partition key of a table without a sort key holds one item, one vector, per value.
test_hash_equal_to_the_only_table_key if {
	unique := {"resource_changes": [
		table_change("aws_dynamodb_table.docs", "docs", "PAY_PER_REQUEST", null),
		vector_change("aws_dynamodb_vector_index.by_doc", "docs", "by_doc", "embedding", 1024, [["docId", "S", "HASH"]]),
	]}
	ids(unique) == {["DK509", "aws_dynamodb_vector_index.by_doc"]}
	[w] := [w.msg | some w in conftest.warn; w.rule == "DK509"] with input as unique
	contains(w, "the table's items")

	# With a sort key the table's key is the pair: a docId holds many items.
	keyed := {"resource_changes": [
		docs,
		vector_change("aws_dynamodb_vector_index.by_doc", "docs", "by_doc", "embedding", 1024, [["docId", "S", "HASH"]]),
	]}
	ids(keyed) == set()
}

# The join follows table_name = aws_dynamodb_table.docs.name when the name is known only after apply.
test_vector_index_traced_through_configuration if {
	traced := {
		"resource_changes": [
			table_change("aws_dynamodb_table.docs", null, "PROVISIONED", "chunk"),
			json.patch(by_tenant, [
				{"op": "replace", "path": "/change/after/table_name", "value": null},
				{"op": "replace", "path": "/change/after_unknown", "value": {"table_name": true}},
			]),
		],
		"configuration": {"root_module": {"resources": [
			{"address": "aws_dynamodb_table.docs", "type": "aws_dynamodb_table"},
			{"address": "aws_dynamodb_vector_index.by_tenant", "type": "aws_dynamodb_vector_index", "expressions": {
				"table_name": {"references": ["aws_dynamodb_table.docs.name", "aws_dynamodb_table.docs"]},
			}},
		]}},
	}
	[v.name | some v in plan.documents["aws_dynamodb_table.docs"].derived.vector_indexes] == ["by_tenant"] with input as traced
	["DK504", "aws_dynamodb_table.docs"] in ids(traced)
}

# A vector index whose table is not in the plan is checked alone, and a warning says what that leaves out.
test_lone_vector_index if {
	lone := {"resource_changes": [vector_change("aws_dynamodb_vector_index.big", "elsewhere", "big", "embedding", 5000, [["docId", "S", "HASH"]])]}
	doc := plan.documents["aws_dynamodb_vector_index.big"] with input as lone
	doc.kind == "aws_dynamodb_vector_index"
	[v.name | some v in doc.derived.vector_indexes] == ["big"]
	denied := {[d.rule, d.address] | some d in conftest.deny} with input as lone
	denied == {["DK506", "aws_dynamodb_vector_index.big"]}
	[w] := [w.msg | some w in conftest.warn; w.address == "aws_dynamodb_vector_index.big"] with input as lone
	contains(w, `the table "elsewhere" of aws_dynamodb_vector_index.big is not in this plan`)
}

# Dimensions or a search schema known only after apply are not judged, and the document says so.
test_unknown_values_stay_silent if {
	unknown := {"resource_changes": [
		table_change("aws_dynamodb_table.docs", "docs", "PAY_PER_REQUEST", null),
		json.patch(
			vector_change("aws_dynamodb_vector_index.by_doc", "docs", "by_doc", "embedding", null, []),
			[{"op": "replace", "path": "/change/after_unknown", "value": {"dimensions": true, "search_schema": true}}],
		),
	]}
	doc := plan.documents["aws_dynamodb_table.docs"] with input as unknown
	[v] := doc.derived.vector_indexes
	v.dimensions == null
	v.partition_key == null
	"vector_indexes.by_doc" in doc.unknown
	ids(unknown) == set()
}

# An index that existed joins the table's prior as well: only one the plan creates is new to a live table.
test_existing_vector_index_is_not_created_again if {
	live_table := json.patch(docs, [
		{"op": "replace", "path": "/change/actions", "value": ["update"]},
		{"op": "replace", "path": "/change/before", "value": docs.change.after},
	])
	existing := json.patch(by_tenant, [
		{"op": "replace", "path": "/change/actions", "value": ["no-op"]},
		{"op": "replace", "path": "/change/before", "value": by_tenant.change.after},
	])
	not ["DK009", "aws_dynamodb_vector_index.by_tenant"] in ids({"resource_changes": [live_table, existing]})
	created := ids({"resource_changes": [live_table, by_tenant]})
	["DK009", "aws_dynamodb_vector_index.by_tenant"] in created
}

# The API's name of a search schema element's kind, key_type, is read as the provider's type is.
test_search_schema_key_type if {
	keyed := json.patch(by_tenant, [{"op": "replace", "path": "/change/after/search_schema", "value": [
		{"attribute_name": "tenantId", "attribute_type": "S", "key_type": "HASH"},
		{"attribute_name": "category", "attribute_type": "N", "key_type": "INLINE_FILTER"},
	]}])
	[v] := plan.documents["aws_dynamodb_table.docs"].derived.vector_indexes with input as {"resource_changes": [docs, keyed]}
	v.partition_key == {"name": "tenantId", "type": "S"}
	v.inline_filters == [{"name": "category", "type": "N"}]
}
