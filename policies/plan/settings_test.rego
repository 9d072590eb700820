package dynamokeys.plan_settings_test

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

kinds(deny, warn) := {[r.rule, r.severity, kind] |
	some kind, results in {"deny": deny, "warn": warn}
	some r in results
	r.rule
}

test_design_without_policy_settings_is_enforced if {
	found := kinds(conftest.deny, conftest.warn) with input as sharded_plan(hot_doc({}))
	found == {["DK303", "error", "deny"], ["DK403", "error", "deny"], ["DK401", "warning", "warn"]}
}

test_provider_disabled_rules_are_disabled_in_the_bundle if {
	doc := hot_doc({"policy": {"enforce": true, "disabled_rules": ["DK303", "DK401"]}})
	found := kinds(conftest.deny, conftest.warn) with input as sharded_plan(doc)
	found == {["DK403", "error", "deny"]}
}

test_provider_enforce_off_turns_errors_into_warn_results if {
	doc := hot_doc({"policy": {"enforce": false, "disabled_rules": []}})
	found := kinds(conftest.deny, conftest.warn) with input as sharded_plan(doc)
	found == {["DK303", "error", "warn"], ["DK403", "error", "warn"], ["DK401", "warning", "warn"]}
}

test_design_settings_win_over_the_bundle_settings if {
	doc := hot_doc({"policy": {"enforce": true, "disabled_rules": []}})
	found := kinds(conftest.deny, conftest.warn) with data.dynamokeys.settings as {"enforce": false, "disabled_rules": ["DK303"]} with input as sharded_plan(doc)
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
	found := kinds(conftest.deny, conftest.warn) with input as bool_key_plan
	found == {["DK101", "error", "deny"], ["DK302", "warning", "warn"]}
	disabled := kinds(conftest.deny, conftest.warn) with data.dynamokeys.settings as {"disabled_rules": ["DK302"]} with input as bool_key_plan
	disabled == {["DK101", "error", "deny"]}
	advisory := kinds(conftest.deny, conftest.warn) with data.dynamokeys.settings as {"enforce": false, "disabled_rules": []} with input as bool_key_plan
	advisory == {["DK101", "error", "warn"], ["DK302", "warning", "warn"]}
}

test_bundle_settings_as_a_set_and_malformed_settings if {
	plan.settings(null) == {"enforce": true, "disabled": {"DK101"}} with data.dynamokeys.settings as {"disabled_rules": {"DK101"}}
	plan.settings(null) == {"enforce": true, "disabled": set()} with data.dynamokeys.settings as "off"
}
