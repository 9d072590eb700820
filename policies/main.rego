# METADATA
# title: dynamokeys findings
# description: |
#   Entry point of the embedded engine: every finding of the built-in rules (dynamokeys.rules.*) and of
#   every user package under dynamokeys.custom.*, evaluated on one design document (contributing/design-document.md).
#   errors and warnings hold the two severities apart for the conftest entry point, which queries deny and
#   warn separately: each query then evaluates only the rules of its own severity.
package dynamokeys

# METADATA
# entrypoint: true
# description: Every finding on the design document in input, built-in and custom.
findings := (errors | warnings) | custom_other

# The areas are listed rather than iterated with data.dynamokeys.rules[_]: a variable in the ref makes OPA
# walk the whole rule tree on every evaluation.
# METADATA
# entrypoint: true
# description: Error findings on the design document in input, built-in and custom.
errors contains f if some f in data.dynamokeys.rules.keys.errors

errors contains f if some f in data.dynamokeys.rules.lsi.errors

errors contains f if some f in data.dynamokeys.rules.hot.errors

errors contains f if some f in data.dynamokeys.rules.sharding.errors

errors contains f if some f in data.dynamokeys.rules.gsi.errors

errors contains f if some f in data.dynamokeys.rules.capacity.errors

# The measured rules have nothing to read without a measurement: the check keeps them out of most
# evaluations.
errors contains f if {
	measured
	some f in data.dynamokeys.rules.measured.errors
}

errors contains f if {
	some f in custom_findings
	f.severity == "error"
}

# METADATA
# entrypoint: true
# description: Warnings on the design document in input, built-in and custom.
warnings contains f if some f in data.dynamokeys.rules.keys.warnings

warnings contains f if some f in data.dynamokeys.rules.lsi.warnings

warnings contains f if some f in data.dynamokeys.rules.hot.warnings

warnings contains f if some f in data.dynamokeys.rules.sharding.warnings

warnings contains f if some f in data.dynamokeys.rules.gsi.warnings

warnings contains f if some f in data.dynamokeys.rules.capacity.warnings

warnings contains f if {
	measured
	some f in data.dynamokeys.rules.measured.warnings
}

measured if count(input.observed) > 0

warnings contains f if {
	some f in custom_findings
	f.severity == "warning"
}

# custom_other keeps custom findings of any other severity, so the engine can report them as malformed.
custom_other contains f if {
	some f in custom_findings
	not f.severity in {"error", "warning"}
}

custom_findings contains f if {
	walk(data.dynamokeys.custom, [path, value])
	count(path) > 0
	path[count(path) - 1] == "findings"
	is_set(value)
	some f in value
}
