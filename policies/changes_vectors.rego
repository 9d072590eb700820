# Plan changes of vector indexes: the vector indexes of the design before the change and after it, and those
# of standalone aws_dynamodb_vector_index resources, what a rebuild backfills and the searches a delete
# breaks, which rules DK003, DK004 (changes.rego) and DK008 (changes_quotas.rego) read.
package dynamokeys.rules.changes

import data.dynamokeys.lib
import data.dynamokeys.limits

# prior_vectors and after_vectors are the vector indexes before and after the change, by name (the vectors
# stage's derived.vector_indexes); one created or deleted by a resource of its own (aws_dynamodb_vector_index)
# is in change.vector_index_changes.
prior_vectors[v.name] := v if some v in object.get(input, ["prior", "derived", "vector_indexes"], [])

after_vectors[v.name] := v if some v in object.get(input, ["derived", "vector_indexes"], [])

# vector_actions maps each vector index the change touches to created, deleted or rebuilt: nothing of a
# vector index changes in place, so any difference deletes it and creates it again.
vector_actions := object.union(
	{name: action |
		change.action == "update"
		is_object(input.prior)
		some name in (object.keys(prior_vectors) | object.keys(after_vectors))
		action := gsi_action_of(vector_changed(object.get(prior_vectors, name, null), object.get(after_vectors, name, null)))
	},
	{c.name: c.action | some c in object.get(change, "vector_index_changes", [])},
)

gsi_action_of("created") := "created"

gsi_action_of("deleted") := "deleted"

gsi_action_of(changed) := "rebuilt" if {
	is_array(changed)
	count(changed) > 0
}

# vector_changed is "created", "deleted", or the settings of an index that differ before and after.
vector_changed(null, _) := "created"

vector_changed(before, null) := "deleted" if before != null

vector_changed(before, after) := changed if {
	before != null
	after != null
	changed := [k |
		some k, v in vector_shape(before)
		vector_shape(after)[k] != v
	]
}

vector_shape(v) := {
	"vector_attribute": object.get(v, "vector_attribute", ""),
	"dimensions": object.get(v, "dimensions", null),
	"distance_function": object.get(v, "distance_function", ""),
	"search_schema": array.concat(
		[["HASH", k.name, k.type] | k := object.get(v, "partition_key", null); is_object(k)],
		sort([["INLINE_FILTER", f.name, f.type] | some f in object.get(v, "inline_filters", [])]),
	),
	"projection": [object.get(v, "projection_type", ""), sort(object.get(v, "non_key_attributes", []))],
}

# vector_backfill sizes what a created or rebuilt vector index writes on a table that has items: each item
# that carries the vector and the HASH attribute, its vector (dimensions × 4 bytes) and projection (the
# vectors stage's largest member's write bytes; the vector alone, the least, without one), at the vector
# write price per GB where the design prices it.
vector_backfill(name, items) := {
	"items": items,
	"bytes_per_item": per_item,
	"per_item_basis": basis,
	"bytes": items * per_item,
	"dollars": vector_dollars(name, items * per_item),
} if {
	lib.number(items)
	[per_item, basis] := vector_item_bytes(name)
}

vector_item_bytes(name) := [max(sizes), "entry"] if {
	sizes := [e.write_bytes_per_item | some e in after_vectors[name].entities; e.member == true]
	count(sizes) > 0
} else := [after_vectors[name].vector_bytes, "at_least"] if {
	lib.number(after_vectors[name].vector_bytes)
} else := [c.dimensions * limits.vector_bytes_per_dimension, "at_least"] if {
	some c in object.get(change, "vector_index_changes", [])
	c.name == name
	lib.number(c.dimensions)
}

vector_dollars(name, bytes) := (bytes / limits.bytes_per_gb) * price if {
	price := after_vectors[name].cost.prices.write_gb
	lib.number(price)
} else := null

vector_backfill_note(name) := sprintf("; the backfill indexes each of %s items that carry its vector and HASH attributes: %s (%s bytes each%s)%s", [
	lib.fmt(b.items), gb_label(b.bytes), lib.fmt(b.bytes_per_item), at_least(b.per_item_basis), vector_dollars_note(b.dollars),
]) if {
	b := vector_backfill(name, item_count)
} else := sprintf("; the plan does not know the table's item count, so the backfill is not sized%s", [item_count_hint])

gb_label(bytes) := sprintf("%s GB", [lib.fmt(bytes / limits.bytes_per_gb)])

vector_dollars_note(null) := ""

vector_dollars_note(d) := sprintf(", $%s at the vector write price", [lib.fmt(d)]) if d != null

# searched_by are the access patterns whose vector search the index served before the change, with their
# searches per second.
searched_by(name) := sort([s.pattern | some s in object.get(prior_vectors, [name, "searches"], [])])

search_reads(name, pattern) := sprintf("%s (%s searches/s)", [pattern, lib.fmt(s.reads_per_second)]) if {
	some s in prior_vectors[name].searches
	s.pattern == pattern
	lib.number(s.reads_per_second)
} else := pattern

# after_searched holds for a pattern that a vector index still serves after the change.
after_searched(pattern) if {
	some name, v in after_vectors
	object.get(vector_actions, name, "") != "deleted"
	some s in object.get(v, "searches", [])
	s.pattern == pattern
}

searches_note(_, names) := "" if count(names) == 0

searches_note(name, names) := sprintf("; searches %s fail until it is ACTIVE and backfilled again", [concat(", ", [search_reads(name, n) | some n in names])]) if {
	count(names) > 0
}

vector_path(name) := ["vector_indexes", name]
