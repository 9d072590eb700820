package dynamokeys.rules.hot_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.hot

daily := fixtures.doc({
	"table": {"partition_key": {"name": "pk", "type": "S", "template": "DAY#{day}"}},
	"derived": {"partition_key": {"has_time_bucket": true, "has_shard": false, "cardinality": null}},
})

daily_with(capacity, required) := object.union(daily, {"derived": {"capacity": capacity, "required_shards": required}})

test_clean_design_has_no_hot_findings if {
	count(hot.findings) == 0 with input as fixtures.base
}

test_time_bucket_over_partition_is_error_naming_shards if {
	doc := daily_with({"hot_key_write_units": 2500, "per_shard_write_units": 2500}, 4)
	some f in hot.findings with input as doc
	f.rule == "DK301"
	f.severity == "error"
	contains(f.message, "2,500 WCU")
	contains(f.message, "at least 4")
}

test_time_bucket_under_partition_warns if {
	doc := daily_with({"hot_key_write_units": 1000, "hot_key_read_units": 3000, "per_shard_write_units": 1000}, 2)
	fixtures.severities(hot.findings, "DK301") == {"warning"} with input as doc
}

test_time_bucket_with_shard_passes if {
	doc := object.union(daily, {"derived": {"partition_key": {"has_shard": true}}})
	not "DK301" in fixtures.ids(hot.findings) with input as doc
}

test_time_bucket_silent_when_template_unknown if {
	doc := object.union(daily, {"unknown": ["partition_key.template"]})
	not "DK301" in fixtures.ids(hot.findings) with input as doc
}

test_status_partition_key_warns if {
	doc := fixtures.doc({"derived": {"partition_key": {"cardinality": 4}}})
	some f in hot.findings with input as doc
	f.rule == "DK302"
	f.severity == "warning"
	contains(f.message, "only 4")
}

test_99_values_warn if {
	"DK302" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"partition_key": {"cardinality": 99}}})
}

test_100_values_pass if {
	not "DK302" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"partition_key": {"cardinality": 100}}})
}

test_1000_wcu_per_shard_passes if {
	not "DK303" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 1000}}})
}

test_1001_wcu_per_shard_is_error_naming_shards if {
	doc := fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 1001}, "required_shards": 2}})
	some f in hot.findings with input as doc
	f.rule == "DK303"
	f.severity == "error"
	contains(f.message, "at least 2 shards")
	f.path == ["partition_key", "template"]
}

test_global_hot_key_says_the_demand_is_global if {
	regions := [{"region": "us-east-1"}, {"region": "eu-west-1"}, {"region": "ap-northeast-1"}]
	doc := fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 1800, "per_shard_read_units": 3001}, "required_shards": 3, "replicas": {"regions": regions}}})
	messages := {f.message | some f in hot.findings; f.rule == "DK303"} with input as doc
	count(messages) == 2
	some write in messages
	contains(write, "1,800 WCU per shard across 1 shard(s) (global: each of the 3 replica Regions performs every Region's writes)")
	some read in messages
	contains(read, "3,001 RCU per shard across 1 shard(s); a partition")
}

test_single_region_hot_key_has_no_global_note if {
	doc := fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 1800}, "required_shards": 3}})
	some f in hot.findings with input as doc
	f.message == "the busiest key needs 1,800 WCU per shard across 1 shard(s); a partition serves 1,000: use at least 3 shards"
}

test_sharded_hot_key_points_at_count if {
	doc := fixtures.doc({"sharding": {"strategy": "calculated"}, "derived": {"capacity": {"per_shard_write_units": 1500}, "shard_count": 2, "required_shards": 4}})
	some f in hot.findings with input as doc
	f.rule == "DK303"
	f.path == ["sharding", "count"]
}

test_3001_rcu_per_shard_is_error if {
	"DK303" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"capacity": {"per_shard_read_units": 3001}}})
}

test_3000_rcu_per_shard_passes if {
	not "DK303" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"capacity": {"per_shard_read_units": 3000}}})
}

test_hot_key_silent_when_capacity_unknown if {
	doc := fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 5000}}, "unknown": ["derived.capacity"]})
	not "DK303" in fixtures.ids(hot.findings) with input as doc
}

test_hot_item_writes_are_error if {
	doc := fixtures.doc({"derived": {"capacity": {"hottest_item_write_units": 1001}}})
	some f in hot.findings with input as doc
	f.rule == "DK304"
	f.path == ["traffic", "hottest_item_writes_per_second"]
}

test_hot_item_reads_are_error if {
	"DK304" in fixtures.ids(hot.findings) with input as fixtures.doc({"derived": {"capacity": {"hottest_item_read_units": 3001}}})
}

test_hot_item_at_limit_passes if {
	doc := fixtures.doc({"derived": {"capacity": {"hottest_item_write_units": 1000, "hottest_item_read_units": 3000}}})
	not "DK304" in fixtures.ids(hot.findings) with input as doc
}

test_monotonic_sort_key_under_busy_key_warns if {
	doc := fixtures.doc({"derived": {"sort_key": {"monotonic": true}, "capacity": {"per_shard_write_units": 625}}})
	some f in hot.findings with input as doc
	f.rule == "DK305"
	contains(f.message, "62.5%")
}

test_monotonic_sort_key_under_quiet_key_passes if {
	doc := fixtures.doc({"derived": {"sort_key": {"monotonic": true}, "capacity": {"per_shard_write_units": 499}}})
	not "DK305" in fixtures.ids(hot.findings) with input as doc
}

with_gsi(overrides, peak) := object.union(
	fixtures.doc({"table": {"gsis": [object.union(fixtures.gsi("by_state"), overrides)]}}),
	{"derived": {"capacity": {"peak_write_units": peak}}},
)

gsi_findings(warnings) := {[f.rule, f.severity, f.path[1]] | some f in warnings; f.path[0] == "global_secondary_indexes"}

test_gsi_named_like_a_status_warns_dk302_with_the_gsi_remedy if {
	doc := with_gsi({"partition_key": [{"name": "orderStatus", "type": "S", "cardinality": null}]}, null)
	some f in hot.warnings with input as doc
	f.rule == "DK302"
	f.path == ["global_secondary_indexes", "by_state", "partition_key"]
	f.message == concat("", [
		"GSI \"by_state\" has a partition key with few distinct values (\"orderStatus\", named like a status, type, level, role or flag): ",
		"the index's writes and reads concentrate on few partitions, and a throttled index throttles writes to the table",
	])
	startswith(f.remediation, "Add a high-cardinality attribute (an id) or a shard attribute")
	not contains(f.remediation, "to a GSI")
}

test_gsi_named_like_a_date_warns_dk301 if {
	doc := with_gsi({"partition_key": [{"name": "eventDate", "type": "S", "cardinality": null}]}, null)
	gsi_findings(hot.warnings) == {["DK301", "warning", "by_state"]} with input as doc
}

test_gsi_status_and_date_attributes_is_a_time_bucket if {
	keys := [{"name": "status", "type": "S", "cardinality": null}, {"name": "day", "type": "S", "cardinality": null}]
	gsi_findings(hot.warnings) == {["DK301", "warning", "by_state"]} with input as with_gsi({"partition_key": keys}, null)
}

test_gsi_with_one_high_cardinality_attribute_passes if {
	keys := [{"name": "status", "type": "S", "cardinality": null}, {"name": "customerId", "type": "S", "cardinality": null}]
	gsi_findings(hot.warnings) == set() with input as with_gsi({"partition_key": keys}, null)
}

test_gsi_stated_low_cardinality_without_writes_warns_dk302 if {
	doc := with_gsi({"partition_key": [{"name": "region", "type": "S", "cardinality": 5}], "partition_key_cardinality": 5}, null)
	some f in hot.warnings with input as doc
	f.rule == "DK302"
	contains(f.message, "(5 value(s))")
}

test_gsi_stated_high_cardinality_overrides_its_name if {
	keys := [{"name": "status", "type": "S", "cardinality": 1000000}]
	gsi_findings(hot.warnings) == set() with input as with_gsi({"partition_key": keys, "partition_key_cardinality": 1000000}, null)
}

test_gsi_time_bucketed_without_writes_warns_dk301 if {
	gsi_findings(hot.warnings) == {["DK301", "warning", "by_state"]} with input as with_gsi({"time_bucketed": true}, null)
}

test_gsi_hot_under_writes_is_left_to_dk501 if {
	doc := with_gsi({"partition_key": [{"name": "status", "type": "S", "cardinality": 4}], "partition_key_cardinality": 4}, 100)
	gsi_findings(hot.warnings) == set() with input as doc
}

test_gsi_with_unknown_partition_key_stays_silent if {
	doc := object.union(
		with_gsi({"partition_key": [{"name": "status", "type": "S", "cardinality": null}]}, null),
		{"unknown": ["global_secondary_indexes.by_state"]},
	)
	gsi_findings(hot.warnings) == set() with input as doc
}

test_global_hot_item_says_the_writes_are_global if {
	regions := [{"region": "us-east-1"}, {"region": "eu-west-1"}]
	doc := fixtures.doc({"derived": {"capacity": {"hottest_item_write_units": 1200}, "replicas": {"regions": regions}}})
	some f in hot.findings with input as doc
	f.rule == "DK304"
	startswith(f.message, "one item takes 1,200 WCU (global: each of the 2 replica Regions performs every Region's writes); a partition")
}
