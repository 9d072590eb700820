package dynamokeys.rules.measured_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.measured

# observation is a measured table: 2,500 write and 3,000 read units/s at peak over three hours, with the
# facts Go derives for the base design (unsharded, declared 100 WCU and 100 RCU).
observation := {
	"table_name": "orders", "index_name": "",
	"traffic": {"writes_per_second": 2500, "reads_per_second": 3000, "hot_key_share": 0.5},
	"top_keys": [{"key": "CUSTOMER#c-1001", "share": 0.4, "throttle_events": 0}],
	"throttle_events": {"read": 0, "write": 0},
	"window": {"start": "2026-11-30T09:00:00Z", "end": "2026-11-30T12:00:00Z", "datapoints": 180},
	"complete": true,
	"path": ["observed"],
	"measured": {
		"declared_write_units": 100, "declared_read_units": 100, "shard_count": 1,
		"hot_key_share_source": "measured", "hot_key": "CUSTOMER#c-1001",
		"hot_key_write_units": 1250, "hot_key_read_units": 1500, "required_shards": 2,
		"write_limit": {"units": 40000, "name": "the on-demand table quota", "path": []},
		"read_limit": {"units": 40000, "name": "the on-demand table quota", "path": []},
		"keys_outside_design": [], "throttled_keys": [], "throttle_events": 0,
	},
}

# calm is a measured table the design serves: below the declared traffic, no hot key, no throttling.
calm := object.union(observation, {
	"traffic": {"writes_per_second": 80, "reads_per_second": 90, "hot_key_share": 0.02},
	"measured": {"hot_key_write_units": 1.6, "hot_key_read_units": 1.8, "required_shards": 1},
})

with_observed(observations) := fixtures.doc({"observed": observations})

observed(overrides) := with_observed([object.union(observation, overrides)])

test_calm_observation_passes if {
	count(measured.findings) == 0 with input as with_observed([calm])
}

test_no_observation_passes if {
	count(measured.findings) == 0 with input as fixtures.base
}

test_unknown_observation_stays_silent if {
	doc := object.union(observed({}), {"unknown": ["observed"]})
	count(measured.findings) == 0 with input as doc
}

test_peak_needing_more_shards_is_error_on_traffic if {
	findings := measured.errors with input as observed({})
	some f in findings
	f.rule == "DK701"
	f.path == ["traffic", "writes_per_second"]
	f.message == concat("", [
		"the table measured a peak of 2,500 write units/s (2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z), the design declares 100 units/s; ",
		"at that peak the busiest key needs 2 shards and the table is written with 1",
	])
}

test_peak_above_declared_but_served_warns if {
	doc := with_observed([object.union(calm, {"traffic": {"writes_per_second": 150}})])
	findings := measured.findings with input as doc
	{[f.rule, f.severity, f.path] | some f in findings} == {["DK701", "warning", ["traffic", "writes_per_second"]]}
}

test_peak_above_provisioned_capacity_is_error_on_the_capacity if {
	doc := with_observed([object.union(calm, {
		"traffic": {"writes_per_second": 150},
		"measured": {"write_limit": {"units": 120, "name": "write_capacity", "path": ["write_capacity"]}},
	})])
	some f in measured.errors with input as doc
	f.rule == "DK701"
	f.path == ["write_capacity"]
	endswith(f.message, "the design declares 100 units/s and write_capacity allows 120")
}

test_undeclared_traffic_warns if {
	doc := object.union(with_observed([calm]), {"traffic": {"writes_per_second": null}, "derived": {"capacity": {"peak_write_units": null}}})
	doc2 := json.patch(doc, [{"op": "replace", "path": "/observed/0/measured/declared_write_units", "value": null}])
	some f in measured.warnings with input as doc2
	f.rule == "DK701"
	endswith(f.message, "the design declares none")
}

test_measured_hot_key_is_error_naming_key_and_shards if {
	doc := observed({"measured": {"declared_write_units": 5000, "declared_read_units": 5000}})
	findings := measured.findings with input as doc
	{f.rule | some f in findings} == {"DK702"}
	some f in findings
	f.path == ["sharding", "count"]
	contains(f.message, `the busiest key "CUSTOMER#c-1001" takes 50% of the measured peak`)
	contains(f.message, "needs 2 shards at target_utilization and the table is written with 1")
}

test_hot_key_from_the_design_share_is_not_a_measured_hot_key if {
	doc := observed({"measured": {
		"declared_write_units": 5000, "declared_read_units": 5000, "hot_key_share_source": "design", "hot_key": null,
		"hot_key_write_units": null, "hot_key_read_units": null,
	}})
	not "DK702" in fixtures.ids(measured.findings) with input as doc
}

test_hot_index_key_is_error_on_the_index if {
	index := object.union(calm, {
		"index_name": "by_status", "path": ["observed_indexes", "by_status"],
		"traffic": {"writes_per_second": 2500},
		"measured": {"declared_read_units": null, "declared_write_units": 2500, "hot_key": "shipped", "hot_key_write_units": 2000, "required_shards": 3},
	})
	some f in measured.errors with input as with_observed([index])
	f.rule == "DK702"
	f.path == ["global_secondary_indexes", "by_status"]
	contains(f.message, `the busiest key "shipped" of index by_status takes 2,000 WCU`)
	contains(f.message, "needs 3 partitions' throughput")
}

test_keys_outside_design_is_error_naming_keys if {
	doc := observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"keys_outside_design": [
		{"key": "customer#c-77", "reason": "its literal text does not follow the template"},
	]})})
	findings := measured.findings with input as doc
	{[f.rule, f.severity, f.path] | some f in findings} == {["DK703", "error", ["partition_key", "template"]]}
	some f in findings
	f.message == `1 measured key(s) cannot come from the template CUSTOMER#{customer_id}: "customer#c-77": its literal text does not follow the template`
}

test_keys_outside_design_lists_five_and_counts_the_rest if {
	keys := [{"key": sprintf("k%d", [i]), "reason": "r"} | some i in numbers.range(1, 7)]
	doc := observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"keys_outside_design": keys})})
	some f in measured.errors with input as doc
	endswith(f.message, `"k5": r and 2 more`)
}

test_keys_outside_design_silent_while_template_unknown if {
	doc := object.union(
		observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"keys_outside_design": [{"key": "x", "reason": "r"}]})}),
		{"unknown": ["partition_key.template"]},
	)
	not "DK703" in fixtures.ids(measured.findings) with input as doc
}

test_throttling_warns_with_keys if {
	doc := observed({
		"traffic": calm.traffic, "throttle_events": {"read": null, "write": 15243},
		"measured": object.union(calm.measured, {"throttle_events": 15243, "throttled_keys": ["CUSTOMER#c-1001", "CUSTOMER#c-9009"]}),
	})
	findings := measured.findings with input as doc
	{[f.rule, f.severity, f.path] | some f in findings} == {["DK704", "warning", ["observed"]]}
	some f in findings
	f.message == concat("", [
		"the table was throttled in the measured window (2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z): ",
		`0 read and 15,243 write throttle events; throttled keys "CUSTOMER#c-1001", "CUSTOMER#c-9009"`,
	])
}

test_throttled_keys_without_metrics_warn if {
	doc := observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"throttle_events": null, "throttled_keys": ["a"]})})
	some f in measured.warnings with input as doc
	f.rule == "DK704"
	contains(f.message, `throttle events not exported; throttled keys "a"`)
}

test_no_throttling_is_silent if {
	not "DK704" in fixtures.ids(measured.findings) with input as with_observed([calm])
}

test_entry_point_reports_measured_findings if {
	doc := observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"throttle_events": 3, "throttled_keys": []})})
	findings := data.dynamokeys.findings with input as doc
	"DK704" in {f.rule | some f in findings}
}

test_entry_point_skips_measured_rules_without_observations if {
	findings := data.dynamokeys.findings with input as fixtures.base
	every f in findings {
		not startswith(f.rule, "DK70")
	}
}
