# METADATA
# title: Entities of a single-table design
# description: Rules DK109 and DK111 on the entities (item types) of one table.
package dynamokeys.rules.entities

import data.dynamokeys.lib
import data.dynamokeys.rules.keys

items := object.get(input.derived, ["entities", "items"], [])

# METADATA
# title: Entity key collision
# description: |
#   Two entities whose templates can render the same primary key (partition and sort key) write the same
#   item: one entity's PutItem silently replaces the other's. The check reads what each segment can hold
#   (enum values, time formats, number digits, {shard} digits; an id never holds a character the table's
#   templates use as a delimiter, unless the segment declares its characters).
# custom:
#   id: DK109
#   name: entity-key-collision
#   aws_dynamodb_table: needs entities with key templates; aws_dynamodb_table has none.
#   severity: error
#   remediation: |
#     Give each entity a distinct literal prefix in its sort key (PROFILE, ORDER#, INVOICE#), or in its partition
#     key, so that no two entities can render the same key; if an id segment can never hold some characters,
#     declare them with the segment's characters.
errors contains lib.finding(rego.metadata.rule(), msg, ["entities", c.entities[1], "keys"]) if {
	some c in object.get(input.derived, ["entities", "collisions"], [])
	msg := sprintf("entities %q and %q can write the same primary key (for example %s): one entity's writes replace the other's items", [
		c.entities[0], c.entities[1], c.example,
	])
}

# METADATA
# title: Entity index key type
# description: |
#   An entity's value of an index key attribute must have the attribute's type: DynamoDB rejects a write
#   whose index key attribute has another type (a string in a number key). A key of type N renders digits
#   only: numeric segments and no literal text.
# custom:
#   id: DK111
#   name: index-key-type
#   aws_dynamodb_table: needs entities with key templates; aws_dynamodb_table has none.
#   severity: error
#   remediation: |
#     Declare the index key attribute as type S, or give the entity a template of digits and numeric segments
#     (number, an enum of numbers, a millisecond time) for it.
errors contains lib.finding(rego.metadata.rule(), problem.msg, ["entities", problem.entity, "keys", problem.attribute]) if {
	some problem in index_key_problems
}

index_key_problems contains {"entity": e.name, "attribute": k.attribute, "msg": msg} if {
	some e in items
	some k in e.index_keys
	k.type == "N"
	some literal in k.literals
	not regex.match(`^[0-9]+$`, literal)
	msg := sprintf("entity %q writes %q = %q for the index %q, whose key is of type N, but the literal text %q is not a number: DynamoDB rejects the write", [
		e.name, k.attribute, k.template, k.index, literal,
	])
}

index_key_problems contains {"entity": e.name, "attribute": k.attribute, "msg": msg} if {
	some e in items
	some k in e.index_keys
	k.type == "N"
	some name in k.segments
	not keys.numeric_segment(input.segments[name])
	msg := sprintf("entity %q writes %q = %q for the index %q, whose key is of type N, but segment {%s} (%s) does not render as a number: DynamoDB rejects the write", [
		e.name, k.attribute, k.template, k.index, name, input.segments[name].kind,
	])
}
