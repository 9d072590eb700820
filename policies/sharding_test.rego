package dynamokeys.rules.sharding_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.sharding

sharded := fixtures.doc({
	"table": {"partition_key": {"name": "pk", "type": "S", "template": "DAY#{day}#SHARD#{shard}"}},
	"sharding": {"strategy": "calculated", "source": "order_id", "count": null, "scheme_version": 1},
	"derived": {
		"shard_count": 4, "required_shards": 4,
		"partition_key": {"placeholders": ["day", "shard"], "has_shard": true, "has_time_bucket": true},
	},
})

test_calculated_sharding_passes if {
	count(sharding.findings) == 0 with input as sharded
}

test_random_sharding_warns if {
	doc := object.union(sharded, {"sharding": {"strategy": "random", "source": ""}})
	some f in sharding.findings with input as doc
	f.rule == "DK401"
	f.severity == "warning"
	contains(f.message, "4 shards")
}

prior_of(doc) := object.union(doc, {"prior": doc})

test_count_change_without_version_bump_is_error if {
	doc := object.union(prior_of(sharded), {"derived": {"shard_count": 8}})
	some f in sharding.findings with input as doc
	f.rule == "DK402"
	f.path == ["sharding", "scheme_version"]
	contains(f.message, "from 4 to 8")
}

test_computed_count_change_says_to_pin_the_count if {
	doc := object.union(prior_of(sharded), {"derived": {"shard_count": 8}})
	some f in sharding.findings with input as doc
	f.message == concat("", [
		"the shard count changes from 4 to 8 while scheme_version stays 1: existing items would be looked up in the wrong shard; ",
		"the count is computed from traffic (sharding.count is not set): pin sharding.count = 4 to keep the scheme, or bump scheme_version to migrate",
	])
	contains(f.remediation, "pin sharding.count")
}

test_pinned_count_change_has_no_pin_hint if {
	pinned := object.union(sharded, {"sharding": {"count": 4}})
	doc := object.union_n([pinned, {"prior": pinned}, {"sharding": {"count": 8}, "derived": {"shard_count": 8}}])
	some f in sharding.findings with input as doc
	f.message == "the shard count changes from 4 to 8 while scheme_version stays 1: existing items would be looked up in the wrong shard"
}

test_count_change_with_version_bump_passes if {
	doc := object.union(prior_of(sharded), {"derived": {"shard_count": 8}, "sharding": {"scheme_version": 2}})
	not "DK402" in fixtures.ids(sharding.findings) with input as doc
}

test_source_change_without_version_bump_is_error if {
	doc := object.union_n([prior_of(sharded), {"sharding": {"source": "customer_id"}}, {"derived": {"sort_key": {"placeholders": ["customer_id"]}}}])
	"DK402" in fixtures.ids(sharding.findings) with input as doc
}

test_unchanged_scheme_passes if {
	not "DK402" in fixtures.ids(sharding.findings) with input as prior_of(sharded)
}

test_scheme_change_silent_when_count_unknown if {
	doc := object.union(prior_of(sharded), {"derived": {"shard_count": 8}, "unknown": ["derived.shard_count"]})
	not "DK402" in fixtures.ids(sharding.findings) with input as doc
}

test_sharding_without_placeholder_is_error if {
	doc := object.union(sharded, {"derived": {"partition_key": {"has_shard": false}}})
	some f in sharding.findings with input as doc
	f.rule == "DK403"
	f.path == ["partition_key", "template"]
}

test_placeholder_without_sharding_is_error if {
	doc := object.union(sharded, {"sharding": {"strategy": "none"}})
	some f in sharding.findings with input as doc
	f.rule == "DK403"
	f.path == ["sharding", "strategy"]
}

test_101_shards_warn if {
	doc := object.union(sharded, {"derived": {"shard_count": 101, "required_shards": 100}})
	"DK404" in fixtures.ids(sharding.findings) with input as doc
}

test_100_shards_that_traffic_needs_pass if {
	doc := object.union(sharded, {"derived": {"shard_count": 100, "required_shards": 100}})
	not "DK404" in fixtures.ids(sharding.findings) with input as doc
}

test_shards_over_four_times_need_warn if {
	doc := object.union(sharded, {"derived": {"shard_count": 17, "required_shards": 4}})
	some f in sharding.findings with input as doc
	f.rule == "DK404"
	contains(f.message, "4.3×")
}

test_shards_at_four_times_need_pass if {
	doc := object.union(sharded, {"derived": {"shard_count": 16, "required_shards": 4}})
	not "DK404" in fixtures.ids(sharding.findings) with input as doc
}

test_calculated_without_source_is_error if {
	doc := object.union(sharded, {"sharding": {"source": ""}})
	some f in sharding.findings with input as doc
	f.rule == "DK405"
	f.path == ["sharding", "source"]
}

test_source_outside_keys_is_error if {
	doc := object.union(sharded, {"sharding": {"source": "tenant"}})
	"DK405" in fixtures.ids(sharding.findings) with input as doc
}

test_source_in_partition_key_is_error if {
	doc := object.union(sharded, {"sharding": {"source": "day"}})
	some f in sharding.findings with input as doc
	f.rule == "DK405"
	contains(f.message, "hash to one shard")
}

test_imported_table_without_recorded_design_is_not_a_scheme_change if {
	prior := object.union(fixtures.base, {"unknown": ["sharding", "derived.shard_count"]})
	doc := object.union(sharded, {"prior": prior})
	not "DK402" in fixtures.ids(sharding.findings) with input as doc
}
