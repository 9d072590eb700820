# Terraform plan adapter, aws_dynamodb_global_secondary_index
# The AWS provider's standalone GSI resource (hashicorp/aws >= 6.28): index_name, table_name, key_schema blocks
# (attribute_name, attribute_type, key_type HASH or RANGE, up to 4 of each), projection and throughput blocks.
# Each planned one is joined to its aws_dynamodb_table in the same plan, so the rules that read a table's GSIs
# see it as one of them; the join is by table_name when the plan knows it, else through the configuration's
# reference (table_name = aws_dynamodb_table.x.name). One whose table is not in the plan is checked on its
# own, and a warning names what that leaves unchecked.
package dynamokeys.plan

# standalone_gsis are the planned GSI resources: their address, the table they join (null when none in the
# plan) and the index mapped to the document's GSI shape.
standalone_gsis := [{"address": rc.address, "table": gsi_table(rc, after), "table_name": after.table_name, "gsi": gsi, "unknown": unknown, "existed": existed} |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_global_secondary_index"
	is_string(rc.address)
	is_object(rc.change.after)
	not rc.address in sanitized_addresses
	after := with_defaults(rc.change.after, {"table_name": null, "index_name": "", "key_schema": [], "projection": [], "provisioned_throughput": []})
	gsi := standalone_gsi(object.union(after, {"key_schema": known_or_empty(rc.change, "key_schema")}))
	unknown := [concat(".", ["global_secondary_indexes", gsi.name]) |
		some attr in ["key_schema", "projection", "index_name"]
		holds_unknown(object.get(rc.change, ["after_unknown", attr], false))
	]
	existed := is_object(object.get(rc.change, "before", null))
]

# known_or_empty drops a block list whose value is known only after apply: its keys cannot be checked yet.
known_or_empty(change, attr) := [] if holds_unknown(object.get(change, ["after_unknown", attr], false))

else := value if value := array_or_empty(object.get(change, ["after", attr], []))

# holds_unknown holds for an after_unknown entry that marks a value, or one inside a block, as unknown:
# Terraform writes a block list whose values are all known as a list of empty objects ([{}]).
holds_unknown(marks) if {
	walk(marks, [_, mark])
	mark == true
}

standalone_gsi(after) := {
	"name": after.index_name,
	"partition_key": [key_part(k) | some k in array_or_empty(after.key_schema); is_object(k); k.key_type == "HASH"],
	"sort_key": [key_part(k) | some k in array_or_empty(after.key_schema); is_object(k); k.key_type == "RANGE"],
	"projection_type": object.get(projection, "projection_type", "ALL"),
	"non_key_attributes": array_or_empty(object.get(projection, "non_key_attributes", [])),
	"read_capacity": object.get(throughput, "read_capacity_units", null),
	"write_capacity": object.get(throughput, "write_capacity_units", null),
	"partition_key_cardinality": null,
	"time_bucketed": false,
	"hot_partition_write_units": null,
} if {
	projection := first_block(after.projection)
	throughput := first_block(after.provisioned_throughput)
}

key_part(k) := {"name": object.get(k, "attribute_name", ""), "type": object.get(k, "attribute_type", "S"), "cardinality": null}

first_block(blocks) := block if {
	some block in array_or_empty(blocks)
	is_object(block)
} else := {}

# gsi_table is the address of the planned aws_dynamodb_table the index belongs to, or null.
gsi_table(rc, after) := address if {
	is_string(after.table_name)
	[address] := [a | some a, t in aws_tables; t.name == after.table_name]
} else := address if {
	address := referenced_table(rc_config_key(rc), rc)
} else := null

# aws_tables are the planned aws_dynamodb_table changes the adapter maps: address, name and config key.
aws_tables := {rc.address: {
	"name": object.get(rc.change.after, "name", null), "arn": object.get(rc.change.after, "arn", null),
	"config": rc_config_key(rc), "index": object.get(rc, "index", null),
} |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	is_string(rc.address)
	is_object(rc.change.after)
}

# rc_config_key is a resource change's address in the configuration: its module path and type.name, without
# instance keys.
rc_config_key(rc) := concat(".", [regex.replace(rc.module_address, `\[[^\]]*\]`, ""), rc.type, rc.name]) if is_string(rc.module_address)

else := concat(".", [rc.type, rc.name])

# referenced_table follows the configuration's reference of table_name to a planned table: the one instance
# of that table, or the instance with the same key as the index (count or for_each on both).
referenced_table(config_key, rc) := address if {
	table_key := config_table_refs[config_key]
	instances := [a | some a, t in aws_tables; t.config == table_key]
	address := one_instance(instances, object.get(rc, "index", null))
}

one_instance(instances, _) := instances[0] if count(instances) == 1

one_instance(instances, index) := address if {
	count(instances) > 1
	index != null
	some address in instances
	aws_tables[address].index == index
}

# config_table_refs maps each GSI, vector index and replica resource of the configuration (module path and
# type.name) to the table resource its table_name (an index's) or global_table_arn (a replica's) refers to, in
# the same module.
config_table_refs[key] := concat("", [prefix, table]) if {
	some [prefix, r] in config_resources
	attribute := table_reference[r.type]
	key := concat("", [prefix, r.address])
	some ref in object.get(r, ["expressions", attribute, "references"], [])
	parts := regex.find_all_string_submatch_n(`^(aws_dynamodb_table\.[^.\[]+)`, ref, 1)
	table := parts[0][1]
}

table_reference := {
	"aws_dynamodb_global_secondary_index": "table_name", "aws_dynamodb_vector_index": "table_name",
	"aws_dynamodb_table_replica": "global_table_arn",
}

# config_expressions maps each resource of the configuration (module path and type.name) to its expressions.
config_expressions[key] := object.get(r, "expressions", {}) if {
	some [prefix, r] in config_resources
	key := concat("", [prefix, r.address])
}

# config_resources are [module prefix, resource] of the configuration, five module levels deep like the
# state's data sources.
config_resources contains [m.prefix, r] if {
	some m in config_modules
	some r in array_or_empty(object.get(m.module, "resources", []))
	is_object(r)
	is_string(r.address)
}

config_modules := array.flatten([config_level_0, config_level_1, config_level_2, config_level_3, config_level_4, config_level_5])

config_level_0 := [{"prefix": "", "module": input.configuration.root_module} | is_object(input.configuration.root_module)]

config_level_1 := config_children(config_level_0)

config_level_2 := config_children(config_level_1)

config_level_3 := config_children(config_level_2)

config_level_4 := config_children(config_level_3)

config_level_5 := config_children(config_level_4)

config_children(level) := [{"prefix": concat("", [m.prefix, "module.", name, "."]), "module": call.module} |
	some m in level
	some name, call in map_entries(object.get(m.module, "module_calls", {}))
	is_object(call.module)
]

# joined_documents replace the documents of the planned tables that standalone GSIs join, with those GSIs
# added (sorted by name, as the document's GSIs are). Only those tables: a plan without standalone GSIs pays
# nothing, where a call per table with its document would hash every document.
joined_documents := {address: with_joined(aws_documents[address], [g.gsi | some g in sort_by_name(standalone_gsis); g.table == address]) |
	some address in {g.table | some g in standalone_gsis; g.table != null}
}

sort_by_name(gsis) := [g | some name in sort({g.gsi.name | some g in gsis}); some g in gsis; g.gsi.name == name]

# lone_gsi_documents are the documents of standalone GSIs whose table is not in the plan: the index alone,
# on a table whose name and keys this plan does not show.
lone_gsi_documents := {g.address: lone_gsi_document(g) | some g in standalone_gsis; g.table == null}

# lone_gsis name them, with the table they point at, for the warning that says what was not checked.
lone_gsis := {g.address: g.table_name | some g in standalone_gsis; g.table == null}

# The table's own settings (name, billing mode, keys, other indexes) are not in it; an empty name keeps
# the table-name check (DK107) off a table this plan does not change.
lone_gsi_document(g) := object.union(base, {
	"kind": "aws_dynamodb_global_secondary_index",
	"table": {
		"name": "", "billing_mode": "", "read_capacity": null, "write_capacity": null,
		"on_demand_throughput": null, "warm_throughput": null, "autoscaling": null,
		"partition_key": null, "sort_key": null, "lsis": [], "gsis": [g.gsi],
	},
	"derived": object.union(base.derived, {
		"key_attributes": gsi_key_attributes(g.gsi),
		"projected_non_key_attributes": projected({"lsis": [], "gsis": [g.gsi]}),
		"partition_key": null,
		"sort_key": null,
	}),
	"unknown": array.concat(base.unknown, g.unknown),
}) if {
	base := aws_document(g.address, {"name": ""}, {})
}

# with_joined adds the standalone GSIs joined to a planned table to its document, as if they were its
# global_secondary_index blocks. Those that existed before the plan join the table's prior too: a change of
# one (replaced, deleted) is its own document's, and only a GSI resource the plan creates is new to the table.
with_joined(doc, gsis) := object.union_n([doc, prior_joined(doc), {
	"table": object.union(doc.table, {"gsis": table.gsis}),
	"derived": object.union(doc.derived, {
		"key_attributes": array.concat(doc.derived.key_attributes, [k | some g in gsis; some k in gsi_key_attributes(g)]),
		"projected_non_key_attributes": projected(table),
	}),
	"unknown": array.concat(doc.unknown, [u | some g in standalone_gsis; g.table == doc.address; some u in g.unknown]),
}]) if {
	table := object.union(doc.table, {"gsis": array.concat(doc.table.gsis, gsis)})
}

prior_joined(doc) := {"prior": object.union(doc.prior, {"table": object.union(doc.prior.table, {"gsis": array.concat(
	doc.prior.table.gsis,
	[g.gsi | some g in sort_by_name(standalone_gsis); g.table == doc.address; g.existed],
)})})} if {
	is_object(object.get(doc, ["prior", "table"], null))
} else := {}

gsi_key_attributes(g) := array.concat(
	[key_attribute(["global_secondary_indexes", g.name, "partition_key", format_int(i, 10)], k) | some i, k in g.partition_key],
	[key_attribute(["global_secondary_indexes", g.name, "sort_key", format_int(i, 10)], k) | some i, k in g.sort_key],
)

# standalone_gsi_addresses maps each planned table that standalone GSIs join to those GSIs' addresses by index
# name: a finding on one of those indexes belongs to the GSI resource, which is where the user changes it.
standalone_gsi_addresses := {table: {g.gsi.name: g.address | some g in standalone_gsis; g.table == table} |
	some table in {g.table | some g in standalone_gsis; g.table != null}
}

# finding_address is the address a finding of the document at address belongs to: the standalone GSI's or
# vector index's when the finding's path is in one joined to that table (owners: the table's entry of
# standalone_index_addresses, aws_vectors.rego), else the document's own.
finding_address(address, owners, path) := index_address if {
	index_address := owners[path[0]][path[1]]
} else := address
