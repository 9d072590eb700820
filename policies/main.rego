# METADATA
# title: dynamokeys findings
# description: |
#   Entry point of the embedded engine: every finding of the built-in rules (dynamokeys.rules.*) and of
#   every user package under dynamokeys.custom.*, evaluated on one design document (DESIGN §4.1).
package dynamokeys

findings contains f if {
	some area
	some f in data.dynamokeys.rules[area].findings
}

findings contains f if {
	walk(data.dynamokeys.custom, [path, value])
	count(path) > 0
	path[count(path) - 1] == "findings"
	is_set(value)
	some f in value
}
