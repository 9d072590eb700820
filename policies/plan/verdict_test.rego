package dynamokeys.plan_test

import data.dynamokeys.conftest
import data.dynamokeys.plan

# One verdict per table: a partition key known by its name only gets the same rule ids from a planned
# aws_dynamodb_table (the mapping the list resource's audit and TFLint use too) and from the document the
# provider builds for dynamokeys_sharded_table or dynamokeys_keydesign without a template, whether the
# bundle reads it from a plan or the provider's engine evaluates it.
verdict_fixtures := [
	{"name": "order_status", "type": "S", "want": {"DK302"}},
	{"name": "event_date", "type": "S", "want": {"DK301"}},
	{"name": "createdAt", "type": "S", "want": {"DK301"}},
	{"name": "createdAt", "type": "N", "want": set()},
	{"name": "is_active", "type": "S", "want": {"DK302"}},
	{"name": "customer_id", "type": "S", "want": set()},
]

# untemplated_docs are documents as the provider builds them for keys without templates, by key name and type.
untemplated_docs[[name, type]] := object.union(sharded_doc, {
	"table": {
		"partition_key": {"name": name, "type": type, "template": null},
		"sort_key": {"name": "sk", "type": "S", "template": null},
	},
	"derived": {
		"partition_key": plan.no_template_facts,
		"sort_key": plan.no_template_facts,
		"partition_key_max_bytes": null,
		"partition_key_segments": [],
		"key_attributes": [
			{"path": ["partition_key"], "name": name, "name_bytes": count(name), "type": type},
			{"path": ["sort_key"], "name": "sk", "name_bytes": 2, "type": "S"},
		],
		"conventions": {"delimiters": [], "letter_cases": []},
	},
}) if {
	some [name, type] in ({[f.name, f.type] | some f in verdict_fixtures} | {["status", "S"]})
}

rules_of(results) := {r.rule | some r in results}

test_untemplated_partition_key_gets_one_verdict if {
	every f in verdict_fixtures {
		after := aws_table({"hash_key": f.name, "attribute": [{"name": f.name, "type": f.type}, {"name": "orderId", "type": "S"}]})
		rules_of(conftest.warn) == f.want with input as aws_plan(after)
		count(conftest.deny) == 0 with input as aws_plan(after)

		doc := untemplated_docs[[f.name, f.type]]
		rules_of(conftest.warn) == f.want with input as sharded_plan(sharded_values(doc), null, ["create"], {})
		rules_of(data.dynamokeys.findings) == f.want with input as doc
	}
}

# A template known only after apply is a template to come, not a key without one: the heuristics wait.
test_name_heuristics_wait_for_an_unknown_template if {
	doc := object.union(untemplated_docs[["order_status", "S"]], {"unknown": ["partition_key.template"]})
	count(data.dynamokeys.findings) == 0 with input as doc
}

# With entities, each entity's keys are the templates: the table's key name says nothing of its values.
test_name_heuristics_leave_entity_keys_to_their_templates if {
	doc := object.union(untemplated_docs[["status", "S"]], {"derived": {"entities": {"items": [], "collections": {}}}})
	not "DK302" in rules_of(data.dynamokeys.findings) with input as doc
}
