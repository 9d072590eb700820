# METADATA
# title: Measured traffic
# description: |
#   Rules DK701–DK704 compare the design with the traffic CloudWatch and Contributor Insights measured (the
#   observed input, from the dynamokeys_observed_traffic data source), for the table and for each GSI.
package dynamokeys.rules.measured

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# observations are the measured targets whose figures are known at plan time.
observations contains o if {
	lib.known("observed")
	some o in input.observed
}

# what names the table or the index an observation is of, for messages.
what(o) := "the table" if o.index_name == ""

what(o) := sprintf("index %s", [o.index_name]) if o.index_name != ""

# sides are the measured peak of each side with the design's declared peak and the side's limit.
sides contains {
	"kind": kind,
	"measured": measured,
	"declared": object.get(o.measured, sprintf("declared_%s_units", [kind]), null),
	"limit": object.get(o.measured, sprintf("%s_limit", [kind]), null),
	"o": o,
} if {
	some o in observations
	some kind in ["write", "read"]
	measured := o.traffic[sprintf("%ss_per_second", [kind])]
	lib.number(measured)
}

# needs_more_shards holds when the measured peak needs more shards than the table is written with.
needs_more_shards(o) if {
	o.index_name == ""
	o.measured.required_shards > o.measured.shard_count
	lib.known("derived.shard_count")
}

over_limit(side) if {
	lib.number(side.limit.units)
	side.measured > side.limit.units
}

# above_declared lists the sides measured above the design's declared peak, or measured without one. An
# index declares no reads: every table write may land in it, but its reads are its own.
above_declared contains side if {
	lib.known("derived.capacity")
	some side in sides
	lib.number(side.declared)
	side.measured > side.declared
}

above_declared contains side if {
	lib.known("traffic")
	some side in sides
	side.o.index_name == ""
	side.declared == null
	lib.known(sprintf("traffic.%ss_per_second", [side.kind]))
}

declared_text(side) := sprintf("the design declares %s units/s", [lib.fmt(side.declared)]) if lib.number(side.declared)

declared_text(side) := "the design declares none" if side.declared == null

declared_path(side) := ["traffic", sprintf("%ss_per_second", [side.kind])] if side.o.index_name == ""

declared_path(side) := side.o.path if side.o.index_name != ""

window(o) := sprintf("%s to %s", [o.window.start, o.window.end])

# METADATA
# title: Declared below measured
# description: |
#   The design's traffic is below what CloudWatch measured (the largest per-minute Sum / 60 of consumed
#   capacity units): every other verdict rests on numbers the application has outgrown. An error when the
#   measured peak needs more shards than the table is written with, or more capacity than the table or
#   index can serve (its provisioned capacity, autoscaling max, on-demand cap or the ${on_demand_table_units}-unit table quota).
# custom:
#   id: DK701
#   name: declared-below-measured
#   aws_dynamodb_table: compares measured traffic with declared traffic; aws_dynamodb_table has neither.
#   cases:
#     needs-more:
#       severity: error
#       when: the measured peak needs more shards or capacity than the design provides
#       remediation: >-
#         Raise traffic to the measured peak, then give the table what it needs: on a live table pin
#         sharding.count and move to the shard count the report shows by bumping sharding.scheme_version
#         (write with the new count, read both during the migration); raise the capacity, autoscaling max or
#         on-demand cap the message names.
#     below:
#       severity: warning
#       when: the measured peak is above the declared traffic but the design still serves it
#       remediation: Raise traffic.writes_per_second / reads_per_second to the measured peak so that the other rules check the traffic the table has.
declared_below_measured := rego.metadata.rule()

errors contains lib.finding_case(declared_below_measured, "needs-more", msg, declared_path(side)) if {
	some side in above_declared
	needs_more_shards(side.o)
	msg := sprintf(
		"%s measured a peak of %s %s units/s (%s), %s; at that peak the busiest key needs %d shards and the table is written with %d",
		[what(side.o), lib.fmt(side.measured), side.kind, window(side.o), declared_text(side), side.o.measured.required_shards, side.o.measured.shard_count],
	)
}

errors contains lib.finding_case(declared_below_measured, "needs-more", msg, side.limit.path) if {
	some side in above_declared
	not needs_more_shards(side.o)
	over_limit(side)
	msg := sprintf(
		"%s measured a peak of %s %s units/s (%s), %s and %s allows %s",
		[what(side.o), lib.fmt(side.measured), side.kind, window(side.o), declared_text(side), side.limit.name, lib.fmt(side.limit.units)],
	)
}

warnings contains lib.finding_case(declared_below_measured, "below", msg, declared_path(side)) if {
	some side in above_declared
	not needs_more_shards(side.o)
	not over_limit(side)
	msg := sprintf(
		"%s measured a peak of %s %s units/s (%s), %s",
		[what(side.o), lib.fmt(side.measured), side.kind, window(side.o), declared_text(side)],
	)
}

hot_key_path(o) := ["sharding", "count"] if o.index_name == ""

hot_key_path(o) := ["global_secondary_indexes", o.index_name] if o.index_name != ""

# partition_text is a partition's throughput in Contributor Insights' units (3 x WCU + RCU).
partition_text := sprintf("a partition's %s units/s (%s WCU = %s RCU)", [
	lib.fmt(limits.partition_read_units),
	lib.fmt(limits.partition_write_units),
	lib.fmt(limits.partition_read_units),
])

# METADATA
# title: Measured hot key beyond the design
# description: |
#   Contributor Insights' most accessed keys rule shows the busiest partition-key value taking more
#   ConsumedThroughputUnits (3 x WCU + RCU) per second at its busiest minute than the shards the table is
#   written with serve at target_utilization: a partition serves ${partition_read_units} units/s
#   (${partition_write_units} WCU = ${partition_read_units} RCU). DynamoDB throttles that key whatever the
#   table's capacity (bp-partition-key-design).
# custom:
#   id: DK702
#   name: measured-hot-key
#   aws_dynamodb_table: reads measured key demand against the shard count; aws_dynamodb_table has neither.
#   severity: error
#   remediation: >-
#     Shard the key (a {shard} placeholder with calculated sharding) or raise sharding.count to the count the
#     message names — on a live table by bumping sharding.scheme_version and reading both schemes during the
#     migration; for an index, give it a partition key with more distinct values.
errors contains lib.finding(rego.metadata.rule(), msg, hot_key_path(o)) if {
	some o in observations
	o.measured.hot_key_source == "measured"
	shards_known(o)
	o.measured.required_shards > o.measured.shard_count
	msg := sprintf(
		"the busiest key %s of %s took %s units/s at its busiest minute (%s; units = 3 x WCU + RCU), %s of %s%s: %s",
		[
			key_text(o), what(o), lib.fmt(o.measured.hot_key_units), window(o), lib.percent(o.measured.hot_key_partition_share),
			partition_text, logical_text(o), shards_text(o),
		],
	)
}

shards_known(o) if o.index_name != ""

shards_known(o) if {
	o.index_name == ""
	lib.known("derived.shard_count")
}

key_text(o) := sprintf("%q", [o.measured.hot_key]) if is_string(o.measured.hot_key)

key_text(o) := "(not named)" if not is_string(o.measured.hot_key)

logical_text(o) := "" if o.measured.shard_count == 1

logical_text(o) := sprintf("; over its %d shards the logical key takes about %s units/s", [
	o.measured.shard_count,
	lib.fmt(o.measured.logical_key_units),
]) if {
	o.measured.shard_count > 1
}

shards_text(o) := sprintf("at target_utilization the key needs %d shards and the table is written with %d", [
	o.measured.required_shards,
	o.measured.shard_count,
]) if {
	o.index_name == ""
}

shards_text(o) := sprintf("at target_utilization the index key needs %d partitions' throughput, which one key value cannot spread", [
	o.measured.required_shards,
]) if {
	o.index_name != ""
}

# METADATA
# title: Keys outside the design
# description: |
#   A partition-key value Contributor Insights measured cannot come from the partition-key template: its
#   literal parts, a segment's format (an enum's values, a time bucket's layout, a number, max_length), or
#   the shard suffix's width, range or calculated routing differ. The application does not write the keys
#   the design describes, so every other verdict is about keys it does not use.
# custom:
#   id: DK703
#   name: key-outside-design
#   aws_dynamodb_table: matches measured keys against a partition-key template; aws_dynamodb_table has no template.
#   severity: error
#   remediation: >-
#     Fix the writer to follow the template and the routing spec (provider functions render_key and
#     shard_suffix compute them), or change the template and segments to describe the keys it writes.
errors contains lib.finding(rego.metadata.rule(), msg, outside_design_path) if {
	lib.known("partition_key.template")
	lib.known("segments")
	lib.known("sharding")
	some o in observations
	count(o.measured.keys_outside_design) > 0
	shown := array.slice(o.measured.keys_outside_design, 0, 5)
	listed := concat("; ", [sprintf("%q: %s", [k.key, k.reason]) | some k in shown])
	more := more_text(count(o.measured.keys_outside_design) - count(shown))
	msg := sprintf("%d measured key(s) cannot come from %s: %s%s", [
		count(o.measured.keys_outside_design), outside_design_templates, listed, more,
	])
}

# With entities, a measured key is outside the design when no entity's template can produce it.
default outside_design_path := ["partition_key", "template"]

outside_design_path := ["entities"] if input.derived.entities

default outside_design_templates := "the design's template"

outside_design_templates := sprintf("the template %s", [input.table.partition_key.template]) if {
	not input.derived.entities
	input.table.partition_key.template
}

outside_design_templates := "any entity's partition-key template" if input.derived.entities

more_text(0) := ""

more_text(n) := sprintf(" and %d more", [n]) if n > 0

# METADATA
# title: Throttled by cause
# description: |
#   CloudWatch counted throttle events in the measured window, or Contributor Insights lists throttled
#   keys: requests failed and were retried or lost. The per-cause metrics say which limit throttled: a
#   partition's key range (a hot key, which needs no Contributor Insights to show), the provisioned
#   capacity, the on-demand maximum, or the account's quota. An index's throttled keys are a lower bound:
#   its -PKT- rule does not count throttling caused by the index's own write capacity.
# custom:
#   id: DK704
#   name: throttled-keys
#   aws_dynamodb_table: reads measured throttling; aws_dynamodb_table has none.
#   cases:
#     key-range:
#       severity: warning
#       when: a partition's key range was over its throughput (Read/WriteKeyRangeThroughputThrottleEvents)
#       remediation: >-
#         Spread the hot key: shard it (DK702 names the shard count when Contributor Insights measured it) or
#         cache its reads. Without Contributor Insights, turn it on to name the key: contributor_insights =
#         { mode = "THROTTLED_KEYS" } is the cheap mode.
#     capacity:
#       severity: warning
#       when: the table or index was over its provisioned capacity or on-demand maximum
#       remediation: >-
#         Give the table or index the capacity it used: raise write_capacity / read_capacity or the
#         autoscaling max (DK603), or the on_demand_throughput maximum (DK601).
#     account-limit:
#       severity: warning
#       when: the account's throughput quota throttled the table
#       remediation: Ask for a higher account throughput quota in Service Quotas (DynamoDB), or lower the traffic of the account's other tables.
#     unattributed:
#       severity: warning
#       when: throttling without per-cause metrics
#       remediation: >-
#         Export the per-cause throttle metrics (the query file asks for them) to tell which limit throttled;
#         the exception's ThrottlingReasons name it too. Keep Contributor Insights on (contributor_insights =
#         { mode = "THROTTLED_KEYS" }) to name throttled keys.
throttled_keys := rego.metadata.rule()

cause_texts := {
	"key_range": "on key range (a partition over its throughput: Read/WriteKeyRangeThroughputThrottleEvents)",
	"provisioned": "over its provisioned capacity (Read/WriteProvisionedThroughputThrottleEvents)",
	"max_on_demand": "over its on-demand maximum (Read/WriteMaxOnDemandThroughputThrottleEvents)",
	"account_limit": "by the account's throughput quota (Read/WriteAccountLimitThrottleEvents)",
}

warnings contains lib.finding_case(throttled_keys, "key-range", cause_message(o, c), o.path) if {
	some o in observations
	some c in o.measured.throttle_causes
	c.cause == "key_range"
}

warnings contains lib.finding_case(throttled_keys, "capacity", cause_message(o, c), o.path) if {
	some o in observations
	some c in o.measured.throttle_causes
	c.cause in {"provisioned", "max_on_demand"}
}

warnings contains lib.finding_case(throttled_keys, "account-limit", cause_message(o, c), o.path) if {
	some o in observations
	some c in o.measured.throttle_causes
	c.cause == "account_limit"
}

cause_message(o, c) := sprintf("%s was throttled %s in the measured window (%s): %s read and %s write events%s%s", [
	what(o), cause_texts[c.cause], window(o), lib.fmt(c.read), lib.fmt(c.write), cause_keys_text(o, c.cause), lower_bound_text(o),
])

# unattributed: throttle events no per-cause metric explains, or throttled keys without any throttle metric.
warnings contains lib.finding_case(throttled_keys, "unattributed", msg, o.path) if {
	some o in observations
	unattributed(o)
	msg := sprintf("%s was throttled in the measured window (%s): %s%s%s", [what(o), window(o), events_text(o), keys_text(o), lower_bound_text(o)])
}

unattributed(o) if o.measured.throttle_events > o.measured.throttle_events_by_cause

unattributed(o) if {
	count(o.measured.throttle_causes) == 0
	not o.measured.throttle_events > 0
	count(o.measured.throttled_keys) > 0
}

# cause_keys_text names the throttled keys for key-range throttling, or says how to name them.
cause_keys_text(o, "key_range") := keys_text(o) if count(o.measured.throttled_keys) > 0

cause_keys_text(o, "key_range") := "; Contributor Insights lists no throttled key" if {
	count(o.measured.throttled_keys) == 0
	o.measured.key_figures != "none"
}

cause_keys_text(o, "key_range") := concat("", [
	"; Contributor Insights is off, so the key is not named: turn it on (contributor_insights = { mode = \"THROTTLED_KEYS\" }, ",
	"the cheap mode) to name it",
]) if {
	o.measured.key_figures == "none"
}

cause_keys_text(_, cause) := "" if cause != "key_range"

lower_bound_text(o) := "" if o.index_name == ""

lower_bound_text(o) := "; an index's throttled keys are a lower bound (its -PKT- rule does not count throttling by the index's own write capacity)" if {
	o.index_name != ""
	count(o.measured.throttled_keys) > 0
}

lower_bound_text(o) := "" if {
	o.index_name != ""
	count(o.measured.throttled_keys) == 0
}

events_text(o) := sprintf("%s read and %s write throttle events", [
	lib.fmt(events(o.throttle_events.read)),
	lib.fmt(events(o.throttle_events.write)),
]) if {
	lib.number(o.measured.throttle_events)
}

# events reads a throttle total that was not exported as 0.
events(n) := n if is_number(n)

events(n) := 0 if not is_number(n)

events_text(o) := "throttle events not exported" if not lib.number(o.measured.throttle_events)

keys_text(o) := "" if count(o.measured.throttled_keys) == 0

keys_text(o) := sprintf("; throttled keys %s%s", [
	concat(", ", [sprintf("%q", [k]) | some k in array.slice(o.measured.throttled_keys, 0, 5)]),
	more_text(count(o.measured.throttled_keys) - min({5, count(o.measured.throttled_keys)})),
]) if {
	count(o.measured.throttled_keys) > 0
}
