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
	global := concat("", [lib.global_note | kind == "write"])
	msg := sprintf("peak %s demand is %s units/s%s; an on-demand table's default quota is %s", [kind, lib.fmt(demand), global, lib.fmt(limits.on_demand_table_units)])
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

# replicas are the facts of a global table (replicas.go; the plan adapter's for aws_dynamodb_table): its
# Regions, witness and consistency.
replicas := input.derived.replicas

# strong holds for a known global table with multi-Region strong consistency.
strong if {
	lib.known("derived.replicas")
	replicas.consistency == "strong"
}

# mrsc_regions are the Regions of an MRSC table that the plan names: its replicas and its witness.
mrsc_regions := array.concat([r.region | some r in replicas.regions; is_string(r.region)], [replicas.witness | is_string(replicas.witness)])

# region_set names the MRSC Region set of each Region that is in one.
region_set[region] := name if {
	some name, members in limits.mrsc_region_sets
	some region in members
}

default regions_path := ["replicas", "regions"]

regions_path := ["replica"] if input.kind == "aws_dynamodb_table"

# METADATA
# title: MRSC Regions
# description: |
#   A global table with multi-Region strong consistency (MRSC) is deployed in exactly ${mrsc_regions} Regions (three
#   replicas, or two replicas and a witness), all in one Region set: US, EU or AP, whose Regions the data file
#   lists (limits.mrsc_region_sets). DynamoDB refuses any other MRSC table, but only at apply ("Consistency modes",
#   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html).
# custom:
#   id: DK604
#   name: mrsc-regions
#   severity: error
#   remediation: >-
#     Give the MRSC table exactly three Regions of one Region set: three replicas, or two replicas and a
#     witness (replicas.witness; global_table_witness on aws_dynamodb_table); or use eventual consistency.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	strong
	some problem in mrsc_region_problems
}

mrsc_region_problems contains {"path": regions_path, "msg": msg} if {
	replicas.region_count != limits.mrsc_regions
	msg := sprintf(
		"multi-Region strong consistency needs exactly %d Regions (three replicas, or two and a witness); this table has %d (%s): DynamoDB refuses it at apply (%s)",
		[limits.mrsc_regions, replicas.region_count, concat(", ", mrsc_region_labels), limits.mrsc_docs],
	)
}

mrsc_region_problems contains {"path": regions_path, "msg": msg} if {
	some region in mrsc_regions
	not region_set[region]
	msg := sprintf("%s is in no MRSC Region set (US, EU, AP): multi-Region strong consistency is not available there (%s)", [region, limits.mrsc_docs])
}

mrsc_region_problems contains {"path": regions_path, "msg": msg} if {
	sets := {object.get(region_set, region, "") | some region in mrsc_regions} - {""}
	count(sets) > 1
	msg := sprintf("an MRSC table cannot span Region sets; its Regions are in the %s Region sets (%s)", [concat(", ", sort(sets)), limits.mrsc_docs])
}

# mrsc_region_labels name the Regions for DK604's message, the witness marked as one.
mrsc_region_labels := array.concat(
	[r.region | some r in replicas.regions; is_string(r.region)],
	[sprintf("witness %s", [replicas.witness]) | is_string(replicas.witness)],
)

# METADATA
# title: MRSC features
# description: |
#   Multi-Region strong consistency does not support local secondary indexes, Time to Live or the transaction
#   APIs ("Consistency modes",
#   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html): the table
#   fails to create with an LSI or TTL, and every transactional write or read fails.
# custom:
#   id: DK605
#   name: mrsc-features
#   aws_dynamodb_table: fires there on local_secondary_index and ttl blocks; transactional writes and reads need traffic, which aws_dynamodb_table does not have.
#   severity: error
#   remediation: >-
#     Drop what MRSC does not support (move an LSI's queries to a GSI, expire items with a scheduled job,
#     write items one by one with conditions), or use eventual consistency.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	strong
	some problem in mrsc_feature_problems
}

mrsc_feature_problems contains {"path": ["local_secondary_indexes", l.name], "msg": msg} if {
	lib.known("local_secondary_indexes")
	some l in input.table.lsis
	msg := sprintf("local secondary index %s: MRSC global tables do not support LSIs (%s)", [l.name, limits.mrsc_docs])
}

mrsc_feature_problems contains {"path": ttl_path, "msg": msg} if {
	replicas.ttl == true
	msg := sprintf("the table uses Time to Live: MRSC global tables do not support TTL (%s)", [limits.mrsc_docs])
}

mrsc_feature_problems contains {"path": ["traffic", "transactional_writes"], "msg": msg} if {
	lib.known("traffic.transactional_writes")
	input.traffic.transactional_writes == true
	msg := sprintf("the writes are transactional: MRSC global tables do not support the transaction APIs, which fail on an MRSC replica (%s)", [limits.mrsc_docs])
}

mrsc_feature_problems contains {"path": ["traffic", "read_consistency"], "msg": msg} if {
	lib.known("traffic.read_consistency")
	input.traffic.read_consistency == "transactional"
	msg := sprintf("the reads are transactional: MRSC global tables do not support the transaction APIs, which fail on an MRSC replica (%s)", [limits.mrsc_docs])
}

mrsc_feature_problems contains {"path": ["access_patterns", pattern.name, "consistency"], "msg": msg} if {
	lib.known("access_patterns")
	some pattern in input.access_patterns
	pattern.consistency == "transactional"
	msg := sprintf(
		"access pattern %s reads transactionally: MRSC global tables do not support the transaction APIs, which fail on an MRSC replica (%s)",
		[pattern.name, limits.mrsc_docs],
	)
}

default ttl_path := ["replicas", "ttl_deletes_per_second"]

ttl_path := ["ttl"] if input.kind == "aws_dynamodb_table"

# METADATA
# title: Replica write shares
# description: |
#   Every replica performs every Region's writes, so the design splits traffic.writes_per_second over the
#   Regions by their write_share: shares that do not sum to 1 price and size the table for writes it does
#   not have, or leave some out; and a Region listed twice is one replica (a global table has one replica
#   per Region, V2globaltables_HowItWorks.html).
# custom:
#   id: DK606
#   name: replica-write-shares
#   aws_dynamodb_table: fires there on a Region given twice (two replica blocks, or a replica block and the table's own Region); write shares need the design.
#   severity: error
#   remediation: Make the Regions' write_share sum to 1 (or give each Region its writes_per_second), and list each Region once.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	lib.known("derived.replicas")
	some problem in share_problems
}

share_problems contains {"path": ["replicas", "regions"], "msg": msg} if {
	replicas.write_shares_sum_to_one == false
	msg := sprintf(
		"the Regions' write shares sum to %s, not 100%%: every replica performs all the writes, so the shares must split them whole",
		[lib.percent(replicas.write_share_sum)],
	)
}

share_problems contains {"path": regions_path, "msg": msg} if {
	some region in replicas.duplicate_regions
	msg := sprintf("%s is listed more than once: a global table has one replica per Region", [region])
}
