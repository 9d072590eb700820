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
documents := object.union(state_documents, change_documents)

change_documents := {rc.address: doc |
	some i in candidates
	rc := input.resource_changes[i]
	is_string(rc.address)
	doc := change_document(rc)
}

# A document the provider computed gets its Terraform address, which the provider cannot know, and the prior
# state's document for DK402, which the provider leaves out of the planned value.
change_document(rc) := object.union(doc, {"address": rc.address, "prior": prior_document(rc)}) if {
	rc.type in design_types
	doc := decoded(rc.change.after)
}

change_document(rc) := aws_document(rc.address, rc.change.after, rc.change.after_unknown) if {
	rc.type == "aws_dynamodb_table"
	aws_readable(rc)
}

# state_documents are the dynamokeys_keydesign data sources Terraform read while planning.
state_documents := {r.address: object.union(doc, {"address": r.address}) |
	some r in state_data_sources
	doc := decoded(r.values)
}

state_data_sources := [r |
	some m in state_modules
	some r in array_or_empty(object.get(m, "resources", []))
	is_object(r)
	r.type == "dynamokeys_keydesign"
	r.mode == "data"
	is_string(r.address)
]

# decoded is the design document of planned or stored values, when it is there and of a supported version.
decoded(values) := doc if {
	doc := parsed(values)
	doc.schema_version in supported_schema_versions
}

parsed(values) := doc if {
	raw := values.design_document
	is_string(raw)
	json.is_valid(raw)
	doc := json.unmarshal(raw)
	is_object(doc)
}

# prior_document is the document of the state an in-place update starts from; a create or a replacement
# starts from nothing, and a state without a document (an imported or moved table) recorded no design.
prior_document(rc) := doc if {
	"update" in rc.change.actions
	doc := decoded(rc.change.before)
} else := null

# design_changes are the candidates of our own types.
design_changes contains i if {
	some i in candidates
	input.resource_changes[i].type in design_types
}

# not_known lists designs whose document is unknown until apply: an input depends on another resource.
not_known contains rc.address if {
	some i in design_changes
	rc := input.resource_changes[i]
	rc.change.after_unknown.design_document == true
}

# unsupported maps addresses to the schema_version of a document this bundle does not understand.
unsupported := {address: version |
	some address, values in design_values
	doc := parsed(values)
	version := object.get(doc, "schema_version", null)
	not version in supported_schema_versions
}

design_values := object.union(
	{r.address: r.values | some r in state_data_sources},
	{rc.address: rc.change.after |
		some i in design_changes
		rc := input.resource_changes[i]
		is_string(rc.address)
	},
)

# unreadable lists checked resources whose planned values are missing or malformed.
unreadable contains rc.address if {
	some i in design_changes
	rc := input.resource_changes[i]
	not rc.change.after_unknown.design_document == true
	not parsed(rc.change.after)
}

unreadable contains r.address if {
	some r in state_data_sources
	not parsed(r.values)
}

unreadable contains rc.address if {
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	not aws_readable(rc)
}
