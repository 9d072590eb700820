# METADATA
# title: dynamokeys policy library
# description: |
#   Helpers shared by the dynamokeys rules: the finding builder, unknown-path checks, DynamoDB limits
#   and number formatting. Rules read facts from input.derived; this package holds no design math.
package dynamokeys.lib

# The DynamoDB limits, thresholds and defaults the rules compare against, and the docs base URL, are the
# bundle's data: policies/dynamokeys/source/data.json, which reaches Rego as the generated module data.rego
# (package dynamokeys), so that whatever loads the rules loads the limits too. Rules import
# data.dynamokeys.limits.
import data.dynamokeys.limits

# rules_data_format is the shape of the bundle data these rules read (data_format of the data file).
rules_data_format := 5

default loaded_data_format := "none"

loaded_data_format := data.dynamokeys.data_format

data_loaded if is_object(limits)

# data_problem says why the rules cannot evaluate: without the limits every comparison with a DynamoDB limit
# would be undefined and a plan would pass unchecked. Every entry point reports it instead of any finding.
data_problem := concat("", [
	"dynamokeys: the policy bundle's limits are not loaded (the module data.rego of package dynamokeys is missing), ",
	"so no rule could compare this plan with DynamoDB's limits and nothing was checked: load the whole bundle directory ",
	"or archive, not single files (conftest test --policy <bundle> --namespace dynamokeys.conftest plan.json, opa eval -d <bundle>)",
]) if {
	not data_loaded
} else := sprintf(
	"dynamokeys: the policy bundle's limits (data.rego) are of data format %v, but its rules read format %d, so nothing was checked: %s",
	[loaded_data_format, rules_data_format, "the files come from different releases; load one release's bundle directory or archive whole"],
) if {
	loaded_data_format != rules_data_format
}

# finding builds a finding from the METADATA of the rule that calls it. finding and finding_case write the
# object themselves rather than through a shared helper: each call of a function with arguments no other
# call has is one more entry in the evaluation's cache, and a design can have a hundred findings.
finding(meta, message, path) := {
	"rule": meta.custom.id,
	"name": meta.custom.name,
	"severity": meta.custom.severity,
	"message": message,
	"path": path,
	"remediation": expand(meta.custom.remediation),
	"docs_url": docs_url(meta.custom.id),
}

# finding_case builds a finding of a rule whose severity and remedy depend on the case: the custom.cases of
# the rule's annotations name each case's severity and remediation.
finding_case(meta, case, message, path) := {
	"rule": meta.custom.id,
	"name": meta.custom.name,
	"severity": meta.custom.cases[case].severity,
	"message": message,
	"path": path,
	"remediation": expand(meta.custom.cases[case].remediation),
	"docs_url": docs_url(meta.custom.id),
}

# docs_url is where a rule is documented; a function, so that the findings of one rule share one result.
docs_url(id) := sprintf("%s#%s", [data.dynamokeys.docs_base, lower(id)])

# unknown_prefixes are the dotted paths not known at plan time with a trailing dot, to match their children.
unknown_prefixes contains concat("", [u, "."]) if some u in input.unknown

# unknown(p) holds when the dotted path p, or one of its parents, is not known at plan time.
unknown(p) if p in input.unknown

unknown(p) if {
	some prefix in unknown_prefixes
	startswith(p, prefix)
}

# known(p) holds when the dotted path p is known at plan time. Most documents have no unknown path, and then
# it holds without looking p up: the rules ask it hundreds of times per design.
known(p) if all_known

else if not unknown(p)

# all_known holds when no path of the document is unknown at plan time.
all_known if count(input.unknown) == 0

# Traffic-derived facts are usable only when known and numeric.
number(x) if is_number(x)

# fmt formats a number for messages: 2,500 or 156.3, rounded to one decimal, which is dropped when it
# rounds to 0 (2.04 is 2), as keydesign.FormatNumber does in Go (TestGoAndRegoFormatAlike).
fmt(n) := grouped(round(n)) if {
	is_number(n)
	round(n * 10) % 10 == 0
} else := sprintf("%s.%d", [grouped(whole), tenth]) if {
	is_number(n)
	tenths := round(n * 10)
	whole := floor(tenths / 10)
	tenth := tenths - (whole * 10)
}

# grouped prints a whole number with thousands separators, by magnitude (no loops: it runs in every message;
# an else chain, so a call stops at its magnitude instead of trying all six). Beyond 15 digits it prints in
# scientific notation (1.23e+18): sprintf formats an integer with %g as an error, so a fraction is added to
# make it a float first; it is far below the 3 digits shown.
grouped(n) := format_int(n, 10) if {
	abs(n) < 1000
} else := sprintf("%d,%03d", [floor(n / 1000), n % 1000]) if {
	abs(n) < 1000000
} else := sprintf("%d,%03d,%03d", [floor(n / 1000000), floor(n / 1000) % 1000, n % 1000]) if {
	abs(n) < 1000000000
} else := sprintf("%d,%03d,%03d,%03d", [floor(n / 1000000000), floor(n / 1000000) % 1000, floor(n / 1000) % 1000, n % 1000]) if {
	abs(n) < 1000000000000
} else := sprintf("%d,%03d,%03d,%03d,%03d", [
	floor(n / 1000000000000), floor(n / 1000000000) % 1000,
	floor(n / 1000000) % 1000, floor(n / 1000) % 1000, n % 1000,
]) if {
	abs(n) < 1000000000000000
} else := sprintf("%.3g", [n + 0.25])

# percent formats a share: 0.625 → 62.5%.
percent(x) := concat("", [fmt(x * 100), "%"])

# key_name names the key attribute at a path for messages: partition_key or a GSI attribute.
path_string(path) := concat(".", [format_step(step) | some step in path])

format_step(step) := step if is_string(step)

format_step(step) := format_int(step, 10) if is_number(step)

on_demand if input.table.billing_mode in {"", "PAY_PER_REQUEST"}

on_demand if not input.table.billing_mode

# expand replaces each ${name} in a METADATA text with the limit of that name, formatted as in messages, so
# that remedies and descriptions quote the data file instead of repeating its numbers.
expand(text) := text if not contains(text, "${")

expand(text) := strings.replace_n(
	{sprintf("${%s}", [name]): limit_text(limits[name]) | some name in placeholders(text)},
	text,
) if {
	contains(text, "${")
}

placeholders(text) := {m[1] | some m in regex.find_all_string_submatch_n(`\$\{([a-z_]+)\}`, text, -1)}

limit_text(v) := fmt(v) if is_number(v)

limit_text(v) := v if is_string(v)

# name_hint applies the partition-key guidance to a bare attribute name and its type: "low_cardinality" for a
# status-, type-, level-, environment-, role-, permission-, region- or flag-like name, "time" for a time
# bucket (a date, a day, an hour: any type) or a time held as a string, else "". A number named like a time
# (timestamp, created_at) holds epoch values, each its own key: no hint. The words are the bundle's data
# (data.dynamokeys.name_hints), matched on whole words of snake_case, kebab-case and camelCase names. The
# rules use it for a partition key without a template (partition_key_name_hint) and for GSI partition keys
# whose cardinality the design does not state.
name_hint(name, key_type) := "low_cardinality" if {
	few_valued(name_words(name))
} else := "time" if {
	some w in name_words(name)
	w in data.dynamokeys.name_hints.time_bucket_words
} else := "time" if {
	key_type != "N"
	some w in name_words(name)
	w in data.dynamokeys.name_hints.timestamp_words
} else := ""

few_valued(words) if words[count(words) - 1] in data.dynamokeys.name_hints.low_cardinality_words

few_valued(words) if {
	count(words) > 1
	words[0] in data.dynamokeys.name_hints.boolean_prefixes
}

# partition_key_name_hint is name_hint of the table's partition key when nothing else tells its values: no
# template and no entities (an adopted or imported table, a design that names only its keys, the AWS
# provider's aws_dynamodb_table). Every front builds some such document for one table, so each gives the same
# verdict. A template known only after apply is not "no template": the rules wait for it.
default partition_key_name_hint := ""

partition_key_name_hint := hint if {
	not input.derived.entities
	key := input.table.partition_key
	object.get(key, "template", null) == null
	known("partition_key.template")
	known("partition_key.name")
	is_string(key.name)
	hint := name_hint(key.name, object.get(key, "type", "S"))
}

# name_words are the lower-case words of an attribute name: split at every character that is not a letter or
# digit, and before each capital that starts a camelCase word (orderStatus, HTTPStatus, GSI1PK).
name_words(name) := [w |
	some w in regex.split(`[^a-z0-9]+`, lower(regex.replace(
		regex.replace(name, `([A-Z]+)([A-Z][a-z])`, "${1}_${2}"),
		`([a-z0-9])([A-Z])`, "${1}_${2}",
	)))
	w != ""
]

# key_path is where a finding on the table's key template lies: the table's own template (a design without
# entities), which template_paths maps.
key_path(path, paths) := paths[path[0]] if path[1] == "template"

else := path

default template_paths := {"partition_key": ["partition_key", "template"], "sort_key": ["sort_key", "template"]}

# key_scopes are the key templates the key rules read, each with where its findings point: every entity's
# own of a single-table design, else the table's (a design without entities is one entity). A scope's
# collection is the demand on its busiest partition-key value, which the entities sharing it sum.
key_scopes contains scope if {
	not input.derived.entities
	scope := {
		"entity": "",
		"note": "",
		"partition_key": input.derived.partition_key,
		"sort_key": object.get(input.derived, "sort_key", null),
		"paths": template_paths,
		"partition_key_known": is_known("partition_key.template"),
		"sort_key_known": is_known("sort_key.template"),
		"demand": table_demand,
	}
}

key_scopes contains scope if {
	some e in input.derived.entities.items
	collection := input.derived.entities.collections[e.collection]
	scope := {
		"entity": e.name,
		"note": sprintf(" (entity %s)", [e.name]),
		"partition_key": e.partition_key,
		"sort_key": e.sort_key,
		"paths": entity_paths(e.name),
		"partition_key_known": entity_key_known(e.name, "partition_key"),
		"sort_key_known": entity_key_known(e.name, "sort_key"),
		"demand": collection_demand(collection),
	}
}

# demand_scopes are the busiest partition-key values the heat rules read: the table's busiest key, or each
# item collection's of a single-table design, with the entities that share it.
demand_scopes contains table_demand if not input.derived.entities

demand_scopes contains collection_demand(c) if some c in input.derived.entities.collections

table_demand := {
	"note": "",
	"hot_key_write_units": input.derived.capacity.hot_key_write_units,
	"hot_key_read_units": input.derived.capacity.hot_key_read_units,
	"per_shard_write_units": input.derived.capacity.per_shard_write_units,
	"per_shard_read_units": input.derived.capacity.per_shard_read_units,
	"shard_count": input.derived.shard_count,
	"required_shards": input.derived.required_shards,
	"sharded": input.sharding.strategy != "none",
	"path": template_paths.partition_key,
}

# A collection's busiest value: each entity's busiest value over its own shards, summed.
collection_demand(c) := {
	"note": collection_note_of(c),
	"hot_key_write_units": c.per_shard_write_units,
	"hot_key_read_units": c.per_shard_read_units,
	"per_shard_write_units": c.per_shard_write_units,
	"per_shard_read_units": c.per_shard_read_units,
	"shard_count": c.shards,
	"required_shards": c.required_shards,
	"sharded": c.shards > 1,
	"path": entity_paths(c.hottest).partition_key,
}

entity_paths(name) := {key: ["entities", name, "keys", attribute] | some key, attribute in key_attribute_names}

# key_attribute_names are the table's key attribute names, which an entity's keys are named by.
key_attribute_names[key] := object.get(input.table, [key, "name"], "") if some key in ["partition_key", "sort_key"]

entity_key_known(name, key) if all_known

else if {
	known("segments")
	known(concat(".", ["entities", name, "keys"]))
	known(concat(".", ["entities", name, "keys", key_attribute_names[key]]))
} else := false

is_known(p) if known(p)

else := false

# collection_note names the entities of an item collection, for messages on its busiest key.
collection_note_of(c) := sprintf(" (entities %s share this partition-key value)", [concat(", ", c.entities)]) if {
	count(c.entities) > 1
} else := sprintf(" (entity %s)", [c.entities[0]])

# global_note says, in messages on write demand, that a global table's figure counts every Region's writes:
# each replica performs them all (derived.replicas). Empty for a single-Region table.
default global_note := ""

global_note := sprintf(" (global: each of the %d replica Regions performs every Region's writes)", [count(input.derived.replicas.regions)]) if {
	count(input.derived.replicas.regions) > 1
}
