# METADATA
# title: Global secondary indexes
# description: Rules DK501–DK503 on GSI hot partitions, projections and counts.
package dynamokeys.rules.gsi

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# METADATA
# title: GSI hot partition
# description: |
#   Every table write that touches a GSI needs write capacity in that index; a throttled GSI partition
#   throttles the base-table writes (back-pressure). A low-cardinality or time-bucketed GSI partition key
#   under write load makes such a hot partition (GSI.html; gsi-throttling.html).
# custom:
#   id: DK501
#   name: gsi-hot-partition
#   aws_dynamodb_table: needs the GSI key cardinalities and write traffic; aws_dynamodb_table has neither.
#   cases:
#     over-limit:
#       severity: error
#       when: the index's busiest partition takes more writes than a partition serves
#       remediation: Give the GSI a high-cardinality partition key (add an id or a shard attribute to its multi-attribute key), or project the index sparsely.
#     hot-key:
#       severity: warning
#       when: the index's partition key is low-cardinality or time-bucketed under write load
#       remediation: Give the GSI a high-cardinality partition key (add an id or a shard attribute to its multi-attribute key), or project the index sparsely.
hot_partition := rego.metadata.rule()

errors contains lib.finding_case(hot_partition, "over-limit", msg, ["global_secondary_indexes", gsi.name, "partition_key"]) if {
	some gsi in input.table.gsis
	hot := gsi.hot_partition_write_units
	lib.number(hot)
	hot > limits.partition_write_units
	msg := sprintf("GSI %q sends %s WCU to its busiest partition (a partition serves %s)%s; its throttling would throttle writes to the table", [
		gsi.name, lib.fmt(hot), lib.fmt(limits.partition_write_units), writers(gsi, {e | some e in gsi.hot_entities}),
	])
}

warnings contains lib.finding_case(hot_partition, "hot-key", msg, ["global_secondary_indexes", gsi.name, "partition_key"]) if {
	some gsi in input.table.gsis
	load := write_load(gsi)
	lib.number(load)
	load > 0
	not over_partition(gsi)
	reason := hot_reason(gsi)
	msg := sprintf("GSI %q has a %s partition key under %s WCU of %s writes%s: its hot partitions can throttle writes to the table", [
		gsi.name, reason, lib.fmt(load), load_source, writers(gsi, hot_key_entities(gsi)),
	])
}

# writers names the entities of a single-table design whose templates write the index's hot partition key,
# each with its templates of the key's attributes, the first three by name; "" without entities.
writers(gsi, names) := sprintf(", written by %s%s", [concat(" and ", array.slice(named, 0, 3)), more(count(named))]) if {
	named := [sprintf("entity %q as %s", [e.entity, concat(" + ", e.partition_key)]) |
		some e in gsi.entities
		e.entity in names
	]
	count(named) > 0
} else := ""

more(n) := sprintf(" and %d more", [n - 3]) if n > 3

else := ""

# hot_key_entities are the entities whose templates make the index's partition key hot: time-bucketed, or
# writing few values.
hot_key_entities(gsi) := {e.entity |
	some e in gsi.entities
	hot_entity_key(e)
}

hot_entity_key(e) if e.time_bucketed

hot_entity_key(e) if {
	lib.number(e.cardinality)
	e.cardinality < limits.low_cardinality
}

# write_load is the writes an index takes: the table's (a design without entities), or those of the entities
# that write its key (a single-table design, whose index may be sparse).
write_load(_) := input.derived.capacity.peak_write_units if not input.derived.entities

write_load(gsi) := gsi.peak_write_units if input.derived.entities

default load_source := "table"

load_source := "index" if input.derived.entities

hot_reason(gsi) := "time-bucketed" if gsi.time_bucketed

hot_reason(gsi) := sprintf("low-cardinality (%d values)", [gsi.partition_key_cardinality]) if {
	not gsi.time_bucketed
	lib.number(gsi.partition_key_cardinality)
	gsi.partition_key_cardinality < limits.low_cardinality
}

over_partition(gsi) if gsi.hot_partition_write_units > limits.partition_write_units

# METADATA
# scope: rule
# title: Projected attribute limit
# description: |
#   A table's indexes together project at most ${max_projected_attributes} INCLUDE non-key attributes; the same name in two
#   indexes counts twice (ServiceQuotas).
# custom:
#   id: DK502
#   name: projection-limit
#   severity: error
#   remediation: Project fewer non-key attributes, or use projection_type = "ALL" on the index that needs many.
errors contains lib.finding(rego.metadata.rule(), msg, ["global_secondary_indexes"]) if {
	n := input.derived.projected_non_key_attributes
	n > limits.max_projected_attributes
	msg := sprintf("the indexes project %d INCLUDE non-key attributes in all; DynamoDB allows %d per table", [n, limits.max_projected_attributes])
}

# METADATA
# scope: rule
# title: GSI count
# description: The default quota is ${max_gsis} GSIs per table; more needs a quota increase (ServiceQuotas).
# custom:
#   id: DK503
#   name: gsi-count
#   severity: warning
#   remediation: Request a quota increase before applying, or overload GSIs (one index serving several access patterns).
warnings contains lib.finding(rego.metadata.rule(), msg, ["global_secondary_indexes"]) if {
	n := count(input.table.gsis)
	n > limits.max_gsis
	msg := sprintf("the table has %d GSIs; the default quota is %d", [n, limits.max_gsis])
}
