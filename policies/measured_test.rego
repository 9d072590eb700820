package dynamokeys.rules.measured_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.measured

# observation is a measured table: 2,500 write and 3,000 read units/s at peak over three hours, the busiest
# key at 4,200 units/s at its busiest minute, with the facts Go derives for the base design (unsharded,
# declared 100 WCU and 100 RCU).
observation := {
	"table_name": "orders", "index_name": "",
	"traffic": {"writes_per_second": 2500, "reads_per_second": 3000, "hot_key_units_per_second": 4200, "hot_key_unit_share": 0.4},
	"top_keys": [{"key": "CUSTOMER#c-1001", "units_per_second": 4200, "throttle_events": 0}],
	"key_attributes": 1,
	"throttle_events": {"read": 0, "write": 0},
	"window": {"start": "2026-11-30T09:00:00Z", "end": "2026-11-30T12:00:00Z", "datapoints": 180},
	"complete": true,
	"path": ["observed"],
	"measured": {
		"declared_write_units": 100, "declared_read_units": 100, "shard_count": 1,
		"hot_key_source": "measured", "hot_key": "CUSTOMER#c-1001",
		"hot_key_units": 4200, "hot_key_partition_share": 1.4, "logical_key_units": 4200, "required_shards": 3,
		"write_limit": {"units": 40000, "name": "the on-demand table quota", "path": []},
		"read_limit": {"units": 40000, "name": "the on-demand table quota", "path": []},
		"keys_outside_design": [], "throttled_keys": [], "throttle_events": 0,
		"throttle_causes": [], "throttle_events_by_cause": 0, "key_figures": "accessed",
	},
}

# calm is a measured table the design serves: below the declared traffic, no hot key, no throttling.
calm := object.union(observation, {
	"traffic": {"writes_per_second": 80, "reads_per_second": 90, "hot_key_units_per_second": 12, "hot_key_unit_share": 0.02},
	"measured": {"hot_key_units": 12, "hot_key_partition_share": 0.004, "logical_key_units": 12, "required_shards": 1},
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
		"at that peak the busiest key needs 3 shards and the table is written with 1",
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

test_measured_hot_key_is_error_naming_key_units_and_shards if {
	doc := observed({"measured": {"declared_write_units": 5000, "declared_read_units": 5000}})
	findings := measured.findings with input as doc
	{f.rule | some f in findings} == {"DK702"}
	some f in findings
	f.path == ["sharding", "count"]
	f.message == concat("", [
		`the busiest key "CUSTOMER#c-1001" of the table took 4,200 units/s at its busiest minute `,
		"(2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z; units = 3 x WCU + RCU), 140% of a partition's 3,000 units/s ",
		"(1,000 WCU = 3,000 RCU): at target_utilization the key needs 3 shards and the table is written with 1",
	])
}

# A write-hot key of a read-heavy table: 950 WCU/s is 2,850 units/s, 95% of a partition, 2 shards at 80%.
test_write_hot_key_below_a_partition_still_needs_shards_at_target_utilization if {
	doc := observed({
		"traffic": {"writes_per_second": 1500, "reads_per_second": 9000, "hot_key_units_per_second": 2850},
		"measured": {
			"declared_write_units": 5000, "declared_read_units": 10000, "hot_key_units": 2850,
			"hot_key_partition_share": 0.95, "logical_key_units": 2850, "required_shards": 2,
		},
	})
	some f in measured.errors with input as doc
	f.rule == "DK702"
	contains(f.message, "took 2,850 units/s at its busiest minute")
	contains(f.message, "95% of a partition's 3,000 units/s")
	endswith(f.message, "the key needs 2 shards and the table is written with 1")
}

test_sharded_hot_key_names_the_logical_demand if {
	doc := observed({"measured": {
		"declared_write_units": 5000, "declared_read_units": 5000, "shard_count": 2,
		"hot_key_units": 1800, "hot_key_partition_share": 0.6, "logical_key_units": 3600, "required_shards": 2,
	}})
	doc2 := object.union(doc, {"derived": {"shard_count": 2}})
	not "DK702" in fixtures.ids(measured.findings) with input as doc2
	doc3 := json.patch(doc2, [{"op": "replace", "path": "/observed/0/measured/required_shards", "value": 3}])
	some f in measured.errors with input as doc3
	f.rule == "DK702"
	contains(f.message, "; over its 2 shards the logical key takes about 3,600 units/s: at target_utilization the key needs 3 shards")
}

test_hot_key_from_the_design_share_is_not_a_measured_hot_key if {
	doc := observed({"measured": {
		"declared_write_units": 5000, "declared_read_units": 5000, "hot_key_source": "design", "hot_key": null,
		"hot_key_units": null, "hot_key_partition_share": null, "logical_key_units": null,
	}})
	not "DK702" in fixtures.ids(measured.findings) with input as doc
}

test_hot_key_silent_while_shard_count_unknown if {
	doc := object.union(observed({"measured": {"declared_write_units": 5000, "declared_read_units": 5000}}), {"unknown": ["derived.shard_count"]})
	not "DK702" in fixtures.ids(measured.findings) with input as doc
}

test_hot_index_key_is_error_on_the_index if {
	index := object.union(calm, {
		"index_name": "by_status", "path": ["observed_indexes", "by_status"],
		"traffic": {"writes_per_second": 2500},
		"measured": {
			"declared_read_units": null, "declared_write_units": 2500, "hot_key": "shipped",
			"hot_key_units": 6000, "hot_key_partition_share": 2, "logical_key_units": 6000, "required_shards": 3,
		},
	})
	some f in measured.errors with input as with_observed([index])
	f.rule == "DK702"
	f.path == ["global_secondary_indexes", "by_status"]
	contains(f.message, `the busiest key "shipped" of index by_status took 6,000 units/s`)
	contains(f.message, "the index key needs 3 partitions' throughput")
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

test_keys_outside_design_with_entities_names_no_one_template if {
	doc := object.union(
		observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"keys_outside_design": [{"key": "x", "reason": "r"}]})}),
		{"derived": {"entities": {"items": [], "collections": [], "collisions": []}}},
	)
	some f in measured.findings with input as doc
	f.rule == "DK703"
	f.path == ["entities"]
	contains(f.message, "any entity's partition-key template")
}

test_keys_outside_design_silent_while_template_unknown if {
	doc := object.union(
		observed({"traffic": calm.traffic, "measured": object.union(calm.measured, {"keys_outside_design": [{"key": "x", "reason": "r"}]})}),
		{"unknown": ["partition_key.template"]},
	)
	not "DK703" in fixtures.ids(measured.findings) with input as doc
}

throttled(throttle_events, measured_overrides) := observed({
	"traffic": calm.traffic, "throttle_events": throttle_events,
	"measured": object.union(calm.measured, measured_overrides),
})

test_key_range_throttling_names_the_cause_and_the_keys if {
	doc := throttled({"read": 0, "write": 15243, "read_key_range": 0, "write_key_range": 15243}, {
		"throttle_events": 15243, "throttle_events_by_cause": 15243,
		"throttle_causes": [{"cause": "key_range", "read": 0, "write": 15243}],
		"throttled_keys": ["CUSTOMER#c-1001", "CUSTOMER#c-9009"],
	})
	findings := measured.findings with input as doc
	{[f.rule, f.severity, f.path] | some f in findings} == {["DK704", "warning", ["observed"]]}
	some f in findings
	f.message == concat("", [
		"the table was throttled on key range (a partition over its throughput: Read/WriteKeyRangeThroughputThrottleEvents) ",
		"in the measured window (2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z): 0 read and 15,243 write events; ",
		`throttled keys "CUSTOMER#c-1001", "CUSTOMER#c-9009"`,
	])
	startswith(f.remediation, "Spread the hot key")
}

test_key_range_throttling_without_contributor_insights_says_to_turn_it_on if {
	doc := throttled({"read": 420, "write": 0, "read_key_range": 420}, {
		"throttle_events": 420, "throttle_events_by_cause": 420, "key_figures": "none",
		"throttle_causes": [{"cause": "key_range", "read": 420, "write": 0}],
	})
	some f in measured.warnings with input as doc
	f.rule == "DK704"
	contains(f.message, "420 read and 0 write events; Contributor Insights is off, so the key is not named: turn it on")
	contains(f.message, `mode = "THROTTLED_KEYS"`)
}

test_each_cause_is_its_own_finding_with_its_remedy if {
	doc := throttled({"read": 30, "write": 70}, {
		"throttle_events": 100, "throttle_events_by_cause": 100,
		"throttle_causes": [
			{"cause": "provisioned", "read": 0, "write": 50},
			{"cause": "max_on_demand", "read": 0, "write": 20},
			{"cause": "account_limit", "read": 30, "write": 0},
		],
	})
	findings := measured.warnings with input as doc
	remedies := {[substring(f.message, 0, 46), substring(f.remediation, 0, 20)] | some f in findings}
	remedies == {
		["the table was throttled over its provisioned c", "Give the table or in"],
		["the table was throttled over its on-demand max", "Give the table or in"],
		["the table was throttled by the account's throu", "Ask for a higher acc"],
	}
}

test_throttling_without_cause_metrics_is_unattributed if {
	doc := throttled({"read": null, "write": 15243}, {"throttle_events": 15243, "throttled_keys": ["CUSTOMER#c-1001"]})
	some f in measured.warnings with input as doc
	f.rule == "DK704"
	f.message == concat("", [
		"the table was throttled in the measured window (2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z): ",
		`0 read and 15,243 write throttle events; throttled keys "CUSTOMER#c-1001"`,
	])
	startswith(f.remediation, "Export the per-cause throttle metrics")
}

test_throttled_keys_without_metrics_warn if {
	doc := throttled({"read": null, "write": null}, {"throttle_events": null, "throttled_keys": ["a"]})
	some f in measured.warnings with input as doc
	f.rule == "DK704"
	contains(f.message, `throttle events not exported; throttled keys "a"`)
}

test_index_throttled_keys_are_a_lower_bound if {
	index := object.union(calm, {
		"index_name": "by_status", "path": ["observed_indexes", "by_status"],
		"throttle_events": {"read": 0, "write": 9, "write_key_range": 9},
		"measured": {
			"throttle_events": 9, "throttle_events_by_cause": 9, "throttled_keys": ["shipped"],
			"throttle_causes": [{"cause": "key_range", "read": 0, "write": 9}],
		},
	})
	some f in measured.warnings with input as with_observed([index])
	endswith(f.message, `throttled keys "shipped"; an index's throttled keys are a lower bound (its -PKT- rule does not count throttling by the index's own write capacity)`)
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
