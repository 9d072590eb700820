# METADATA
# title: Plan changes
# description: |
#   Rules DK001–DK009 on what a plan does to a live table: a replacement or a destroy, an index rebuilt,
#   dropped or added (with the backfill it costs and the access patterns that fail meanwhile), a replica removed, a
#   stream replaced under its consumers, capacity reset under Application Auto Scaling, and the quotas a
#   change meets. They read the document's `change` (the plan's facts: the provider's for
#   dynamokeys_sharded_table, the plan adapter's for the AWS provider's resources) and compare the design
#   before the change (`prior`) with the design after it.
package dynamokeys.rules.changes

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own.
findings := errors | warnings

change := input.change

table_name := object.get(input, ["table", "name"], "")

# item_count is the table's item count: the design's traffic.item_count when stated (derived.cost.item_count,
# of the design after the change, else before it), else the table's own as DescribeTable last reported it
# (the plan's change: our resource's item_count, or for the AWS provider's tables that of a live
# dynamokeys_observed_traffic of the table in the plan); item_count_source says which.
item_count := input.derived.cost.item_count if lib.number(input.derived.cost.item_count)

else := input.prior.derived.cost.item_count if lib.number(input.prior.derived.cost.item_count)

else := change.item_count if lib.number(change.item_count)

default item_count_source := "DescribeTable's ItemCount"

item_count_source := "traffic.item_count" if lib.number(input.derived.cost.item_count)

item_count_source := "traffic.item_count" if lib.number(input.prior.derived.cost.item_count)

item_count_source := "the item_count of data.dynamokeys_observed_traffic" if {
	not lib.number(input.derived.cost.item_count)
	not lib.number(input.prior.derived.cost.item_count)
	change.item_count_source == "observed_traffic"
}

# items_note is " (N items)" when the item count is known.
default items_note := ""

items_note := sprintf(" (%s items, by %s)", [lib.fmt(item_count), item_count_source]) if lib.number(item_count)

# disposable holds for a table tagged dynamokeys:disposable = "true": its items may go.
disposable if change.disposable == true

# METADATA
# title: Table replaced
# description: |
#   The plan destroys the live table and creates a new, empty one under the same name: DynamoDB deletes every
#   item with the table. A key attribute, an LSI or the name forces it, usually in a change nobody meant as a
#   delete; with deletion_protection the apply stops half-way instead. A table tagged
#   `dynamokeys:disposable = "true"` may be replaced.
# custom:
#   id: DK001
#   name: table-replaced
#   severity: error
#   remediation: >-
#     Keep the key attributes, LSIs and name as they are; to change them, create a new table beside the old
#     one and migrate the items (see the key-scheme migration guide). Add lifecycle { prevent_destroy = true }
#     to tables that hold data. A table whose items may be lost: tag it dynamokeys:disposable = "true".
errors contains lib.finding(rego.metadata.rule(), msg, replace_path) if {
	change.action == "replace"
	not disposable
	msg := sprintf("this plan replaces table %s (%s forces it): DynamoDB deletes the table with every item in it%s and creates an empty one", [
		table_name, forced_by, items_note,
	])
}

# replaced_paths are the attributes that force the replacement, each named once: a path inside another
# listed one (Terraform lists sort_key.name beside sort_key when the sort key is added) is left out.
replaced_paths := sort([p |
	some p in object.get(change, "replaced_by", [])
	not inside_another(p)
])

inside_another(p) if {
	some q in change.replaced_by
	count(q) < count(p)
	array.slice(p, 0, count(q)) == q
}

default forced_by := "an attribute that cannot change in place"

forced_by := concat(", ", [lib.path_string(p) | some p in replaced_paths]) if count(replaced_paths) > 0

default replace_path := ["name"]

replace_path := replaced_paths[0] if count(replaced_paths) > 0

# METADATA
# title: Table destroyed
# description: |
#   The plan destroys the live table: every item goes with it (backups and point-in-time recovery keep a
#   copy only where they are on). A destroy is meant; the warning says what goes.
# custom:
#   id: DK002
#   name: table-destroyed
#   severity: warning
#   remediation: >-
#     Check that the items may go (take an on-demand backup first if not). Tag a table whose items may be
#     lost dynamokeys:disposable = "true".
warnings contains lib.finding(rego.metadata.rule(), msg, ["name"]) if {
	change.action == "delete"
	not disposable
	msg := sprintf("this plan destroys table %s and every item in it%s", [table_name, items_note])
}

# prior_gsis and after_gsis are the GSIs before and after the change, by name; an index created or deleted
# with a standalone resource (aws_dynamodb_global_secondary_index) is in change.index_changes.
prior_gsis[g.name] := g if some g in object.get(input, ["prior", "table", "gsis"], [])

after_gsis[g.name] := g if some g in object.get(input, ["table", "gsis"], [])

# index_actions maps each GSI the change touches to created, deleted or rebuilt (deleted and created again:
# its key or projection changed, which DynamoDB cannot change in place). Only an update of a live table
# touches indexes: a replacement or a destroy takes them all with the table (DK001, DK002).
index_actions := object.union(
	{name: action |
		change.action == "update"
		is_object(input.prior)
		some name in (object.keys(prior_gsis) | object.keys(after_gsis))
		action := gsi_action(object.get(prior_gsis, name, null), object.get(after_gsis, name, null))
	},
	{c.name: c.action | some c in object.get(change, "index_changes", [])},
)

gsi_action(null, _) := "created"

gsi_action(before, null) := "deleted" if before != null

gsi_action(before, after) := "rebuilt" if {
	before != null
	after != null
	index_shape(before) != index_shape(after)
}

index_shape(g) := {
	"partition_key": [[k.name, k.type] | some k in g.partition_key],
	"sort_key": [[k.name, k.type] | some k in g.sort_key],
	"projection_type": g.projection_type,
	"non_key_attributes": sort(object.get(g, "non_key_attributes", [])),
}

# backfill sizes the writes that fill a created or rebuilt GSI on a table that has items: one index entry
# per item that carries the index's keys, each ceil(entry bytes / 1 KB) write units (the entry the cost
# stage sized by projection; 1 write unit, the least, without one). On demand they cost the write request
# price; provisioned, they take the index's write capacity for the hours given.
backfill(name) := {
	"items": items,
	"write_units_per_item": per_item,
	"per_item_basis": per_item_basis,
	"write_units": total,
	"dollars": backfill_dollars(total),
	"hours": backfill_hours(name, total),
} if {
	lib.number(item_count)
	[per_item, per_item_basis, share] := entry_units(name)
	items := item_count * share
	total := items * per_item
}

entry_units(name) := [max([1, ceil(c.entry_bytes / limits.write_unit_bytes)]), "entry", object.get(c, "item_share", 1)] if {
	some c in object.get(input, ["derived", "cost", "indexes"], [])
	c.name == name
	lib.number(c.entry_bytes)
	c.entry_bytes > 0
} else := [1, "at_least", 1]

backfill_dollars(write_units) := (write_units * per_million) / 1000000 if {
	lib.on_demand
	per_million := input.derived.cost.prices.write_request_units_per_million
	lib.number(per_million)
} else := null

backfill_hours(name, write_units) := (write_units / write_capacity) / 3600 if {
	not lib.on_demand
	write_capacity := after_gsis[name].write_capacity
	lib.number(write_capacity)
	write_capacity > 0
} else := null

# backfill_note says what the backfill costs, or which input sizes it.
backfill_note(name) := sprintf("; the backfill writes an entry for each of %s items: %s write units (%s each%s)%s%s", [
	lib.fmt(b.items), lib.fmt(b.write_units), lib.fmt(b.write_units_per_item), at_least(b.per_item_basis),
	dollars_note(b.dollars), hours_note(b.hours, name),
]) if {
	b := backfill(name)
} else := sprintf("; the plan does not know the table's item count, so the backfill is not sized%s", [item_count_hint])

# item_count_hint says which input gives the item count: a design's traffic.item_count, or for the AWS
# provider's resources, which hold none, a live dynamokeys_observed_traffic of the table in the same plan.
default item_count_hint := ": read the table with a live data \"dynamokeys_observed_traffic\" (table_name) in the same plan"

item_count_hint := ": set traffic.item_count" if input.kind in {"sharded_table", "keydesign"}

at_least("at_least") := ", at least"

at_least(basis) := "" if basis != "at_least"

dollars_note(null) := ""

dollars_note(d) := sprintf(", $%s on demand", [lib.fmt(d)]) if d != null

hours_note(null, _) := ""

hours_note(h, name) := sprintf(", %s hours at the index's %s WCU", [lib.fmt(h), lib.fmt(after_gsis[name].write_capacity)]) if h != null

# served maps each access pattern of the design before the change that a GSI served to its reads per
# second (null when not stated).
prior_patterns[p.name] := p if some p in object.get(input, ["prior", "derived", "access_patterns"], [])

prior_reads[p.name] := object.get(p, "reads_per_second", null) if some p in object.get(input, ["prior", "access_patterns"], [])

served_by(name) := sort([p.name |
	some p in prior_patterns
	p.index == name
	p.serves == true
])

# after_serves holds for a pattern some key still serves after the change.
after_serves(pattern) if {
	some p in object.get(input, ["derived", "access_patterns"], [])
	p.name == pattern
	p.serves == true
	object.get(index_actions, p.index, "") != "deleted"
}

patterns_note(names) := "" if count(names) == 0

patterns_note(names) := sprintf("; patterns %s fail until it is ACTIVE again", [concat(", ", [pattern_reads(n) | some n in names])]) if count(names) > 0

pattern_reads(n) := sprintf("%s (%s reads/s)", [n, lib.fmt(prior_reads[n])]) if lib.number(prior_reads[n])

else := n

# METADATA
# title: Index rebuilt
# description: |
#   The plan deletes a GSI and creates it again under the same name (its key or projection changed, which
#   DynamoDB cannot change in place): from the delete until the new index is ACTIVE and backfilled, every
#   query on it fails, and the backfill writes an index entry for each item, at the index's write cost. A
#   vector index changes nothing in place (API_VectorIndexUpdate: Create or Delete only): any change of its
#   vector attribute, dimensions, distance function, search schema or projection rebuilds it, and its
#   backfill writes each item that carries the vector and the HASH attribute (dimensions × 4 bytes of vector
#   plus the projection), at the vector write price.
# custom:
#   id: DK003
#   name: index-rebuilt
#   aws_dynamodb_table: >-
#     fires there, with the backfill's size where a live dynamokeys_observed_traffic of the table in the plan
#     gives the item count, and without the patterns (it has none).
#   cases:
#     gsi:
#       severity: warning
#       when: a GSI's key or projection changes
#       remediation: >-
#         Create the new index under a new name beside the old one, move the queries to it once it is ACTIVE,
#         then delete the old one: no query fails in between. Run the rebuild when its backfill fits the write
#         budget.
#     vector:
#       severity: warning
#       when: >-
#         a vector index's vector attribute, dimensions, distance function, search schema or projection changes
#         (dynamokeys_sharded_table's vector_indexes, or an aws_dynamodb_vector_index replaced)
#       remediation: >-
#         Create the new vector index under a new name beside the old one (a table holds five), move the
#         searches to it once it is ACTIVE and no longer backfilling, then delete the old one.
rebuilt := rego.metadata.rule()

warnings contains lib.finding_case(rebuilt, "gsi", msg, index_path(name)) if {
	some name, action in index_actions
	action == "rebuilt"
	msg := sprintf("GSI %s is deleted and created again, as its key or projection changed%s%s", [
		name, patterns_note(served_by(name)), backfill_note(name),
	])
}

# METADATA
# title: Index dropped
# description: |
#   The plan deletes a GSI or a vector index. Queries or vector searches on it fail from the apply on; a
#   declared access pattern that it alone served has no key left, or a vector search no index (error).
# custom:
#   id: DK004
#   name: index-dropped
#   aws_dynamodb_table: fires there as the dropped warning; the only-index error needs declared access patterns.
#   cases:
#     dropped:
#       severity: warning
#       when: the index goes; no declared pattern loses its only key
#       remediation: Check that no query uses the index before the apply.
#     only-index:
#       severity: error
#       when: a declared access pattern that the index served has no key after the change
#       remediation: >-
#         Keep the index until the pattern's queries use another key, or give the pattern a key that serves
#         it (another GSI), or remove the pattern.
dropped := rego.metadata.rule()

errors contains lib.finding_case(dropped, "only-index", msg, index_path(name)) if {
	some name, action in index_actions
	action == "deleted"
	lost := [n | some n in served_by(name); not after_serves(n)]
	count(lost) > 0
	msg := sprintf("GSI %s is deleted, and patterns %s have no other key: their queries fail from the apply on", [
		name, concat(", ", [pattern_reads(n) | some n in lost]),
	])
}

warnings contains lib.finding_case(dropped, "dropped", msg, index_path(name)) if {
	some name, action in index_actions
	action == "deleted"
	every n in served_by(name) {
		after_serves(n)
	}
	msg := sprintf("GSI %s is deleted: queries on it fail from the apply on", [name])
}

index_path(name) := ["global_secondary_indexes", name]

# METADATA
# title: Replica removed
# description: |
#   The plan removes a Region's replica of a global table: DynamoDB deletes that Region's copy of the table
#   and its items, and the application there reads and writes across Regions or not at all.
# custom:
#   id: DK005
#   name: replica-removed
#   severity: error
#   remediation: >-
#     Keep the replica in the configuration (a replica managed by another state or resource counts too);
#     to retire a Region, move its traffic first, then remove the replica on purpose with the table tagged
#     dynamokeys:disposable = "true".
errors contains lib.finding(rego.metadata.rule(), msg, ["replicas"]) if {
	change.action == "update"
	not disposable
	some region in object.get(change, "replicas_removed", [])
	msg := sprintf("this plan removes the %s replica of table %s: DynamoDB deletes that Region's copy and its items", [region, table_name])
}

# METADATA
# title: Stream replaced under its consumers
# description: |
#   The plan turns the table's stream off or changes its view type: DynamoDB ends the stream, and a new one
#   has a new ARN. Consumers of the old ARN (an aws_lambda_event_source_mapping) stop receiving changes, and
#   the records of the old stream are readable for 24 hours only. On an AWS provider's table it fires when the
#   plan shows a consumer; on dynamokeys_sharded_table, whose plan the provider judges without seeing other
#   resources, on every replacement.
# custom:
#   id: DK006
#   name: stream-replaced
#   severity: warning
#   remediation: >-
#     Point the consumers at the new stream ARN in the same change, and check that they can miss the records
#     written in between, or keep the stream as it is.
warnings contains lib.finding(rego.metadata.rule(), msg, ["stream"]) if {
	change.action == "update"
	s := change.stream
	is_object(s)
	s.before != ""
	s.before != s.after
	consumers := stream_consumers(s.consumers)
	msg := sprintf("the stream of table %s %s: %s", [table_name, stream_change(s), consumers])
}

# stream_consumers names the consumers of the old stream the plan shows. The provider sees no other
# resource, so for dynamokeys_sharded_table every stream replacement warns; an AWS provider's table warns
# only when the plan shows a consumer.
stream_consumers(consumers) := sprintf("%s read the old stream ARN and stop receiving changes", [concat(", ", consumers)]) if {
	count(consumers) > 0
} else := "its consumers (Lambda triggers, pipes, the Kinesis adapter) read the old stream ARN and stop receiving changes" if {
	input.kind == "sharded_table"
}

stream_change(s) := "is turned off" if s.after == ""

stream_change(s) := sprintf("changes from %s to %s, which makes a new stream", [s.before, s.after]) if s.after != ""

# METADATA
# title: Capacity reset under autoscaling
# description: |
#   The plan sets provisioned capacity that Application Auto Scaling manages to a lower figure than the
#   table has now: the apply overwrites what the autoscaler scaled up to, and a busy table or index throttles
#   until the autoscaler scales it up again, minutes later.
# custom:
#   id: DK007
#   name: capacity-reset-under-autoscaling
#   severity: error
#   remediation: >-
#     Leave the capacity to the autoscaler: add lifecycle { ignore_changes = [read_capacity, write_capacity] }
#     (and the GSIs' capacities) to the table, or set the capacity to what the table has now.
errors contains lib.finding(rego.metadata.rule(), msg, r.path) if {
	some r in object.get(change, "capacity_resets", [])
	r.after < r.before
	msg := sprintf("this plan lowers %s of %s from %s to %s, which %s manages: the apply overrides what the autoscaler set", [
		r.attribute, capacity_subject(r.index), lib.fmt(r.before), lib.fmt(r.after), r.managed_by,
	])
}

capacity_subject("") := sprintf("table %s", [table_name])

capacity_subject(index) := sprintf("GSI %s", [index]) if index != ""

warnings contains lib.finding_case(rebuilt, "vector", msg, vector_path(name)) if {
	some name, action in vector_actions
	action == "rebuilt"
	msg := sprintf("vector index %s is deleted and created again, as %s changed and nothing of a vector index changes in place%s%s", [
		name, concat(", ", vector_changed(prior_vectors[name], after_vectors[name])), searches_note(name, searched_by(name)), vector_backfill_note(name),
	])
}

warnings contains lib.finding_case(rebuilt, "vector", msg, vector_path(name)) if {
	some c in object.get(change, "vector_index_changes", [])
	c.action == "rebuilt"
	name := c.name
	not prior_vectors[name]
	msg := sprintf("vector index %s is deleted and created again, as nothing of a vector index changes in place%s", [name, vector_backfill_note(name)])
}

errors contains lib.finding_case(dropped, "only-index", msg, vector_path(name)) if {
	some name, action in vector_actions
	action == "deleted"
	lost := [n | some n in searched_by(name); not after_searched(n)]
	count(lost) > 0
	msg := sprintf("vector index %s is deleted, and searches %s have no other index: they fail from the apply on", [
		name, concat(", ", [search_reads(name, n) | some n in lost]),
	])
}

warnings contains lib.finding_case(dropped, "dropped", msg, vector_path(name)) if {
	some name, action in vector_actions
	action == "deleted"
	every n in searched_by(name) {
		after_searched(n)
	}
	msg := sprintf("vector index %s is deleted: vector searches on it fail from the apply on", [name])
}
