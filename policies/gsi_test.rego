package dynamokeys.rules.gsi_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.gsi

with_gsi(overrides) := fixtures.doc({"table": {"gsis": [object.union(fixtures.gsi("by_status"), overrides)]}})

test_high_cardinality_gsi_passes if {
	count(gsi.findings) == 0 with input as with_gsi({"partition_key_cardinality": 1000000, "hot_partition_write_units": 0.0001})
}

test_low_cardinality_gsi_under_writes_warns if {
	doc := with_gsi({"partition_key_cardinality": 4, "hot_partition_write_units": 25})
	some f in gsi.findings with input as doc
	f.rule == "DK501"
	f.severity == "warning"
	contains(f.message, "low-cardinality (4 values)")
	f.path == ["global_secondary_indexes", "by_status", "partition_key"]
}

test_time_bucketed_gsi_warns if {
	doc := with_gsi({"time_bucketed": true, "hot_partition_write_units": 100})
	some f in gsi.findings with input as doc
	f.rule == "DK501"
	contains(f.message, "time-bucketed")
}

test_gsi_hot_partition_over_limit_is_error if {
	doc := with_gsi({"partition_key_cardinality": 2, "hot_partition_write_units": 1001})
	fixtures.severities(gsi.findings, "DK501") == {"error"} with input as doc
}

test_gsi_over_limit_names_the_entities_that_write_its_busiest_partition if {
	doc := with_gsi({"hot_partition_write_units": 2000, "hot_entities": ["click"], "entities": [
		{"entity": "user", "partition_key": ["EMAIL#{email}"], "time_bucketed": false, "cardinality": null},
		{"entity": "click", "partition_key": ["DAY#{day}"], "time_bucketed": true, "cardinality": null},
	]})
	{f.message | some f in gsi.findings; f.rule == "DK501"} == {concat("", [
		`GSI "by_status" sends 2,000 WCU to its busiest partition (a partition serves 1,000), written by entity "click" as DAY#{day}; `,
		"its throttling would throttle writes to the table",
	])} with input as doc
}

test_gsi_hot_key_names_the_entities_whose_templates_are_hot if {
	doc := object.union(
		with_gsi({"hot_partition_write_units": 10, "peak_write_units": 30, "entities": [
			{"entity": "task", "partition_key": ["STATUS#{status}"], "time_bucketed": false, "cardinality": 3},
			{"entity": "user", "partition_key": ["EMAIL#{email}"], "time_bucketed": false, "cardinality": null},
		]}),
		{"derived": {"entities": {"items": []}}},
	)
	{f.message | some f in gsi.findings; f.rule == "DK501"} == {concat("", [
		`GSI "by_status" has a low-cardinality (4 values) partition key under 30 WCU of index writes, written by entity "task" as `,
		"STATUS#{status}: its hot partitions can throttle writes to the table",
	])} with input as object.union(doc, {"table": {"gsis": [object.union(doc.table.gsis[0], {"partition_key_cardinality": 4})]}})
}

test_low_cardinality_gsi_without_writes_passes if {
	doc := object.union(with_gsi({"partition_key_cardinality": 4}), {"derived": {"capacity": {"peak_write_units": null}}})
	not "DK501" in fixtures.ids(gsi.findings) with input as doc
}

test_100_projected_attributes_pass if {
	not "DK502" in fixtures.ids(gsi.findings) with input as fixtures.doc({"derived": {"projected_non_key_attributes": 100}})
}

test_101_projected_attributes_are_error if {
	some f in gsi.findings with input as fixtures.doc({"derived": {"projected_non_key_attributes": 101}})
	f.rule == "DK502"
	contains(f.message, "101")
}

test_20_gsis_pass if {
	doc := fixtures.doc({"table": {"gsis": [fixtures.gsi(sprintf("gsi_%d", [i])) | some i in numbers.range(1, 20)]}})
	not "DK503" in fixtures.ids(gsi.findings) with input as doc
}

test_21_gsis_warn if {
	doc := fixtures.doc({"table": {"gsis": [fixtures.gsi(sprintf("gsi_%d", [i])) | some i in numbers.range(1, 21)]}})
	fixtures.severities(gsi.findings, "DK503") == {"warning"} with input as doc
}

test_gsi_hot_key_names_three_entities_and_counts_the_rest if {
	entities := [{"entity": sprintf("e%d", [i]), "partition_key": ["S#{status}"], "time_bucketed": false, "cardinality": 3} | some i in numbers.range(1, 5)]
	doc := object.union(
		with_gsi({"partition_key_cardinality": 15, "hot_partition_write_units": 10, "peak_write_units": 50, "entities": entities}),
		{"derived": {"entities": {"items": []}}},
	)
	some f in gsi.findings with input as doc
	f.rule == "DK501"
	contains(f.message, `written by entity "e1" as S#{status} and entity "e2" as S#{status} and entity "e3" as S#{status} and 2 more:`)
}
