# METADATA
# title: Table names
# description: An organisation's own rule, beside the built-in ones.
package dynamokeys.custom.naming

# METADATA
# title: Tables start with prod-
# custom:
#   id: ORG001
findings contains {
	"rule": "ORG001", "name": "table-prefix", "severity": "error", "path": ["name"],
	"message": sprintf("table %q does not start with prod-", [input.table.name]),
} if {
	not startswith(input.table.name, "prod-")
}
