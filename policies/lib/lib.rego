# METADATA
# title: dynamokeys policy library
# description: |
#   Helpers shared by the dynamokeys rules: the finding builder, unknown-path checks, DynamoDB limits
#   and number formatting. Rules read facts from input.derived; this package holds no design math.
package dynamokeys.lib

# DynamoDB limits the rules compare against. Go keeps the same numbers in internal/keydesign/limits.go, and
# a test checks that both agree. Sources: AWS DynamoDB Developer Guide (URLs in contributing/capacity-model.md).
limits := {
	# Per physical partition, both capacity modes (bp-partition-key-design).
	"partition_write_units": 1000,
	"partition_read_units": 3000,
	# ServiceQuotas "Partition key length", "Sort key length".
	"partition_key_max_bytes": 2048,
	"sort_key_max_bytes": 1024,
	# LSI.html#LSI.ItemCollections.SizeLimit: 10 GB cap, alarm near 8 GB.
	"item_collection_bytes": 10737418240,
	"item_collection_warn_bytes": 8589934592,
	# ServiceQuotas: 5 LSIs (fixed), 20 GSIs (default), 100 projected attributes across indexes.
	"max_lsis": 5,
	"max_gsis": 20,
	"max_projected_attributes": 100,
	# GSI.DesignPattern.MultiAttributeKeys: up to 4 partition and 4 sort attributes.
	"max_gsi_key_attributes": 4,
	# ServiceQuotas "Throughput default quotas": on-demand units per table, GSIs included.
	"on_demand_table_units": 40000,
	# on-demand-capacity-mode / warm-throughput.html: a new table's default warm throughput.
	"new_table_write_units": 4000,
	"new_table_read_units": 12000,
	# HowItWorks.NamingRulesDataTypes; API_KeySchemaElement.
	"min_name_length": 3,
	"max_name_length": 255,
	"max_attribute_name_bytes": 255,
	# ServiceQuotas "Number": 38 significant digits.
	"max_number_digits": 38,
	# Design thresholds of the rules (contributing/capacity-model.md): low cardinality, fan-out, over-sharding, busy partition share.
	"low_cardinality": 100,
	"fanout_shards": 100,
	"fanout_overprovision_factor": 4,
	"busy_partition_share": 0.5,
}

docs_base := "https://registry.terraform.io/providers/dynamokeys/dynamokeys/latest/docs/guides/rule-reference"

# finding builds a finding from the METADATA of the rule that calls it.
finding(meta, message, path) := finding_of(meta, meta.custom.severity, meta.custom.remediation, message, path)

# finding_case builds a finding of a rule whose severity and remedy depend on the case: the custom.cases of
# the rule's annotations name each case's severity and remediation.
finding_case(meta, case, message, path) := finding_of(meta, meta.custom.cases[case].severity, meta.custom.cases[case].remediation, message, path)

finding_of(meta, severity, remediation, message, path) := {
	"rule": meta.custom.id,
	"name": meta.custom.name,
	"severity": severity,
	"message": message,
	"path": path,
	"remediation": remediation,
	"docs_url": sprintf("%s#%s", [docs_base, lower(meta.custom.id)]),
}

# unknown_prefixes are the dotted paths not known at plan time with a trailing dot, to match their children.
unknown_prefixes contains concat("", [u, "."]) if some u in input.unknown

# unknown(p) holds when the dotted path p, or one of its parents, is not known at plan time.
unknown(p) if p in input.unknown

unknown(p) if {
	some prefix in unknown_prefixes
	startswith(p, prefix)
}

known(p) if not unknown(p)

# Traffic-derived facts are usable only when known and numeric.
number(x) if is_number(x)

# fmt formats a number for messages: 2,500 or 156.3.
fmt(n) := grouped(n) if {
	is_number(n)
	n == round(n)
}

fmt(n) := sprintf("%s.%d", [grouped(whole), tenth]) if {
	is_number(n)
	n != round(n)
	tenths := round(n * 10)
	whole := floor(tenths / 10)
	tenth := tenths - (whole * 10)
}

# grouped prints a whole number with thousands separators, by magnitude (no loops: it runs in every message).
grouped(n) := format_int(n, 10) if abs(n) < 1000

grouped(n) := sprintf("%d,%03d", [floor(n / 1000), n % 1000]) if {
	abs(n) >= 1000
	abs(n) < 1000000
}

grouped(n) := sprintf("%d,%03d,%03d", [floor(n / 1000000), floor(n / 1000) % 1000, n % 1000]) if {
	abs(n) >= 1000000
	abs(n) < 1000000000
}

grouped(n) := sprintf("%d,%03d,%03d,%03d", [floor(n / 1000000000), floor(n / 1000000) % 1000, floor(n / 1000) % 1000, n % 1000]) if {
	abs(n) >= 1000000000
	abs(n) < 1000000000000
}

grouped(n) := sprintf("%d,%03d,%03d,%03d,%03d", [
	floor(n / 1000000000000), floor(n / 1000000000) % 1000,
	floor(n / 1000000) % 1000, floor(n / 1000) % 1000, n % 1000,
]) if {
	abs(n) >= 1000000000000
	abs(n) < 1000000000000000
}

# Beyond 15 digits a whole number prints in scientific notation (1.23e+18). sprintf formats an integer
# with %g as an error, so a fraction is added to make it a float first; it is far below the 3 digits shown.
grouped(n) := sprintf("%.3g", [n + 0.25]) if abs(n) >= 1000000000000000

# percent formats a share: 0.625 → 62.5%.
percent(x) := concat("", [fmt(x * 100), "%"])

# key_name names the key attribute at a path for messages: partition_key or a GSI attribute.
path_string(path) := concat(".", [format_step(step) | some step in path])

format_step(step) := step if is_string(step)

format_step(step) := format_int(step, 10) if is_number(step)

on_demand if input.table.billing_mode in {"", "PAY_PER_REQUEST"}

on_demand if not input.table.billing_mode
