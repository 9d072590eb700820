package dynamokeys.plan.settings_test

import data.dynamokeys.conftest
import data.dynamokeys.fixtures
import data.dynamokeys.plan

# hot_doc fires DK303 (error) and DK401 (warning) on the sharded table's design.
hot_doc(policy) := object.union(
	fixtures.doc({
		"kind": "sharded_table", "schema_version": 1, "provider_version": "dev",
		"sharding": {"strategy": "random"}, "derived": {"capacity": {"per_shard_write_units": 2000}, "required_shards": 3},
	}),
	policy,
)

sharded_plan(doc) := {"resource_changes": [{
	"address": "dynamokeys_sharded_table.events", "mode": "managed", "type": "dynamokeys_sharded_table", "name": "events",
	"change": {"actions": ["create"], "before": null, "after": {"name": "x", "design_document": json.marshal(doc)}, "after_unknown": {}},
}]}

kinds(input_plan) := {[r.rule, r.severity, kind] |
	some kind, results in {"deny": deny, "warn": warn}
	some r in results
	r.rule
} if {
	deny := conftest.deny with input as input_plan
	warn := conftest.warn with input as input_plan
}

test_design_without_policy_settings_is_enforced if {
	kinds(sharded_plan(hot_doc({}))) == {["DK303", "error", "deny"], ["DK403", "error", "deny"], ["DK401", "warning", "warn"]}
}

test_provider_disabled_rules_are_disabled_in_the_bundle if {
	doc := hot_doc({"policy": {"enforce": true, "disabled_rules": ["DK303", "DK401"]}})
	kinds(sharded_plan(doc)) == {["DK403", "error", "deny"]}
}

test_provider_enforce_off_turns_errors_into_warn_results if {
	doc := hot_doc({"policy": {"enforce": false, "disabled_rules": []}})
	kinds(sharded_plan(doc)) == {["DK303", "error", "warn"], ["DK403", "error", "warn"], ["DK401", "warning", "warn"]}
}

test_design_settings_win_over_the_bundle_settings if {
	doc := hot_doc({"policy": {"enforce": true, "disabled_rules": []}})
	found := kinds(sharded_plan(doc)) with data.dynamokeys.settings as {"enforce": false, "disabled_rules": ["DK303"]}
	found == {["DK303", "error", "deny"], ["DK403", "error", "deny"], ["DK401", "warning", "warn"]}
}

bool_key_plan := {"resource_changes": [{
	"address": "aws_dynamodb_table.flags", "mode": "managed", "type": "aws_dynamodb_table", "name": "flags",
	"change": {"actions": ["create"], "before": null, "after_unknown": {}, "after": {
		"name": "flags", "hash_key": "status", "billing_mode": "PAY_PER_REQUEST",
		"attribute": [{"name": "status", "type": "BOOL"}],
	}},
}]}

test_bundle_settings_apply_to_aws_tables if {
	kinds(bool_key_plan) == {["DK101", "error", "deny"], ["DK302", "warning", "warn"]}
	disabled := kinds(bool_key_plan) with data.dynamokeys.settings as {"disabled_rules": ["DK302"]}
	disabled == {["DK101", "error", "deny"]}
	advisory := kinds(bool_key_plan) with data.dynamokeys.settings as {"enforce": false, "disabled_rules": []}
	advisory == {["DK101", "error", "warn"], ["DK302", "warning", "warn"]}
}

test_bundle_settings_as_a_set_and_malformed_settings if {
	plan.settings(null) == {"enforce": true, "disabled": {"DK101"}} with data.dynamokeys.settings as {"disabled_rules": {"DK101"}}
	plan.settings(null) == {"enforce": true, "disabled": set()} with data.dynamokeys.settings as "off"
}
