package dynamokeys.plan_aws_replicas_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

# global_table is a planned aws_dynamodb_table in us-east-1 with the given replica blocks and other attributes.
global_table(replicas, extra) := {
	"address": "aws_dynamodb_table.orders", "mode": "managed", "type": "aws_dynamodb_table", "name": "orders",
	"change": {"actions": ["create"], "before": null, "after_unknown": {"arn": true}, "after": object.union(
		{
			"name": "orders", "hash_key": "customerId", "range_key": "orderId", "billing_mode": "PAY_PER_REQUEST",
			"region": "us-east-1", "attribute": [{"name": "customerId", "type": "S"}, {"name": "orderId", "type": "S"}],
			"global_secondary_index": [], "local_secondary_index": [],
			"replica": [{"region_name": r[0], "consistency_mode": r[1]} | some r in replicas],
		},
		extra,
	)},
}

denials contains [d.rule, d.address] if some d in conftest.deny

test_single_region_table_has_no_replica_facts if {
	doc := plan.documents["aws_dynamodb_table.orders"] with input as {"resource_changes": [global_table([], {})]}
	not doc.derived.replicas
}

test_replica_blocks_become_replica_facts if {
	t := global_table([["us-east-2", "STRONG"], ["us-west-2", "STRONG"]], {"ttl": [{"enabled": false, "attribute_name": ""}]})
	r := plan.documents["aws_dynamodb_table.orders"].derived.replicas with input as {"resource_changes": [t]}
	r.consistency == "strong"
	[x.region | some x in r.regions] == ["us-east-1", "us-east-2", "us-west-2"]
	r.region_count == 3
	r.ttl == false
	count(denials) == 0 with input as {"resource_changes": [t]}
}

test_mrsc_with_two_regions_fails_on_the_table if {
	denials == {["DK604", "aws_dynamodb_table.orders"]} with input as {"resource_changes": [global_table([["us-east-2", "STRONG"]], {})]}
}

test_mrsc_with_a_witness_passes if {
	t := global_table([["us-east-2", "STRONG"]], {"global_table_witness": [{"region_name": "us-west-2"}]})
	count(denials) == 0 with input as {"resource_changes": [t]}
}

test_mrsc_witness_in_another_region_set_fails if {
	t := global_table([["us-east-2", "STRONG"]], {"global_table_witness": [{"region_name": "eu-west-1"}]})
	some d in conftest.deny with input as {"resource_changes": [t]}
	d.rule == "DK604"
	contains(d.msg, "cannot span Region sets")
}

test_mrsc_with_an_lsi_and_ttl_fails if {
	t := global_table([["us-east-2", "STRONG"], ["us-west-2", "STRONG"]], {
		"local_secondary_index": [{"name": "by_date", "range_key": "orderId", "projection_type": "ALL", "non_key_attributes": []}],
		"ttl": [{"enabled": true, "attribute_name": "expires"}],
	})
	msgs := {d.msg | some d in conftest.deny; d.rule == "DK605"} with input as {"resource_changes": [t]}
	count(msgs) == 2
	some lsi in msgs
	contains(lsi, "do not support LSIs")
	some ttl in msgs
	contains(ttl, "do not support TTL")
}

test_eventual_replicas_with_an_lsi_pass if {
	t := global_table([["eu-west-1", "EVENTUAL"]], {"local_secondary_index": [{"name": "by_date", "range_key": "orderId", "projection_type": "ALL"}]})
	count(denials) == 0 with input as {"resource_changes": [t]}
}

test_a_region_given_twice_fails if {
	denials == {["DK606", "aws_dynamodb_table.orders"]} with input as {"resource_changes": [global_table([["us-east-1", "EVENTUAL"], ["eu-west-1", "EVENTUAL"]], {})]}
}

test_computed_replica_attributes_are_not_unknown_regions if {
	au := {"replica": [{"arn": true, "stream_arn": true, "stream_label": true, "kms_key_arn": true}], "arn": true}
	t := object.union(global_table([["us-east-2", "STRONG"]], {}), {"change": {"after_unknown": au}})
	denials == {["DK604", "aws_dynamodb_table.orders"]} with input as {"resource_changes": [t]}
}

test_unknown_replicas_stay_silent if {
	t := object.union(global_table([["us-east-2", "STRONG"]], {}), {"change": {"after_unknown": {"replica": [{"region_name": true}]}}})
	count(denials) == 0 with input as {"resource_changes": [t]}
}

# A replica resource joins its table through global_table_arn = aws_dynamodb_table.orders.arn.
replica_resource(address, region) := {
	"address": address, "mode": "managed", "type": "aws_dynamodb_table_replica", "name": split(address, ".")[1],
	"change": {"actions": ["create"], "before": null, "after_unknown": {"global_table_arn": true}, "after": {"region": region}},
}

replica_config := {"root_module": {"resources": [
	{"address": "aws_dynamodb_table.orders", "type": "aws_dynamodb_table"},
	{"address": "aws_dynamodb_table_replica.ohio", "type": "aws_dynamodb_table_replica", "expressions": {
		"global_table_arn": {"references": ["aws_dynamodb_table.orders.arn", "aws_dynamodb_table.orders"]},
	}},
]}}

test_replica_resource_joins_its_table if {
	t := global_table([], {"local_secondary_index": [{"name": "by_date", "range_key": "orderId", "projection_type": "ALL"}]})
	plan_in := {"resource_changes": [t, replica_resource("aws_dynamodb_table_replica.ohio", "us-east-2")], "configuration": replica_config}
	r := plan.documents["aws_dynamodb_table.orders"].derived.replicas with input as plan_in
	[x.region | some x in r.regions] == ["us-east-1", "us-east-2"]
	r.consistency == "eventual"
	count({d | some d in conftest.deny}) == 0 with input as plan_in
}
