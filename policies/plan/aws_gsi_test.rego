package dynamokeys.plan_aws_gsi_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

table_change(address, name) := {
	"address": address, "mode": "managed", "type": "aws_dynamodb_table", "name": split(address, ".")[1],
	"change": {"actions": ["create"], "before": null, "after_unknown": {}, "after": {
		"name": name, "hash_key": "customerId", "range_key": "orderId", "billing_mode": "PAY_PER_REQUEST",
		"attribute": [{"name": "customerId", "type": "S"}, {"name": "orderId", "type": "S"}],
		"global_secondary_index": [], "local_secondary_index": [],
	}},
}

gsi_change(address, table_name, index_name, keys, after_unknown) := {
	"address": address, "mode": "managed", "type": "aws_dynamodb_global_secondary_index", "name": split(address, ".")[1],
	"change": {"actions": ["create"], "before": null, "after_unknown": after_unknown, "after": {
		"table_name": table_name, "index_name": index_name,
		"key_schema": [{"attribute_name": k[0], "attribute_type": k[1], "key_type": k[2]} | some k in keys],
		"projection": [{"projection_type": "INCLUDE", "non_key_attributes": ["total"]}],
		"provisioned_throughput": [],
	}},
}

by_tenant := gsi_change(
	"aws_dynamodb_global_secondary_index.by_tenant", "orders", "by_tenant",
	[["tenantId", "S", "HASH"], ["region", "S", "HASH"], ["created", "N", "RANGE"]], {"arn": true},
)

test_standalone_gsi_joins_its_table_by_name if {
	doc := plan.documents["aws_dynamodb_table.orders"] with input as {"resource_changes": [table_change("aws_dynamodb_table.orders", "orders"), by_tenant]}
	doc.table.gsis == [{
		"name": "by_tenant",
		"partition_key": [{"name": "tenantId", "type": "S", "cardinality": null}, {"name": "region", "type": "S", "cardinality": null}],
		"sort_key": [{"name": "created", "type": "N", "cardinality": null}],
		"projection_type": "INCLUDE", "non_key_attributes": ["total"], "read_capacity": null, "write_capacity": null,
		"partition_key_cardinality": null, "time_bucketed": false, "hot_partition_write_units": null,
	}]
	doc.derived.projected_non_key_attributes == 1
	["global_secondary_indexes", "by_tenant", "sort_key", "0"] in {k.path | some k in doc.derived.key_attributes}
	joined := {"resource_changes": [table_change("aws_dynamodb_table.orders", "orders"), by_tenant]}
	not "aws_dynamodb_global_secondary_index.by_tenant" in object.keys(plan.documents) with input as joined
}

# table_name = aws_dynamodb_table.t.name when the name is known only after apply, in a module, with count.
traced_plan := {
	"resource_changes": [
		object.union(table_change("module.app.aws_dynamodb_table.t[0]", null), {"module_address": "module.app", "name": "t", "index": 0}),
		object.union(table_change("module.app.aws_dynamodb_table.t[1]", null), {"module_address": "module.app", "name": "t", "index": 1}),
		object.union(
			gsi_change("module.app.aws_dynamodb_global_secondary_index.g[1]", null, "x", [["kind", "BOOL", "HASH"]], {"table_name": true}),
			{"module_address": "module.app", "name": "g", "index": 1},
		),
	],
	"configuration": {"root_module": {"module_calls": {"app": {"module": {"resources": [
		{"address": "aws_dynamodb_table.t", "type": "aws_dynamodb_table"},
		{"address": "aws_dynamodb_global_secondary_index.g", "type": "aws_dynamodb_global_secondary_index", "expressions": {
			"table_name": {"references": ["aws_dynamodb_table.t[count.index].name", "aws_dynamodb_table.t"]},
		}},
	]}}}}},
}

test_standalone_gsi_traced_through_configuration_to_its_table_instance if {
	docs := plan.documents with input as traced_plan
	[g.name | some g in docs["module.app.aws_dynamodb_table.t[1]"].table.gsis] == ["x"]
	docs["module.app.aws_dynamodb_table.t[0]"].table.gsis == []
	denied := {[d.rule, d.address] | some d in conftest.deny} with input as traced_plan
	denied == {["DK101", "module.app.aws_dynamodb_global_secondary_index.g[1]"], ["DK107", "module.app.aws_dynamodb_global_secondary_index.g[1]"]}
}

# A finding on a joined standalone GSI carries the GSI's address; the table's own findings keep the table's.
test_findings_on_a_joined_gsi_carry_its_address if {
	joined := {"resource_changes": [
		table_change("aws_dynamodb_table.orders", "orders"),
		gsi_change("aws_dynamodb_global_secondary_index.by_status", "orders", "by_status", [["status", "S", "HASH"]], {}),
	]}
	warned := {[w.rule, w.address] | some w in conftest.warn; w.rule} with input as joined
	warned == {["DK302", "aws_dynamodb_global_secondary_index.by_status"]}
	owners := plan.standalone_index_addresses["aws_dynamodb_table.orders"] with input as joined
	owners == {"global_secondary_indexes": {"by_status": "aws_dynamodb_global_secondary_index.by_status"}, "vector_indexes": {}}
	in_index := ["global_secondary_indexes", "by_status", "partition_key"]
	plan.finding_address("aws_dynamodb_table.orders", owners, in_index) == "aws_dynamodb_global_secondary_index.by_status"
	plan.finding_address("aws_dynamodb_table.orders", owners, ["global_secondary_indexes", "inline"]) == "aws_dynamodb_table.orders"
	plan.finding_address("aws_dynamodb_table.orders", owners, ["name"]) == "aws_dynamodb_table.orders"
}

# Terraform writes after_unknown of a block list whose values are all known as empty objects: the keys are known.
test_known_key_schema_blocks_are_read if {
	known := {"resource_changes": [
		table_change("aws_dynamodb_table.orders", "orders"),
		gsi_change("aws_dynamodb_global_secondary_index.by_tenant", "orders", "by_tenant", [["tenantId", "S", "HASH"]], {"key_schema": [{}]}),
	]}
	doc := plan.documents["aws_dynamodb_table.orders"] with input as known
	[k.name | some g in doc.table.gsis; some k in g.partition_key] == ["tenantId"]
	not "global_secondary_indexes.by_tenant" in doc.unknown
	unknown := {"resource_changes": [
		table_change("aws_dynamodb_table.orders", "orders"),
		gsi_change("aws_dynamodb_global_secondary_index.by_tenant", "orders", "by_tenant", [["tenantId", "S", "HASH"]], {"key_schema": [{"attribute_name": true}]}),
	]}
	"global_secondary_indexes.by_tenant" in plan.documents["aws_dynamodb_table.orders"].unknown with input as unknown
}

lone_plan := {"resource_changes": [gsi_change(
	"aws_dynamodb_global_secondary_index.by_status", "existing-table", "by_status",
	[["status", "S", "HASH"], ["a", "S", "HASH"], ["b", "S", "HASH"], ["c", "S", "HASH"], ["d", "S", "HASH"]], {},
)]}

test_standalone_gsi_without_its_table_is_checked_alone_and_says_so if {
	doc := plan.documents["aws_dynamodb_global_secondary_index.by_status"] with input as lone_plan
	doc.kind == "aws_dynamodb_global_secondary_index"
	doc.table.name == ""
	denied := {d.rule | some d in conftest.deny} with input as lone_plan
	denied == {"DK108"}
	warned := [w.msg | some w in conftest.warn; not w.rule] with input as lone_plan
	warned == [concat("", [
		"dynamokeys: the table \"existing-table\" of aws_dynamodb_global_secondary_index.by_status is not in this plan, so the index was checked on its own: ",
		"the table's GSI count (DK503), its projected attributes in all (DK502) and its other keys were not checked",
	])]
}

test_standalone_gsi_with_unknown_table_and_no_reference_is_checked_alone if {
	lone := {"resource_changes": [gsi_change("aws_dynamodb_global_secondary_index.g", null, "by_x", [["customerId", "S", "HASH"]], {"table_name": true})]}
	warned := [w.msg | some w in conftest.warn] with input as lone
	count(warned) == 1
	contains(warned[0], "the table (known after apply) of aws_dynamodb_global_secondary_index.g is not in this plan")
}

test_standalone_gsi_with_unknown_key_schema_stays_silent if {
	g := gsi_change("aws_dynamodb_global_secondary_index.g", "orders", "by_kind", [["kind", "BOOL", "HASH"]], {"key_schema": true})
	denied := conftest.deny with input as {"resource_changes": [table_change("aws_dynamodb_table.orders", "orders"), g]}
	denied == set()
}

test_two_tables_of_one_name_leave_the_index_alone if {
	changes := [table_change("aws_dynamodb_table.a", "orders"), table_change("aws_dynamodb_table.b", "orders"), by_tenant]
	plan.lone_gsis == {"aws_dynamodb_global_secondary_index.by_tenant": "orders"} with input as {"resource_changes": changes}
}
