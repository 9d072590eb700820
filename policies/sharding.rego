# METADATA
# title: Write sharding
# description: Rules DK401–DK405 on random suffixes, scheme changes, the {shard} placeholder, fan-out and the shard source.
package dynamokeys.rules.sharding

import data.dynamokeys.lib
import data.dynamokeys.limits

# findings are the area's errors and warnings; the conftest entry point asks for each severity on its own,
# so that deny and warn each evaluate only their half of the rules.
findings := errors | warnings

# METADATA
# title: Random suffix
# description: |
#   A random suffix spreads writes, but readers must query every shard, and a retried write that draws a
#   new suffix creates a duplicate when identity depends on the suffix (bp-partition-key-sharding).
# custom:
#   id: DK401
#   name: random-suffix
#   aws_dynamodb_table: checks the sharding settings; aws_dynamodb_table has no sharding.
#   severity: warning
#   remediation: Use strategy = "calculated" with a stable source segment, so writers and readers compute the same shard.
warnings contains lib.finding(rego.metadata.rule(), msg, ["sharding", "strategy"]) if {
	input.sharding.strategy == "random"
	msg := sprintf("random sharding: every read of one logical key queries %d shards, and a retry that draws a new suffix writes a duplicate", [input.derived.shard_count])
}

# METADATA
# title: Shard scheme change
# description: |
#   Changing the shard count, source or strategy remaps existing ids to other shards; readers then miss
#   old items. Version the scheme (bp-partition-key-sharding).
# custom:
#   id: DK402
#   name: shard-scheme-change
#   aws_dynamodb_table: compares the sharding settings with the prior state; aws_dynamodb_table has no sharding.
#   severity: error
#   remediation: >-
#     On a live table pin sharding.count to the count its items were written with, so that new traffic
#     figures never change it silently. To move to more shards, set the new count and bump
#     sharding.scheme_version: write with the new scheme, read both schemes (query the old and the new
#     suffixes) until the old items have expired or been rewritten, then drop the old reads. Or keep the
#     previous count, source and strategy.
errors contains lib.finding(rego.metadata.rule(), msg, ["sharding", "scheme_version"]) if {
	prior := input.prior
	is_object(prior)
	not prior_scheme_unknown
	prior.sharding.scheme_version == input.sharding.scheme_version
	lib.known("derived.shard_count")
	lib.known("sharding")
	some change in scheme_changes
	msg := sprintf("the shard %s changes from %v to %v while scheme_version stays %d: existing items would be looked up in the wrong shard%s", [
		change.what, change.from, change.to, input.sharding.scheme_version, computed_count_hint(change),
	])
}

# computed_count_hint explains a count that changed because it is computed from traffic.
computed_count_hint(change) := sprintf(
	"; the count is computed from traffic (sharding.count is not set): pin sharding.count = %v to keep the scheme, or bump scheme_version to migrate",
	[change.from],
) if {
	change.what == "count"
	input.sharding.count == null
}

computed_count_hint(change) := "" if {
	change.what != "count"
}

computed_count_hint(change) := "" if {
	change.what == "count"
	input.sharding.count != null
}

# prior_scheme_unknown: the prior state recorded no design (an imported table), so there is no scheme to
# compare with.
prior_scheme_unknown if {
	some p in input.prior.unknown
	p in {"sharding", "derived.shard_count"}
}

scheme_changes contains {"what": what, "from": from, "to": to} if {
	some [what, from, to] in [
		["count", input.prior.derived.shard_count, input.derived.shard_count],
		["source", input.prior.sharding.source, input.sharding.source],
		["strategy", input.prior.sharding.strategy, input.sharding.strategy],
	]
	from != to
}

# METADATA
# title: Shard placeholder
# description: Sharding needs a {shard} placeholder in the partition-key template, and {shard} needs sharding.
# custom:
#   id: DK403
#   name: shard-placeholder
#   aws_dynamodb_table: checks the {shard} placeholder against the sharding settings; aws_dynamodb_table has neither.
#   severity: error
#   remediation: Add {shard} to partition_key.template (e.g. DAY#{day}#SHARD#{shard}), or set sharding.strategy to match the template.
errors contains lib.finding(rego.metadata.rule(), problem.msg, problem.path) if {
	some problem in placeholder_problems
}

placeholder_problems contains {"path": shardless_path, "msg": msg} if {
	input.sharding.strategy != "none"
	not any_shard
	every scope in lib.key_scopes {
		scope.partition_key_known
	}
	lib.known("sharding.strategy")
	msg := sprintf("sharding.strategy is %q but %s has no {shard} placeholder", [input.sharding.strategy, shardless_what])
}

placeholder_problems contains {"path": ["sharding", "strategy"], "msg": msg} if {
	input.sharding.strategy == "none"
	lib.known("sharding.strategy")
	some scope in lib.key_scopes
	scope.partition_key.has_shard
	scope.partition_key_known
	msg := sprintf("%s has a {shard} placeholder but sharding is off (strategy none)", [template_name(scope)])
}

any_shard if {
	some scope in lib.key_scopes
	scope.partition_key.has_shard
}

# Without entities, the table's template; with them, the entities' (the busiest collection's first).
default shardless_path := ["partition_key", "template"]

shardless_path := lib.entity_paths(input.derived.entities.collections[input.derived.entities.busiest].hottest).partition_key if {
	input.derived.entities
}

default shardless_what := "partition_key.template"

shardless_what := "no entity's partition-key template" if input.derived.entities

template_name(scope) := "partition_key.template" if scope.entity == ""

else := sprintf("entity %s's partition-key template", [scope.entity])

# METADATA
# title: Shard fan-out
# description: |
#   Reading one logical key queries every shard. More than ${fanout_shards} shards, or far more than the traffic needs,
#   makes every read slower and costlier.
# custom:
#   id: DK404
#   name: fanout
#   aws_dynamodb_table: compares the shard count with what traffic needs; aws_dynamodb_table has no sharding or traffic.
#   severity: warning
#   remediation: Lower sharding.count towards the required shard count, or omit it to compute it from traffic.
warnings contains lib.finding(rego.metadata.rule(), msg, ["sharding", "count"]) if {
	some msg in fanout_problems
}

fanout_problems contains msg if {
	n := input.derived.shard_count
	n > limits.fanout_shards
	lib.known("derived.shard_count")
	msg := sprintf("%d shards: every read of one logical key fans out to %d queries", [n, n])
}

fanout_problems contains msg if {
	has_traffic
	n := input.derived.shard_count
	required := input.derived.required_shards
	n > limits.fanout_overprovision_factor * required
	n <= limits.fanout_shards
	lib.known("derived.shard_count")
	msg := sprintf("%d shards where the traffic needs %d: reads fan out %s× more than necessary", [n, required, lib.fmt(n / required)])
}

has_traffic if lib.number(input.traffic.writes_per_second)

has_traffic if lib.number(input.traffic.reads_per_second)

# METADATA
# title: Shard source
# description: |
#   Calculated sharding hashes a source segment that readers know from the item's key; without one, or with
#   one that is not in the keys, readers cannot compute the shard.
# custom:
#   id: DK405
#   name: shard-source
#   aws_dynamodb_table: checks the sharding source against the templates; aws_dynamodb_table has neither.
#   severity: error
#   remediation: Set sharding.source to a segment that appears in partition_key.template or sort_key.template, e.g. the sort key's id.
errors contains lib.finding(rego.metadata.rule(), msg, ["sharding", "source"]) if {
	some msg in source_problems
}

source_problems contains "calculated sharding needs sharding.source: the segment whose value is hashed" if {
	input.sharding.strategy == "calculated"
	input.sharding.source == ""
	lib.known("sharding.source")
}

source_problems contains msg if {
	input.sharding.strategy == "calculated"
	source := input.sharding.source
	source != ""
	not source in key_placeholders
	lib.known("sharding.source")
	lib.known("partition_key.template")
	lib.known("sort_key.template")
	msg := sprintf("sharding.source %q is not a placeholder of the partition or sort key, so a reader cannot compute the shard from an item's key", [source])
}

source_problems contains msg if {
	input.sharding.strategy == "calculated"
	lib.known("sharding.source")
	source := input.sharding.source
	source_in_sharded_partition_key(source)
	msg := sprintf(
		"sharding.source %q is in the partition key, so all items of one logical key hash to one shard: hash a segment that varies within the key",
		[source],
	)
}

# source_in_sharded_partition_key holds when a sharded partition-key template (the table's, or an entity's)
# holds the source segment itself.
source_in_sharded_partition_key(source) if {
	some scope in lib.key_scopes
	scope.partition_key.has_shard
	source in scope.partition_key.placeholders
	scope.partition_key_known
}

key_placeholders contains p if {
	some scope in lib.key_scopes
	some p in scope.partition_key.placeholders
}

key_placeholders contains p if {
	some scope in lib.key_scopes
	some p in scope.sort_key.placeholders
}
