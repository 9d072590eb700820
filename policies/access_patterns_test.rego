package dynamokeys.rules.access_patterns_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.access_patterns

# served is a pattern the table key serves with one Query of one 1 KB item, 100 calls/s.
served := {
	"name": "orders_of_customer", "path": ["access_patterns", "orders_of_customer"], "requested": "",
	"index": "table", "index_kind": "table", "serves": true, "unserved": [],
	"sort_expressible": true, "sort_reason": "",
	"suggested_index": {"partition_key": ["customer_id"], "sort_key": []}, "filtered": [],
	"fanout": false, "queries_per_call": 1, "consistency": "eventual", "strong_on_gsi": false,
	"items_per_query": 1, "item_size_bytes": 1024, "bytes_per_query": 1024, "pages_per_query": 1,
	"read_units_per_query": 0.5, "read_units_per_call": 0.5, "read_units_per_second": 50,
	"projection": "ALL", "missing_attributes": [], "fetch_read_units_per_second": 0,
	"key_values": null, "hot_key_share": 0, "hot_key_share_source": "key_cardinality",
	"hot_key_read_units": 0, "partition_read_units": 0, "sized_by_sharding": true,
}

pattern(overrides) := object.union(served, overrides)

with_patterns(facts) := fixtures.doc({"derived": {"access_patterns": facts}})

by_status := object.union(fixtures.gsi("by_status"), {"partition_key": [{"name": "status", "type": "S", "cardinality": 3}]})

test_served_pattern_passes if {
	count(access_patterns.findings) == 0 with input as with_patterns([served])
}

test_no_patterns_fire_nothing if {
	doc := fixtures.doc({"table": {"gsis": [by_status]}})
	count(access_patterns.findings) == 0 with input as doc
	count(access_patterns.findings) == 0 with input as object.union(doc, {"derived": {"access_patterns": []}})
}

test_scan_needed_names_every_key_and_the_index_to_add if {
	f := pattern({
		"name": "orders_by_status", "path": ["access_patterns", "orders_by_status"], "serves": false,
		"unserved": [{"index": "table", "missing": ["customer_id"]}, {"index": "by_order", "missing": ["order_id"]}],
		"suggested_index": {"partition_key": ["status"], "sort_key": ["order_date"]},
	})
	findings := access_patterns.findings with input as with_patterns([f])
	{object.remove(finding, ["remediation"]) | some finding in findings} == {{
		"rule": "DK801", "name": "scan-needed", "severity": "error", "path": ["access_patterns", "orders_by_status"],
		"message": concat("", [
			`pattern "orders_by_status" knows status, and no key serves it without a Scan `,
			`(the table's key needs customer_id; index "by_order" needs order_id): `,
			"a GSI with partition key [status] and sort key [order_date] serves it",
		]),
		"docs_url": "https://registry.terraform.io/providers/dynamokeys/dynamokeys/latest/docs/guides/rule-reference#dk801",
	}}
	some finding in findings
	startswith(finding.remediation, "Add a GSI whose partition key is what the query knows")
}

test_scan_needed_on_a_named_index if {
	f := pattern({"requested": "by_order", "index": "by_order", "serves": false, "unserved": [{"index": "by_order", "missing": ["order_id"]}]})
	some finding in access_patterns.findings with input as with_patterns([f])
	finding.rule == "DK801"
	contains(finding.message, `asks index "by_order", whose partition key needs order_id; the query knows customer_id`)
}

test_sort_condition_out_of_order_is_error if {
	f := pattern({"sort_expressible": false, "sort_reason": "the condition is on {order_id}, but {order_date} comes before it"})
	fixtures.ids(access_patterns.findings) == {"DK802"} with input as with_patterns([f])
	some finding in access_patterns.findings with input as with_patterns([f])
	finding.message == `pattern "orders_of_customer": the condition is on {order_id}, but {order_date} comes before it`
}

test_fanout_read_warns_with_the_factor if {
	doc := object.union(
		with_patterns([pattern({
			"fanout": true, "queries_per_call": 16, "read_units_per_call": 8, "read_units_per_second": 800,
			"sized_by_sharding": false,
		})]),
		{"sharding": {"strategy": "calculated", "source": "order_id"}},
	)
	some f in access_patterns.findings with input as doc
	f.rule == "DK803"
	f.severity == "warning"
	f.message == concat("", [
		`pattern "orders_of_customer" queries all 16 shards of the table's key per call (the query does not know the shard source {order_id}): `,
		"16x the reads, 8 RCU per call instead of 0.5, 800 RCU/s",
	])
}

test_fanout_of_random_sharding_names_the_cause if {
	doc := object.union(with_patterns([pattern({"fanout": true, "queries_per_call": 4})]), {"sharding": {"strategy": "random"}})
	some f in access_patterns.findings with input as doc
	contains(f.message, "random sharding: no reader can compute the shard")
}

test_strong_read_on_gsi_is_error if {
	f := pattern({"index": "by_status", "index_kind": "gsi", "consistency": "strong", "strong_on_gsi": true})
	some finding in access_patterns.findings with input as with_patterns([f])
	finding.rule == "DK804"
	finding.path == ["access_patterns", "orders_of_customer", "consistency"]
	finding.message == `pattern "orders_of_customer" asks GSI "by_status" for strong reads; a GSI serves only eventually consistent reads`
}

test_projection_miss_names_the_attributes if {
	f := pattern({"index": "by_status", "projection": "KEYS_ONLY", "missing_attributes": ["total", "address"], "fetch_read_units_per_second": 250})
	doc := object.union(with_patterns([f]), {"table": {"gsis": [by_status]}})
	some finding in access_patterns.findings with input as doc
	finding.rule == "DK805"
	finding.message == concat("", [
		`pattern "orders_of_customer" needs total, address, which index "by_status" (projection KEYS_ONLY) does not project: `,
		"each item then costs a read of the table, 250 RCU/s more",
	])
}

test_unused_index_warns_when_patterns_are_declared if {
	doc := object.union(with_patterns([served]), {"table": {"gsis": [by_status], "lsis": [fixtures.lsi("by_created")]}})
	{[f.rule, f.path] | some f in access_patterns.findings} == {
		["DK806", ["global_secondary_indexes", "by_status"]],
		["DK806", ["local_secondary_indexes", "by_created"]],
	} with input as doc
}

test_index_a_pattern_names_is_not_reported_even_unserved if {
	f := pattern({"requested": "by_status", "index": "by_status", "serves": false, "unserved": [{"index": "by_status", "missing": ["status"]}]})
	doc := object.union(with_patterns([f]), {"table": {"gsis": [by_status]}})
	fixtures.ids(access_patterns.findings) == {"DK801"} with input as doc
}

test_used_index_is_not_reported if {
	doc := object.union(with_patterns([pattern({"index": "by_status", "index_kind": "gsi"})]), {"table": {"gsis": [by_status]}})
	count(access_patterns.findings) == 0 with input as doc
}

test_unused_index_is_silent_while_patterns_are_unknown if {
	doc := object.union(with_patterns([served]), {"table": {"gsis": [by_status]}, "unknown": ["derived.access_patterns"]})
	count(access_patterns.findings) == 0 with input as doc
}

test_hot_read_key_over_a_partition_is_error if {
	f := pattern({
		"index": "by_status", "index_kind": "gsi", "sized_by_sharding": false, "read_units_per_second": 9000,
		"hot_key_share": 1, "partition_read_units": 9000,
	})
	some finding in access_patterns.findings with input as with_patterns([f])
	finding.rule == "DK807"
	finding.message == concat("", [
		`pattern "orders_of_customer" puts 9,000 RCU/s on one partition of index "by_status" `,
		"(100% of its 9,000 RCU/s on the busiest key value); a partition serves 3,000",
	])
}

test_hot_read_sized_by_sharding_is_left_to_the_shard_count if {
	f := pattern({"sized_by_sharding": true, "partition_read_units": 9000})
	count(access_patterns.findings) == 0 with input as with_patterns([f])
}

test_hot_read_at_the_limit_passes if {
	f := pattern({"sized_by_sharding": false, "partition_read_units": 3000})
	count(access_patterns.findings) == 0 with input as with_patterns([f])
}

test_query_over_a_page_warns if {
	f := pattern({"items_per_query": 2000, "bytes_per_query": 2048000, "pages_per_query": 2})
	some finding in access_patterns.findings with input as with_patterns([f])
	finding.rule == "DK808"
	finding.path == ["access_patterns", "orders_of_customer", "items"]
	finding.message == concat("", [
		`pattern "orders_of_customer" reads 2,000 items of 1,024 bytes, 2,048,000 bytes per Query; `,
		"a Query returns at most 1,048,576 bytes per page, so each Query takes 2 round trips",
	])
}

test_entry_point_reports_the_area if {
	f := pattern({"sort_expressible": false, "sort_reason": "x"})
	"DK802" in fixtures.ids(data.dynamokeys.findings) with input as with_patterns([f])
}

test_aws_documents_without_patterns_stay_silent if {
	doc := json.remove(fixtures.doc({"table": {"gsis": [by_status]}}), ["derived/access_patterns"])
	count(access_patterns.findings) == 0 with input as doc
}

test_entity_overlap_warns_with_the_extra_reads if {
	f := pattern({"name": "orders_in_range", "entity_overlaps": [{"entity": "order_item", "extra_items": 40000, "extra_read_units_per_call": 1465}]})
	some w in access_patterns.findings with input as with_patterns([f])
	w.rule == "DK110"
	w.severity == "warning"
	w.path == ["access_patterns", "orders_in_range", "entities"]
	contains(w.message, `pattern "orders_in_range"'s Query also returns the items of entity "order_item"`)
	contains(w.message, "up to 40,000 extra items and 1,465 RCU per call")
}

test_nested_entity_overlap_says_what_each_returned_item_brings if {
	f := pattern({"name": "orders_of_user", "entity_overlaps": [{
		"entity": "line", "extra_items": 50000, "extra_items_per_item": 10000, "extra_read_units_per_call": 2441.5,
	}]})
	some w in access_patterns.findings with input as with_patterns([f])
	w.rule == "DK110"
	endswith(w.message, "up to 50,000 extra items (at most 10,000 under each item the pattern returns) and 2,441.5 RCU per call")
}

test_entity_overlap_without_sizes_asks_for_them if {
	f := pattern({"name": "all_orders", "entity_overlaps": [{"entity": "customer", "extra_items": null, "extra_read_units_per_call": null}]})
	some w in access_patterns.findings with input as with_patterns([f])
	w.rule == "DK110"
	endswith(w.message, "meet its key condition: how many, nothing bounds (set that entity's traffic.max_items_per_partition_key to size them)")
}

test_entity_overlap_gives_the_extra_reads_per_second if {
	f := pattern({"name": "orders_in_range", "entity_overlaps": [{
		"entity": "order_item", "extra_items": 40000, "extra_read_units_per_call": 1465,
		"extra_read_units_per_second": 14650,
	}]})
	some w in access_patterns.findings with input as with_patterns([f])
	w.rule == "DK110"
	endswith(w.message, "up to 40,000 extra items and 1,465 RCU per call, 14,650 RCU per second at the pattern's rate")
}
