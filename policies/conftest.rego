# METADATA
# title: conftest and opa eval entry points
# description: |
#   `conftest test --policy policies --namespace dynamokeys.conftest plan.json` and
#   `opa eval -d policies -i plan.json data.dynamokeys.conftest.deny` on `terraform show -json` output:
#   error findings are deny, warnings are warn, each with the rule id, the resource address and the path.
package dynamokeys.conftest

import data.dynamokeys.lib
import data.dynamokeys.plan

# result is one conftest result: the message conftest prints, and the fields --output json and sarif carry.
# A finding on a standalone GSI or vector index joined to its table carries the index resource's address:
# that is where the user changes it.
result(table_address, owners, finding) := {
	"msg": sprintf("%s %s: %s%s", [finding.rule, address, finding.message, remedy(finding.remediation)]),
	"rule": finding.rule,
	"name": finding.name,
	"severity": finding.severity,
	"address": address,
	"path": lib.path_string(finding.path),
	"docs_url": finding.docs_url,
} if {
	address := plan.finding_address(table_address, owners, finding.path)
}

remedy(text) := sprintf(" (remedy: %s)", [text]) if text != ""

else := ""

# conftest queries deny and warn one after the other, each in a fresh evaluation: deny asks only for the
# error rules (data.dynamokeys.errors) and warn only for the warnings, so no rule runs twice.
# METADATA
# entrypoint: true
# description: Error findings of every planned table; only the reason when the rules' limits are not loaded.
deny contains result(address, owners, f) if {
	not lib.data_problem
	some address, doc in plan.documents

	# Bound here, under the plan as input, before the evaluation under the document.
	owners := object.get(plan.standalone_index_addresses, address, {})
	settings := plan.settings(object.get(doc, "policy", null))
	settings.enforce
	some f in data.dynamokeys.errors with input as doc
	not f.rule in settings.disabled
}

# A custom rule's finding that is malformed is an error naming the rule, never a silent drop.
deny contains {"msg": sprintf("dynamokeys: %s: %s", [address, problem]), "address": address} if {
	not lib.data_problem
	data.dynamokeys.custom # no evaluation per table when there is no custom package
	some address, doc in plan.documents
	some problem in data.dynamokeys.custom_problems with input as doc
}

# Without their limits the rules would compare nothing and pass the plan: fail it, with the one reason.
deny contains {"msg": lib.data_problem}

# METADATA
# entrypoint: true
# description: Warnings of every planned table, and tables the adapter could not read.
warn contains result(address, owners, f) if {
	not lib.data_problem
	some address, doc in plan.documents

	# Bound here, under the plan as input, before the evaluation under the document.
	owners := object.get(plan.standalone_index_addresses, address, {})
	settings := plan.settings(object.get(doc, "policy", null))
	some f in data.dynamokeys.warnings with input as doc
	not f.rule in settings.disabled
}

# With enforce off, the provider reports error findings as warnings and passes the plan: so does the bundle.
warn contains result(address, owners, f) if {
	not lib.data_problem
	some address, doc in plan.documents

	# Bound here, under the plan as input, before the evaluation under the document.
	owners := object.get(plan.standalone_index_addresses, address, {})
	settings := plan.settings(object.get(doc, "policy", null))
	not settings.enforce
	some f in data.dynamokeys.errors with input as doc
	not f.rule in settings.disabled
}

warn contains {"msg": sprintf("dynamokeys: could not read the planned values of %s; its key design was not checked", [address]), "address": address} if {
	some address in plan.unreadable
}

warn contains {"msg": msg, "address": address} if {
	some address in plan.sanitized_addresses
	msg := sprintf(
		"dynamokeys: the planned values of %s were sanitized (their strings replaced with hashes), so its key design was not checked: %s",
		[address, "on Spacelift, enable Smart Sanitization for the stack, which hashes only sensitive values"],
	)
}

warn contains {"msg": msg, "address": address} if {
	some address, table_name in plan.lone_gsis
	msg := sprintf(
		"dynamokeys: the table %s of %s is not in this plan, so the index was checked on its own: %s",
		[table_label(table_name), address, "the table's GSI count (DK503), its projected attributes in all (DK502) and its other keys were not checked"],
	)
}

warn contains {"msg": msg, "address": address} if {
	some address, table_name in plan.lone_vectors
	msg := sprintf(
		"dynamokeys: the table %s of %s is not in this plan, so the index was checked on its own: %s",
		[table_label(table_name), address, concat("", [
			"the table's billing mode (DK504), its vector index count (DK505), the dimensions of its other indexes (DK506) ",
			"and its keys (DK509) were not checked",
		])],
	)
}

table_label(name) := sprintf("%q", [name]) if is_string(name)

else := "(known after apply)"

# A table whose keys (or another input) are known only after apply is checked by every rule that does not
# read them; this says which were not, so that a passing gate is not taken for a checked key design.
warn contains {"msg": msg, "address": address} if {
	not lib.data_problem
	some address, names in plan.unchecked
	it := pronoun(names)
	msg := sprintf(
		"dynamokeys: %s of %s %s known only after apply, so the rules that read %s were not checked; the other rules were %s",
		[concat(", ", names), address, verb(names), it, sprintf("(give %s a value known at plan time, a literal or a variable, to have %s checked)", [it, it])],
	)
}

verb(names) := "is" if count(names) == 1

else := "are"

pronoun(names) := "it" if count(names) == 1

else := "them"

warn contains {"msg": msg, "address": address} if {
	some address in plan.not_known
	msg := sprintf(
		"dynamokeys: the key design of %s depends on values known only after apply, so it was not checked here; %s",
		[address, "the provider checks it when it plans the apply"],
	)
}

warn contains {"msg": msg, "address": address} if {
	some address, version in plan.unsupported
	msg := sprintf(
		"dynamokeys: %s carries a design document of schema_version %v, which this policy bundle does not understand (it reads %s); %s",
		[address, version, supported_versions, "its key design was not checked: use the policy bundle released with the provider"],
	)
}

supported_versions := concat(", ", [format_int(v, 10) | some v in plan.supported_schema_versions])

warn contains {"msg": msg} if {
	newest := plan.newer_provider
	msg := sprintf(
		"dynamokeys: this plan was made with dynamokeys provider %s, newer than this policy bundle (%s): %s",
		[newest, data.dynamokeys.version, "rules and facts the newer provider knows are not checked here; use the policy bundle released with the provider"],
	)
}

warn contains {"msg": msg} if {
	some address in plan.deeper_modules
	msg := sprintf("dynamokeys: %s is nested more than five modules deep; the dynamokeys_keydesign data sources in it and below were not checked", [address])
}

warn contains {"msg": "dynamokeys: the input is not a Terraform plan (no resource_changes array); run terraform show -json on a saved plan"} if {
	plan.not_a_plan
}
