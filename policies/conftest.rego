# METADATA
# title: conftest and opa eval entry points
# description: |
#   `conftest test --policy policies --namespace dynamokeys.conftest plan.json` and
#   `opa eval -d policies -i plan.json data.dynamokeys.conftest.deny` on `terraform show -json` output:
#   error findings are deny, warnings are warn, each with the rule id, the resource address and the path.
package dynamokeys.conftest

import data.dynamokeys.lib
import data.dynamokeys.plan

# plan_findings pairs each planned table with its findings.
plan_findings contains {"address": address, "finding": f} if {
	some address, doc in plan.documents
	some f in data.dynamokeys.findings with input as object.union(doc, {"address": address})
}

result(entry) := {
	"msg": sprintf("%s %s: %s (remedy: %s)", [entry.finding.rule, entry.address, entry.finding.message, entry.finding.remediation]),
	"rule": entry.finding.rule,
	"name": entry.finding.name,
	"address": entry.address,
	"path": lib.path_string(entry.finding.path),
	"docs_url": entry.finding.docs_url,
}

# METADATA
# entrypoint: true
# description: Error findings of every planned table.
deny contains result(entry) if {
	some entry in plan_findings
	entry.finding.severity == "error"
}

# METADATA
# entrypoint: true
# description: Warnings of every planned table, and tables the adapter could not read.
warn contains result(entry) if {
	some entry in plan_findings
	entry.finding.severity == "warning"
}

warn contains {"msg": sprintf("dynamokeys: could not read the planned values of %s; its key design was not checked", [address]), "address": address} if {
	some address in plan.unreadable
}

warn contains {"msg": "dynamokeys: the input is not a Terraform plan (no resource_changes array); run terraform show -json on a saved plan"} if {
	plan.not_a_plan
}
