# METADATA
# title: Vector indexes
# description: Rules DK504–DK512 on vector indexes, their partition key (the search schema's HASH) and their searches.
package dynamokeys.rules.vectors

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings.
findings := errors | warnings

# mib is the mebibyte the throughput and response limits are stated in.
mib := 1048576

# METADATA
# title: Vector index on a provisioned table
# description: |
#   Vector indexes are for on-demand (PAY_PER_REQUEST) tables only (VectorSearch.Requirements): DynamoDB refuses
#   one on a PROVISIONED table.
# custom:
#   id: DK504
#   name: vector-on-demand-only
#   severity: error
#   aws_dynamodb_table: fires on the aws_dynamodb_vector_index resources joined to the table (by table_name) in the same plan, on the table's billing_mode.
#   remediation: Set billing_mode to PAY_PER_REQUEST, or remove the vector indexes.
errors contains lib.finding(rego.metadata.rule(), msg, ["billing_mode"]) if {
	input.table.billing_mode == "PROVISIONED"
	count(input.derived.vector_indexes) > 0
	msg := sprintf("the table is PROVISIONED and has %d vector index(es) (%s): vector indexes need an on-demand (PAY_PER_REQUEST) table", [
		count(input.derived.vector_indexes), concat(", ", [v.name | some v in input.derived.vector_indexes]),
	])
}

# METADATA
# scope: rule
# title: Vector index count
# description: A table has at most ${max_vector_indexes} vector indexes (VectorSearchWorkingWith).
# custom:
#   id: DK505
#   name: vector-index-count
#   severity: error
#   aws_dynamodb_table: fires on the aws_dynamodb_vector_index resources joined to the table (by table_name) in the same plan.
#   remediation: Keep at most ${max_vector_indexes} vector indexes; share one index between searches, or put the vectors of another use in another table.
errors contains lib.finding(rego.metadata.rule(), msg, ["vector_indexes"]) if {
	n := count(input.derived.vector_indexes)
	n > limits.max_vector_indexes
	msg := sprintf("%d vector indexes: a table has at most %d", [n, limits.max_vector_indexes])
}

# METADATA
# title: Vector dimensions
# description: |
#   An index's dimensions are ${min_vector_dimensions} to ${max_vector_dimensions}, and indexes that share a vector
#   attribute must have the same dimensions (VectorSearchWorkingWith; API_CreateVectorIndexAction): DynamoDB refuses
#   the index otherwise, and a vector of another length is rejected on write.
# custom:
#   id: DK506
#   name: vector-dimensions
#   aws_dynamodb_table: fires on aws_dynamodb_vector_index, at the index's address; the shared-attribute case among the indexes joined to one table in the same plan.
#   cases:
#     out-of-range:
#       severity: error
#       when: the dimensions are outside ${min_vector_dimensions} to ${max_vector_dimensions}
#       remediation: Set dimensions to the embedding model's vector length, ${min_vector_dimensions} to ${max_vector_dimensions} (use a smaller model for longer ones).
#     mismatched:
#       severity: error
#       when: another index on the same vector attribute has other dimensions
#       remediation: Give indexes on one vector attribute the same dimensions, or store each embedding in an attribute of its own.
dimensions := rego.metadata.rule()

errors contains lib.finding_case(dimensions, "out-of-range", msg, array.concat(v.path, ["dimensions"])) if {
	some v in input.derived.vector_indexes
	lib.number(v.dimensions)
	not in_range(v.dimensions, limits.min_vector_dimensions, limits.max_vector_dimensions)
	msg := sprintf("vector index %q has %s dimensions: DynamoDB takes %s to %s", [
		v.name, lib.fmt(v.dimensions), lib.fmt(limits.min_vector_dimensions), lib.fmt(limits.max_vector_dimensions),
	])
}

errors contains lib.finding_case(dimensions, "mismatched", msg, array.concat(v.path, ["dimensions"])) if {
	some v in input.derived.vector_indexes
	count(v.shared_dimensions) > 0
	msg := sprintf("vector index %q has %s dimensions on %q, which %s index(es) %s read with other dimensions: %s", [
		v.name, lib.fmt(v.dimensions), v.vector_attribute, lib.fmt(count(v.shared_dimensions)), concat(", ", v.shared_dimensions),
		"indexes on one vector attribute must agree",
	])
}

in_range(x, lo, hi) if {
	x >= lo
	x <= hi
}

# METADATA
# scope: rule
# title: Vector search top_k
# description: A search returns ${min_vector_top_k} to ${max_vector_top_k} neighbours (TopK; VectorSearchWorkingWith); DynamoDB refuses another value.
# custom:
#   id: DK507
#   name: vector-top-k
#   severity: error
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   remediation: Ask for ${min_vector_top_k} to ${max_vector_top_k} neighbours; for more, search again with filters excluding what was returned.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(s.path, ["top_k"])) if {
	some v in input.derived.vector_indexes
	some s in v.searches
	lib.number(s.top_k)
	not in_range(s.top_k, limits.min_vector_top_k, limits.max_vector_top_k)
	msg := sprintf("pattern %q asks vector index %q for top_k %s: a search returns %s to %s", [
		s.pattern, v.name, lib.fmt(s.top_k), lib.fmt(limits.min_vector_top_k), lib.fmt(limits.max_vector_top_k),
	])
}

# METADATA
# scope: rule
# title: Hot vector HASH value
# description: |
#   One value of a vector index's partition key (the search schema's HASH) takes ${vector_hash_write_bytes_per_second}
#   bytes a second of vector writes (VectorSearchBestPractices); a write is the vector (dimensions × 4 bytes) and the
#   item's projection. The rule compares the busiest value's writes, from the entities' templates of the HASH and
#   their traffic, with that limit at the target utilization. An index without HASH is one value.
# custom:
#   id: DK508
#   name: vector-hash-hot
#   severity: error
#   aws_dynamodb_table: needs the entities' templates and traffic; aws_dynamodb_table has neither.
#   remediation: Give the HASH more values ({tenant_id}#{shard}), project less (KEYS_ONLY), use fewer dimensions, or ask AWS Support for more.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(v.path, ["partition_key"])) if {
	some v in input.derived.vector_indexes
	hot := v.hot_hash_write_bytes_per_second
	lib.number(hot)
	hot > hash_write_cap
	msg := sprintf("vector index %q writes %s MB/s of vectors to its busiest HASH value%s (a value takes %s MB/s; %s MB/s at %s)%s", [
		v.name, lib.fmt(hot / mib), hot_writers(v), lib.fmt(limits.vector_hash_write_bytes_per_second / mib),
		lib.fmt(hash_write_cap / mib), sprintf("target_utilization %s", [lib.fmt(input.target_utilization)]), values_needed(v),
	])
}

# hash_write_cap is the vector writes one HASH value takes at the target utilization.
hash_write_cap := limits.vector_hash_write_bytes_per_second * input.target_utilization

hot_writers(v) := sprintf(", written by %s", [concat(" and ", [sprintf("entity %q", [e]) | some e in v.hot_hash_entities])]) if {
	count(v.hot_hash_entities) > 0
	v.hot_hash_entities[0] != ""
} else := ""

values_needed(v) := sprintf(": its %s MB/s of writes need at least %s evenly used HASH values, it has %s", [
	lib.fmt(v.write_bytes_per_second / mib), lib.fmt(v.hash_values_needed), values_text(v),
]) if {
	lib.number(v.hash_values_needed)
} else := ""

values_text(v) := lib.fmt(v.hash_values) if lib.number(v.hash_values)

else := "a hot one"

# METADATA
# title: Vector HASH without spread
# description: |
#   A vector index's HASH confines each search to one value: a value unique to each item holds one vector, so a
#   search has nothing to rank and recall is poor; a few-valued HASH (a boolean, a status: fewer than
#   ${vector_hash_few_values} values) gives no spread of throughput, which scales with the number of values
#   (VectorSearchBestPractices).
# custom:
#   id: DK509
#   name: vector-hash-spread
#   aws_dynamodb_table: fires in the unique case, on an aws_dynamodb_vector_index whose HASH is the only key of its table; few-values needs templates.
#   cases:
#     unique:
#       severity: warning
#       when: the HASH renders a value per item
#       remediation: Use what searches are confined to (a tenant, a user) as the HASH, in a new index; let it backfill, then delete the old one.
#     few-values:
#       severity: warning
#       when: the HASH has fewer than ${vector_hash_few_values} values
#       remediation: Use an attribute of many values as the HASH (a tenant rather than a flag), or omit the HASH when searches are not confined to a value.
spread := rego.metadata.rule()

warnings contains lib.finding_case(spread, "unique", msg, array.concat(v.path, ["partition_key"])) if {
	some v in input.derived.vector_indexes
	v.hash_unique_per_item
	msg := sprintf("vector index %q has a HASH %q that renders a value per item (%s): each value holds one vector, so a search has nothing to rank", [
		v.name, v.partition_key.name, concat(", ", [entity_label(e) | some e in v.hash_unique_entities]),
	])
}

warnings contains lib.finding_case(spread, "few-values", msg, array.concat(v.path, ["partition_key"])) if {
	some v in input.derived.vector_indexes
	v.partition_key != null
	lib.number(v.hash_values)
	v.hash_values < limits.vector_hash_few_values
	msg := sprintf("vector index %q has a HASH %q of %s value(s): throughput and recall scale with the values, and %s give no spread", [
		v.name, v.partition_key.name, lib.fmt(v.hash_values), lib.fmt(v.hash_values),
	])
}

entity_label(name) := sprintf("entity %q", [name]) if name != ""

else := "the table's items"

# METADATA
# scope: rule
# title: Vector items never indexed
# description: |
#   An item is in a vector index only when it carries the vector attribute and the HASH attribute: one without
#   the HASH is written successfully and silently never indexed (VectorSearchDataSync).
# custom:
#   id: DK510
#   name: vector-item-not-indexed
#   severity: warning
#   aws_dynamodb_table: needs the entities' vector attributes and keys; aws_dynamodb_table has neither.
#   remediation: Give the entity a template of the index's HASH in its keys, or drop the attribute from its vector_attributes.
warnings contains lib.finding(rego.metadata.rule(), msg, e.path) if {
	some v in input.derived.vector_indexes
	some e in v.entities
	not e.member
	msg := sprintf("entity %q carries vector attribute %q but no template of vector index %q's HASH %q: %s", [
		e.entity, v.vector_attribute, v.name, v.partition_key.name, "its items are written and never indexed",
	])
}

# METADATA
# scope: rule
# title: Vector search response size
# description: |
#   A SearchVectors response is at most ${vector_response_bytes} bytes and has no pagination
#   (VectorSearch.Requirements): top_k × the projected item must fit.
# custom:
#   id: DK511
#   name: vector-response-size
#   severity: error
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   remediation: Project less (KEYS_ONLY, or INCLUDE the attributes the caller shows) and read the rest with BatchGetItem, or ask for fewer neighbours.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(s.path, ["top_k"])) if {
	some v in input.derived.vector_indexes
	some s in v.searches
	lib.number(s.response_bytes)
	s.response_bytes > limits.vector_response_bytes
	msg := sprintf("pattern %q returns up to %s MB per search of vector index %q (top_k %s × %s bytes projected): %s", [
		s.pattern, lib.fmt(s.response_bytes / mib), v.name, lib.fmt(s.top_k), lib.fmt(s.projected_item_bytes),
		sprintf("a response holds %s MB", [lib.fmt(limits.vector_response_bytes / mib)]),
	])
}

# METADATA
# scope: rule
# title: Vector search without its HASH
# description: |
#   Every search of a vector index with a HASH gives one HASH value with = (VectorSearchWorkingWith); a search
#   that does not know it cannot be made.
# custom:
#   id: DK512
#   name: vector-search-hash
#   severity: error
#   aws_dynamodb_table: needs the access patterns, which aws_dynamodb_table does not declare.
#   remediation: Give the HASH value in the pattern's equals (its attribute or the segments of its template), or search an index without HASH.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(s.path, ["index"])) if {
	some v in input.derived.vector_indexes
	some s in v.searches
	not s.hash_given
	msg := sprintf("pattern %q searches vector index %q without its HASH %q in equals: every search names one HASH value", [
		s.pattern, v.name, v.partition_key.name,
	])
}
