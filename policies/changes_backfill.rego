# Plan changes that add an index to a live table (DK009): what its backfill writes, and the declared patterns
# that wait for it.
package dynamokeys.rules.changes

import data.dynamokeys.lib

# METADATA
# title: Index backfilled
# description: |
#   The plan creates a GSI or a vector index on a table that has items. DynamoDB backfills it from the table
#   before it is usable: a GSI writes an index entry for each item that carries its keys, at the index's write
#   cost, and answers no query until it is ACTIVE (GSI.OnlineOps); a vector index indexes each item that
#   carries its vector and HASH attributes, and answers no search while it is backfilling
#   (VectorSearchWorkingWith). An application released with the index fails on it until then. A table known
#   to be empty stays silent.
# custom:
#   id: DK009
#   name: index-backfilled
#   aws_dynamodb_table: >-
#     fires there, with the backfill's size where a live dynamokeys_observed_traffic of the table in the plan
#     gives the item count, and without the patterns (it has none).
#   cases:
#     gsi:
#       severity: warning
#       when: a GSI is created on a table that has items (or whose item count is not known)
#       remediation: >-
#         Create the index ahead of the release that queries it, and release that code once the index is
#         ACTIVE; run the backfill when it fits the table's write budget.
#     vector:
#       severity: warning
#       when: a vector index is created on a table that has items (or whose item count is not known)
#       remediation: >-
#         Create the vector index ahead of the release that searches it, and release that code once the index
#         is ACTIVE and no longer backfilling.
backfilled := rego.metadata.rule()

warnings contains lib.finding_case(backfilled, "gsi", msg, index_path(name)) if {
	some name, action in index_actions
	action == "created"
	not empty_table
	msg := sprintf("GSI %s is created on a live table and answers no query until it is ACTIVE%s%s", [
		name, waiting_note(waiting_patterns(name)), backfill_note(name),
	])
}

warnings contains lib.finding_case(backfilled, "vector", msg, vector_path(name)) if {
	some name, action in vector_actions
	action == "created"
	not empty_table
	msg := sprintf("vector index %s is created on a live table and answers no search until it is ACTIVE and backfilled%s%s", [
		name, waiting_note(waiting_searches(name)), vector_backfill_note(name),
	])
}

# empty_table holds for a table whose item count is known to be 0: its new indexes have nothing to backfill.
empty_table if {
	lib.number(item_count)
	item_count == 0
}

# waiting_patterns are the declared patterns the new GSI serves, with their reads per second.
waiting_patterns(name) := sort([reads_label(p.name) |
	some p in object.get(input, ["derived", "access_patterns"], [])
	p.index == name
	p.serves == true
])

after_reads[p.name] := object.get(p, "reads_per_second", null) if some p in object.get(input, "access_patterns", [])

reads_label(n) := sprintf("%s (%s reads/s)", [n, lib.fmt(after_reads[n])]) if lib.number(after_reads[n])

else := n

# waiting_searches are the declared vector searches the new vector index serves.
waiting_searches(name) := sort([search_label(s) | some s in object.get(after_vectors, [name, "searches"], [])])

search_label(s) := sprintf("%s (%s searches/s)", [s.pattern, lib.fmt(s.reads_per_second)]) if lib.number(s.reads_per_second)

else := s.pattern

waiting_note(labels) := "" if count(labels) == 0

waiting_note(labels) := sprintf("; patterns %s wait for it", [concat(", ", labels)]) if count(labels) > 0
