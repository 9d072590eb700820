package dynamokeys.plan_test

import data.dynamokeys.conftest
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

sharded_after := {
	"name": "events",
	"billing_mode": "PAY_PER_REQUEST",
	"read_capacity": null,
	"write_capacity": null,
	"partition_key": {"name": "pk", "type": "S", "template": "DAY#{day}#SHARD#{shard}"},
	"sort_key": {"name": "sk", "type": "S", "template": "EVENT#{event_id}"},
	"segments": {
		"day": {"kind": "time", "granularity": "day", "values": null, "max_length": null, "cardinality": null, "monotonic": null},
		"event_id": {"kind": "id", "granularity": null, "values": null, "max_length": 36, "cardinality": null, "monotonic": null},
	},
	"sharding": {"strategy": "calculated", "source": "event_id", "count": 4, "scheme_version": 1},
	"traffic": {"writes_per_second": 2500, "reads_per_second": 400},
	"capacity": {
		"hot_key_write_units": 2500, "hot_key_read_units": 200, "per_shard_write_units": 625, "per_shard_read_units": 50,
		"peak_write_units": 2500, "peak_read_units": 200, "required_shard_count": 4,
	},
	"shard_count": 4,
	"local_secondary_indexes": null,
	"global_secondary_indexes": {"by_day": {
		"partition_key": [{"name": "day", "type": "S", "cardinality": null}],
		"sort_key": null, "projection_type": "KEYS_ONLY", "non_key_attributes": null,
	}},
}

sharded_plan(after, before, actions, after_unknown) := {"resource_changes": [object.union(
	change("dynamokeys_sharded_table", "dynamokeys_sharded_table.events", actions, after, after_unknown),
	{"change": {"before": before}},
)]}

test_sharded_table_is_mapped_with_facts if {
	doc := plan.documents["dynamokeys_sharded_table.events"] with input as sharded_plan(sharded_after, null, ["create"], {})
	doc.derived.partition_key.has_shard
	doc.derived.partition_key.has_time_bucket
	doc.derived.partition_key.placeholders == ["day", "shard"]
	doc.derived.sort_key.monotonic == false
	doc.derived.required_shards == 4
	doc.table.gsis[0].time_bucketed
	doc.prior == null
}

test_sharded_table_clean_design_passes if {
	count(conftest.deny) == 0 with input as sharded_plan(sharded_after, null, ["create"], {})
}

test_sharded_table_scheme_change_is_denied if {
	after := object.union(sharded_after, {"sharding": {"count": 8}, "shard_count": 8, "capacity": {"per_shard_write_units": 312.5}})
	some d in conftest.deny with input as sharded_plan(after, sharded_after, ["update"], {})
	d.rule == "DK402"
	d.path == "sharding.scheme_version"
}

test_sharded_table_unknown_traffic_is_silent if {
	after := object.union(sharded_after, {
		"sharding": {"strategy": "none"}, "partition_key": {"template": "DAY#{day}"},
		"capacity": {"per_shard_write_units": 2500}, "shard_count": 1,
	})
	"DK303" in {d.rule | some d in conftest.deny} with input as sharded_plan(after, null, ["create"], {})
	not "DK303" in {d.rule | some d in conftest.deny} with input as sharded_plan(after, null, ["create"], {"capacity": true})
}

test_sharded_table_undeclared_placeholder_is_denied if {
	after := object.union(sharded_after, {"sort_key": {"template": "EVENT#{event_id}#{ts}"}})
	"DK104" in {d.rule | some d in conftest.deny} with input as sharded_plan(after, null, ["create"], {})
}

test_replacement_is_checked if {
	p := sharded_plan(object.union(sharded_after, {"partition_key": {"type": "BOOL"}}), sharded_after, ["delete", "create"], {})
	"DK101" in {d.rule | some d in conftest.deny} with input as p
}

test_hcp_entry_point_reads_input_plan if {
	after := aws_table({"attribute": [{"name": "customerId", "type": "BOOL"}, {"name": "orderId", "type": "S"}]})
	some msg in hcp.deny with input as {"plan": aws_plan(after)}
	startswith(msg, "DK101 aws_dynamodb_table.orders")
}

test_update_after_import_is_not_a_scheme_change if {
	imported := object.union(sharded_after, {"partition_key": {"template": null}, "sharding": null, "shard_count": 1})
	doc := plan.documents["dynamokeys_sharded_table.events"] with input as sharded_plan(sharded_after, imported, ["update"], {})
	"sharding" in doc.prior.unknown
	not "DK402" in {d.rule | some d in conftest.deny} with input as sharded_plan(sharded_after, imported, ["update"], {})
}
