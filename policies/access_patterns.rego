# METADATA
# title: Access patterns
# description: |
#   Rules DK801–DK808 on the application's queries (access_patterns) against the table key and its
#   indexes. Go matched each pattern with a key and computed its numbers (derived.access_patterns); these
#   rules only compare them.
package dynamokeys.rules.access_patterns

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# served are the patterns a key serves with a Query.
served contains f if {
	some f in input.derived.access_patterns
	f.serves
}

# METADATA
# title: Scan needed
# description: |
#   A Query reads one partition-key value, so it must know every part of a partition key: each placeholder
#   of a key template ({shard} aside, which the reader computes or iterates), or each attribute of a GSI's
#   (multi-attribute) partition key. A pattern that knows less than any key of the table and its indexes
#   can only be answered by a Scan, which reads the whole table on every call.
# custom:
#   id: DK801
#   name: scan-needed
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: error
#   remediation: >-
#     Add a GSI whose partition key is what the query knows (the message names it), with the sorted-on
#     attribute as its sort key; or change the table's key so that the query knows its partition key; or
#     point the pattern at the index that serves it. In a single-table design, name the entities the
#     pattern reads: their templates say which keys the values it knows fill.
errors contains lib.finding(rego.metadata.rule(), scan_message(f), f.path) if {
	some f in input.derived.access_patterns
	not f.serves
}

scan_message(f) := sprintf(
	"pattern %q asks %s, whose partition key needs %s; the query knows %s, so only a Scan can answer it%s",
	[f.name, key_label(f.requested), missing_text(f.unserved[0]), known_text(f), suggestion(f)],
) if {
	f.requested != ""
	count(f.unserved) > 0
}

scan_message(f) := sprintf(
	"pattern %q knows %s, and no key serves it without a Scan (%s)%s",
	[f.name, known_text(f), concat("; ", [sprintf("%s needs %s", [key_label(u.index), missing_text(u)]) | some u in f.unserved]), suggestion(f)],
) if {
	f.requested == ""
	count(f.unserved) > 0
}

scan_message(f) := sprintf("pattern %q knows %s, and the design has no key to read it with: only a Scan can answer it", [f.name, known_text(f)]) if {
	count(f.unserved) == 0
}

missing_text(u) := concat(", ", u.missing)

known_text(f) := "nothing exactly" if {
	count(f.suggested_index.partition_key) == 0
} else := concat(", ", f.suggested_index.partition_key)

suggestion(f) := concat("", [
	": the pattern names no entity, so it knows only the key attributes it lists, while each entity writes ",
	"its own templates; name the entities it reads (entities = [...]) for their templates to say which keys it fills",
]) if {
	input.derived.entities
	some ap in input.access_patterns
	ap.name == f.name
	count(object.get(ap, "entities", [])) == 0
} else := "" if {
	count(f.suggested_index.partition_key) == 0
} else := sprintf(": a GSI with partition key [%s] serves it", [concat(", ", f.suggested_index.partition_key)]) if {
	count(f.suggested_index.sort_key) == 0
} else := sprintf(
	": a GSI with partition key [%s] and sort key [%s] serves it",
	[concat(", ", f.suggested_index.partition_key), concat(", ", f.suggested_index.sort_key)],
)

key_label("table") := "the table's key"

key_label(name) := sprintf("index %q", [name]) if name != "table"

# METADATA
# title: Sort condition not expressible
# description: |
#   A key condition holds equalities on the partition key and at most one condition on the sort key, and a
#   template or a multi-attribute sort key is matched from its first part: the parts before the condition's
#   part must be known exactly. A condition on a later part, a known part after an unknown one, or a range
#   on a number written as text (which sorts "10" before "9") reads past the items and filters them.
# custom:
#   id: DK802
#   name: sort-condition
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: error
#   remediation: >-
#     Reorder the sort-key template (or the GSI's sort attributes) so that what the query knows comes first
#     and the ranged part next; or add an LSI or GSI whose sort key is the ranged attribute; for numbers in a
#     string key, zero-pad them to a fixed width or use a number (N) sort key.
errors contains lib.finding(rego.metadata.rule(), msg, f.path) if {
	some f in served
	not f.sort_expressible
	msg := sprintf("pattern %q: %s", [f.name, f.sort_reason])
}

# METADATA
# title: Fan-out read
# description: |
#   A write-sharded partition key spreads one logical key over shard-count keys. A reader that knows the
#   shard source computes the one shard to read; any other reader queries every shard and merges the
#   results: that many Queries, and times the read units, per call (bp-partition-key-sharding).
# custom:
#   id: DK803
#   name: fanout-read
#   aws_dynamodb_table: needs the access patterns and the sharding, which aws_dynamodb_table does not declare.
#   severity: warning
#   remediation: >-
#     Make the shard source part of the query (add it to equals, or shard on a segment the readers know:
#     sharding.source), keep the shard count as low as the writes allow, or serve the read from a GSI keyed
#     without the shard.
warnings contains lib.finding(rego.metadata.rule(), msg, f.path) if {
	some f in served
	f.fanout
	f.queries_per_call > 1
	msg := sprintf(
		"pattern %q queries all %d shards of %s per call (%s): %dx the reads, %s RCU per call instead of %s, %s RCU/s",
		[
			f.name, f.queries_per_call, key_label(f.index), fanout_cause, f.queries_per_call,
			lib.fmt(f.read_units_per_call), lib.fmt(f.read_units_per_query), lib.fmt(f.read_units_per_second),
		],
	)
}

fanout_cause := "random sharding: no reader can compute the shard" if {
	input.sharding.strategy == "random"
} else := sprintf("the query does not know the shard source {%s}", [input.sharding.source])

# METADATA
# title: Strong read on a GSI
# description: |
#   Global secondary indexes are updated asynchronously and serve only eventually consistent reads: a
#   strongly consistent (or transactional) read of a GSI is refused with a ValidationException
#   (GSI.html, "Reading data from a global secondary index").
# custom:
#   id: DK804
#   name: strong-read-on-gsi
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: error
#   remediation: >-
#     Read the GSI eventually consistent (consistency = "eventual") and tolerate the replication lag, or
#     serve the pattern from the table key or an LSI, which allow strongly consistent reads.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(f.path, ["consistency"])) if {
	some f in input.derived.access_patterns
	f.strong_on_gsi
	msg := sprintf("pattern %q asks GSI %q for %s reads; a GSI serves only eventually consistent reads", [f.name, f.index, f.consistency])
}

# METADATA
# title: Projection miss
# description: |
#   An index entry holds the key attributes and what the index projects (ALL, KEYS_ONLY or INCLUDE's
#   non-key attributes). An attribute it does not project costs a second read of the table per item: the
#   application's GetItem after a GSI Query, or DynamoDB's own fetch for an LSI, at the item's full size.
# custom:
#   id: DK805
#   name: projection-miss
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: warning
#   remediation: >-
#     Project the named attributes (projection_type = "INCLUDE" with them in non_key_attributes, or "ALL"),
#     or drop them from what the pattern needs; projecting costs index storage and write units, fetching
#     costs a table read per item.
warnings contains lib.finding(rego.metadata.rule(), msg, array.concat(f.path, ["attributes"])) if {
	some f in served
	count(f.missing_attributes) > 0
	msg := sprintf(
		"pattern %q needs %s, which %s (projection %s) does not project: each item then costs a read of the table, %s RCU/s more",
		[f.name, concat(", ", f.missing_attributes), key_label(f.index), f.projection, lib.fmt(f.fetch_read_units_per_second)],
	)
}

# METADATA
# title: Unused index
# description: |
#   Every write of an item that carries an index's key attributes is written to the index too, in write
#   units and storage. When the access patterns are declared and none reads an index (none is served by it
#   and none names it), it costs writes and serves no query.
# custom:
#   id: DK806
#   name: unused-index
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: warning
#   remediation: >-
#     Drop the index, or declare the access pattern that reads it. An LSI can be dropped only by recreating
#     the table.
warnings contains lib.finding(rego.metadata.rule(), msg, [index.attribute, index.name]) if {
	count(input.derived.access_patterns) > 0
	lib.known("derived.access_patterns")
	used := {f.index | some f in served} | {f.requested | some f in input.derived.access_patterns}
	some index in indexes
	not index.name in used
	msg := sprintf(
		"no access pattern reads %s %q (%d declared), yet writes to the table also write it",
		[index.kind, index.name, count(input.derived.access_patterns)],
	)
}

indexes contains {"name": g.name, "kind": "GSI", "attribute": "global_secondary_indexes"} if some g in input.table.gsis

indexes contains {"name": l.name, "kind": "LSI", "attribute": "local_secondary_indexes"} if some l in input.table.lsis

# METADATA
# title: Hot read key
# description: |
#   A partition serves at most ${partition_read_units} read units per second (bp-partition-key-design). A pattern whose calls
#   land on few key values, or a fan-out that sends every call to every shard, can put more on one partition
#   of an index or of the table. Reads on the table's key that sharding spreads are sized by the shard
#   count instead (DK303).
# custom:
#   id: DK807
#   name: hot-read-key
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: error
#   remediation: >-
#     Cache the hot reads (DAX or an application cache), spread them (a GSI with a higher-cardinality or
#     write-sharded partition key, or read replicas of the hot items under several keys), or fetch fewer
#     or smaller items per call.
errors contains lib.finding(rego.metadata.rule(), msg, f.path) if {
	some f in served
	not f.sized_by_sharding
	f.partition_read_units > limits.partition_read_units
	msg := sprintf(
		"pattern %q puts %s RCU/s on one partition of %s (%s of its %s RCU/s on the busiest key value); a partition serves %s",
		[
			f.name, lib.fmt(f.partition_read_units), key_label(f.index), lib.percent(f.hot_key_share),
			lib.fmt(f.read_units_per_second), lib.fmt(limits.partition_read_units),
		],
	)
}

# METADATA
# title: Query over one page
# description: |
#   One Query request reads at most ${query_page_bytes} bytes (1 MB) before it returns a page and a
#   LastEvaluatedKey (API_Query): a pattern that reads more per Query takes several sequential round trips
#   per call.
# custom:
#   id: DK808
#   name: page-limit
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   severity: warning
#   remediation: >-
#     Read fewer items per call (paginate in the application with Limit), project a smaller index for the
#     pattern, or keep large attributes out of the items the query reads.
warnings contains lib.finding(rego.metadata.rule(), msg, array.concat(f.path, ["items"])) if {
	some f in served
	f.bytes_per_query > limits.query_page_bytes
	msg := sprintf(
		"pattern %q reads %s items of %s bytes, %s bytes per Query; a Query returns at most %s bytes per page, so each Query takes %d round trips",
		[
			f.name, lib.fmt(f.items_per_query), lib.fmt(f.item_size_bytes), lib.fmt(f.bytes_per_query),
			lib.fmt(limits.query_page_bytes), f.pages_per_query,
		],
	)
}

# METADATA
# title: Entity sort overlap
# description: |
#   In a single-table design, a Query returns every item of the partition-key value whose sort key meets
#   its condition, whatever entity wrote it: a range on ORDER# also returns ORDER#{id}#ITEM#{n}, and a Query
#   without a sort condition the whole collection. The application then reads, pays for and filters items
#   of entities it did not ask for.
# custom:
#   id: DK110
#   name: entity-sort-overlap
#   aws_dynamodb_table: needs entities and access patterns, which aws_dynamodb_table does not declare.
#   severity: warning
#   remediation: |
#     Give the other entity's sort key a prefix the range cannot start with (ORDER# and ORDERITEM#), add a sort
#     condition that selects only the entities the pattern reads, or name the other entity in the pattern if it
#     reads it on purpose.
warnings contains lib.finding(rego.metadata.rule(), msg, ["access_patterns", f.name, "entities"]) if {
	some f in input.derived.access_patterns
	some o in f.entity_overlaps
	msg := sprintf("pattern %q's Query also returns the items of entity %q, which share its item collection and meet its key condition%s", [
		f.name, o.entity, overlap_cost(o),
	])
}

overlap_cost(o) := sprintf(": up to %s extra items%s and %s RCU per call, %s RCU per second at the pattern's rate", [
	lib.fmt(o.extra_items), per_item(o), lib.fmt(o.extra_read_units_per_call), lib.fmt(o.extra_read_units_per_second),
]) if {
	lib.number(o.extra_items)
	lib.number(o.extra_read_units_per_call)
	lib.number(o.extra_read_units_per_second)
} else := sprintf(": up to %s extra items%s and %s RCU per call", [lib.fmt(o.extra_items), per_item(o), lib.fmt(o.extra_read_units_per_call)]) if {
	lib.number(o.extra_items)
	lib.number(o.extra_read_units_per_call)
} else := ": how many, nothing bounds (set that entity's traffic.max_items_per_partition_key to size them)"

# per_item says how many of the other entity's items each returned item brings, when its sort key nests
# under the pattern's entity's (ORDER#{order_id}#LINE#{line} under ORDER#{order_id}).
per_item(o) := sprintf(" (at most %s under each item the pattern returns)", [lib.fmt(o.extra_items_per_item)]) if {
	lib.number(o.extra_items_per_item)
} else := ""
