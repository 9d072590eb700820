package dynamokeys.plan_test

import data.dynamokeys.conftest
import data.dynamokeys.fixtures
import data.dynamokeys.hcp
import data.dynamokeys.plan

aws_table(overrides) := object.union(
	{
		"name": "orders",
		"hash_key": "customerId",
		"range_key": "orderId",
		"billing_mode": "PAY_PER_REQUEST",
		"read_capacity": null,
		"write_capacity": null,
		"attribute": [{"name": "customerId", "type": "S"}, {"name": "orderId", "type": "S"}, {"name": "created", "type": "N"}],
		"local_secondary_index": [],
		"global_secondary_index": [],
	},
	overrides,
)

change(type, address, actions, after, after_unknown) := {
	"address": address,
	"mode": "managed",
	"type": type,
	"name": "t",
	"change": {"actions": actions, "before": null, "after": after, "after_unknown": after_unknown},
}

aws_plan(after) := {
	"format_version": "1.2",
	"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"], after, {"arn": true, "read_capacity": true})],
}

test_aws_table_is_mapped if {
	doc := plan.documents["aws_dynamodb_table.orders"] with input as aws_plan(aws_table({}))
	doc.table.partition_key == {"name": "customerId", "type": "S", "template": null}
	doc.table.sort_key.name == "orderId"
	"traffic" in doc.unknown
	"read_capacity" in doc.unknown
	not "arn" in doc.unknown
}

test_aws_throughput_blocks_are_mapped if {
	after := aws_table({
		"on_demand_throughput": [{"max_read_request_units": 2000, "max_write_request_units": -1}],
		"warm_throughput": [{"read_units_per_second": 15000, "write_units_per_second": 5000}],
	})
	doc := plan.documents["aws_dynamodb_table.orders"] with input as aws_plan(after)
	doc.table.on_demand_throughput == {"read": 2000, "write": null}
	doc.table.warm_throughput == {"read": 15000, "write": 5000}
	doc.table.autoscaling == null
}

test_aws_uncapped_throughput_is_null if {
	after := aws_table({"on_demand_throughput": [{"max_read_request_units": -1, "max_write_request_units": -1}]})
	doc := plan.documents["aws_dynamodb_table.orders"] with input as aws_plan(after)
	doc.table.on_demand_throughput == null
	doc.table.warm_throughput == null
}

test_aws_clean_table_has_no_findings if {
	count(conftest.deny) == 0 with input as aws_plan(aws_table({}))
	count(conftest.warn) == 0 with input as aws_plan(aws_table({}))
}

test_aws_bool_key_is_denied_with_rule_and_address if {
	after := aws_table({"attribute": [{"name": "customerId", "type": "BOOL"}, {"name": "orderId", "type": "S"}]})
	some d in conftest.deny with input as aws_plan(after)
	d.rule == "DK101"
	d.address == "aws_dynamodb_table.orders"
	startswith(d.msg, "DK101 aws_dynamodb_table.orders: ")
	contains(d.msg, "(remedy: ")
	d.path == "partition_key.type"
}

test_aws_status_partition_key_warns_by_name if {
	after := aws_table({"hash_key": "status", "attribute": [{"name": "status", "type": "S"}, {"name": "orderId", "type": "S"}]})
	some w in conftest.warn with input as aws_plan(after)
	w.rule == "DK302"
}

test_aws_date_partition_key_warns_by_name if {
	after := aws_table({"hash_key": "eventDate", "attribute": [{"name": "eventDate", "type": "S"}, {"name": "orderId", "type": "S"}]})
	some w in conftest.warn with input as aws_plan(after)
	w.rule == "DK301"
}

test_aws_six_lsis_are_denied if {
	lsis := [{"name": sprintf("lsi_%d", [i]), "range_key": "created", "projection_type": "KEYS_ONLY", "non_key_attributes": null} | some i in numbers.range(1, 6)]
	"DK201" in {d.rule | some d in conftest.deny} with input as aws_plan(aws_table({"local_secondary_index": lsis}))
}

test_aws_lsi_without_range_key_is_denied if {
	after := aws_table({"range_key": null, "local_secondary_index": [{"name": "by_created", "range_key": "created", "projection_type": "ALL"}]})
	"DK202" in {d.rule | some d in conftest.deny} with input as aws_plan(after)
}

test_aws_multi_attribute_gsi_is_read_from_key_schema if {
	gsi := {"name": "by_tenant_region", "projection_type": "ALL", "key_schema": [
		{"attribute_name": "tenantId", "key_type": "HASH"},
		{"attribute_name": "region", "key_type": "HASH"},
		{"attribute_name": "created", "key_type": "RANGE"},
	]}
	doc := plan.documents["aws_dynamodb_table.orders"] with input as aws_plan(aws_table({"global_secondary_index": [gsi]}))
	[k.name | some k in doc.table.gsis[0].partition_key] == ["tenantId", "region"]
	doc.table.gsis[0].sort_key[0].type == "N"
}

test_aws_hash_key_gsi_is_read if {
	gsi := {"name": "by_created", "hash_key": "created", "range_key": "", "projection_type": "INCLUDE", "non_key_attributes": ["total"]}
	doc := plan.documents["aws_dynamodb_table.orders"] with input as aws_plan(aws_table({"global_secondary_index": [gsi]}))
	doc.table.gsis[0].partition_key == [{"name": "created", "type": "N", "cardinality": null}]
	doc.table.gsis[0].sort_key == []
	doc.derived.projected_non_key_attributes == 1
}

test_aws_five_attribute_gsi_is_denied if {
	keys := [{"attribute_name": sprintf("a%d", [i]), "key_type": "HASH"} | some i in numbers.range(1, 5)]
	after := aws_table({"global_secondary_index": [{"name": "too_many", "projection_type": "ALL", "key_schema": keys}]})
	"DK108" in {d.rule | some d in conftest.deny} with input as aws_plan(after)
}

test_deleted_and_unchanged_resources_are_ignored if {
	p := {"resource_changes": [
		change("aws_dynamodb_table", "aws_dynamodb_table.gone", ["delete"], null, {}),
		change("aws_dynamodb_table", "aws_dynamodb_table.same", ["no-op"], aws_table({"attribute": [{"name": "customerId", "type": "BOOL"}]}), {}),
	]}
	count(plan.documents) == 0 with input as p
	count(conftest.deny) == 0 with input as p
}

test_unreadable_resource_warns_by_name if {
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.broken", ["create"], "not an object", {})]}
	count(conftest.deny) == 0 with input as p
	some w in conftest.warn with input as p
	contains(w.msg, "aws_dynamodb_table.broken")
}

test_key_name_that_is_not_a_string_warns_by_name if {
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.numeric", ["create"], {"hash_key": 7}, {})]}
	count(plan.documents) == 0 with input as p
	some w in conftest.warn with input as p
	contains(w.msg, "aws_dynamodb_table.numeric")
}

test_not_a_plan_warns if {
	some w in conftest.warn with input as {"hello": "world"}
	contains(w.msg, "not a Terraform plan")
}

test_unexpected_types_do_not_crash if {
	p := {"resource_changes": [
		change("aws_dynamodb_table", "aws_dynamodb_table.odd", ["create"], {"hash_key": "pk", "attribute": "nope", "global_secondary_index": 7}, []),
		"garbage",
	]}
	doc := plan.documents["aws_dynamodb_table.odd"] with input as p
	doc.table.gsis == []
}

# encoded is a design_document value as the provider writes it.
encoded(doc) := concat("", ["dk1:", json.marshal(doc)])

# sharded_values are planned values of a dynamokeys_sharded_table: the adapter reads only design_document.
sharded_values(doc) := {"name": doc.table.name, "design_document": encoded(doc)}

sharded_doc := fixtures.doc({"kind": "sharded_table", "address": "", "schema_version": 1, "provider_version": "0.3.0"})

sharded_plan(after, before, actions, after_unknown) := {"resource_changes": [object.union(
	change("dynamokeys_sharded_table", "dynamokeys_sharded_table.events", actions, after, after_unknown),
	{"change": {"before": before}},
)]}

test_sharded_table_document_is_decoded_with_the_plan_address if {
	doc := plan.documents["dynamokeys_sharded_table.events"] with input as sharded_plan(sharded_values(sharded_doc), null, ["create"], {})
	doc.address == "dynamokeys_sharded_table.events"
	doc.derived == sharded_doc.derived
	doc.prior == null
}

# A plan or a state of a provider from before the encoding carries the plain JSON.
test_plain_json_document_of_an_earlier_provider_is_decoded if {
	p := sharded_plan({"design_document": json.marshal(sharded_doc)}, null, ["create"], {})
	doc := plan.documents["dynamokeys_sharded_table.events"] with input as p
	doc.derived == sharded_doc.derived
}

test_sharded_table_clean_design_passes if {
	count(conftest.deny) == 0 with input as sharded_plan(sharded_values(sharded_doc), null, ["create"], {})
	count(conftest.warn) == 0 with input as sharded_plan(sharded_values(sharded_doc), null, ["create"], {})
}

# A fact only Go computes (the partition key's byte bound) reaches the rules through the document.
test_sharded_table_fact_from_go_fires_its_rule if {
	long := object.union(sharded_doc, {"derived": {"partition_key": {"max_bytes": 3000}}})
	some d in conftest.deny with input as sharded_plan(sharded_values(long), null, ["create"], {})
	d.rule == "DK102"
	d.address == "dynamokeys_sharded_table.events"
}

scheme(n) := object.union(sharded_doc, {
	"sharding": {"strategy": "calculated", "source": "order_id", "count": n, "scheme_version": 1},
	"derived": {"shard_count": n},
})

test_sharded_table_scheme_change_is_denied_against_the_before_document if {
	p := sharded_plan(sharded_values(scheme(8)), sharded_values(scheme(4)), ["update"], {})
	some d in conftest.deny with input as p
	d.rule == "DK402"
	d.path == "sharding.scheme_version"
}

test_prior_is_read_only_for_in_place_updates if {
	p := sharded_plan(sharded_values(scheme(8)), sharded_values(scheme(4)), ["delete", "create"], {})
	plan.documents["dynamokeys_sharded_table.events"].prior == null with input as p
	not "DK402" in {d.rule | some d in conftest.deny} with input as p
}

test_update_after_import_is_not_a_scheme_change if {
	# An imported or moved table's state has no design_document.
	p := sharded_plan(sharded_values(scheme(8)), {"name": "orders", "design_document": null}, ["update"], {})
	plan.documents["dynamokeys_sharded_table.events"].prior == null with input as p
	not "DK402" in {d.rule | some d in conftest.deny} with input as p
}

test_replacement_is_checked if {
	bad := object.union(sharded_doc, {"derived": {"key_attributes": [{"path": ["partition_key"], "name": "pk", "name_bytes": 2, "type": "BOOL"}]}})
	p := sharded_plan(sharded_values(bad), sharded_values(sharded_doc), ["delete", "create"], {})
	"DK101" in {d.rule | some d in conftest.deny} with input as p
}

test_unknown_design_document_warns_once_and_is_not_evaluated if {
	p := sharded_plan({"name": "orders"}, null, ["create"], {"design_document": true})
	count(plan.documents) == 0 with input as p
	count(conftest.deny) == 0 with input as p
	[w.msg | some w in conftest.warn with input as p] == [concat("", [
		"dynamokeys: the key design of dynamokeys_sharded_table.events depends on values known only after apply, ",
		"so it was not checked here; the provider checks it when it plans the apply",
	])]
}

test_unknown_schema_version_warns_once_and_is_not_evaluated if {
	future := object.union(sharded_doc, {"schema_version": 2, "derived": {"partition_key": {"max_bytes": 3000}}})
	p := sharded_plan(sharded_values(future), null, ["create"], {})
	count(plan.documents) == 0 with input as p
	count(conftest.deny) == 0 with input as p
	[w.msg | some w in conftest.warn with input as p] == [concat("", [
		"dynamokeys: dynamokeys_sharded_table.events carries a design document of schema_version 2, which this policy ",
		"bundle does not understand (it reads 1); its key design was not checked: use the policy bundle released with the provider",
	])]
}

test_missing_or_malformed_design_document_is_unreadable if {
	malformed := [
		{"name": "orders"}, {"design_document": "{not json"}, {"design_document": "[1]"}, "nope",
		{"design_document": "dk1:e30="}, {"design_document": "dk1:"}, {"design_document": "dk1:[1]"},
		{"design_document": "dk1:{not json"}, {"design_document": "dk2:{}"}, {"design_document": 7},
	]
	every after in malformed {
		count(plan.documents) == 0 with input as sharded_plan(after, null, ["create"], {})
		plan.unreadable == {"dynamokeys_sharded_table.events"} with input as sharded_plan(after, null, ["create"], {})
	}
}

data_source(address, doc) := {"address": address, "mode": "data", "type": "dynamokeys_keydesign", "name": "d", "values": {"design_document": encoded(doc)}}

keydesign_doc := object.union(sharded_doc, {"kind": "keydesign", "derived": {"partition_key": {"max_bytes": 3000}}})

test_data_sources_read_while_planning_are_checked_in_every_module if {
	p := {"resource_changes": [], "prior_state": {"values": {"root_module": {
		"resources": [
			data_source("data.dynamokeys_keydesign.root", keydesign_doc),
			{"address": "aws_dynamodb_table.x", "mode": "managed", "type": "aws_dynamodb_table", "values": {}},
		],
		"child_modules": [{"address": "module.a", "child_modules": [{
			"address": "module.a.module.b",
			"resources": [data_source("module.a.module.b.data.dynamokeys_keydesign.nested", keydesign_doc)],
		}]}],
	}}}}
	want := {"data.dynamokeys_keydesign.root", "module.a.module.b.data.dynamokeys_keydesign.nested"}
	{d.address | some d in conftest.deny; d.rule == "DK102"} == want with input as p
}

test_modules_deeper_than_five_levels_warn if {
	deepest := {"address": "module.deep", "resources": [data_source("module.deep.data.dynamokeys_keydesign.d", keydesign_doc)]}
	l1 := {"address": "module.l1", "child_modules": [deepest]}
	l2 := {"address": "module.l2", "child_modules": [l1]}
	l3 := {"address": "module.l3", "child_modules": [l2]}
	l4 := {"address": "module.l4", "child_modules": [l3]}
	l5 := {"address": "module.l5", "child_modules": [l4]}
	l6 := {"address": "module.l6", "child_modules": [l5]}
	p := {"resource_changes": [], "prior_state": {"values": {"root_module": {"child_modules": [l6]}}}}
	count(conftest.deny) == 0 with input as p
	some w in conftest.warn with input as p
	contains(w.msg, "module.l1 is nested more than five modules deep")
}

test_deferred_data_source_read_is_checked_when_known if {
	rc := {
		"address": "data.dynamokeys_keydesign.later", "mode": "data", "type": "dynamokeys_keydesign", "name": "later",
		"change": {"actions": ["read"], "before": null, "after": sharded_values(keydesign_doc), "after_unknown": {}},
	}
	"DK102" in {d.rule | some d in conftest.deny} with input as {"resource_changes": [rc]}
}

test_hcp_entry_point_reads_input_plan if {
	after := aws_table({"attribute": [{"name": "customerId", "type": "BOOL"}, {"name": "orderId", "type": "S"}]})
	some msg in hcp.deny with input as {"plan": aws_plan(after)}
	startswith(msg, "DK101 aws_dynamodb_table.orders")
}

bad_key_plan := aws_plan(aws_table({"attribute": [{"name": "customerId", "type": "BOOL"}, {"name": "orderId", "type": "S"}]}))

test_missing_limits_deny_with_one_reason_instead_of_findings if {
	count(conftest.deny) == 1 with input as bad_key_plan
	count(conftest.warn) == 0 with input as aws_plan(aws_table({"hash_key": "status"})) with data.dynamokeys.limits as null
	denied := conftest.deny with input as bad_key_plan with data.dynamokeys.limits as null
	count(denied) == 1
	some d in denied
	startswith(d.msg, "dynamokeys: the policy bundle's limits are not loaded (the module data.rego of package dynamokeys is missing)")
	contains(d.msg, "conftest test --policy <bundle> --namespace dynamokeys.conftest plan.json")
}

test_limits_of_another_data_format_deny_naming_both if {
	denied := conftest.deny with input as bad_key_plan with data.dynamokeys.data_format as 6
	denied == {{"msg": concat("", [
		"dynamokeys: the policy bundle's limits (data.rego) are of data format 6, but its rules read format 5, so nothing was checked: ",
		"the files come from different releases; load one release's bundle directory or archive whole",
	])}}
}

test_hcp_entry_point_fails_closed_without_limits if {
	denied := hcp.deny with input as {"plan": bad_key_plan} with data.dynamokeys.limits as null
	count(denied) == 1
	some msg in denied
	startswith(msg, "dynamokeys: the policy bundle's limits are not loaded")
}

versioned_change(i, v) := change(
	"dynamokeys_sharded_table", sprintf("dynamokeys_sharded_table.t%d", [i]), ["create"],
	sharded_values(object.union(sharded_doc, {"provider_version": v})), {},
)

versioned_plan(versions) := {"resource_changes": [versioned_change(i, v) | some i, v in versions]}

# version_warnings are the messages of the version check among warnings.
version_warnings(warnings) := [w.msg | some w in warnings; contains(w.msg, "newer than this policy bundle")]

test_plan_from_a_newer_provider_warns_once if {
	warnings := conftest.warn with input as versioned_plan(["0.3.0", "v0.4.1", "0.2.0", "dev"]) with data.dynamokeys.version as "0.2.0"
	version_warnings(warnings) == [concat("", [
		"dynamokeys: this plan was made with dynamokeys provider 0.4.1, newer than this policy bundle (0.2.0): ",
		"rules and facts the newer provider knows are not checked here; use the policy bundle released with the provider",
	])]
}

test_plan_from_the_same_or_an_older_provider_does_not_warn if {
	warnings := conftest.warn with input as versioned_plan(["0.2.0", "v0.1.9", "0.2.0-rc.1"]) with data.dynamokeys.version as "0.2.0"
	version_warnings(warnings) == []
}

test_prerelease_below_its_release_but_above_the_previous if {
	above := conftest.warn with input as versioned_plan(["0.3.0-rc.1"]) with data.dynamokeys.version as "0.2.0"
	count(version_warnings(above)) == 1
	below := conftest.warn with input as versioned_plan(["0.3.0-rc.1"]) with data.dynamokeys.version as "0.3.0"
	version_warnings(below) == []
}

test_development_versions_never_warn if {
	dev_bundle := conftest.warn with input as versioned_plan(["9.9.9"]) with data.dynamokeys.version as "dev"
	version_warnings(dev_bundle) == []
	dev_provider := conftest.warn with input as versioned_plan(["dev", "", "not-a-version"]) with data.dynamokeys.version as "0.2.0"
	version_warnings(dev_provider) == []
}

test_documents_of_an_unknown_schema_still_count_for_the_version if {
	future := object.union(sharded_doc, {"schema_version": 2, "provider_version": "1.0.0"})
	warnings := conftest.warn with input as sharded_plan(sharded_values(future), null, ["create"], {}) with data.dynamokeys.version as "0.2.0"
	count(version_warnings(warnings)) == 1
}

test_spacelift_entry_point_reads_input_terraform if {
	denied := data.dynamokeys.spacelift.deny with input as {"spacelift": {"run": {"type": "PROPOSED"}}, "terraform": bad_key_plan}
	[msg | some msg in denied; startswith(msg, "DK101 aws_dynamodb_table.orders")] != []
	warned := data.dynamokeys.spacelift.warn with input as {"terraform": aws_plan(aws_table({"hash_key": "status"}))}
	[msg | some msg in warned; startswith(msg, "DK302 aws_dynamodb_table.orders")] != []
}

test_env0_entry_point_reads_input_plan if {
	denied := data.dynamokeys.env0.deny with input as {"deploymentRequest": {"type": "deploy"}, "plan": bad_key_plan}
	[msg | some msg in denied; startswith(msg, "DK101 aws_dynamodb_table.orders")] != []
	warned := data.dynamokeys.env0.warn with input as {"plan": aws_plan(aws_table({"hash_key": "status"}))}
	[msg | some msg in warned; startswith(msg, "DK302 aws_dynamodb_table.orders")] != []
}

sanitized_plan := {"resource_changes": [
	change(
		"aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"],
		aws_table({"billing_mode": "3f1e0a9b", "attribute": [{"name": "5d41402a", "type": "02aa629c"}]}), {},
	),
	change("dynamokeys_sharded_table", "dynamokeys_sharded_table.events", ["create"], {"name": "9e107d9d", "design_document": "a1b2c3d4"}, {}),
	change(
		"aws_dynamodb_global_secondary_index", "aws_dynamodb_global_secondary_index.g", ["create"],
		{"table_name": "e4d909c2", "key_schema": [{"attribute_name": "x", "attribute_type": "02aa629c", "key_type": "7ab3c2d1"}]}, {},
	),
]}

test_sanitized_resources_are_not_checked_rather_than_misread if {
	count(conftest.deny) == 0 with input as sanitized_plan
	warned := {w.address | some w in conftest.warn; contains(w.msg, "were sanitized")} with input as sanitized_plan
	warned == {"aws_dynamodb_table.orders", "dynamokeys_sharded_table.events", "aws_dynamodb_global_secondary_index.g"}
	count(conftest.warn) == 3 with input as sanitized_plan
}

test_aws_number_timestamp_partition_key_is_not_a_bucket if {
	after := aws_table({"hash_key": "timestamp", "attribute": [{"name": "timestamp", "type": "N"}, {"name": "orderId", "type": "S"}]})
	warned := {w.rule | some w in conftest.warn with input as aws_plan(after)}
	not "DK301" in warned
	not "DK302" in warned
}

test_aws_level_partition_key_warns_by_name if {
	after := aws_table({"hash_key": "logLevel", "attribute": [{"name": "logLevel", "type": "S"}, {"name": "orderId", "type": "S"}]})
	"DK302" in {w.rule | some w in conftest.warn with input as aws_plan(after)}
}

# A partition key known only after apply: the table is still checked by every rule that does not need it.
test_aws_unknown_hash_key_still_checks_the_rest if {
	lsis := [{"name": sprintf("lsi_%d", [i]), "range_key": "created", "projection_type": "KEYS_ONLY", "non_key_attributes": null} | some i in numbers.range(1, 6)]
	after := object.remove(aws_table({"local_secondary_index": lsis}), ["hash_key"])
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"], after, {"hash_key": true})]}
	doc := plan.documents["aws_dynamodb_table.orders"] with input as p
	"partition_key" in doc.unknown
	not "partition_key" in {k.path[0] | some k in doc.derived.key_attributes}
	{d.rule | some d in conftest.deny} == {"DK201"} with input as p
	count(plan.unreadable) == 0 with input as p
}

# A sort key known only after apply is no missing sort key (DK202 stays silent).
test_aws_unknown_range_key_is_no_missing_sort_key if {
	after := aws_table({"range_key": null, "local_secondary_index": [{"name": "by_created", "range_key": "created", "projection_type": "ALL"}]})
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"], after, {"range_key": true})]}
	count(conftest.deny) == 0 with input as p
}

test_aws_empty_table_name_is_denied if {
	denied := {d.msg | some d in conftest.deny} with input as aws_plan(aws_table({"name": ""}))
	some msg in denied
	contains(msg, "DK107")
	contains(msg, "the table name is empty")
}

# A key known only after apply: every other rule ran, and one warning names what was not checked.
test_aws_unknown_keys_warn_once_naming_them if {
	lsis := [{"name": sprintf("lsi_%d", [i]), "range_key": "created", "projection_type": "KEYS_ONLY", "non_key_attributes": null} | some i in numbers.range(1, 6)]
	after := object.remove(aws_table({"local_secondary_index": lsis}), ["hash_key"])
	au := {"hash_key": true, "arn": true, "read_capacity": true, "warm_throughput": true, "local_secondary_index": [{"name": true}, {}, {}, {}, {}, {}]}
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"], after, au)]}
	plan.unchecked == {"aws_dynamodb_table.orders": ["hash_key", "local_secondary_index[0].name"]} with input as p
	{d.rule | some d in conftest.deny} == {"DK201"} with input as p
	warned := [w.msg | some w in conftest.warn; w.address == "aws_dynamodb_table.orders"] with input as p
	warned == [concat("", [
		"dynamokeys: hash_key, local_secondary_index[0].name of aws_dynamodb_table.orders are known only after apply, ",
		"so the rules that read them were not checked; the other rules were ",
		"(give them a value known at plan time, a literal or a variable, to have them checked)",
	])]
}

# Computed attributes unknown in every create plan (capacities, warm throughput, a replica's ARN) are no
# key design left unchecked.
test_aws_computed_attributes_warn_nothing if {
	au := {"arn": true, "read_capacity": true, "write_capacity": true, "warm_throughput": true, "replica": [{"arn": true}], "attribute": [{}, {}]}
	p := {"resource_changes": [change("aws_dynamodb_table", "aws_dynamodb_table.orders", ["create"], aws_table({}), au)]}
	count(plan.unchecked) == 0 with input as p
	count(conftest.warn) == 0 with input as p
}
