# METADATA
# title: Table capacity
# description: Rules DK601–DK603 on table quotas, cold on-demand tables and provisioned capacity.
package dynamokeys.rules.capacity

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

peak := {
	"write": input.derived.capacity.peak_write_units,
	"read": input.derived.capacity.peak_read_units,
}

# METADATA
# title: On-demand table quota
# description: |
#   An on-demand table serves at most ${on_demand_table_units} read and ${on_demand_table_units} write request units by default, GSIs included
#   (ServiceQuotas "Throughput default quotas").
# custom:
#   id: DK601
#   name: table-quota
#   aws_dynamodb_table: compares peak demand, from traffic, with the table quota; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: Request a higher table quota (or set on_demand_throughput) before the traffic arrives, or split the data over tables.
warnings contains lib.finding(rego.metadata.rule(), msg, ["traffic", sprintf("%ss_per_second", [kind])]) if {
	lib.on_demand
	lib.known("derived.capacity")
	some kind, demand in peak
	lib.number(demand)
	demand > limits.on_demand_table_units
	msg := sprintf("peak %s demand is %s units/s; an on-demand table's default quota is %s", [kind, lib.fmt(demand), lib.fmt(limits.on_demand_table_units)])
}

# METADATA
# title: Cold on-demand table
# description: |
#   A new on-demand table serves ${new_table_write_units} write and ${new_table_read_units} read units/s at once (its default warm throughput);
#   more takes time or pre-warming (on-demand-capacity-mode; warm-throughput.html).
# custom:
#   id: DK602
#   name: cold-table
#   aws_dynamodb_table: compares peak demand, from traffic, with a new table's throughput; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: Pre-warm the table (warm throughput) before launch, or ramp traffic up gradually.
warnings contains lib.finding(rego.metadata.rule(), msg, ["traffic", sprintf("%ss_per_second", [kind])]) if {
	lib.on_demand
	not is_object(input.prior)
	lib.known("derived.capacity")
	some kind, demand in peak
	lib.number(demand)
	demand > warm[kind]
	msg := sprintf("peak %s demand is %s units/s; a new on-demand table starts warm for %s", [kind, lib.fmt(demand), lib.fmt(warm[kind])])
}

warm := {"write": limits.new_table_write_units, "read": limits.new_table_read_units}

# METADATA
# title: Provisioned capacity below demand
# description: A PROVISIONED table throttles when peak demand is above its capacity units.
# custom:
#   id: DK603
#   name: provisioned-capacity
#   aws_dynamodb_table: compares provisioned capacity with peak demand, from traffic; aws_dynamodb_table has no traffic.
#   severity: error
#   remediation: Raise read_capacity / write_capacity to at least the peak demand (with headroom), or switch to PAY_PER_REQUEST.
errors contains lib.finding(rego.metadata.rule(), msg, [sprintf("%s_capacity", [kind])]) if {
	input.table.billing_mode == "PROVISIONED"
	lib.known("derived.capacity")
	some kind, demand in peak
	lib.number(demand)
	provisioned := input.table[sprintf("%s_capacity", [kind])]
	lib.number(provisioned)
	provisioned < demand
	msg := sprintf("%s_capacity is %s units but peak %s demand is %s units/s", [kind, lib.fmt(provisioned), kind, lib.fmt(demand)])
}
