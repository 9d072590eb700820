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
