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
findings := errors | warnings

# The areas are listed rather than iterated with data.dynamokeys.rules[_]: a variable in the ref makes OPA
# walk the whole rule tree on every evaluation.
# METADATA
# entrypoint: true
# description: Error findings on the design document in input, built-in and custom.
errors contains f if {
	design
	some f in data.dynamokeys.rules.keys.errors
}

errors contains f if {
	design
	some f in data.dynamokeys.rules.lsi.errors
}

# The entity rules read only a single-table design's entities.
errors contains f if {
	design
	input.derived.entities
	some f in data.dynamokeys.rules.entities.errors
}

errors contains f if {
	design
	some f in data.dynamokeys.rules.hot.errors
}

errors contains f if {
	design
	some f in data.dynamokeys.rules.sharding.errors
}

# The migration rules read a prior state or a declared migration.
errors contains f if {
	design
	migration
	some f in data.dynamokeys.rules.migration.errors
}

errors contains f if {
	design
	some f in data.dynamokeys.rules.gsi.errors
}

errors contains f if {
	design
	some f in data.dynamokeys.rules.capacity.errors
}

# The access-pattern rules read only declared patterns: the check keeps them out of designs without any.
errors contains f if {
	design
	patterns
	some f in data.dynamokeys.rules.access_patterns.errors
}

# The measured rules have nothing to read without a measurement: the check keeps them out of most
# evaluations.
errors contains f if {
	design
	measured
	some f in data.dynamokeys.rules.measured.errors
}

# The vector rules read vector indexes: the check keeps them out of designs without any.
errors contains f if {
	design
	vectors
	some f in data.dynamokeys.rules.vectors.errors
}

errors contains f if {
	design
	some f in custom_findings
	f.severity == "error"
}

# METADATA
# entrypoint: true
# description: Warnings on the design document in input, built-in and custom.
warnings contains f if {
	design
	some f in data.dynamokeys.rules.keys.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.lsi.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.hot.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.sharding.warnings
}

warnings contains f if {
	design
	migration
	some f in data.dynamokeys.rules.migration.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.gsi.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.capacity.warnings
}

warnings contains f if {
	design
	some f in data.dynamokeys.rules.cost.warnings
}

warnings contains f if {
	design
	measured
	some f in data.dynamokeys.rules.measured.warnings
}

warnings contains f if {
	design
	vectors
	some f in data.dynamokeys.rules.vectors.warnings
}

measured if count(input.observed) > 0

vectors if count(input.derived.vector_indexes) > 0

# design holds for a document of a table as it will be. A document of a change alone (a destroyed table, or
# an index or replica change whose table is not otherwise in the plan) is judged by the change rules only.
design if not input.change.only

# The change rules read what the plan does to a live table: only documents with a change have one.
errors contains f if {
	input.change
	some f in data.dynamokeys.rules.changes.errors
}

warnings contains f if {
	input.change
	some f in data.dynamokeys.rules.changes.warnings
}

migration if is_object(input.prior)

migration if is_object(input.derived.migration)

patterns if count(input.derived.access_patterns) > 0

warnings contains f if {
	design
	patterns
	some f in data.dynamokeys.rules.access_patterns.warnings
}

warnings contains f if {
	design
	some f in custom_findings
	f.severity == "warning"
}

# custom_findings are the findings of every dynamokeys.custom.* package that are well formed (an object with a
# rule id, a message and a severity of error or warning), with defaults for the optional fields: a custom rule
# need not build a finding as the built-in ones do, and its finding must reach every entry point.
custom_findings contains with_defaults(f.finding) if {
	some f in custom_raw
	well_formed(f.finding)
}

# custom_problems describe the malformed custom findings, naming the rule and its package: the engine and
# every plan entry point report them as errors rather than drop the finding.
custom_problems contains sprintf("custom rule %s (package %s) returned a finding that %s", [custom_rule_name(f), f.package, problem]) if {
	some f in custom_raw
	some problem in finding_problems(f.finding)
}

custom_raw contains {"package": concat(".", array.concat(["dynamokeys", "custom"], array.slice(path, 0, count(path) - 1))), "finding": f} if {
	walk(data.dynamokeys.custom, [path, value])
	count(path) > 0
	path[count(path) - 1] == "findings"
	is_set(value)
	some f in value
}

finding_defaults := {"name": "", "path": [], "remediation": "", "docs_url": ""}

# with_defaults fills the optional fields, and reads a dotted path string ("table.name") as the path array
# the built-in findings carry.
with_defaults(f) := object.union_n([
	finding_defaults,
	{k: v | some k, v in f; v != null},
	{"path": path_steps(object.get(f, "path", []))},
])

path_steps(p) := p if is_array(p)

path_steps(p) := split(p, ".") if {
	is_string(p)
	p != ""
}

path_steps(p) := [] if {
	not is_array(p)
	not non_empty_string(p)
}

well_formed(f) if count(finding_problems(f)) == 0

finding_problems(f) := {"is not an object"} if not is_object(f)

finding_problems(f) := {problem |
	some field, problem in {
		"rule": "has no rule id (a non-empty string in rule)",
		"message": "has no message (a non-empty string in message)",
	}
	not non_empty_string(object.get(f, field, null))
} | {sprintf("has severity %v; use \"error\" or \"warning\"", [object.get(f, "severity", null)]) |
	not object.get(f, "severity", null) in {"error", "warning"}
} if {
	is_object(f)
}

non_empty_string(s) if {
	is_string(s)
	s != ""
}

custom_rule_name(f) := f.finding.rule if {
	is_object(f.finding)
	non_empty_string(object.get(f.finding, "rule", null))
}

else := "without a rule id"
