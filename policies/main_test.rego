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
		{"rule": "ORG3", "name": "c", "severity": "fatal", "message": "m", "path": []},
	}}}
	errors := fixtures.ids(dynamokeys.errors) with input as fixtures.base with dynamokeys.custom as custom
	errors == {"ORG1"}
	warnings := fixtures.ids(dynamokeys.warnings) with input as fixtures.base with dynamokeys.custom as custom
	warnings == {"ORG2"}

	# a malformed severity stays in findings, where the engine reports it, and in neither half
	every_finding := fixtures.ids(dynamokeys.findings) with input as fixtures.base with dynamokeys.custom as custom
	every_finding == {"ORG1", "ORG2", "ORG3"}
}
