# METADATA
# title: Terraform plan adapter
# description: |
#   Builds the design documents (contributing/design-document.md) the rules evaluate from `terraform show -json`
#   output. For dynamokeys_sharded_table and dynamokeys_keydesign it decodes the design_document attribute the
#   provider computed, so the rules see what the provider evaluated: nothing is derived again here. Only the
#   AWS provider's aws_dynamodb_table is mapped in Rego (aws.rego).
package dynamokeys.plan

# supported_schema_versions are the design document versions this bundle understands.
supported_schema_versions := {1}

design_types := {"dynamokeys_sharded_table", "dynamokeys_keydesign"}

# documents maps the address of each checked resource or data source to its design document. Comprehensions,
# not partial object rules: OPA checks each new key of a partial object against every earlier one, quadratic
# in tables.
documents := object.union(design_documents, {address: with_change_facts(object.get(design_documents, address, null), doc) |
	some address, doc in change_documents
})

# with_change_facts is a change's document, or, for a resource that also has a design document (a replaced
# standalone GSI checked on its own), that document with the change: both the design rules and the change
# rules judge it.
with_change_facts(null, doc) := doc

with_change_facts(design, doc) := object.union(design, {"change": object.union(doc.change, {"only": false})}) if design != null

design_documents := object.union_n([
	aws_documents, joined_documents, vector_documents, lone_gsi_documents, lone_vector_documents, {address: doc |
	some address, entry in designs
	entry.status == "decoded"
	entry.doc.schema_version in supported_schema_versions

	# The Terraform address, which the provider cannot know, the prior state's document (DK402 and the
	# change rules) and the change, both of which the provider leaves out of the planned value.
	doc := with_sharded_change(address, object.union(entry.doc, {"address": address, "prior": entry.prior}))
}])

# The mapping gets only the attributes it reads: OPA keys its cache of function results by the arguments,
# and hashing a whole planned resource for every call costs more than the mapping.
aws_documents := {rc.address: with_change(with_replicas(aws_document(rc.address, after, after_unknown), after, after_unknown)) |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	is_string(rc.address)
	is_object(rc.change.after)
	aws_mappable(rc.change)
	not sanitized_table(rc.change.after)
	after := object.filter(rc.change.after, relevant_attributes)
	after_unknown := object.filter(map_entries(rc.change.after_unknown), relevant_attributes)
}

# with_change adds to a live table's document what the plan does to it (table_changes.rego).
with_change(doc) := object.union(doc, changes) if {
	changes := aws_table_changes[doc.address]
} else := doc

with_sharded_change(address, doc) := object.union(doc, {"change": c}) if {
	c := sharded_changes[address]
} else := doc

# designs maps the address of each of our resources and data sources in the plan to what its design_document
# holds: decoded (with the document and, for an in-place update, the prior state's document), not_known
# until apply, or unreadable. Each document is decoded once per evaluation, here. The functions take the
# JSON strings, not the resource changes: OPA keys its cache of function results by the arguments, and
# hashing a whole planned resource for every call cost more than the decoding.
designs := object.union(
	{r.address: design(object.get(r.values, "design_document", null), false, null) | some r in state_data_sources},
	{rc.address: design(
		object.get(rc.change, ["after", "design_document"], null),
		object.get(rc.change, ["after_unknown", "design_document"], false) == true,
		prior_json(rc.change.actions, object.get(rc.change, ["before", "design_document"], null)),
	) |
		some i in candidates
		rc := input.resource_changes[i]
		rc.type in design_types
		is_string(rc.address)
	},
)

design(_, true, _) := {"status": "not_known"}

design(raw, false, _) := {"status": "sanitized"} if sanitized(raw)

design(raw, false, prior) := {"status": "decoded", "doc": doc, "prior": prior_document(prior)} if {
	doc := parsed(raw)
} else := {"status": "unreadable"} if not sanitized(raw)

# prior_json is the stored document an in-place update starts from; a create or a replacement starts from
# nothing.
prior_json(actions, before) := before if "update" in actions

else := null

# state_data_sources are the dynamokeys_keydesign data sources Terraform read while planning.
state_data_sources := [r |
	some m in state_modules
	some r in array_or_empty(object.get(m, "resources", []))
	is_object(r)
	r.type == "dynamokeys_keydesign"
	r.mode == "data"
	is_string(r.address)
]

# parsed is the document a design_document string holds, whatever its schema version. The provider writes
# "dk1:" before the document's JSON, so that a human plan shows one line, not a diff of every field;
# providers before the encoding wrote the JSON alone. This is the one place that knows the encoding.
parsed(raw) := doc if {
	is_string(raw)
	text := trim_prefix(raw, "dk1:")
	json.is_valid(text)
	doc := json.unmarshal(text)
	is_object(doc)
}

# prior_document is the prior state's document; a state without one (an imported or moved table) or with
# one of a version this bundle does not read recorded no design it can compare with.
prior_document(raw) := doc if {
	doc := parsed(raw)
	doc.schema_version in supported_schema_versions
} else := null

# not_known lists designs whose document is unknown until apply: an input depends on another resource.
not_known contains address if {
	some address, entry in designs
	entry.status == "not_known"
}

# unsupported maps addresses to the schema_version of a document this bundle does not understand.
unsupported := {address: version |
	some address, entry in designs
	entry.status == "decoded"
	version := object.get(entry.doc, "schema_version", null)
	not version in supported_schema_versions
}

# unreadable lists checked resources whose planned values are missing or malformed.
unreadable contains address if {
	some address, entry in designs
	entry.status == "unreadable"
}

unreadable contains rc.address if {
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	not aws_mappable(rc.change)
}

# unchecked maps each planned aws_dynamodb_table the mapping uses to the attributes its rules read that the
# configuration leaves unknown until apply, as the configuration names them: the rules that read them stay
# silent on the table, every other rule runs, and the entry points warn once per table that they were not
# checked. What the provider computes is no input left unknown, and gets no warning.
unchecked := {rc.address: names |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	aws_documents[rc.address]
	names := unknown_inputs(map_entries(rc.change.after_unknown), resource_config(rc))
	count(names) > 0
}

# sanitized lists checked resources whose strings Spacelift replaced with hashes (its default sanitization):
# their design document, key types and names cannot be read, so they are not checked rather than misread.
sanitized_addresses contains address if {
	some address, entry in designs
	entry.status == "sanitized"
}

sanitized_addresses contains rc.address if {
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	sanitized_table(object.get(rc.change, "after", {}))
}

sanitized_addresses contains rc.address if {
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_global_secondary_index"
	some k in array_or_empty(object.get(rc.change, ["after", "key_schema"], []))
	sanitized(k.key_type)
}

# sanitized holds for a string Spacelift's default sanitization made: the first 8 hex digits of its
# SHA-256. No value the adapter reads here has that form in a real plan (a design document is JSON, a
# billing mode or key type is an enum), so a plan of any other tool is never taken for sanitized.
sanitized(s) if {
	is_string(s)
	count(s) == 8
	regex.match(`^[0-9a-f]{8}$`, s)
}

sanitized_table(after) if sanitized(after.billing_mode)

sanitized_table(after) if {
	some a in array_or_empty(after.attribute)
	sanitized(a.type)
}
