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
#   (ServiceQuotas "Throughput default quotas"), and no more than its own on_demand_throughput caps:
#   requests above either are throttled.
# custom:
#   id: DK601
#   name: table-quota
#   aws_dynamodb_table: compares peak demand, from traffic, with the table quota and the caps; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: >-
#     Request a higher table quota before the traffic arrives, or split the data over tables; where
#     on_demand_throughput caps the table, raise on_demand_throughput.max_read_request_units /
#     max_write_request_units above the peak; for an index, its own on_demand_throughput.
warnings contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	lib.on_demand
	lib.known("derived.capacity")
	some problem in quota_problems
}

quota_problems contains {"path": ["traffic", sprintf("%ss_per_second", [kind])], "msg": msg} if {
	some kind, demand in peak
	lib.number(demand)
	demand > limits.on_demand_table_units
	msg := sprintf("peak %s demand is %s units/s; an on-demand table's default quota is %s", [kind, lib.fmt(demand), lib.fmt(limits.on_demand_table_units)])
}

quota_problems contains {"path": ["on_demand_throughput", sprintf("max_%s_request_units", [kind])], "msg": msg} if {
	lib.known("on_demand_throughput")
	some kind, demand in peak
	lib.number(demand)
	cap := input.table.on_demand_throughput[kind]
	lib.number(cap)
	demand > cap
	msg := sprintf(
		"peak %s demand is %s units/s, above on_demand_throughput.max_%s_request_units = %s: requests above the cap are throttled",
		[kind, lib.fmt(demand), kind, lib.fmt(cap)],
	)
}

quota_problems contains {"path": gsi_at(gsi.g, ["on_demand_throughput", sprintf("max_%s_request_units", [gsi.kind])]), "msg": msg} if {
	some gsi in gsi_demand
	cap := gsi.g.on_demand_throughput[gsi.kind]
	lib.number(cap)
	gsi.demand > cap
	msg := sprintf(
		"index %s: peak %s demand is %s units/s, above its on_demand_throughput.max_%s_request_units = %s: requests above the cap are throttled",
		[gsi.g.name, gsi.kind, lib.fmt(gsi.demand), gsi.kind, lib.fmt(cap)],
	)
}

# gsi_demand lists each index's demand per side: its measured traffic (observed_indexes), or without one
# the table's peak writes, every one of which may land in the index. The indexes and their measurements must
# be known.
gsi_demand contains {"g": g, "kind": kind, "demand": demand} if {
	count(input.table.gsis) > 0 # cheap first: most tables have no index
	lib.known("derived.capacity")
	lib.known("global_secondary_indexes")
	lib.known("observed")
	some g in input.table.gsis
	some kind in ["write", "read"]
	demand := g[sprintf("peak_%s_units", [kind])]
	lib.number(demand)
}

# gsi_at is the path of one of an index's attributes.
gsi_at(g, steps) := array.concat(["global_secondary_indexes", g.name], steps)

# METADATA
# title: Cold on-demand table
# description: |
#   A new on-demand table serves ${new_table_write_units} write and ${new_table_read_units} read units/s at once (its default warm throughput),
#   or its warm_throughput when that is higher; more takes time (on-demand-capacity-mode; warm-throughput.html).
# custom:
#   id: DK602
#   name: cold-table
#   aws_dynamodb_table: compares peak demand, from traffic, with a new table's throughput; aws_dynamodb_table has no traffic.
#   severity: warning
#   remediation: >-
#     Set warm_throughput = { read_units_per_second, write_units_per_second } at or above the peak before
#     launch (an index has its own warm_throughput), or ramp traffic up gradually.
warnings contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	lib.on_demand
	some problem in cold_problems
}

cold_problems contains {"path": ["traffic", sprintf("%ss_per_second", [kind])], "msg": msg} if {
	not is_object(input.prior)
	lib.known("derived.capacity")
	lib.known("warm_throughput")
	some kind, demand in peak
	lib.number(demand)
	demand > warm[kind]
	msg := sprintf("peak %s demand is %s units/s; a new on-demand table starts warm for %s", [kind, lib.fmt(demand), lib.fmt(warm[kind])])
}

# A new index is cold like a new table: it serves its own warm_throughput, or a new table's.
cold_problems contains {"path": gsi_at(gsi.g, ["warm_throughput"]), "msg": msg} if {
	some gsi in gsi_demand
	new_index(gsi.g.name)
	warmth := index_warm(gsi.g, gsi.kind)
	gsi.demand > warmth
	msg := sprintf("index %s: peak %s demand is %s units/s; a new index starts warm for %s", [gsi.g.name, gsi.kind, lib.fmt(gsi.demand), lib.fmt(warmth)])
}

# new_index holds for an index the prior state does not have, or on a new table.
new_index(_) if not is_object(input.prior)

new_index(name) if {
	is_object(input.prior)
	not name in {g.name | some g in input.prior.table.gsis}
}

index_warm(g, kind) := max({default_warm[kind], configured}) if {
	configured := g.warm_throughput[kind]
	is_number(configured)
}

index_warm(g, kind) := default_warm[kind] if not is_number(object.get(g, ["warm_throughput", kind], null))

default_warm := {"write": limits.new_table_write_units, "read": limits.new_table_read_units}

# warm is what the table serves at once: its configured warm throughput when higher than a new table's.
warm[kind] := max({figure, configured}) if {
	some kind, figure in default_warm
	configured := input.table.warm_throughput[kind]
	is_number(configured)
}

warm[kind] := figure if {
	some kind, figure in default_warm
	not is_number(object.get(input.table, ["warm_throughput", kind], null))
}

# METADATA
# title: Provisioned capacity below demand
# description: |
#   A PROVISIONED table throttles when peak demand is above its capacity units; with an autoscaling range,
#   above the range's max, which is all the autoscaler can give. An index is checked the same way against
#   its measured traffic (observed_indexes); without a measurement the table's writes are only an upper
#   bound of its demand (a sparse index takes fewer), so only its reads by the declared access patterns are
#   checked.
# custom:
#   id: DK603
#   name: provisioned-capacity
#   aws_dynamodb_table: compares provisioned capacity with peak demand, from traffic; aws_dynamodb_table has no traffic.
#   severity: error
#   remediation: >-
#     Raise read_capacity / write_capacity (or autoscaling.read.max / autoscaling.write.max when
#     autoscaled) to at least the peak demand with headroom, or switch to PAY_PER_REQUEST; for an index,
#     its own read_capacity / write_capacity or autoscaling range.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	input.table.billing_mode == "PROVISIONED"
	some problem in provisioned_problems
}

provisioned_problems contains {"path": capacity.path, "msg": msg} if {
	lib.known("derived.capacity")
	lib.known("autoscaling")
	some kind, demand in peak
	lib.number(demand)
	capacity := provisioned_limit[kind]
	capacity.units < demand
	msg := sprintf("%s is %s units but peak %s demand is %s units/s", [capacity.name, lib.fmt(capacity.units), kind, lib.fmt(demand)])
}

# An index is held to its measured demand: without a measurement, the table's writes are only an upper bound
# (a sparse index takes fewer), not grounds for an error.
provisioned_problems contains {"path": gsi_at(gsi.g, capacity.path), "msg": msg} if {
	some gsi in gsi_demand
	gsi.g.peak_source == "measured"
	capacity := index_limit(gsi.g, gsi.kind)
	capacity.units < gsi.demand
	msg := sprintf("index %s: %s is %s units but its measured peak %s demand is %s units/s", [
		gsi.g.name, capacity.name, lib.fmt(capacity.units), gsi.kind, lib.fmt(gsi.demand),
	])
}

# Without a measurement, the reads of the access patterns an index serves are its declared read demand.
provisioned_problems contains {"path": gsi_at(gsi.g, capacity.path), "msg": msg} if {
	some gsi in gsi_demand
	gsi.kind == "read"
	gsi.g.peak_source != "measured"
	lib.number(object.get(gsi.g, "pattern_read_units", null))
	capacity := index_limit(gsi.g, gsi.kind)
	capacity.units < gsi.demand
	msg := sprintf("index %s: %s is %s units but the access patterns it serves read %s units/s", [
		gsi.g.name, capacity.name, lib.fmt(capacity.units), lib.fmt(gsi.demand),
	])
}

index_limit(g, kind) := {"units": most, "name": sprintf("autoscaling.%s.max", [kind]), "path": ["autoscaling", kind, "max"]} if {
	most := g.autoscaling[kind].max
	is_number(most)
}

index_limit(g, kind) := {"units": most, "name": sprintf("%s_capacity", [kind]), "path": [sprintf("%s_capacity", [kind])]} if {
	not is_number(object.get(g, ["autoscaling", kind, "max"], null))
	most := g[sprintf("%s_capacity", [kind])]
	is_number(most)
}

# provisioned_limit is the most a side can serve: the autoscaling max when autoscaled, else the provisioned capacity.
provisioned_limit[kind] := {"units": most, "name": sprintf("autoscaling.%s.max", [kind]), "path": ["autoscaling", kind, "max"]} if {
	some kind in object.keys(peak)
	most := input.table.autoscaling[kind].max
	is_number(most)
}

provisioned_limit[kind] := {"units": most, "name": sprintf("%s_capacity", [kind]), "path": [sprintf("%s_capacity", [kind])]} if {
	some kind in object.keys(peak)
	not is_number(object.get(input.table, ["autoscaling", kind, "max"], null))
	most := input.table[sprintf("%s_capacity", [kind])]
	is_number(most)
}
