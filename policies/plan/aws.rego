# Terraform plan adapter, aws_dynamodb_table
# Maps a planned aws_dynamodb_table of the AWS provider (hashicorp/aws >= 5) to a design document. Its keys
# have no templates (null, as in a design that names only its keys) and no traffic, segments or sharding
# (listed as unknown): the rules that need them stay silent, and a partition key named like a status or a
# date gets the name heuristics of DK302 and DK301, as every partition key without a template does.
package dynamokeys.plan

import data.dynamokeys.limits

# aws_readable holds for a planned partition key name the mapping can use.
aws_readable(name) if {
	is_string(name)
	name != ""
}

# aws_mappable holds for a planned table the mapping can use: its partition key is readable, or known only
# after apply (then every rule that does not need it still runs).
aws_mappable(change) if aws_readable(object.get(change, ["after", "hash_key"], null))

aws_mappable(change) if change.after_unknown.hash_key == true

# key_paths are the document paths of the table's key attributes.
key_paths := {"hash_key": "partition_key", "range_key": "sort_key"}

# unknown_keys are the document paths of the table's keys and name that the plan does not know yet.
unknown_keys(after, au) := array.concat(
	[path | some attribute, path in key_paths; au[attribute] == true],
	["name" | not is_string(object.get(after, "name", null))],
)

# index_name is an index's planned name, or for a name known only after apply a stand-in that says so, whose
# path unknown_index_names lists: the rules on the name stay silent, the others name the index by its place.
index_name(name, block, i, au) := unknown_index_name(block, i) if au[block][i].name == true

else := name

unknown_index_name(block, i) := sprintf("%s[%d] (name known after apply)", [block, i])

unknown_index_names(au) := [concat(".", [path, unknown_index_name(block, i)]) |
	some block, path in {"local_secondary_index": "local_secondary_indexes", "global_secondary_index": "global_secondary_indexes"}
	some i, entry in array_or_empty(object.get(au, block, []))
	entry.name == true
]

# known_key_attribute holds for a key attribute whose name the plan knows.
known_key_attribute(k, au) if not k.path[0] in {path | some attribute, path in key_paths; au[attribute] == true}

# key_inputs are the attributes of aws_dynamodb_table that make its key design, with the attributes of each
# nested block the rules read. Capacities, warm throughput and a replica's ARNs are computed, unknown in
# most create plans, and not among them: a warning on every table would be no warning.
key_inputs := {
	"hash_key": set(), "range_key": set(), "name": set(),
	"attribute": {"name", "type"},
	"local_secondary_index": {"name", "range_key", "projection_type", "non_key_attributes"},
	"global_secondary_index": {"name", "hash_key", "range_key", "key_schema", "projection_type", "non_key_attributes"},
	"replica": {"region_name", "consistency_mode"},
	"global_table_witness": {"region_name"},
}

# unknown_inputs are the key inputs that after_unknown marks and the configuration sets (config, from
# resource_config), sorted: whole attributes and blocks, and the attributes of each nested block
# (global_secondary_index[0].name).
unknown_inputs(au, config) := sort(array.concat(
	[k | some k, _ in key_inputs; au[k] == true; configured(config, [k])],
	[sprintf("%s[%d].%s", [block, i, a]) |
		some block, inputs in key_inputs
		some i, entry in array_or_empty(object.get(au, block, []))
		some a, v in map_entries(entry)
		v == true
		a in inputs
		configured(config, [block, i, a])
	],
))

# resource_config is what the plan's configuration sets on a planned resource: its expressions, with its
# planned values to match blocks by name; null when the plan carries no configuration of it.
resource_config(rc) := {"expressions": expressions, "after": object.get(rc.change, "after", {})} if {
	expressions := config_expressions[rc_config_key(rc)]
} else := null

# configured holds for an input the configuration sets, at [attribute] or [block, index, attribute]. One it does
# not set is the provider's to compute (hashicorp/aws 6: global_table_witness, a table's
# global_secondary_index when its indexes are standalone resources, hash_key of a GSI written with
# key_schema), not an input left unknown. Terraform leaves dynamic blocks out of the configuration it shows, so
# what they set reads as computed; without the resource's configuration every marked input counts.
configured(null, _) := true

configured(config, [attribute]) if config.expressions[attribute]

configured(config, [block, i, attribute]) if {
	some b in config_blocks(config, block, i)
	b[attribute]
}

# config_blocks are the configured blocks that may be the planned block i: the one of its name, else every
# block of the type (a set has no order, and a name may be unknown).
config_blocks(config, block, i) := [b] if {
	name := config.after[block][i].name
	is_string(name)
	[b] := [b | some b in configured_blocks(config, block); b.name.constant_value == name]
} else := configured_blocks(config, block)

configured_blocks(config, block) := [b | some b in array_or_empty(object.get(config.expressions, block, [])); is_object(b)]

# unknown_paths turns after_unknown into dotted paths (two levels deep is enough for the rules). Attributes no
# rule reads (arn, id, stream and tag settings) are left out: every rule checks its inputs against this list.
unknown_paths(au) := array.concat(
	[k | some k, v in map_entries(au); v == true; k in relevant_attributes],
	[concat(".", [k, k2]) | some k, sub in map_entries(au); k in relevant_attributes; is_object(sub); some k2, v2 in sub; v2 == true],
)

relevant_attributes := {
	"name", "billing_mode", "read_capacity", "write_capacity", "hash_key", "range_key", "attribute",
	"local_secondary_index", "global_secondary_index", "on_demand_throughput", "warm_throughput",
	"replica", "global_table_witness", "ttl", "region",
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
		"partition_key": no_template_facts,
		"sort_key": aws_sort_facts(table.sort_key),
		"partition_key_max_bytes": null,
		"partition_key_segments": [],
		"has_time_bucket": false,
		"undeclared_placeholders": [],
		"key_attributes": [k | some k in table_key_attributes(table); known_key_attribute(k, after_unknown)],
		"conventions": {"delimiters": [], "letter_cases": []},
		"collection": {"items_per_key": null, "basis": "unknown", "entry_bytes": 0, "bytes": null},
		"projected_non_key_attributes": projected(table),
	},
	"prior": null,
	"unknown": array.flatten([
		["traffic", "segments", "sharding", "derived.capacity"],
		unknown_paths(after_unknown), unknown_keys(after, after_unknown), unknown_index_names(after_unknown),
	]),
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
			"name": index_name(l.name, "local_secondary_index", i, after_unknown),
			"sort_key": {"name": l.range_key, "type": object.get(types, l.range_key, "S"), "cardinality": null},
			"projection_type": l.projection_type,
			"non_key_attributes": l.non_key_attributes,
		} |
			some i, raw in array_or_empty(values.local_secondary_index)
			is_object(raw)
			l := with_defaults(raw, {"name": "", "range_key": "", "projection_type": "ALL", "non_key_attributes": []})
		],
		"gsis": [{
			"name": index_name(g.name, "global_secondary_index", i, after_unknown),
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
			some i, raw in array_or_empty(values.global_secondary_index)
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
