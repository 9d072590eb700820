package dynamokeys.rules.capacity_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.capacity

with_peak(w, r) := fixtures.doc({"derived": {"capacity": {"peak_write_units": w, "peak_read_units": r}}})

test_moderate_traffic_passes if {
	count(capacity.findings) == 0 with input as fixtures.base
}

test_on_demand_quota_exceeded_warns if {
	some f in capacity.findings with input as with_peak(40001, 100)
	f.rule == "DK601"
	f.path == ["traffic", "writes_per_second"]
	contains(f.message, "40,001")
}

test_on_demand_quota_at_limit_passes if {
	not "DK601" in fixtures.ids(capacity.findings) with input as with_peak(40000, 40000)
}

test_quota_ignores_provisioned_tables if {
	doc := object.union(with_peak(50000, 0), {"table": {"billing_mode": "PROVISIONED", "write_capacity": 60000, "read_capacity": 10}})
	not "DK601" in fixtures.ids(capacity.findings) with input as doc
}

test_new_table_over_warm_writes_warns if {
	some f in capacity.findings with input as with_peak(4001, 0)
	f.rule == "DK602"
	f.severity == "warning"
}

test_new_table_over_warm_reads_warns if {
	"DK602" in fixtures.ids(capacity.findings) with input as with_peak(0, 12001)
}

test_existing_table_is_not_cold if {
	doc := object.union(with_peak(5000, 0), {"prior": fixtures.base})
	not "DK602" in fixtures.ids(capacity.findings) with input as doc
}

test_provisioned_below_peak_is_error if {
	doc := object.union(with_peak(500, 100), {"table": {"billing_mode": "PROVISIONED", "write_capacity": 400, "read_capacity": 100}})
	some f in capacity.findings with input as doc
	f.rule == "DK603"
	f.path == ["write_capacity"]
}

test_provisioned_at_peak_passes if {
	doc := object.union(with_peak(500, 100), {"table": {"billing_mode": "PROVISIONED", "write_capacity": 500, "read_capacity": 100}})
	not "DK603" in fixtures.ids(capacity.findings) with input as doc
}

test_provisioned_unknown_capacity_passes if {
	doc := object.union(with_peak(500, 100), {"table": {"billing_mode": "PROVISIONED", "write_capacity": null}})
	not "DK603" in fixtures.ids(capacity.findings) with input as doc
}

test_on_demand_cap_below_peak_warns_on_the_cap if {
	doc := object.union(with_peak(1500, 100), {"table": {"on_demand_throughput": {"write": 1000, "read": null}}})
	some f in capacity.findings with input as doc
	f.rule == "DK601"
	f.path == ["on_demand_throughput", "max_write_request_units"]
	contains(f.message, "on_demand_throughput.max_write_request_units = 1,000")
}

test_on_demand_cap_above_peak_passes if {
	doc := object.union(with_peak(900, 100), {"table": {"on_demand_throughput": {"write": 1000, "read": 500}}})
	not "DK601" in fixtures.ids(capacity.findings) with input as doc
}

test_warm_throughput_at_peak_satisfies_cold_table if {
	doc := object.union(with_peak(6000, 20000), {"table": {"warm_throughput": {"write": 6000, "read": 20000}}})
	not "DK602" in fixtures.ids(capacity.findings) with input as doc
}

test_warm_throughput_below_peak_names_it if {
	doc := object.union(with_peak(8000, 0), {"table": {"warm_throughput": {"write": 6000, "read": null}}})
	some f in capacity.findings with input as doc
	f.rule == "DK602"
	contains(f.message, "starts warm for 6,000")
}

test_warm_throughput_below_the_default_keeps_the_default if {
	doc := object.union(with_peak(3000, 0), {"table": {"warm_throughput": {"write": 100, "read": null}}})
	not "DK602" in fixtures.ids(capacity.findings) with input as doc
}

autoscaled(write_capacity, most) := object.union(with_peak(500, 0), {"table": {
	"billing_mode": "PROVISIONED", "write_capacity": write_capacity, "read_capacity": 10,
	"autoscaling": {"write": {"min": write_capacity, "max": most}, "read": null},
}})

test_autoscaling_max_above_peak_passes if {
	not "DK603" in fixtures.ids(capacity.findings) with input as autoscaled(5, 1000)
}

test_autoscaling_max_below_peak_is_error_on_the_max if {
	some f in capacity.findings with input as autoscaled(5, 400)
	f.rule == "DK603"
	f.path == ["autoscaling", "write", "max"]
	contains(f.message, "autoscaling.write.max is 400 units")
}

test_unknown_autoscaling_keeps_dk603_silent if {
	doc := object.union(autoscaled(5, 400), {"unknown": ["autoscaling"]})
	not "DK603" in fixtures.ids(capacity.findings) with input as doc
}

test_unknown_caps_and_warm_throughput_keep_dk601_and_dk602_silent if {
	capped := object.union(with_peak(1500, 100), {"table": {"on_demand_throughput": {"write": 1000, "read": null}}, "unknown": ["on_demand_throughput"]})
	not "DK601" in fixtures.ids(capacity.findings) with input as capped
	cold := object.union(with_peak(8000, 0), {"unknown": ["warm_throughput"]})
	not "DK602" in fixtures.ids(capacity.findings) with input as cold
}

# with_index is the base document with one index whose demand and settings are given.
with_index(index, table) := fixtures.doc({
	"table": object.union(table, {"gsis": [object.union(fixtures.gsi("by_status"), index)]}),
	"prior": fixtures.base,
})

test_index_on_demand_cap_below_its_demand_warns_on_the_index if {
	doc := with_index({"peak_write_units": 2500, "peak_read_units": 100, "on_demand_throughput": {"write": 1500, "read": null}}, {})
	findings := capacity.findings with input as doc
	{[f.rule, f.path] | some f in findings} == {["DK601", ["global_secondary_indexes", "by_status", "on_demand_throughput", "max_write_request_units"]]}
}

test_new_index_over_warm_writes_warns if {
	doc := json.patch(with_index({"peak_write_units": 5000, "peak_read_units": null}, {}), [{"op": "replace", "path": "/prior/table/gsis", "value": []}])
	some f in capacity.findings with input as doc
	f.rule == "DK602"
	f.path == ["global_secondary_indexes", "by_status", "warm_throughput"]
	f.message == "index by_status: peak write demand is 5,000 units/s; a new index starts warm for 4,000"
}

test_existing_index_is_not_cold if {
	doc := with_index({"peak_write_units": 5000, "peak_read_units": null}, {})
	doc2 := json.patch(doc, [{"op": "replace", "path": "/prior/table/gsis", "value": [fixtures.gsi("by_status")]}])
	not "DK602" in fixtures.ids(capacity.findings) with input as doc2
}

test_index_warm_throughput_satisfies_a_new_index if {
	doc := with_index({"peak_write_units": 5000, "peak_read_units": null, "warm_throughput": {"write": 6000, "read": null}}, {})
	doc2 := json.patch(doc, [{"op": "replace", "path": "/prior/table/gsis", "value": []}])
	not "DK602" in fixtures.ids(capacity.findings) with input as doc2
}

test_index_autoscaling_max_below_its_demand_is_error if {
	doc := with_index(
		{
			"peak_write_units": 100, "peak_read_units": 400, "peak_source": "measured",
			"read_capacity": 500, "write_capacity": 500, "autoscaling": {"read": {"min": 5, "max": 300}, "write": null},
		},
		{"billing_mode": "PROVISIONED", "read_capacity": 1000, "write_capacity": 1000},
	)
	findings := capacity.findings with input as doc
	{[f.rule, f.path, f.message] | some f in findings} == {[
		"DK603", ["global_secondary_indexes", "by_status", "autoscaling", "read", "max"],
		"index by_status: autoscaling.read.max is 300 units but its measured peak read demand is 400 units/s",
	]}
}

test_index_capacity_below_the_declared_table_writes_passes if {
	doc := with_index(
		{"peak_write_units": 2500, "peak_read_units": null, "peak_source": "declared", "read_capacity": 5, "write_capacity": 5},
		{"billing_mode": "PROVISIONED", "read_capacity": 1000, "write_capacity": 3000},
	)
	count(capacity.findings) == 0 with input as doc
}

test_index_capacity_at_its_demand_passes if {
	doc := with_index(
		{"peak_write_units": 100, "peak_read_units": null, "read_capacity": 5, "write_capacity": 100},
		{"billing_mode": "PROVISIONED", "read_capacity": 1000, "write_capacity": 1000},
	)
	count(capacity.findings) == 0 with input as doc
}

test_index_demand_unknown_stays_silent if {
	doc := object.union(with_index({"peak_write_units": 2500, "on_demand_throughput": {"write": 1500, "read": null}}, {}), {"unknown": ["global_secondary_indexes"]})
	count(capacity.findings) == 0 with input as doc
}

# global is a design document of a global table: three US Regions (a witness counted) with equal write shares.
global(overrides) := fixtures.doc(object.union(
	{"derived": {"replicas": {
		"consistency": "strong", "witness": null, "region_count": 3, "duplicate_regions": [],
		"regions": [
			{"region": "us-east-1", "write_share": 0.4, "region_set": "US"},
			{"region": "us-east-2", "write_share": 0.3, "region_set": "US"},
			{"region": "us-west-2", "write_share": 0.3, "region_set": "US"},
		],
		"write_share_sum": 1, "write_shares_sum_to_one": true, "writes_basis": "write_share",
		"global_writes_per_second": 100, "ttl_deletes_per_second": null, "ttl": false, "hot_key_write_units": 0,
	}}},
	overrides,
))

two_regions := [{"region": "us-east-1", "write_share": 0.5, "region_set": "US"}, {"region": "us-east-2", "write_share": 0.5, "region_set": "US"}]

test_mrsc_three_regions_in_one_set_passes if {
	count(capacity.findings) == 0 with input as global({})
}

test_mrsc_two_and_a_witness_passes if {
	doc := global({"derived": {"replicas": {"regions": two_regions, "witness": "us-west-2", "region_count": 3}}})
	count(capacity.findings) == 0 with input as doc
}

test_mrsc_two_regions_fail if {
	doc := global({"derived": {"replicas": {"regions": two_regions, "region_count": 2}}})
	some f in capacity.findings with input as doc
	f.rule == "DK604"
	f.severity == "error"
	f.path == ["replicas", "regions"]
	contains(f.message, "exactly 3 Regions")
	contains(f.message, "this table has 2 (us-east-1, us-east-2)")
	contains(f.message, "V2globaltables_HowItWorks.html")
}

test_eventual_two_regions_pass if {
	doc := global({"derived": {"replicas": {"consistency": "eventual", "regions": two_regions, "region_count": 2}}})
	count(capacity.findings) == 0 with input as doc
}

test_mrsc_across_region_sets_fails if {
	doc := global({"derived": {"replicas": {"regions": two_regions, "witness": "eu-west-1", "region_count": 3}}})
	msgs := {f.message | some f in capacity.findings; f.rule == "DK604"} with input as doc
	count(msgs) == 1
	some msg in msgs
	contains(msg, "cannot span Region sets; its Regions are in the EU, US Region sets")
}

test_mrsc_region_outside_every_set_fails if {
	regions := array.concat(two_regions, [{"region": "sa-east-1", "write_share": 0, "region_set": ""}])
	doc := global({"derived": {"replicas": {"regions": regions}}})
	some f in capacity.findings with input as doc
	f.rule == "DK604"
	startswith(f.message, "sa-east-1 is in no MRSC Region set")
}

test_mrsc_with_an_lsi_fails if {
	lsi := {"name": "by_date", "sort_key": {"name": "d", "type": "S", "cardinality": null}, "projection_type": "ALL", "non_key_attributes": []}
	doc := global({"table": {"lsis": [lsi]}})
	some f in capacity.findings with input as doc
	f.rule == "DK605"
	f.path == ["local_secondary_indexes", "by_date"]
	contains(f.message, "do not support LSIs")
}

test_mrsc_with_ttl_and_transactions_fails if {
	doc := global({"derived": {"replicas": {"ttl": true}}, "traffic": {"transactional_writes": true}})
	findings := {[f.path, f.rule] | some f in capacity.findings} with input as doc
	findings == {[["replicas", "ttl_deletes_per_second"], "DK605"], [["traffic", "transactional_writes"], "DK605"]}
}

test_mrsc_with_transactional_reads_fails if {
	doc := global({"traffic": {"read_consistency": "transactional"}})
	some f in capacity.findings with input as doc
	f.rule == "DK605"
	f.path == ["traffic", "read_consistency"]
	startswith(f.message, "the reads are transactional")
}

test_mrsc_with_a_transactional_pattern_fails if {
	doc := global({"access_patterns": [{"name": "balance", "consistency": "transactional"}, {"name": "list", "consistency": "eventual"}]})
	paths := {f.path | some f in capacity.findings; f.rule == "DK605"} with input as doc
	paths == {["access_patterns", "balance", "consistency"]}
}

test_eventual_with_ttl_lsi_and_transactions_passes if {
	doc := global({"derived": {"replicas": {"consistency": "eventual", "ttl": true}}, "traffic": {"transactional_writes": true}})
	count(capacity.findings) == 0 with input as doc
}

test_unknown_replicas_stay_silent if {
	doc := global({"derived": {"replicas": {"regions": two_regions, "region_count": 2, "write_shares_sum_to_one": false}}, "unknown": ["derived.replicas"]})
	count(capacity.findings) == 0 with input as doc
}

test_write_shares_not_summing_to_one_fail if {
	doc := global({"derived": {"replicas": {"consistency": "eventual", "write_share_sum": 0.8, "write_shares_sum_to_one": false}}})
	some f in capacity.findings with input as doc
	f.rule == "DK606"
	f.severity == "error"
	contains(f.message, "sum to 80%, not 100%")
}

test_duplicate_region_fails_on_the_replica_block if {
	doc := global({"kind": "aws_dynamodb_table", "derived": {"replicas": {"consistency": "eventual", "duplicate_regions": ["us-east-2"]}}})
	some f in capacity.findings with input as doc
	f.rule == "DK606"
	f.path == ["replica"]
	startswith(f.message, "us-east-2 is listed more than once")
}

test_global_table_quota_says_the_writes_are_global if {
	doc := global({"derived": {"capacity": {"peak_write_units": 45000}}})
	some f in capacity.findings with input as doc
	f.rule == "DK601"
	contains(f.message, "45,000 units/s (global: each of the 3 replica Regions performs every Region's writes)")
}
