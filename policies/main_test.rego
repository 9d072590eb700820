package dynamokeys_test

import data.dynamokeys
import data.dynamokeys.fixtures

test_findings_gather_every_area if {
	doc := fixtures.doc({
		"table": {"name": "x"},
		"sharding": {"strategy": "random"},
		"derived": {"capacity": {"per_shard_write_units": 2000}, "required_shards": 3},
	})
	ids := fixtures.ids(dynamokeys.findings) with input as doc
	ids == {"DK107", "DK303", "DK401", "DK403"}
}

test_findings_gather_custom_packages if {
	custom := {"team": {"findings": {{"rule": "ORG1", "name": "x", "severity": "warning", "message": "m", "path": []}}}}
	ids := fixtures.ids(dynamokeys.findings) with input as fixtures.base with dynamokeys.custom as custom
	ids == {"ORG1"}
}

test_every_finding_carries_remedy_and_docs if {
	doc := fixtures.doc({"derived": {"capacity": {"per_shard_write_units": 2000}}})
	some f in dynamokeys.findings with input as doc
	f.rule == "DK303"
	f.remediation != ""
	endswith(f.docs_url, "#dk303")
}

test_errors_and_warnings_split_findings_by_severity if {
	doc := fixtures.doc({
		"table": {"name": "x"},
		"sharding": {"strategy": "random"},
		"derived": {"capacity": {"per_shard_write_units": 2000}, "required_shards": 3},
	})
	errors := fixtures.ids(dynamokeys.errors) with input as doc
	errors == {"DK107", "DK303", "DK403"}
	warnings := fixtures.ids(dynamokeys.warnings) with input as doc
	warnings == {"DK401"}
}

test_custom_findings_follow_their_severity if {
	custom := {"team": {"findings": {
		{"rule": "ORG1", "name": "a", "severity": "error", "message": "m", "path": []},
		{"rule": "ORG2", "name": "b", "severity": "warning", "message": "m", "path": []},
	}}}
	errors := fixtures.ids(dynamokeys.errors) with input as fixtures.base with dynamokeys.custom as custom
	errors == {"ORG1"}
	warnings := fixtures.ids(dynamokeys.warnings) with input as fixtures.base with dynamokeys.custom as custom
	warnings == {"ORG2"}
}

# The policy plugin guide's example: no name, remediation or docs_url.
test_custom_finding_without_optional_fields_gets_defaults if {
	custom := {"naming": {"findings": {{"rule": "ORG001", "severity": "error", "path": ["name"], "message": "table \"x\" does not start with prod-"}}}}
	found := dynamokeys.findings with input as fixtures.base with dynamokeys.custom as custom
	found == {{
		"rule": "ORG001", "name": "", "severity": "error", "path": ["name"], "remediation": "", "docs_url": "",
		"message": "table \"x\" does not start with prod-",
	}}
}

test_custom_finding_path_as_dotted_string_becomes_steps if {
	custom := {"team": {"findings": {
		{"rule": "ORG1", "severity": "warning", "message": "m", "path": "table.name"},
		{"rule": "ORG2", "severity": "warning", "message": "m", "path": ""},
	}}}
	paths := {f.rule: f.path | some f in dynamokeys.findings} with input as fixtures.base with dynamokeys.custom as custom
	paths == {"ORG1": ["table", "name"], "ORG2": []}
}

test_malformed_custom_findings_are_problems_naming_rule_and_package if {
	custom := {"team": {"sub": {"findings": {
		{"rule": "ORG3", "severity": "fatal", "message": "m"},
		{"rule": "ORG4", "severity": "error"},
		{"severity": "warning", "message": "m"},
		"just a string",
	}}}}
	problems := dynamokeys.custom_problems with input as fixtures.base with dynamokeys.custom as custom
	problems == {
		"custom rule ORG3 (package dynamokeys.custom.team.sub) returned a finding that has severity fatal; use \"error\" or \"warning\"",
		"custom rule ORG4 (package dynamokeys.custom.team.sub) returned a finding that has no message (a non-empty string in message)",
		"custom rule without a rule id (package dynamokeys.custom.team.sub) returned a finding that has no rule id (a non-empty string in rule)",
		"custom rule without a rule id (package dynamokeys.custom.team.sub) returned a finding that is not an object",
	}
	count(dynamokeys.findings) == 0 with input as fixtures.base with dynamokeys.custom as custom
}
