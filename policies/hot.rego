# METADATA
# title: Hot partitions
# description: Rules DK301–DK305 on time buckets, low cardinality, hot keys, hot items and monotonic sort keys.
package dynamokeys.rules.hot

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

capacity := input.derived.capacity

# demand lists a busiest partition-key value's write and read demand with its partition limit, when known.
demand(scope_demand) := {x |
	lib.known("derived.capacity")
	some [value, limit, unit, path] in [
		[scope_demand.hot_key_write_units, limits.partition_write_units, "WCU", ["traffic", "writes_per_second"]],
		[scope_demand.hot_key_read_units, limits.partition_read_units, "RCU", ["traffic", "reads_per_second"]],
	]
	lib.number(value)
	x := {"units": value, "limit": limit, "unit": unit, "path": path}
}

# time_bucket_scopes are the key scopes (the table's, or each entity's) whose partition key is a time bucket
# without a shard.
time_bucket_scopes contains scope if {
	lib.known("segments")
	some scope in lib.key_scopes
	scope.partition_key.has_time_bucket
	not scope.partition_key.has_shard
	scope.partition_key_known
}

# METADATA
# title: Time-bucket partition key
# description: |
#   A partition key made of a time bucket sends every current write to the current bucket's one key. Above
#   one partition's throughput that key throttles, whatever the table's capacity (bp-partition-key-design).
# custom:
#   id: DK301
#   name: time-bucket-partition-key
#   aws_dynamodb_table: fires only as a warning there, from a partition-key attribute (of the table or a GSI) named like a time
#     bucket, or a time held as a string (rule reference, attribute names); the error needs traffic.
#   cases:
#     over-limit:
#       severity: error
#       when: the current bucket's demand exceeds a partition
#       remediation: Add a {shard} placeholder with calculated sharding (sharding.strategy = "calculated") or lead the key with a high-cardinality segment.
#     bucket:
#       severity: warning
#       when: the demand fits a partition, or is not known; or a partition key without a template is named like a date or time
#       remediation: Add a {shard} placeholder with calculated sharding before traffic grows, or lead the key with a high-cardinality segment.
#     gsi-bucket:
#       severity: warning
#       when: a GSI's partition key is a time bucket (or named like a time bucket), and GSI hot partition (DK501) does not already report it
#       remediation: |
#         Add a high-cardinality attribute (an id) or a shard attribute written with a calculated suffix to the GSI's
#         multi-attribute partition key, and keep the time in its sort key.
time_bucket_partition_key := rego.metadata.rule()

errors contains lib.finding_case(time_bucket_partition_key, "over-limit", msg, scope.paths.partition_key) if {
	some scope in time_bucket_scopes
	some d in demand(scope.demand)
	d.units > d.limit
	global := concat("", [lib.global_note | d.unit == "WCU"])
	msg := sprintf("every current write lands in the current time bucket: %s %s on one key%s%s, a partition serves %s; shard it into at least %d shards", [
		lib.fmt(d.units), d.unit, scope.demand.note, global, lib.fmt(d.limit), scope.demand.required_shards,
	])
}

warnings contains lib.finding_case(time_bucket_partition_key, "bucket", problem.msg, problem.path) if {
	some problem in time_bucket_warnings
}

time_bucket_warnings contains {"path": scope.paths.partition_key, "msg": msg} if {
	some scope in time_bucket_scopes
	not over_limit(scope.demand)
	msg := sprintf(
		"the partition key%s is a time bucket without a shard: every current write lands on one key, which caps the table at one partition's throughput",
		[scope.note],
	)
}

# Name heuristic for a partition key known only by its name: no template says what its values are.
time_bucket_warnings contains {"path": ["partition_key", "name"], "msg": msg} if {
	lib.partition_key_name_hint == "time"
	msg := sprintf(
		"the partition key attribute %q is named like a date or time: if it holds a time bucket, every current write lands on one key",
		[input.table.partition_key.name],
	)
}

over_limit(scope_demand) if {
	some d in demand(scope_demand)
	d.units > d.limit
}

warnings contains lib.finding_case(time_bucket_partition_key, "gsi-bucket", problem.msg, problem.path) if {
	some problem in gsi_partition_problems
	problem.hint == "time"
}

# gsi_partition_problems are the GSIs whose partition key has the shape of a hot key: few values or a time
# bucket, from the design's facts (the index's stated cardinalities, a time-bucketed attribute) or, where the
# design states neither, from the attribute names. A multi-attribute key counts only when every attribute
# has that shape: one high-cardinality attribute spreads the index. GSI hot partition (DK501) reports the
# same GSIs under write load with the numbers; these stay silent then.
gsi_partition_problems contains {"path": ["global_secondary_indexes", gsi.name, "partition_key"], "hint": hint, "msg": gsi_message(gsi, hint)} if {
	some gsi in input.table.gsis
	hint := gsi_partition_hint(gsi)
	lib.known(concat(".", ["global_secondary_indexes", gsi.name, "partition_key"]))
	not gsi_hot_partition_reported(gsi.name)
}

gsi_partition_hint(gsi) := "time" if gsi.time_bucketed

else := "low_cardinality" if {
	lib.number(gsi.partition_key_cardinality)
	gsi.partition_key_cardinality < limits.low_cardinality
}

else := hint if {
	gsi.partition_key_cardinality == null
	hints := {lib.name_hint(k.name, object.get(k, "type", "S")) | some k in gsi.partition_key}
	not "" in hints
	hint := gsi_name_hint(hints)
}

# A time-named attribute beside status-like ones is still one current bucket per status.
gsi_name_hint(hints) := "time" if "time" in hints

else := "low_cardinality" if hints == {"low_cardinality"}

gsi_message(gsi, "time") := sprintf("GSI %q has a partition key that is a time bucket or is named like a date or time (%s): %s", [
	gsi.name, key_names(gsi),
	"every current write to the index lands on one key, and a throttled index throttles writes to the table",
])

gsi_message(gsi, "low_cardinality") := sprintf("GSI %q has a partition key with few distinct values (%s): %s", [
	gsi.name, gsi_values(gsi),
	"the index's writes and reads concentrate on few partitions, and a throttled index throttles writes to the table",
])

gsi_values(gsi) := sprintf("%d value(s)", [gsi.partition_key_cardinality]) if lib.number(gsi.partition_key_cardinality)

else := sprintf("%s, named like a status, type, level, role or flag", [key_names(gsi)])

key_names(gsi) := concat(", ", [sprintf("%q", [k.name]) | some k in gsi.partition_key])

gsi_hot_partition_reported(name) if {
	some f in data.dynamokeys.rules.gsi.findings
	f.rule == "DK501"
	f.path[1] == name
}

# METADATA
# title: Low-cardinality partition key
# description: |
#   A partition key with few distinct values (status, type, a literal) concentrates traffic on few
#   partitions and cannot spread as the table grows (bp-partition-key-uniform-load). Few means fewer than
#   ${low_cardinality}, from the cardinalities of the key's segments.
# custom:
#   id: DK302
#   name: low-cardinality-partition-key
#   aws_dynamodb_table: fires there only from a partition-key attribute (of the table or a GSI) named like a few-valued
#     one (rule reference, attribute names); the cardinality case needs segments.
#   cases:
#     table:
#       severity: warning
#       when: the table's partition key has few values, or has no template and is named like a status, type, level, role or flag
#       remediation: |
#         Lead the partition key with a high-cardinality segment (customer, order or device id) and move the
#         low-cardinality value to the sort key; to query by that value, index it with a GSI whose partition key
#         also has a high-cardinality or shard attribute.
#     gsi:
#       severity: warning
#       when: a GSI's partition key has few values (stated, or named like a status, type, level, role or flag), and GSI hot partition (DK501) does not already report it
#       remediation: |
#         Add a high-cardinality attribute (an id) or a shard attribute written with a calculated suffix to the GSI's
#         multi-attribute partition key and move the low-cardinality value to its sort key, or make the index
#         sparse (write the attribute only on the items the index must find).
low_cardinality_partition_key := rego.metadata.rule()

warnings contains lib.finding_case(low_cardinality_partition_key, "table", problem.msg, problem.path) if {
	some problem in low_cardinality_problems
}

warnings contains lib.finding_case(low_cardinality_partition_key, "gsi", problem.msg, problem.path) if {
	some problem in gsi_partition_problems
	problem.hint == "low_cardinality"
}

low_cardinality_problems contains {"path": scope.paths.partition_key, "msg": msg} if {
	lib.known("segments")
	some scope in lib.key_scopes
	cardinality := scope.partition_key.cardinality
	lib.number(cardinality)
	cardinality < limits.low_cardinality
	scope.partition_key_known
	msg := sprintf("the partition key%s has only %d distinct value(s); traffic cannot spread over more partitions than that", [scope.note, cardinality])
}

# Name heuristic for a partition key known only by its name: no template says what its values are.
low_cardinality_problems contains {"path": ["partition_key", "name"], "msg": msg} if {
	lib.partition_key_name_hint == "low_cardinality"
	msg := sprintf(
		"the partition key attribute %q is named like a status, type, level, role or flag, which has few distinct values: traffic cannot spread over partitions",
		[input.table.partition_key.name],
	)
}

# METADATA
# title: Hot key demand
# description: |
#   Each partition serves at most ${partition_write_units} WCU and ${partition_read_units} RCU. When the busiest logical key's demand per shard
#   is above that, its writes or reads throttle (bp-partition-key-design; bp-partition-key-sharding).
# custom:
#   id: DK303
#   name: hot-key-demand
#   aws_dynamodb_table: needs the busiest key's demand, from traffic; aws_dynamodb_table has no traffic.
#   severity: error
#   remediation: Shard the partition key with a {shard} suffix and set sharding.count to at least the shard count named in the message (or omit count to compute it).
errors contains lib.finding(rego.metadata.rule(), msg, shard_path(d)) if {
	lib.known("derived.capacity")
	some d in lib.demand_scopes
	some [per_shard, limit, unit] in [
		[d.per_shard_write_units, limits.partition_write_units, "WCU"],
		[d.per_shard_read_units, limits.partition_read_units, "RCU"],
	]
	lib.number(per_shard)
	per_shard > limit
	global := concat("", [lib.global_note | unit == "WCU"])
	msg := sprintf("the busiest key%s needs %s %s per shard across %d shard(s)%s; a partition serves %s: use at least %d shards", [
		d.note, lib.fmt(per_shard), unit, d.shard_count, global, lib.fmt(limit), d.required_shards,
	])
}

# A sharded key needs more shards; an unsharded one a {shard} in its template.
shard_path(d) := ["sharding", "count"] if d.sharded

else := d.path

# METADATA
# title: Hot item
# description: |
#   One item lives in one partition: its writes above ${partition_write_units} WCU or reads above ${partition_read_units} RCU throttle, and no
#   key sharding can spread them (bp-partition-key-design).
# custom:
#   id: DK304
#   name: hot-item
#   aws_dynamodb_table: needs the hottest item's traffic; aws_dynamodb_table has no traffic.
#   severity: error
#   remediation: Spread the item's updates over several items (write-sharded counters), buffer and batch them, or cache reads (DAX).
errors contains lib.finding(rego.metadata.rule(), msg, path) if {
	some [item_units, limit, unit, path] in [
		[capacity.hottest_item_write_units, limits.partition_write_units, "WCU", ["traffic", "hottest_item_writes_per_second"]],
		[capacity.hottest_item_read_units, limits.partition_read_units, "RCU", ["traffic", "hottest_item_reads_per_second"]],
	]
	lib.number(item_units)
	item_units > limit
	global := concat("", [lib.global_note | unit == "WCU"])
	msg := sprintf("one item takes %s %s%s; a partition serves %s, and sharding the key cannot split a single item", [lib.fmt(item_units), unit, global, lib.fmt(limit)])
}

# METADATA
# scope: rule
# title: Monotonic sort key under a busy partition key
# description: |
#   A sort key that only grows (a timestamp, a sequence) keeps every new write at the end of a busy key's
#   range, where split-for-heat cannot help (HowItWorks.Partitions). Busy means that each partition-key
#   value (each shard of it) takes at least ${busy_partition_share} × the ${partition_write_units} WCU a partition serves.
# custom:
#   id: DK305
#   name: monotonic-sort-key
#   aws_dynamodb_table: needs a sort-key template and traffic; aws_dynamodb_table has neither.
#   severity: warning
#   remediation: Lead the sort key with a non-monotonic value, or shard the partition key so each value takes less of a partition.
warnings contains lib.finding(rego.metadata.rule(), msg, scope.paths.sort_key) if {
	some scope in lib.key_scopes
	scope.sort_key.monotonic
	per_shard := scope.demand.per_shard_write_units
	lib.number(per_shard)
	per_shard >= limits.busy_partition_share * limits.partition_write_units
	scope.sort_key_known
	msg := sprintf("the sort key%s only grows and each partition-key value%s takes %s WCU (%s of a partition): new writes pile up at one end", [
		scope.note, scope.demand.note, lib.fmt(per_shard), lib.percent(per_shard / limits.partition_write_units),
	])
}
