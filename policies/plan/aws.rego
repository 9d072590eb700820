# Terraform plan adapter, aws_dynamodb_table
# Maps a planned aws_dynamodb_table of the AWS provider (hashicorp/aws >= 5) to a design document. Without
# templates or traffic, the rules that need them stay silent (their inputs are listed as unknown); a
# partition key named like a status or a date gives the name heuristics of DK302 and DK301.
package dynamokeys.plan

import data.dynamokeys.lib
import data.dynamokeys.limits

# aws_readable holds for a planned partition key name the mapping can use.
aws_readable(name) if {
	is_string(name)
	name != ""
}

# unknown_paths turns after_unknown into dotted paths (two levels deep is enough for the rules). Attributes no
# rule reads (arn, id, stream and tag settings) are left out: every rule checks its inputs against this list.
unknown_paths(au) := array.concat(
	[k | some k, v in map_entries(au); v == true; k in relevant_attributes],
	[concat(".", [k, k2]) | some k, sub in map_entries(au); k in relevant_attributes; is_object(sub); some k2, v2 in sub; v2 == true],
)

relevant_attributes := {
	"name", "billing_mode", "read_capacity", "write_capacity", "hash_key", "range_key", "attribute",
	"local_secondary_index", "global_secondary_index", "on_demand_throughput", "warm_throughput",
}

# no_template_facts are the key facts of a key without a template.
no_template_facts := {
	"template": null,
	"placeholders": [],
	"literals": [],
	"segments": [],
	"has_shard": false,
	"has_time_bucket": false,
	"max_bytes": null,
	"min_bytes": null,
	"cardinality": null,
	"monotonic": false,
	"name_hint": "",
}

key_attribute(path, key) := {"path": path, "name": key.name, "name_bytes": count(key.name), "type": key.type}

table_key_attributes(table) := array.flatten([
	[key_attribute(["partition_key"], table.partition_key)],
	[key_attribute(["sort_key"], table.sort_key) | is_object(table.sort_key)],
	[key_attribute(["local_secondary_indexes", l.name, "sort_key"], l.sort_key) | some l in table.lsis],
	[key_attribute(["global_secondary_indexes", g.name, "partition_key", format_int(i, 10)], k) |
		some g in table.gsis
		some i, k in g.partition_key
	],
	[key_attribute(["global_secondary_indexes", g.name, "sort_key", format_int(i, 10)], k) |
		some g in table.gsis
		some i, k in g.sort_key
	],
])

projected(table) := count([a |
	some idx in array.concat(table.lsis, table.gsis)
	idx.projection_type == "INCLUDE"
	some a in idx.non_key_attributes
])

aws_document(address, after, after_unknown) := {
	"schema_version": 1,
	"provider_version": "",
	"kind": "aws_dynamodb_table",
	"address": address,
	"table": table,
	"segments": {},
	"sharding": {"strategy": "none", "source": "", "count": null, "scheme_version": limits.default_scheme_version},
	"traffic": {},
	"target_utilization": limits.default_target_utilization,
	"derived": {
		"capacity": {},
		"required_shards": 1,
		"shard_count": 1,
		"shard_width": 1,
		"routing": {},
		"partition_key": object.union(no_template_facts, {"name_hint": lib.name_hint(table.partition_key.name)}),
		"sort_key": aws_sort_facts(table.sort_key),
		"partition_key_max_bytes": null,
		"partition_key_segments": [],
		"has_time_bucket": false,
		"undeclared_placeholders": [],
		"key_attributes": table_key_attributes(table),
		"conventions": {"delimiters": [], "letter_cases": []},
		"collection": {"items_per_key": null, "basis": "unknown", "entry_bytes": 0, "bytes": null},
		"projected_non_key_attributes": projected(table),
	},
	"prior": null,
	"unknown": array.concat(
		["traffic", "segments", "sharding", "partition_key.template", "sort_key.template", "derived.capacity"],
		unknown_paths(after_unknown),
	),
} if {
	# The attributes the document reads, with their values where the plan has null.
	values := with_defaults(after, {
		"name": "", "billing_mode": "PROVISIONED", "read_capacity": null, "write_capacity": null,
		"hash_key": "", "range_key": null, "attribute": [], "local_secondary_index": [], "global_secondary_index": [],
		"on_demand_throughput": [], "warm_throughput": [],
	})
	types := {a.name: a.type | some a in array_or_empty(values.attribute); is_object(a)}
	table := {
		"name": values.name,
		"billing_mode": values.billing_mode,
		"read_capacity": values.read_capacity,
		"write_capacity": values.write_capacity,
		"on_demand_throughput": unit_pair(values.on_demand_throughput, "max_read_request_units", "max_write_request_units"),
		"warm_throughput": unit_pair(values.warm_throughput, "read_units_per_second", "write_units_per_second"),
		"autoscaling": null,
		"partition_key": {"name": values.hash_key, "type": object.get(types, values.hash_key, "S"), "template": null},
		"sort_key": aws_sort_key(values.range_key, types),
		"lsis": [{
			"name": l.name,
			"sort_key": {"name": l.range_key, "type": object.get(types, l.range_key, "S"), "cardinality": null},
			"projection_type": l.projection_type,
			"non_key_attributes": l.non_key_attributes,
		} |
			some raw in array_or_empty(values.local_secondary_index)
			is_object(raw)
			l := with_defaults(raw, {"name": "", "range_key": "", "projection_type": "ALL", "non_key_attributes": []})
		],
		"gsis": [{
			"name": g.name,
			"partition_key": aws_gsi_keys(g, "HASH", g.hash_key, types),
			"sort_key": aws_gsi_keys(g, "RANGE", g.range_key, types),
			"projection_type": g.projection_type,
			"non_key_attributes": g.non_key_attributes,
			"read_capacity": g.read_capacity,
			"write_capacity": g.write_capacity,
			"partition_key_cardinality": null,
			"time_bucketed": false,
			"hot_partition_write_units": null,
		} |
			some raw in array_or_empty(values.global_secondary_index)
			is_object(raw)
			g := with_defaults(raw, {
				"name": "", "hash_key": "", "range_key": "", "key_schema": [], "projection_type": "ALL",
				"non_key_attributes": [], "read_capacity": null, "write_capacity": null,
			})
		],
	}
}

aws_sort_key(name, types) := {"name": name, "type": object.get(types, name, "S"), "template": null} if {
	is_string(name)
	name != ""
} else := null

aws_sort_facts(key) := no_template_facts if is_object(key)

aws_sort_facts(key) := null if not is_object(key)

# aws_gsi_keys reads a GSI key from the multi-attribute key_schema blocks, else from hash_key/range_key.
aws_gsi_keys(g, key_type, _, types) := [{"name": k.attribute_name, "type": object.get(types, k.attribute_name, "S"), "cardinality": null} |
	some k in g.key_schema
	k.key_type == key_type
] if {
	count(g.key_schema) > 0
}

aws_gsi_keys(g, _, name, types) := [{"name": name, "type": object.get(types, name, "S"), "cardinality": null} |
	is_string(name)
	name != ""
] if {
	count(g.key_schema) == 0
}

# unit_pair reads an on_demand_throughput or warm_throughput block as the document's {read, write}; the AWS
# provider writes -1 (or 0) for a side without a figure, which is null here, and no block or no figure at
# all is null.
unit_pair(blocks, read, write) := pair if {
	some block in array_or_empty(blocks)
	is_object(block)
	pair := {"read": positive_or_null(object.get(block, read, null)), "write": positive_or_null(object.get(block, write, null))}
	pair != {"read": null, "write": null}
} else := null

positive_or_null(n) := n if {
	is_number(n)
	n > 0
} else := null
