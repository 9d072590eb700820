# METADATA
# title: Key attributes, sizes and names
# description: Rules DK101–DK108 on key types, key sizes, templates and names.
package dynamokeys.rules.keys

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# METADATA
# title: Key attributes are S, N or B
# description: |
#   Table, LSI and GSI key attributes must be top-level scalars of type S, N or B; there is no Date or
#   BOOL key type (API_KeySchemaElement, HowItWorks.NamingRulesDataTypes).
# custom:
#   id: DK101
#   name: key-attribute-type
#   severity: error
#   remediation: Set type to S (string), N (number) or B (binary); encode dates as ISO-8601 strings or epoch numbers.
errors contains lib.finding(rego.metadata.rule(), msg, array.concat(k.path, ["type"])) if {
	some k in input.derived.key_attributes

	# A literal set: a rule reference would be evaluated anew for each planned table of a plan.
	not k.type in {"S", "N", "B"}
	msg := sprintf("key attribute %q has type %q; DynamoDB keys are S, N or B", [k.name, k.type])
}

# METADATA
# title: Partition key length
# description: A partition key value is 1 to ${partition_key_max_bytes} bytes (ServiceQuotas "Partition key length").
# custom:
#   id: DK102
#   name: partition-key-length
#   aws_dynamodb_table: needs the key templates and segments, which aws_dynamodb_table does not have, to bound the key size.
#   severity: error
#   remediation: Shorten literal text or lower the segments' max_length; make sure no rendering can be empty.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in partition_key_length_problems
}

partition_key_length_problems contains {"msg": msg, "path": ["partition_key", "template"]} if {
	not input.derived.entities
	max_bytes := input.derived.partition_key.max_bytes
	lib.number(max_bytes)
	max_bytes > limits.partition_key_max_bytes
	lib.known("partition_key.template")
	msg := sprintf("the partition key can render %s bytes; DynamoDB allows %s", [lib.fmt(max_bytes), lib.fmt(limits.partition_key_max_bytes)])
}

partition_key_length_problems contains {"msg": msg, "path": ["partition_key", "template"]} if {
	not input.derived.entities
	input.derived.partition_key.min_bytes == 0
	lib.known("partition_key.template")
	msg := "the partition key can render as an empty value, which DynamoDB rejects"
}

# With entities, each entity's template of the key.
partition_key_length_problems contains {"msg": msg, "path": ["entities", e.name, "keys", attribute]} if {
	attribute := input.table.partition_key.name
	some e in input.derived.entities.items
	max_bytes := e.max_bytes[attribute]
	lib.number(max_bytes)
	max_bytes > limits.partition_key_max_bytes
	msg := sprintf("entity %q's partition key %q can render %s bytes; DynamoDB allows %s", [
		e.name, attribute, lib.fmt(max_bytes), lib.fmt(limits.partition_key_max_bytes),
	])
}

# METADATA
# title: Sort key length
# description: A sort key value is 1 to ${sort_key_max_bytes} bytes (ServiceQuotas "Sort key length").
# custom:
#   id: DK103
#   name: sort-key-length
#   aws_dynamodb_table: needs the key templates and segments, which aws_dynamodb_table does not have, to bound the key size.
#   severity: error
#   remediation: Shorten literal text or lower the segments' max_length; make sure no rendering can be empty.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in sort_key_length_problems
}

sort_key_length_problems contains {"msg": msg, "path": ["sort_key", "template"]} if {
	not input.derived.entities
	max_bytes := input.derived.sort_key.max_bytes
	lib.number(max_bytes)
	max_bytes > limits.sort_key_max_bytes
	lib.known("sort_key.template")
	msg := sprintf("the sort key can render %s bytes; DynamoDB allows %s", [lib.fmt(max_bytes), lib.fmt(limits.sort_key_max_bytes)])
}

sort_key_length_problems contains {"msg": msg, "path": ["sort_key", "template"]} if {
	not input.derived.entities
	input.derived.sort_key.min_bytes == 0
	lib.known("sort_key.template")
	msg := "the sort key can render as an empty value, which DynamoDB rejects"
}

sort_key_length_problems contains {"msg": msg, "path": ["entities", e.name, "keys", attribute]} if {
	attribute := input.table.sort_key.name
	some e in input.derived.entities.items
	max_bytes := e.max_bytes[attribute]
	lib.number(max_bytes)
	max_bytes > limits.sort_key_max_bytes
	msg := sprintf("entity %q's sort key %q can render %s bytes; DynamoDB allows %s", [
		e.name, attribute, lib.fmt(max_bytes), lib.fmt(limits.sort_key_max_bytes),
	])
}

# METADATA
# title: Undeclared placeholder
# description: Every template placeholder other than {shard} needs a segment that says what it holds.
# custom:
#   id: DK104
#   name: undeclared-placeholder
#   aws_dynamodb_table: checks template placeholders; aws_dynamodb_table has no templates.
#   severity: error
#   remediation: Add a segments entry for the placeholder, e.g. segments = { customer_id = { kind = "id" } }.
errors contains lib.finding(rego.metadata.rule(), msg, [ref.key, "template"]) if {
	lib.known("segments")
	some ref in input.derived.undeclared_placeholders
	msg := sprintf("placeholder {%s} in %s.template has no segment", [ref.placeholder, ref.key])
}

# METADATA
# title: Number key template
# description: |
#   A key of type N must render as a number: literal text must be digits, enum values numeric, time
#   segments epoch milliseconds, and the value at most ${max_number_digits} digits (ServiceQuotas "Number").
# custom:
#   id: DK105
#   name: number-key-template
#   aws_dynamodb_table: checks the literal text and segments of a number key's template; aws_dynamodb_table has no templates.
#   severity: error
#   remediation: Use type S for keys with prefixes or delimiters, or keep an N key to digits and numeric segments.
errors contains lib.finding(rego.metadata.rule(), problem.msg, [problem.key, "template"]) if {
	some problem in number_key_problems
}

number_key_problems contains {"key": key, "msg": msg} if {
	some key in number_keys
	some literal in input.derived[key].literals
	not regex.match(`^[0-9]+$`, literal)
	msg := sprintf("%s has type N but its template has the literal text %q, which is not a number", [key, literal])
}

number_key_problems contains {"key": key, "msg": msg} if {
	some key in number_keys
	some seg in input.derived[key].segments
	not numeric_segment(input.segments[seg.name])
	msg := sprintf("%s has type N but segment {%s} (%s) does not render as a number", [key, seg.name, seg.kind])
}

number_key_problems contains {"key": key, "msg": msg} if {
	some key in number_keys
	max_bytes := input.derived[key].max_bytes
	lib.number(max_bytes)
	max_bytes > limits.max_number_digits
	msg := sprintf("%s has type N and can render %d digits; a DynamoDB number holds %d", [key, max_bytes, limits.max_number_digits])
}

number_keys contains "partition_key" if {
	input.table.partition_key.type == "N"
	lib.known("partition_key.template")
}

number_keys contains "sort_key" if {
	input.table.sort_key.type == "N"
	lib.known("sort_key.template")
}

numeric_segment(seg) if seg.kind in {"id", "number"}

numeric_segment(seg) if {
	seg.kind == "time"
	seg.granularity == "millisecond"
}

numeric_segment(seg) if {
	seg.kind == "enum"
	every v in seg.values {
		regex.match(`^[0-9]+$`, v)
	}
}

# METADATA
# title: Key conventions
# description: |
#   Templates of one table should share one delimiter and one letter case for their literal prefixes, so
#   that keys read alike and begins_with queries are not thrown off by case.
# custom:
#   id: DK106
#   name: key-convention
#   aws_dynamodb_table: compares the literal text of the key templates; aws_dynamodb_table has no templates.
#   severity: warning
#   remediation: "Pick one delimiter (usually #) and one case (usually UPPER) for every literal prefix."
warnings contains lib.finding(rego.metadata.rule(), msg, ["partition_key", "template"]) if {
	some msg in convention_problems
}

convention_problems contains msg if {
	delimiters := input.derived.conventions.delimiters
	count(delimiters) > 1
	msg := sprintf("the key templates mix delimiters %s", [concat(" ", delimiters)])
}

convention_problems contains msg if {
	cases := input.derived.conventions.letter_cases
	count(cases) > 1
	msg := sprintf("the key templates mix letter cases in literal text (%s)", [concat(", ", cases)])
}

# METADATA
# title: Names
# description: |
#   Table and index names are ${min_name_length} to ${max_name_length} characters of [${name_characters}]; key attribute names are 1 to ${max_attribute_name_bytes}
#   bytes (HowItWorks.NamingRulesDataTypes, API_KeySchemaElement).
# custom:
#   id: DK107
#   name: names
#   severity: error
#   remediation: |
#     Rename to ${min_name_length}–${max_name_length} characters of letters, digits, underscore, dot or hyphen
#     (attribute names 1–${max_attribute_name_bytes} bytes).
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in name_problems
}

name_problems contains {"path": ["name"], "msg": msg} if {
	name := input.table.name
	name != ""
	not regex.match(name_pattern, name)
	msg := sprintf("table name %q is not %s", [name, name_rule])
}

# A table needs a name; the data source's designs have none to check.
name_problems contains {"path": ["name"], "msg": msg} if {
	input.kind in {"sharded_table", "aws_dynamodb_table"}
	input.table.name == ""
	lib.known("name")
	msg := sprintf("the table name is empty; a table name is %s", [name_rule])
}

name_problems contains {"path": ["local_secondary_indexes", index.name], "msg": index_name_message(index.name)} if {
	some index in input.table.lsis
	lib.known(concat(".", ["local_secondary_indexes", index.name]))
	not regex.match(name_pattern, index.name)
}

name_problems contains {"path": ["global_secondary_indexes", index.name], "msg": index_name_message(index.name)} if {
	some index in input.table.gsis
	lib.known(concat(".", ["global_secondary_indexes", index.name]))
	not regex.match(name_pattern, index.name)
}

# Key attribute names: two plain comparisons rather than a negated helper, as they run for every key attribute.
name_problems contains {"path": array.concat(k.path, ["name"]), "msg": attribute_name_message(k)} if {
	some k in input.derived.key_attributes
	k.name_bytes < 1
}

name_problems contains {"path": array.concat(k.path, ["name"]), "msg": attribute_name_message(k)} if {
	some k in input.derived.key_attributes
	k.name_bytes > limits.max_attribute_name_bytes
}

# name_pattern is the whole table and index name rule in one regular expression: characters and length
# (limits.min_name_length to max_name_length; a test checks that they agree).
name_pattern := sprintf("^[%s]{%d,%d}$", [limits.name_characters, limits.min_name_length, limits.max_name_length])

name_rule := sprintf("%d–%d characters of [%s]", [limits.min_name_length, limits.max_name_length, limits.name_characters])

index_name_message(name) := sprintf("index name %q is not %s", [name, name_rule])

attribute_name_message(k) := sprintf("key attribute name %q is %d bytes; DynamoDB allows 1 to %d", [k.name, k.name_bytes, limits.max_attribute_name_bytes])

# METADATA
# title: GSI key schema
# description: |
#   A GSI key has 1 to ${max_gsi_key_attributes} partition attributes and 0 to ${max_gsi_key_attributes} sort
#   attributes (GSI.DesignPattern.MultiAttributeKeys).
# custom:
#   id: DK108
#   name: gsi-key-schema
#   severity: error
#   remediation: Give each GSI 1 to ${max_gsi_key_attributes} partition_key attributes and at most ${max_gsi_key_attributes} sort_key attributes.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in gsi_key_problems
}

gsi_key_problems contains {"path": ["global_secondary_indexes", gsi.name, "partition_key"], "msg": msg} if {
	some gsi in input.table.gsis
	n := count(gsi.partition_key)
	not n in numbers.range(1, limits.max_gsi_key_attributes)
	lib.known(concat(".", ["global_secondary_indexes", gsi.name, "partition_key"]))
	msg := sprintf("GSI %q has %d partition key attributes; a GSI needs 1 to %d", [gsi.name, n, limits.max_gsi_key_attributes])
}

gsi_key_problems contains {"path": ["global_secondary_indexes", gsi.name, "sort_key"], "msg": msg} if {
	some gsi in input.table.gsis
	n := count(gsi.sort_key)
	n > limits.max_gsi_key_attributes
	msg := sprintf("GSI %q has %d sort key attributes; a GSI allows at most %d", [gsi.name, n, limits.max_gsi_key_attributes])
}
