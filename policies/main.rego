# METADATA
# title: dynamokeys findings
# description: |
#   Entry point of the embedded engine: every finding of the built-in rules (dynamokeys.rules.*) and of
#   every user package under dynamokeys.custom.*, evaluated on one design document (DESIGN §4.1).
package dynamokeys

# The areas are listed rather than iterated with data.dynamokeys.rules[_]: a variable in the ref makes OPA
# walk the whole rule tree on every evaluation.
# METADATA
# entrypoint: true
# description: Every finding on the design document in input, built-in and custom.
findings contains f if some f in data.dynamokeys.rules.keys.findings

findings contains f if some f in data.dynamokeys.rules.lsi.findings

findings contains f if some f in data.dynamokeys.rules.hot.findings

findings contains f if some f in data.dynamokeys.rules.sharding.findings

findings contains f if some f in data.dynamokeys.rules.gsi.findings

findings contains f if some f in data.dynamokeys.rules.capacity.findings

findings contains f if {
	walk(data.dynamokeys.custom, [path, value])
	count(path) > 0
	path[count(path) - 1] == "findings"
	is_set(value)
	some f in value
}
