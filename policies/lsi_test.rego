package dynamokeys.rules.lsi_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.lsi

gib := 1073741824

lsis(n) := [fixtures.lsi(sprintf("by_%d", [i])) | some i in numbers.range(1, n)]

with_collection(bytes) := fixtures.doc({"table": {"lsis": lsis(1)}, "derived": {"collection": {"bytes": bytes}}})

test_no_lsi_no_findings if {
	count(lsi.findings) == 0 with input as fixtures.doc({"derived": {"collection": {"basis": "unbounded", "bytes": null}}})
}

test_five_lsis_pass if {
	not "DK201" in fixtures.ids(lsi.findings) with input as fixtures.doc({"table": {"lsis": lsis(5)}})
}

test_six_lsis_are_error if {
	some f in lsi.findings with input as fixtures.doc({"table": {"lsis": lsis(6)}})
	f.rule == "DK201"
	contains(f.message, "6 LSIs")
}

test_lsi_without_table_sort_key_is_error if {
	doc := json.patch(fixtures.doc({"table": {"lsis": lsis(1)}}), [{"op": "replace", "path": "/table/sort_key", "value": null}])
	"DK202" in fixtures.ids(lsi.findings) with input as doc
}

test_lsi_with_sort_key_passes if {
	not "DK202" in fixtures.ids(lsi.findings) with input as fixtures.doc({"table": {"lsis": lsis(1)}})
}

test_collection_just_under_8_gb_passes if {
	not "DK203" in fixtures.ids(lsi.findings) with input as with_collection((8 * gib) - 1)
}

test_collection_of_8_gb_warns if {
	fixtures.severities(lsi.findings, "DK203") == {"warning"} with input as with_collection(8 * gib)
}

test_collection_of_exactly_10_gb_warns if {
	fixtures.severities(lsi.findings, "DK203") == {"warning"} with input as with_collection(10 * gib)
}

test_collection_over_10_gb_is_error if {
	some f in lsi.findings with input as with_collection((10 * gib) + 1)
	f.rule == "DK203"
	f.severity == "error"
	f.path == ["traffic", "max_items_per_partition_key"]
}

test_unbounded_collection_with_lsi_warns if {
	doc := fixtures.doc({"table": {"lsis": lsis(1)}, "derived": {"collection": {"basis": "unbounded", "bytes": null, "items_per_key": null}}})
	fixtures.severities(lsi.findings, "DK203") == {"warning"} with input as doc
}

test_unbounded_collection_silent_when_max_items_unknown if {
	doc := fixtures.doc({
		"table": {"lsis": lsis(1)},
		"derived": {"collection": {"basis": "unbounded", "bytes": null}},
		"unknown": ["traffic.max_items_per_partition_key"],
	})
	not "DK203" in fixtures.ids(lsi.findings) with input as doc
}

test_unbounded_collection_silent_when_the_design_says_nothing_of_its_items if {
	# An adopted table: keys without templates, no entities, no traffic.
	doc := fixtures.doc({
		"table": {"lsis": lsis(1), "partition_key": {"name": "customer_id", "type": "S", "template": null}},
		"traffic": {"writes_per_second": null, "reads_per_second": null, "max_items_per_partition_key": null},
		"derived": {"collection": {"basis": "unbounded", "bytes": null, "items_per_key": null}},
	})
	not "DK203" in fixtures.ids(lsi.findings) with input as doc
}

test_unbounded_collection_warns_once_traffic_is_stated if {
	doc := fixtures.doc({
		"table": {"lsis": lsis(1), "partition_key": {"name": "customer_id", "type": "S", "template": null}},
		"traffic": {"writes_per_second": 50, "max_items_per_partition_key": null},
		"derived": {"collection": {"basis": "unbounded", "bytes": null, "items_per_key": null}},
	})
	fixtures.severities(lsi.findings, "DK203") == {"warning"} with input as doc
}

test_lsi_with_hot_key_over_partition_is_error if {
	doc := fixtures.doc({"table": {"lsis": lsis(1)}, "derived": {"capacity": {"per_shard_write_units": 1001}}})
	some f in lsi.findings with input as doc
	f.rule == "DK204"
	contains(f.message, "1,001 WCU")
}

test_lsi_with_key_at_partition_limit_passes if {
	doc := fixtures.doc({"table": {"lsis": lsis(1)}, "derived": {"capacity": {"per_shard_write_units": 1000, "per_shard_read_units": 3000}}})
	not "DK204" in fixtures.ids(lsi.findings) with input as doc
}

test_lsi_hot_reads_are_error if {
	doc := fixtures.doc({"table": {"lsis": lsis(1)}, "derived": {"capacity": {"per_shard_read_units": 3001}}})
	"DK204" in fixtures.ids(lsi.findings) with input as doc
}
