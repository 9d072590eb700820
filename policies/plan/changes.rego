# Terraform plan adapter, plan structure
# Which parts of `terraform show -json` output the adapter reads: the resource changes it checks, the data
# sources read during planning (prior_state), and the helpers the mapping of aws_dynamodb_table shares.
package dynamokeys.plan

# dynamodb_changes are the indexes of the plan's resource changes of the types the adapter reads. One pass over
# the plan, its first test the type against a set literal: most resources of a large plan are of other types,
# and this form costs half of iterating with `some i, rc in` and testing `rc.type in` a set rule (which OPA
# resolves through the data tree for every resource). Indexes rather than the changes themselves: a set of
# whole resource changes would hash every one.
dynamodb_changes contains i if {
	some i
	input.resource_changes[i].type in {
		"dynamokeys_sharded_table", "aws_dynamodb_table", "aws_dynamodb_global_secondary_index",
		"aws_dynamodb_table_replica", "aws_dynamodb_vector_index", "dynamokeys_keydesign",
	}
}

# candidates are the resource changes the adapter checks as designs: our resource and the AWS provider's
# table when created or updated (replacements included), and our data source when its read was deferred to
# apply. What a change does to a live table (updates, replacements, destroys) is table_changes.rego's.
candidates contains i if {
	some i in dynamodb_changes
	rc := input.resource_changes[i]
	checked_change(rc.type, rc.mode, rc.change.actions)
}

checked_change(type, _, actions) if {
	type in {
		"dynamokeys_sharded_table", "aws_dynamodb_table", "aws_dynamodb_global_secondary_index",
		"aws_dynamodb_table_replica", "aws_dynamodb_vector_index",
	}
	some action in actions
	action in {"create", "update"}
}

checked_change("dynamokeys_keydesign", "data", actions) if "read" in actions

# not_a_plan holds when the input has no resource_changes array at all.
not_a_plan if not input.resource_changes

not_a_plan if {
	changes := input.resource_changes
	not is_array(changes)
}

# state_modules are the modules of prior_state: the data sources Terraform read while planning are there,
# not in resource_changes. Rego has no recursion, so the nesting is followed level by level, five deep;
# deeper_modules names what lies below (a warning says it was not checked).
state_modules := array.flatten([state_level_0, state_level_1, state_level_2, state_level_3, state_level_4, state_level_5])

state_level_0 := [input.prior_state.values.root_module | is_object(input.prior_state.values.root_module)]

state_level_1 := child_modules(state_level_0)

state_level_2 := child_modules(state_level_1)

state_level_3 := child_modules(state_level_2)

state_level_4 := child_modules(state_level_3)

state_level_5 := child_modules(state_level_4)

child_modules(level) := [c | some m in level; some c in array_or_empty(object.get(m, "child_modules", [])); is_object(c)]

deeper_modules contains c.address if {
	some c in child_modules(state_level_5)
}

array_or_empty(x) := x if is_array(x)

array_or_empty(x) := [] if not is_array(x)

map_entries(x) := x if is_object(x)

map_entries(x) := {} if not is_object(x)

# present drops null attributes, so that object.union over a defaults object fills the unset ones. One
# comprehension per block instead of a helper call per attribute: the adapter runs for every planned table.
present(obj) := {k: v | some k, v in obj; v != null}

# with_defaults picks the attributes named in defaults from a planned block, defaults where null or missing.
# object.filter first: a planned aws_dynamodb_table has many more attributes than the rules read.
with_defaults(block, defaults) := object.union(defaults, present(object.filter(block, object.keys(defaults))))
