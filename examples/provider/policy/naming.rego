# An organisation's own rule, loaded by policy.policy_dirs beside the built-in ones: every table name starts
# with its environment. The rules guide ("Your own rules") describes the document a rule reads and the
# finding it returns.
package dynamokeys.custom.naming

findings contains {
	"rule": "ORG001", "name": "table-prefix", "severity": "error", "path": ["name"],
	"message": sprintf("table %q does not start with prod-", [input.table.name]),
	"remediation": "Name production tables prod-<service>-<entity>.",
} if {
	input.table.name != ""
	not startswith(input.table.name, "prod-")
}
