package dynamokeys.rules.entities_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.entities

entity(name, overrides) := object.union(
	{
		"name": name, "keys": {"PK": "CUSTOMER#{customer_id}", "SK": "PROFILE"}, "indexes": [], "index_keys": [],
		"item_size_bytes": 1024, "write_units_per_write": 1, "write_units": null, "read_units": null,
		"hot_key_share": 0, "max_bytes": {"PK": 35, "SK": 7}, "collection": 0,
	},
	overrides,
)

with_entities(items, collisions) := fixtures.doc({
	"table": {"partition_key": {"name": "PK", "type": "S", "template": "CUSTOMER#{customer_id}"}, "sort_key": {"name": "SK", "type": "S", "template": "PROFILE"}},
	"segments": {"customer_id": {"name": "customer_id", "kind": "id"}, "status": {"name": "status", "kind": "enum", "values": ["OPEN"]}},
	"derived": {"entities": {
		"items": items, "collisions": collisions, "busiest": 0, "id_characters": "any but #",
		"collections": [{"entities": [e.name | some e in items], "write_units": null, "read_units": null, "items_per_key": null, "bytes": null}],
	}},
})

test_distinct_entities_have_no_finding if {
	order := entity("order", {"keys": {"PK": "CUSTOMER#{customer_id}", "SK": "ORDER#{order_id}"}})
	count(entities.errors) == 0 with input as with_entities([entity("customer", {}), order], [])
}

test_a_collision_names_both_entities_and_an_example if {
	doc := with_entities([entity("order", {}), entity("invoice", {})], [{"entities": ["invoice", "order"], "example": `PK="CUSTOMER#0", SK="ORDER#0"`}])
	some f in entities.errors with input as doc
	f.rule == "DK109"
	f.severity == "error"
	f.path == ["entities", "order", "keys"]
	contains(f.message, `entities "invoice" and "order" can write the same primary key (for example PK="CUSTOMER#0", SK="ORDER#0")`)
}

test_a_number_index_key_needs_digits if {
	key := {"index": "GSI1", "attribute": "GSI1SK", "type": "N", "template": "TOTAL#{status}", "literals": ["TOTAL#"], "segments": ["status"]}
	doc := with_entities([entity("order", {"index_keys": [key]})], [])
	found := {[f.rule, f.path[3], contains(f.message, "literal text \"TOTAL#\"")] | some f in entities.errors with input as doc}
	found == {["DK111", "GSI1SK", true], ["DK111", "GSI1SK", false]}
}

test_a_numeric_template_for_a_number_index_key_passes if {
	key := {"index": "GSI1", "attribute": "GSI1SK", "type": "N", "template": "{total}", "literals": [], "segments": ["total"]}
	doc := json.patch(with_entities([entity("order", {"index_keys": [key]})], []), [{"op": "add", "path": "/segments/total", "value": {"name": "total", "kind": "number"}}])
	count(entities.errors) == 0 with input as doc
}

test_an_entity_key_too_long_is_dk102_on_the_entity if {
	doc := with_entities([entity("order", {"max_bytes": {"PK": 4000, "SK": 7}})], [])
	some f in data.dynamokeys.findings with input as doc
	f.rule == "DK102"
	f.path == ["entities", "order", "keys", "PK"]
}

# A design without entities never evaluates the area.
test_the_area_is_skipped_without_entities if {
	not "DK109" in {f.rule | some f in data.dynamokeys.findings} with input as fixtures.base
}
