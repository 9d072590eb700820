# METADATA
# title: Key-scheme migrations
# description: |
#   Rules DK406–DK408 on key changes against the prior state, migration phases and the backfill. Go states
#   each document's layout (derived.layout) and the migration's facts (derived.migration); these rules
#   compare the prior state's with the plan's.
package dynamokeys.rules.migration

import data.dynamokeys.lib
import data.dynamokeys.limits

findings := errors | warnings

# METADATA
# title: Key change without a migration
# description: |
#   DynamoDB keeps every item under the key it was written with: a change of key templates or sharding on a
#   live table leaves the existing items under their old keys, where readers of the new keys never look.
#   The change needs a migration whose `from` is the layout the items are in.
# custom:
#   id: DK406
#   name: key-change-without-migration
#   aws_dynamodb_table: needs key templates and sharding in the prior state; aws_dynamodb_table has neither.
#   severity: error
#   remediation: >-
#     Declare migration with phase = "dual_write" and the from block the message gives (the prior state's
#     layout), or keep the templates and sharding the items were written with. When the items already are
#     in the new layout (the old templates described them wrongly), apply the correction once with
#     enforce = false on the block.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in key_change_problems
}

key_change_problems contains {"path": changed_path, "msg": msg} if {
	layouts_comparable
	prior_layout_differs
	not is_object(input.derived.migration)
	not lib.unknown("derived.migration")
	msg := sprintf(
		concat("", [
			"the keys change against the prior state and no migration is declared: %s; the items already in the table ",
			"stay under their old keys. Declare migration = { phase = %q, from = %s }",
		]),
		[missed_reads, "dual_write", input.prior.derived.layout.from],
	)
}

key_change_problems contains {"path": ["migration", "from"], "msg": msg} if {
	layouts_comparable
	prior_layout_differs
	from := input.derived.migration.from
	not same_layout(from, input.prior.derived.layout)
	msg := sprintf(
		"migration.from is not the layout the table's items are in (the prior state's): %s. State from = %s",
		[missed_reads, input.prior.derived.layout.from],
	)
}

key_change_problems contains {"path": ["migration", "from"], "msg": msg} if {
	layouts_comparable
	not prior_layout_differs
	prior_from := input.prior.derived.migration.from
	not same_layout(prior_from, input.derived.migration.from)
	msg := sprintf(
		"migration.from changes during the migration (the state is in %q): the items still under the layout it names would be lost to readers. Keep from = %s",
		[input.prior.derived.migration.phase, prior_from.from],
	)
}

# layouts_comparable: both documents state their layout, and the prior one was recorded with a design.
layouts_comparable if {
	is_object(input.prior.derived.layout)
	is_object(input.derived.layout)
	not "derived.layout" in input.prior.unknown
	lib.known("derived.layout")
}

prior_layout_differs if not same_layout(input.prior.derived.layout, input.derived.layout)

# same_layout: the same keys and routing; the scheme version names a layout but moves no item.
same_layout(x, y) if {
	x.keys == y.keys
	object.remove(x.sharding, ["scheme_version"]) == object.remove(y.sharding, ["scheme_version"])
}

# missed_reads names the access patterns whose key reads change, or says that every read misses.
default missed_reads := "readers of the new keys would miss every item written before"

missed_reads := sprintf("access patterns %s would miss the items written before", [concat(", ", sort(missed_patterns))]) if {
	count(missed_patterns) > 0
}

missed_patterns contains name if {
	some name, reads in input.prior.derived.layout.patterns
	input.derived.layout.patterns[name] != reads
}

# changed_path is the first key template that changed, else the sharding.
default changed_path := ["sharding"]

changed_path := path if {
	paths := [p |
		some entity, keys in input.derived.layout.keys
		some attribute, template in keys
		input.prior.derived.layout.keys[entity][attribute] != template
		p := key_path(entity, attribute)
	]
	count(paths) > 0
	path := sort(paths)[0]
}

key_path(entity, attribute) := ["entities", entity, "keys", attribute] if entity != ""

key_path("", attribute) := [role, "template"] if {
	some role in ["partition_key", "sort_key"]
	input.table[role].name == attribute
}

# METADATA
# title: Migration readers miss items
# description: |
#   The phases go dual_write, backfill, read_new, done. Readers switch to the new layout in read_new, which
#   holds every item only after the backfill; done deletes the old items. Reaching read_new or done before
#   the steps before it (or going back from done to a phase whose readers read the old layout) makes readers
#   miss items.
# custom:
#   id: DK407
#   name: migration-reader-miss
#   aws_dynamodb_table: needs a migration and the prior state's design; aws_dynamodb_table has neither.
#   severity: error
#   remediation: >-
#     Move one phase at a time: apply dual_write, then backfill until every old item is rewritten, then
#     read_new, then done. Moving back a phase (a rollback) is allowed up to read_new.
errors contains lib.finding(rego.metadata.rule(), msg, ["migration", "phase"]) if {
	some msg in phase_problems
}

phase_problems contains msg if {
	current := input.derived.migration.phase_index
	current >= phase_read_new
	some from_index in prior_phase_index
	current > from_index + 1
	msg := sprintf("the migration moves from %s to %q, skipping %s: readers of %s would miss the items %s", [
		phase_label(from_index), input.derived.migration.phase, concat(" and ", skipped(from_index, current)),
		changed_patterns, miss_reason(current),
	])
}

phase_problems contains msg if {
	lib.known("derived.migration")
	input.derived.migration.reached_phase_index == phase_done
	current := input.derived.migration.phase_index
	current < phase_read_new
	msg := sprintf("the migration moves back from \"done\" to %q: the old items were deleted, so readers of %s, which read the old layout again, would miss every item", [
		input.derived.migration.phase, changed_patterns,
	])
}

# The block removed before the backfill finished: readers of the new layout miss what it had not rewritten.
phase_problems contains msg if {
	not is_object(input.derived.migration)
	lib.known("derived.migration")
	layouts_comparable
	not prior_layout_differs
	prior := input.prior.derived.migration
	prior.reached_phase_index < phase_read_new
	names := sort([p.name | some p in prior.patterns; p.changed])
	msg := sprintf("the migration block is removed in phase %q, before the backfill finished: readers of %s would miss the items still only under the old keys", [
		prior.phase, patterns_label(names),
	])
}

phase_read_new := 2

phase_done := 3

phases := ["dual_write", "backfill", "read_new", "done"]

# prior_phase_index is the phase the prior state was in: its migration's, or -1 when the prior state is the
# old layout itself (the migration starts now).
# A rollback's furthest phase counts: the backfill it reached stays done.
prior_phase_index contains i if {
	is_object(input.derived.migration)
	lib.known("derived.migration")
	not "derived.migration" in input.prior.unknown
	continues_prior_migration
	prior := input.prior.derived.migration
	i := max([prior.phase_index, prior.reached_phase_index])
}

prior_phase_index contains -1 if {
	is_object(input.derived.migration)
	lib.known("derived.migration")
	is_object(input.prior.derived.layout)
	not "derived.layout" in input.prior.unknown
	not continues_prior_migration
	same_layout(input.prior.derived.layout, input.derived.migration.from)
}

# continues_prior_migration: the prior state was in a migration from the same layout.
continues_prior_migration if {
	is_object(input.prior.derived.migration)
	same_layout(input.prior.derived.migration.from, input.derived.migration.from)
}

phase_label(-1) := "the old layout (no migration yet)"

phase_label(i) := sprintf("%q", [phases[i]]) if i >= 0

skipped(from_index, to_index) := [sprintf("%q", [phases[i]]) | some i in numbers.range(from_index + 1, to_index - 1)]

miss_reason(current) := "the backfill has not rewritten yet" if current == phase_read_new

miss_reason(current) := "still only under the old keys, and deleted with them" if current == phase_done

changed_patterns := patterns_label(sort([p.name | some p in input.derived.migration.patterns; p.changed]))

default patterns_label(_) := "the re-keyed entities"

patterns_label(names) := sprintf("access patterns %s", [concat(", ", names)]) if count(names) > 0

# METADATA
# title: Backfill rate
# description: |
#   The backfill rewrites the old items beside production traffic, which dual writes double for the entities
#   that move. Above a partition's ${partition_write_units} WCU, or the table's or an index's capacity, it
#   throttles production; past ${backfill_max_hours} hours it keeps both layouts (and their double writes)
#   for long.
# custom:
#   id: DK408
#   name: backfill-rate
#   aws_dynamodb_table: needs a migration with key templates and traffic; aws_dynamodb_table has neither.
#   severity: warning
#   remediation: >-
#     Set migration.backfill_write_units_per_second to the rate the message gives, or raise the capacity
#     (or shard the new keys further) for the backfill's time.
warnings contains lib.finding(rego.metadata.rule(), msg, ["migration", "backfill_write_units_per_second"]) if {
	some msg in backfill_problems
}

backfill_problems contains msg if {
	some b in backfill_ahead
	some t in b.throttles
	msg := sprintf("the backfill at %s WCU/s with the production peak takes %s of the %s's %s: it throttles production; %s", [
		lib.fmt(b.rate), lib.fmt(t.demand), t.what, lib.fmt(t.limit), fitting_rate(b),
	])
}

backfill_problems contains msg if {
	some b in backfill_ahead
	b.rate == 0
	count(b.throttles) == 0
	msg := sprintf("no backfill rate fits: the production peak (dual writes included) leaves no headroom under the %s at target_utilization", [b.headroom_limit])
}

backfill_problems contains msg if {
	some b in backfill_ahead
	lib.number(b.hours)
	b.hours > limits.backfill_max_hours
	msg := sprintf("the backfill of %s items runs %s hours at %s WCU/s, past %s hours; %s WCU/s finishes within them%s", [
		lib.fmt(b.items), lib.fmt(b.hours), lib.fmt(b.rate), lib.fmt(limits.backfill_max_hours),
		lib.fmt(b.rate_for_max_hours), headroom_note(b),
	])
}

# backfill_ahead is the backfill of a migration that has not switched readers yet.
backfill_ahead contains b if {
	lib.known("derived.migration")
	input.derived.migration.phase_index < phase_read_new
	count(input.derived.migration.changed) > 0
	b := input.derived.migration.backfill
}

fitting_rate(b) := sprintf("%s WCU/s fits (the %s's headroom)", [lib.fmt(b.headroom_write_units_per_second), b.headroom_limit]) if {
	b.headroom_write_units_per_second > 0
} else := "no rate fits beside the production peak"

headroom_note(b) := sprintf(" (the headroom is %s WCU/s, under the %s)", [lib.fmt(b.headroom_write_units_per_second), b.headroom_limit]) if {
	b.rate_for_max_hours > b.headroom_write_units_per_second
} else := ""
