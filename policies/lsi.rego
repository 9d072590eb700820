# METADATA
# title: Local secondary indexes
# description: Rules DK201–DK204 on LSI counts, sort keys and item-collection limits.
package dynamokeys.rules.lsi

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# METADATA
# title: LSI count
# description: A table has at most ${max_lsis} local secondary indexes, a fixed limit (ServiceQuotas; LSI.html).
# custom:
#   id: DK201
#   name: lsi-count
#   severity: error
#   remediation: Keep at most ${max_lsis} LSIs; move the other access patterns to GSIs, which can also be added later.
errors contains lib.finding(rego.metadata.rule(), msg, ["local_secondary_indexes"]) if {
	n := count(input.table.lsis)
	n > limits.max_lsis
	msg := sprintf("the table has %d LSIs; DynamoDB allows %d", [n, limits.max_lsis])
}

# METADATA
# title: LSIs need a table sort key
# description: A local secondary index shares the table's partition key and needs a table sort key (LSI.html).
# custom:
#   id: DK202
#   name: lsi-needs-sort-key
#   severity: error
#   remediation: Add a sort_key to the table, or use a GSI instead of the LSI.
errors contains lib.finding(rego.metadata.rule(), msg, ["local_secondary_indexes"]) if {
	count(input.table.lsis) > 0
	no_sort_key
	lib.known("sort_key")
	msg := sprintf("the table has %d LSI(s) but no sort key", [count(input.table.lsis)])
}

# METADATA
# title: LSI item-collection limit
# description: |
#   With an LSI, all items of one partition-key value plus their LSI entries are capped at ${item_collection_gb} GB; writes
#   beyond fail with ItemCollectionSizeLimitExceededException. AWS suggests alarming near ${item_collection_warn_gb} GB
#   (LSI.html#LSI.ItemCollections.SizeLimit).
# custom:
#   id: DK203
#   name: lsi-collection-limit
#   aws_dynamodb_table: estimates the item collection from traffic and templates; aws_dynamodb_table has neither.
#   cases:
#     over-limit:
#       severity: error
#       when: the estimate is above ${item_collection_gb} GB
#       remediation: Bound items per partition-key value (add a time bucket or shard the key), project less into the LSIs, or replace them with GSIs.
#     near-limit:
#       severity: warning
#       when: the estimate is ${item_collection_warn_gb} GB or more
#       remediation: Alarm on ReturnItemCollectionMetrics=SIZE, bound items per partition-key value, or replace the LSIs with GSIs.
#     unbounded:
#       severity: warning
#       when: the design describes its items (a key template, entities or a write rate) and nothing bounds the items per partition-key value
#       remediation: Set traffic.max_items_per_partition_key to the real bound, or bound the collections with a time bucket.
collection_limit := rego.metadata.rule()

errors contains lib.finding_case(collection_limit, "over-limit", msg, collection_path) if {
	count(input.table.lsis) > 0
	bytes := input.derived.collection.bytes
	lib.number(bytes)
	bytes > limits.item_collection_gb * limits.bytes_per_gb
	msg := sprintf("one partition-key value's item collection%s is estimated at %s GB (%s items × %s bytes); the LSI limit is %s GB", [
		largest_note, lib.fmt(bytes / limits.bytes_per_gb), lib.fmt(input.derived.collection.items_per_key), lib.fmt(input.derived.collection.entry_bytes),
		lib.fmt(limits.item_collection_gb),
	])
}

warnings contains lib.finding_case(collection_limit, "near-limit", msg, collection_path) if {
	count(input.table.lsis) > 0
	bytes := input.derived.collection.bytes
	lib.number(bytes)
	bytes >= limits.item_collection_warn_gb * limits.bytes_per_gb
	bytes <= limits.item_collection_gb * limits.bytes_per_gb
	msg := sprintf("one partition-key value's item collection is estimated at %s GB, within %s GB of the %s GB LSI limit", [
		lib.fmt(bytes / limits.bytes_per_gb), lib.fmt(limits.item_collection_gb - limits.item_collection_warn_gb), lib.fmt(limits.item_collection_gb),
	])
}

warnings contains lib.finding_case(collection_limit, "unbounded", msg, collection_path) if {
	count(input.table.lsis) > 0
	input.derived.collection.basis == "unbounded"
	lib.known("traffic.max_items_per_partition_key")
	describes_items
	msg := sprintf(
		"the table has an LSI and the items under one partition-key value can grow without bound; an item collection stops taking writes at %s GB",
		[lib.fmt(limits.item_collection_gb)],
	)
}

# METADATA
# title: LSI blocks split for heat
# description: |
#   With an LSI, an item collection cannot be split across partitions, so one partition-key value is capped
#   at a single partition's ${partition_write_units} WCU / ${partition_read_units} RCU (bp-partition-key-design).
# custom:
#   id: DK204
#   name: lsi-blocks-split
#   aws_dynamodb_table: needs the busiest key's demand, from traffic; aws_dynamodb_table has no traffic.
#   severity: error
#   remediation: Shard the partition key so that each value stays under one partition's throughput, or replace the LSIs with GSIs.
errors contains lib.finding(rego.metadata.rule(), msg, ["local_secondary_indexes"]) if {
	count(input.table.lsis) > 0
	lib.known("derived.capacity")
	some d in lib.demand_scopes
	some [per_shard, limit, unit] in [
		[d.per_shard_write_units, limits.partition_write_units, "WCU"],
		[d.per_shard_read_units, limits.partition_read_units, "RCU"],
	]
	lib.number(per_shard)
	per_shard > limit
	msg := sprintf(
		"each partition-key value%s takes %s %s, but with an LSI its items cannot be split across partitions (%s %s each)",
		[d.note, lib.fmt(per_shard), unit, lib.fmt(limit), unit],
	)
}

# describes_items holds for a design that says something of its items: a key template, entities or a write
# rate. A table known only by its key names (adopted or imported without a design, audited, or an
# aws_dynamodb_table) says nothing of how many items one key holds, so "unbounded" would be a guess: it gets
# the verdict the audit gives, silence, until the design states its traffic.
describes_items if is_string(input.table.partition_key.template)

describes_items if input.derived.entities

describes_items if lib.number(input.traffic.writes_per_second)

no_sort_key if not input.table.sort_key

no_sort_key if input.table.sort_key == null

# largest_note names the entities of the largest item collection of a single-table design.
default largest_note := ""

largest_note := sprintf(" (of entities %s)", [concat(", ", largest[0])]) if count(largest) > 0

largest := [c.entities | some c in input.derived.entities.collections; c.bytes == input.derived.collection.bytes]

# collection_path is where the items per key are stated: with entities, the first entity of the collection.
default collection_path := ["traffic", "max_items_per_partition_key"]

collection_path := ["entities", largest[0][0], "traffic", "max_items_per_partition_key"] if count(largest) > 0

else := ["entities", busiest[0], "traffic", "max_items_per_partition_key"] if count(busiest) > 0

# busiest are the entities of a single-table design's busiest collection.
busiest := input.derived.entities.collections[input.derived.entities.busiest].entities
