package dynamokeys.plan_table_changes_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

# orders is an aws_dynamodb_table's values (hashicorp/aws 5 and 6 alike) with the given attributes over a
# clean provisioned table with one GSI.
orders(extra) := object.union(
	{
		"name": "orders", "hash_key": "customerId", "range_key": "orderId", "billing_mode": "PROVISIONED",
		"read_capacity": 500, "write_capacity": 200, "arn": "arn:aws:dynamodb:us-east-1:111122223333:table/orders",
		"attribute": [{"name": "customerId", "type": "S"}, {"name": "orderId", "type": "S"}, {"name": "sku", "type": "S"}],
		"local_secondary_index": [], "replica": [], "stream_enabled": false, "stream_view_type": "",
		"stream_arn": "", "tags": {}, "tags_all": {},
		"global_secondary_index": [{
			"name": "by_sku", "hash_key": "sku", "range_key": "orderId", "projection_type": "ALL",
			"non_key_attributes": [], "read_capacity": 100, "write_capacity": 50,
		}],
	},
	extra,
)

table_change(actions, before, after, extra) := object.union(
	{
		"address": "aws_dynamodb_table.orders", "mode": "managed", "type": "aws_dynamodb_table", "name": "orders",
		"change": {"actions": actions, "before": before, "after": after, "after_unknown": {}},
	},
	extra,
)

update(before, after) := {"resource_changes": [table_change(["update"], before, after, {})]}

# fired evaluates the entry points on a plan: every test here asks for them, so the with is the helper's.
fired(plan_input) := {[r.rule, r.address] | some r in results} if {
	# regal ignore:with-outside-test-context
	results := conftest.deny | conftest.warn with input as plan_input
}

rules(plan_input) := {r | some [r, _] in fired(plan_input)}

# A change of tags, PITR and capacity that nothing manages touches nothing that matters: no finding.
test_benign_update_is_silent if {
	after := orders({"tags": {"team": "payments"}, "point_in_time_recovery": [{"enabled": true}], "read_capacity": 600})
	count(fired(update(orders({}), after))) == 0
}

test_replacement_is_an_error_naming_what_forces_it if {
	after := orders({"hash_key": "tenantId"})
	plan_in := {"resource_changes": [table_change(["delete", "create"], orders({}), after, {"change": {
		"actions": ["delete", "create"], "before": orders({}), "after": after, "after_unknown": {},
		"replace_paths": [["hash_key"]],
	}})]}
	rules(plan_in) == {"DK001"}
	some r in conftest.deny with input as plan_in
	contains(r.msg, "replaces table orders (hash_key forces it)")
	r.address == "aws_dynamodb_table.orders"
}

test_disposable_table_may_be_replaced if {
	tagged := orders({"tags_all": {"dynamokeys:disposable": "true"}})
	after := object.union(tagged, {"hash_key": "tenantId"})
	plan_in := {"resource_changes": [{
		"address": "aws_dynamodb_table.orders", "mode": "managed", "type": "aws_dynamodb_table", "name": "orders",
		"change": {"actions": ["create", "delete"], "before": tagged, "after": after, "after_unknown": {}, "replace_paths": [["hash_key"]]},
	}]}
	not "DK001" in rules(plan_in)
}

test_destroy_warns_and_runs_no_design_rule if {
	# A table named like a status would get DK302 as a design; destroyed, only the destroy is reported.
	before := orders({"hash_key": "sku"})
	plan_in := {"resource_changes": [table_change(["delete"], before, null, {})]}
	fired(plan_in) == {["DK002", "aws_dynamodb_table.orders"]}
}

test_rebuilt_gsi_warns if {
	after := orders({"global_secondary_index": [{
		"name": "by_sku", "hash_key": "sku", "range_key": "createdAt", "projection_type": "ALL",
		"non_key_attributes": [], "read_capacity": 100, "write_capacity": 50,
	}]})
	plan_in := update(orders({}), after)
	rules(plan_in) == {"DK003"}
	some w in conftest.warn with input as plan_in
	w.rule == "DK003"
	contains(w.msg, "GSI by_sku is deleted and created again")
	contains(w.msg, "the plan does not know the table's item count")
}

test_dropped_gsi_warns if {
	plan_in := update(orders({}), orders({"global_secondary_index": []}))
	rules(plan_in) == {"DK004"}
}

by_customer := {
	"name": "by_customer", "hash_key": "customerId", "range_key": "", "projection_type": "KEYS_ONLY",
	"non_key_attributes": [], "read_capacity": 5, "write_capacity": 5,
}

test_two_gsi_changes_in_one_apply_warn if {
	plan_in := update(orders({}), orders({"global_secondary_index": [by_customer]}))
	rules(plan_in) == {"DK004", "DK008", "DK009"}
}

test_added_gsi_alone_warns_of_its_backfill if {
	after := orders({"global_secondary_index": array.concat(orders({}).global_secondary_index, [by_customer])})
	plan_in := update(orders({}), after)
	rules(plan_in) == {"DK009"}
	some w in conftest.warn with input as plan_in
	contains(w.msg, "GSI by_customer is created on a live table and answers no query until it is ACTIVE")
	contains(w.msg, "the plan does not know the table's item count")
}

test_removed_replica_is_an_error if {
	before := orders({"replica": [{"region_name": "eu-west-1"}, {"region_name": "us-west-2"}]})
	after := orders({"replica": [{"region_name": "us-west-2"}]})
	plan_in := update(before, after)
	rules(plan_in) == {"DK005"}
	some d in conftest.deny with input as plan_in
	contains(d.msg, "removes the eu-west-1 replica of table orders")
}

test_removed_replica_resource_is_an_error_on_it if {
	plan_in := {"resource_changes": [{
		"address": "aws_dynamodb_table_replica.eu", "mode": "managed", "type": "aws_dynamodb_table_replica", "name": "eu",
		"change": {
			"actions": ["delete"], "after": null, "after_unknown": {},
			"before": {"global_table_arn": "arn:aws:dynamodb:us-east-1:111122223333:table/orders", "region": "eu-west-1"},
		},
	}]}
	fired(plan_in) == {["DK005", "aws_dynamodb_table_replica.eu"]}
}

stream_arn := "arn:aws:dynamodb:us-east-1:111122223333:table/orders/stream/2026-01-01T00:00:00.000"

test_stream_replaced_under_a_consumer_warns if {
	before := orders({"stream_enabled": true, "stream_view_type": "NEW_IMAGE", "stream_arn": stream_arn})
	after := orders({"stream_enabled": true, "stream_view_type": "NEW_AND_OLD_IMAGES", "stream_arn": stream_arn})
	mapping := {
		"address": "aws_lambda_event_source_mapping.orders", "mode": "managed", "type": "aws_lambda_event_source_mapping",
		"change": {"actions": ["update"], "before": {"event_source_arn": stream_arn}, "after": {}, "after_unknown": {"event_source_arn": true}},
	}
	plan_in := {"resource_changes": [table_change(["update"], before, after, {}), mapping]}
	rules(plan_in) == {"DK006"}
	some w in conftest.warn with input as plan_in
	contains(w.msg, "changes from NEW_IMAGE to NEW_AND_OLD_IMAGES")
	contains(w.msg, "aws_lambda_event_source_mapping.orders")
}

test_stream_replaced_without_consumers_is_silent if {
	before := orders({"stream_enabled": true, "stream_view_type": "NEW_IMAGE", "stream_arn": stream_arn})
	count(fired(update(before, orders({})))) == 0
}

target(address, resource_id, dimension) := {"address": address, "mode": "managed", "type": "aws_appautoscaling_target", "values": {
	"resource_id": resource_id, "scalable_dimension": dimension, "service_namespace": "dynamodb",
}}

test_capacity_lowered_under_autoscaling_is_an_error if {
	# Refreshed state: the autoscaler raised reads to 2,400; the configuration still says 500.
	before := orders({"read_capacity": 2400})
	plan_in := {
		"resource_changes": [table_change(["update"], before, orders({}), {})],
		"prior_state": {"values": {"root_module": {"resources": [target("aws_appautoscaling_target.reads", "table/orders", "dynamodb:table:ReadCapacityUnits")]}}},
	}
	fired(plan_in) == {["DK007", "aws_dynamodb_table.orders"]}
	some d in conftest.deny with input as plan_in
	contains(d.msg, "lowers read_capacity of table orders from 2,400 to 500, which aws_appautoscaling_target.reads manages")
}

test_gsi_capacity_lowered_under_autoscaling_is_an_error if {
	gsi := orders({}).global_secondary_index[0]
	before := orders({"global_secondary_index": [object.union(gsi, {"write_capacity": 900})]})
	planned_target := {
		"address": "aws_appautoscaling_target.index_writes", "mode": "managed", "type": "aws_appautoscaling_target",
		"change": {
			"actions": ["no-op"], "before": {}, "after_unknown": {},
			"after": {"resource_id": "table/orders/index/by_sku", "scalable_dimension": "dynamodb:index:WriteCapacityUnits"},
		},
	}
	plan_in := {"resource_changes": [table_change(["update"], before, orders({}), {}), planned_target]}
	rules(plan_in) == {"DK007"}
}

test_capacity_raised_under_autoscaling_is_silent if {
	plan_in := {
		"resource_changes": [table_change(["update"], orders({"read_capacity": 100}), orders({}), {})],
		"prior_state": {"values": {"root_module": {"resources": [target("aws_appautoscaling_target.reads", "table/orders", "dynamodb:table:ReadCapacityUnits")]}}},
	}
	count(fired(plan_in)) == 0
}

test_switch_to_on_demand_warns if {
	after := orders({"billing_mode": "PAY_PER_REQUEST", "read_capacity": 0, "write_capacity": 0})
	rules(update(orders({}), after)) == {"DK008"}
}

test_standalone_gsi_replaced_warns_on_it if {
	before := {"table_name": "orders", "index_name": "by_sku", "key_schema": [{"attribute_name": "sku", "attribute_type": "S", "key_type": "HASH"}]}
	plan_in := {"resource_changes": [{
		"address": "aws_dynamodb_global_secondary_index.by_sku", "mode": "managed", "type": "aws_dynamodb_global_secondary_index", "name": "by_sku",
		"change": {"actions": ["delete", "create"], "before": before, "after": object.union(before, {"projection": [{"projection_type": "KEYS_ONLY"}]}), "after_unknown": {}},
	}]}
	fired(plan_in) == {["DK003", "aws_dynamodb_global_secondary_index.by_sku"]}
}

test_standalone_gsi_deleted_warns_on_it if {
	before := {"table_name": "orders", "index_name": "by_sku", "key_schema": []}
	plan_in := {"resource_changes": [{
		"address": "aws_dynamodb_global_secondary_index.by_sku", "mode": "managed", "type": "aws_dynamodb_global_secondary_index", "name": "by_sku",
		"change": {"actions": ["delete"], "before": before, "after": null, "after_unknown": {}},
	}]}
	fired(plan_in) == {["DK004", "aws_dynamodb_global_secondary_index.by_sku"]}
}

test_created_table_has_no_change if {
	plan_in := {"resource_changes": [table_change(["create"], null, orders({}), {})]}
	not plan.documents["aws_dynamodb_table.orders"].change with input as plan_in
}

test_ttl_moved_to_another_attribute_warns if {
	before := orders({"ttl": [{"attribute_name": "expires_at", "enabled": true}]})
	after := orders({"ttl": [{"attribute_name": "ttl", "enabled": true}]})
	plan_in := update(before, after)
	rules(plan_in) == {"DK008"}
	some w in conftest.warn with input as plan_in
	contains(w.msg, "moves TTL of table orders from expires_at to ttl")
}

test_ttl_turned_on_is_silent if {
	after := orders({"ttl": [{"attribute_name": "expires_at", "enabled": true}]})
	count(fired(update(orders({}), after))) == 0
}

test_gsis_known_only_after_apply_are_not_read_as_dropped if {
	# hashicorp/aws 6: a table whose indexes are standalone resources computes its global_secondary_index.
	change := table_change(["update"], orders({}), orders({"global_secondary_index": null, "tags": {"team": "x"}}), {})
	plan_in := {"resource_changes": [object.union(change, {"change": object.union(change.change, {"after_unknown": {"global_secondary_index": true}})})]}
	count(fired(plan_in)) == 0
}

test_values_known_only_after_apply_are_no_change if {
	before := orders({
		"replica": [{"region_name": "eu-west-1"}],
		"stream_enabled": true, "stream_view_type": "NEW_IMAGE", "stream_arn": stream_arn,
		"ttl": [{"attribute_name": "expires_at", "enabled": true}],
	})
	after := orders({"replica": null, "stream_enabled": null, "stream_view_type": null, "ttl": null})
	change := table_change(["update"], before, after, {})
	unknown := {"replica": true, "stream_enabled": true, "stream_view_type": true, "ttl": true}
	mapping := {
		"address": "aws_lambda_event_source_mapping.orders", "mode": "managed", "type": "aws_lambda_event_source_mapping",
		"change": {"actions": ["no-op"], "before": {"event_source_arn": stream_arn}, "after": {"event_source_arn": stream_arn}},
	}
	plan_in := {"resource_changes": [object.union(change, {"change": object.union(change.change, {"after_unknown": unknown})}), mapping]}
	count(fired(plan_in)) == 0
}
