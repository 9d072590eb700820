package dynamokeys.plan_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

# What hashicorp/aws 6 marks unknown in every create plan of a table: attributes it computes.
v6_computed := {"arn": true, "id": true, "stream_arn": true, "stream_label": true, "tags_all": true, "warm_throughput": true, "global_table_witness": true}

const(v) := {"constant_value": v}

# v6_plan is a plan of one table with the configuration that planned it (expressions as `terraform show -json`
# writes them), in the module at module_address ("" for the root module).
v6_plan(after, au, expressions, module_address) := {
	"resource_changes": [object.union_n([
		change("aws_dynamodb_table", concat("", [module_prefix(module_address), "aws_dynamodb_table.orders"]), ["create"], after, au),
		{"name": "orders"},
		{"module_address": module_address | module_address != ""},
	])],
	"configuration": {"root_module": module_config(module_address, [{
		"address": "aws_dynamodb_table.orders", "mode": "managed", "type": "aws_dynamodb_table", "name": "orders",
		"expressions": expressions,
	}])},
}

module_prefix("") := ""

module_prefix(address) := concat("", [address, "."]) if address != ""

module_config("", resources) := {"resources": resources}

module_config(address, resources) := {"module_calls": {"tables": {"module": {"resources": resources}}}} if address != ""

orders_expressions := {
	"name": const("orders"), "hash_key": const("customerId"), "range_key": const("orderId"),
	"attribute": [{"name": const("customerId"), "type": const("S")}, {"name": const("orderId"), "type": const("S")}],
}

# A clean table of an AWS provider v6 plan: the witness, the GSI list of a table whose indexes are standalone
# resources, warm throughput are the provider's to compute, and no input is left unknown.
test_v6_computed_attributes_warn_nothing if {
	au := object.union(v6_computed, {"global_secondary_index": true})
	p := v6_plan(object.remove(aws_table({}), ["global_secondary_index"]), au, orders_expressions, "")
	count(plan.unchecked) == 0 with input as p
	count(conftest.warn) == 0 with input as p
	count(conftest.deny) == 0 with input as p
}

# A GSI written with key_schema: hash_key and range_key are computed from it, and key_schema of a classic
# block from hash_key and range_key.
test_v6_computed_gsi_keys_warn_nothing if {
	gsis := [
		{"name": "by_tenant_user", "projection_type": "ALL", "key_schema": [
			{"attribute_name": "customerId", "key_type": "HASH"},
			{"attribute_name": "created", "key_type": "HASH"},
		]},
		{"name": "by_created", "hash_key": "created", "projection_type": "ALL"},
	]
	au := object.union(v6_computed, {"global_secondary_index": [{"hash_key": true, "range_key": true}, {"key_schema": true}]})
	config := object.union(orders_expressions, {"global_secondary_index": [
		{"name": const("by_created"), "hash_key": const("created"), "projection_type": const("ALL")},
		{"name": const("by_tenant_user"), "projection_type": const("ALL"), "key_schema": [
			{"attribute_name": const("customerId"), "key_type": const("HASH")},
			{"attribute_name": const("created"), "key_type": const("HASH")},
		]},
	]})
	p := v6_plan(aws_table({"global_secondary_index": gsis}), au, config, "")
	count(plan.unchecked) == 0 with input as p
	count(conftest.warn) == 0 with input as p
}

# A key the configuration takes from another resource is still an input left unknown: the warning names it,
# and only it, in a module instance too.
test_v6_configured_unknown_key_warns if {
	after := object.remove(aws_table({"attribute": [{"type": "S"}, {"name": "orderId", "type": "S"}]}), ["hash_key"])
	au := object.union(v6_computed, {"hash_key": true, "attribute": [{"name": true}, {}]})
	ref := {"references": ["random_pet.key.id", "random_pet.key"]}
	config := object.union(orders_expressions, {"hash_key": ref, "attribute": [{"name": ref, "type": const("S")}, {"name": const("orderId"), "type": const("S")}]})
	every module_address in ["", `module.tables["eu"]`] {
		p := v6_plan(after, au, config, module_address)
		address := concat("", [module_prefix(module_address), "aws_dynamodb_table.orders"])
		plan.unchecked == {address: ["attribute[0].name", "hash_key"]} with input as p
		warned := [w.msg | some w in conftest.warn] with input as p
		count(warned) == 1
		startswith(warned[0], sprintf("dynamokeys: attribute[0].name, hash_key of %s are known only after apply", [address]))
	}
}

# A GSI attribute set by the configuration and unknown until apply warns; the same attribute of a GSI that
# does not set it (computed) does not.
test_v6_configured_unknown_gsi_attribute_warns_on_its_index_only if {
	gsis := [
		{"name": "by_customer", "projection_type": "ALL"},
		{"name": "by_created", "projection_type": "ALL", "key_schema": [{"attribute_name": "created", "key_type": "HASH"}]},
	]
	au := object.union(v6_computed, {"global_secondary_index": [{"hash_key": true}, {"hash_key": true}]})
	config := object.union(orders_expressions, {"global_secondary_index": [
		{"name": const("by_customer"), "hash_key": {"references": ["var.gsi_key"]}, "projection_type": const("ALL")},
		{"name": const("by_created"), "projection_type": const("ALL"), "key_schema": [{"attribute_name": const("created"), "key_type": const("HASH")}]},
	]})
	p := v6_plan(aws_table({"global_secondary_index": gsis}), au, config, "")
	plan.unchecked == {"aws_dynamodb_table.orders": ["global_secondary_index[0].hash_key"]} with input as p
}
