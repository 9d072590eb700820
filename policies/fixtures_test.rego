# METADATA
# title: Test fixtures
# description: A clean design document (contributing/design-document.md) that tests override with object.union.
package dynamokeys.fixtures

segment_id := {"kind": "id", "cardinality": null, "max_length": 64, "min_length": 1, "monotonic": false}

base := {
	"kind": "keydesign",
	"address": "data.dynamokeys_keydesign.test",
	"table": {
		"name": "orders",
		"billing_mode": "PAY_PER_REQUEST",
		"read_capacity": null,
		"write_capacity": null,
		"partition_key": {"name": "pk", "type": "S", "template": "CUSTOMER#{customer_id}"},
		"sort_key": {"name": "sk", "type": "S", "template": "ORDER#{order_id}"},
		"lsis": [],
		"gsis": [],
	},
	"segments": {
		"customer_id": object.union(segment_id, {"name": "customer_id"}),
		"order_id": object.union(segment_id, {"name": "order_id"}),
	},
	"sharding": {"strategy": "none", "source": "", "count": null, "scheme_version": 1},
	"traffic": {
		"writes_per_second": 100, "reads_per_second": 200, "item_size_bytes": 1024,
		"read_consistency": "eventual", "transactional_writes": false, "hot_key_share": null,
		"hottest_item_writes_per_second": null, "hottest_item_reads_per_second": null,
		"max_items_per_partition_key": 1000,
	},
	"target_utilization": 0.8,
	"derived": {
		"capacity": {
			"write_units_per_write": 1, "read_units_per_read": 0.5,
			"peak_write_units": 100, "peak_read_units": 100,
			"hot_key_share": 0, "hot_key_share_source": "key_cardinality",
			"hot_key_write_units": 0, "hot_key_read_units": 0,
			"per_shard_write_units": 0, "per_shard_read_units": 0, "read_fanout": 1,
			"hottest_item_write_units": null, "hottest_item_read_units": null,
		},
		"required_shards": 1,
		"shard_count": 1,
		"shard_width": 1,
		"routing": {"algorithm": "none", "count": 1, "width": 1, "source": "", "scheme_version": 1},
		"partition_key": {
			"template": "CUSTOMER#{customer_id}", "placeholders": ["customer_id"], "literals": ["CUSTOMER#"],
			"segments": [{"name": "customer_id", "kind": "id", "cardinality": null, "max_length": 64, "monotonic": false}],
			"has_shard": false, "has_time_bucket": false, "max_bytes": 73, "min_bytes": 10, "cardinality": null, "monotonic": false,
		},
		"sort_key": {
			"template": "ORDER#{order_id}", "placeholders": ["order_id"], "literals": ["ORDER#"],
			"segments": [{"name": "order_id", "kind": "id", "cardinality": null, "max_length": 64, "monotonic": false}],
			"has_shard": false, "has_time_bucket": false, "max_bytes": 70, "min_bytes": 7, "cardinality": null, "monotonic": false,
		},
		"partition_key_max_bytes": 73,
		"partition_key_segments": [{"name": "customer_id", "kind": "id", "cardinality": null, "max_length": 64, "monotonic": false}],
		"has_time_bucket": false,
		"undeclared_placeholders": [],
		"key_attributes": [
			{"path": ["partition_key"], "name": "pk", "name_bytes": 2, "type": "S"},
			{"path": ["sort_key"], "name": "sk", "name_bytes": 2, "type": "S"},
		],
		"conventions": {"delimiters": ["#"], "letter_cases": ["upper"]},
		"collection": {"items_per_key": 1000, "basis": "given", "entry_bytes": 1024, "bytes": 1024000},
		"projected_non_key_attributes": 0,
		"access_patterns": [],
	},
	"prior": null,
	"unknown": [],
	"access_patterns": [],
}

# doc is the base document with overrides merged in (objects merge, arrays replace).
doc(overrides) := object.union(base, overrides)

lsi(name) := {"name": name, "sort_key": {"name": "created", "type": "S", "cardinality": null}, "projection_type": "ALL", "non_key_attributes": []}

gsi(name) := {
	"name": name, "partition_key": [{"name": "customerId", "type": "S", "cardinality": null}], "sort_key": [],
	"projection_type": "ALL", "non_key_attributes": [], "read_capacity": null, "write_capacity": null,
	"partition_key_cardinality": null, "time_bucketed": false, "hot_partition_write_units": null,
}

# ids lists the rule ids of a findings set.
ids(findings) := {f.rule | some f in findings}

# severities lists the severities of one rule's findings.
severities(findings, id) := {f.severity | some f in findings; f.rule == id}

n_items(n) := [i | some i in numbers.range(1, n)]
