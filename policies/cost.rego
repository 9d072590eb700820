# METADATA
# title: Cost
# description: Rules DK901–DK902 on what the design costs per month, from the cost estimate Go derived.
package dynamokeys.rules.cost

import data.dynamokeys.lib
import data.dynamokeys.limits

# estimate is the cost Go derived (derived.cost); absent for documents the plan adapter builds. The cost rules
# raise warnings only.
estimate := input.derived.cost if {
	lib.known("derived.cost")
	is_object(input.derived.cost)
}

mode_label := {"on_demand": "on-demand (PAY_PER_REQUEST)", "provisioned": "PROVISIONED"}

# dollars formats an amount to the cent with grouped thousands: $1,234.50.
dollars(x) := sprintf("$%s.%02d", [lib.grouped(floor(c / 100)), c % 100]) if c := round(x * 100)

# METADATA
# title: Billing mode cost
# description: |
#   The table's billing mode costs more per month than the other mode by more than ${billing_mode_cost_excess_share} times the
#   other's cost (and by more than $${cost_warning_min_monthly_usd}), at list prices for the design's traffic. On-demand
#   costs less while the average use of the capacity provisioned mode would need stays below the break-even
#   utilization (about 29% at us-east-1 prices since the November 2024 on-demand price cut).
# custom:
#   id: DK901
#   name: billing-mode-cost
#   aws_dynamodb_table: compares the cost estimate, from traffic, of both billing modes; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: >-
#     Switch billing_mode to the cheaper mode named in the message; for PROVISIONED, size write_capacity
#     and read_capacity (or the autoscaling range) from the peak over target_utilization. If the traffic
#     figures are peaks, give traffic.average_writes_per_second and average_reads_per_second (or measured
#     traffic) so that the month is priced at its average.
warnings contains lib.finding(rego.metadata.rule(), msg, ["billing_mode"]) if {
	estimate.chosen_excess_share > limits.billing_mode_cost_excess_share
	estimate.chosen_excess_monthly > limits.cost_warning_min_monthly_usd
	chosen := estimate[estimate.chosen_mode]
	other := estimate[estimate.cheaper_mode]
	msg := sprintf(
		"%s costs %s a month and %s would cost %s (%s more)%s",
		[
			mode_label[estimate.chosen_mode], dollars(chosen.total), mode_label[estimate.cheaper_mode], dollars(other.total),
			lib.percent(estimate.chosen_excess_share), break_even_clause,
		],
	)
}

# break_even_clause adds the break-even utilization when Go could derive it: it is null when on-demand
# would cost nothing at full use of the capacity (on-demand request prices of 0), and the finding stands
# without it.
default break_even_clause := ""

break_even_clause := sprintf(
	"; on-demand is cheaper below %s average use of the provisioned capacity, and this design uses %s",
	[lib.percent(estimate.break_even_utilization), lib.percent(estimate.utilization)],
) if {
	is_number(estimate.break_even_utilization)
	is_number(estimate.utilization)
}

# METADATA
# title: Index write cost
# description: |
#   A secondary index's writes cost more than ${index_write_cost_share} times the table's own writes (and more than
#   $${cost_warning_min_monthly_usd} a month): every table write that carries the index key writes the index too, in
#   units of the projected entry's size, so an ALL projection doubles the write bill. It fires only where the
#   projection makes each entry cost more write units than its keys alone would.
# custom:
#   id: DK902
#   name: index-write-cost
#   aws_dynamodb_table: compares index write costs from traffic; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: >-
#     Project less: KEYS_ONLY, or INCLUDE with only the attributes the index's queries read, so that each
#     entry fits in fewer 1 KB write units; make the index sparse (write its key attribute only on the
#     items its queries need); or drop an index no query uses.
warnings contains lib.finding(rego.metadata.rule(), msg, index.path) if {
	some index in estimate.indexes
	index.reducible_write_units > 0
	index.share_of_table_writes > limits.index_write_cost_share
	index.on_demand_write_cost > limits.cost_warning_min_monthly_usd
	msg := sprintf(
		"index %s adds %s write units to each table write it takes (%s-byte entries, %s more than its keys alone): %s a month on-demand, %s of the table's own writes (%s)",
		[
			index.name, lib.fmt(index.write_units_per_write), lib.fmt(index.entry_bytes), lib.fmt(index.reducible_write_units),
			dollars(index.on_demand_write_cost), lib.percent(index.share_of_table_writes), dollars(estimate.on_demand.table_writes),
		],
	)
}
