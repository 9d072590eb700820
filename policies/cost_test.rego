package dynamokeys.rules.cost_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.cost

mode(total) := {"table_writes": total, "index_writes": 0, "reads": 0, "storage": null, "pitr": null, "total": total}

# priced is the base document with a cost estimate: the chosen mode, both totals and the excess Go derived.
priced(chosen, od, pv, excess_share, excess) := fixtures.doc({"derived": {"cost": {
	"chosen_mode": chosen,
	"cheaper_mode": cheaper(od, pv),
	"on_demand": mode(od),
	"provisioned": mode(pv),
	"chosen_excess_share": excess_share,
	"chosen_excess_monthly": excess,
	"break_even_utilization": 0.2889,
	"utilization": 0.2026,
	"indexes": [],
}}})

cheaper(od, pv) := "on_demand" if od <= pv

cheaper(od, pv) := "provisioned" if od > pv

test_provisioned_costing_more_warns_with_both_figures if {
	findings := cost.warnings with input as priced("provisioned", 641.71, 907.44, 0.414, 265.73)
	findings == {{
		"rule": "DK901", "name": "billing-mode-cost", "severity": "warning",
		"message": concat("", [
			"PROVISIONED costs $907.44 a month and on-demand (PAY_PER_REQUEST) would cost $641.71 (41.4% more); ",
			"on-demand is cheaper below 28.9% average use of the provisioned capacity, and this design uses 20.3%",
		]),
		"path": ["billing_mode"],
		"remediation": concat("", [
			"Switch billing_mode to the cheaper mode named in the message; for PROVISIONED, size write_capacity and read_capacity ",
			"(or the autoscaling range) from the peak over target_utilization. If the traffic figures are peaks, give ",
			"traffic.average_writes_per_second and average_reads_per_second (or measured traffic) so that the month is priced at its average.",
		]),
		"docs_url": "https://registry.terraform.io/providers/dynamokeys/dynamokeys/latest/docs/guides/rule-reference#dk901",
	}}
}

test_on_demand_costing_more_warns if {
	some f in cost.warnings with input as priced("on_demand", 2000, 1200, 0.667, 800)
	f.rule == "DK901"
	startswith(f.message, "on-demand (PAY_PER_REQUEST) costs $2,000.00 a month and PROVISIONED would cost $1,200.00")
}

test_excess_without_break_even_still_warns if {
	# Go leaves the break-even utilization null when on-demand request prices are overridden to 0.
	doc := json.patch(priced("provisioned", 100, 900, 8, 800), [
		{"op": "replace", "path": "/derived/cost/break_even_utilization", "value": null},
		{"op": "replace", "path": "/derived/cost/utilization", "value": null},
	])
	findings := cost.warnings with input as doc
	[f.message | some f in findings] == ["PROVISIONED costs $900.00 a month and on-demand (PAY_PER_REQUEST) would cost $100.00 (800% more)"]
}

test_excess_at_threshold_passes if {
	count(cost.warnings) == 0 with input as priced("provisioned", 100, 130, 0.3, 30)
}

test_small_excess_in_dollars_passes if {
	count(cost.warnings) == 0 with input as priced("provisioned", 4, 9, 1.25, 5)
}

test_unestablished_excess_passes if {
	# Go leaves the excess null when on-demand was priced at the peak, an upper bound.
	count(cost.warnings) == 0 with input as priced("on_demand", 2000, 1200, null, null)
}

test_cheaper_mode_chosen_passes if {
	count(cost.warnings) == 0 with input as priced("on_demand", 641.71, 907.44, 0, 0)
}

test_unknown_cost_is_silent if {
	doc := object.union(priced("provisioned", 641.71, 907.44, 0.414, 265.73), {"unknown": ["derived.cost"]})
	count(cost.warnings) == 0 with input as doc
}

test_no_cost_is_silent if {
	# Documents the plan adapter builds for aws_dynamodb_table have no estimate.
	count(cost.warnings) == 0 with input as fixtures.base
}

with_index(share, dollars) := with_reducible(share, dollars, 2)

with_reducible(share, dollars, reducible) := object.union(priced("on_demand", 600, 900, 0, 0), {"derived": {"cost": {"indexes": [{
	"name": "by_date", "kind": "gsi", "entry_bytes": 2500, "write_units_per_write": 3, "item_share": 1, "reducible_write_units": reducible,
	"on_demand_write_cost": dollars, "share_of_table_writes": share, "path": ["global_secondary_indexes", "by_date"],
}]}}})

test_index_costing_most_of_the_table_writes_warns if {
	findings := cost.warnings with input as with_index(1, 246.38)
	some f in findings
	f.rule == "DK902"
	f.path == ["global_secondary_indexes", "by_date"]
	f.message == concat("", [
		"index by_date adds 3 write units to each table write it takes (2,500-byte entries, 2 more than its keys alone): ",
		"$246.38 a month on-demand, 100% of the table's own writes ($600.00)",
	])
}

test_index_at_threshold_passes if {
	not "DK902" in fixtures.ids(cost.warnings) with input as with_index(0.5, 300)
}

test_cheap_index_passes if {
	not "DK902" in fixtures.ids(cost.warnings) with input as with_index(1, 9.99)
}

test_index_that_projects_only_what_its_keys_cost_passes if {
	# Small items: an ALL entry costs one unit, as its keys alone would; projecting less saves nothing.
	not "DK902" in fixtures.ids(cost.warnings) with input as with_reducible(1, 300, 0)
}
