# METADATA
# title: Terraform plan adapter
# description: |
#   Builds design documents (contributing/design-document.md) from the resource_changes of `terraform show -json` output, for
#   dynamokeys_sharded_table and for the AWS provider's aws_dynamodb_table. It only maps: the rules in
#   dynamokeys.rules.* decide. Values in after_unknown become input.unknown paths, so rules on them stay silent.
package dynamokeys.plan

supported_types := {"dynamokeys_sharded_table", "aws_dynamodb_table"}

# candidates are the indexes of the supported resources the plan creates or updates (replacements included).
# Indexes rather than the changes themselves: a set of whole resource changes would hash every one of them.
candidates contains i if {
	some i, rc in input.resource_changes
	rc.type in supported_types
	some action in rc.change.actions
	action in {"create", "update"}
}

# documents maps each readable candidate's address to its design document. A comprehension, not a partial
# object rule: OPA checks each new key of a partial object against every earlier one, quadratic in tables.
documents := {rc.address: document(rc) |
	some i in candidates
	rc := input.resource_changes[i]
	readable(rc)
}

document(rc) := sharded_document(rc.address, rc.change.after, rc.change.after_unknown, prior_after(rc)) if {
	rc.type == "dynamokeys_sharded_table"
}

document(rc) := aws_document(rc.address, rc.change.after, rc.change.after_unknown) if {
	rc.type == "aws_dynamodb_table"
}

# unreadable lists candidates whose planned values are missing or malformed.
unreadable contains rc.address if {
	some i in candidates
	rc := input.resource_changes[i]
	not readable(rc)
}

# not_a_plan holds when the input has no resource_changes array at all.
not_a_plan if not input.resource_changes

not_a_plan if {
	changes := input.resource_changes
	not is_array(changes)
}

readable(rc) if {
	is_string(rc.address)
	is_object(rc.change.after)
	name := key_name(rc)
	is_string(name)
	name != ""
}

key_name(rc) := rc.change.after.partition_key.name if rc.type == "dynamokeys_sharded_table"

key_name(rc) := rc.change.after.hash_key if rc.type == "aws_dynamodb_table"

# prior_after is the state before an in-place update; a create or a replacement starts from nothing.
prior_after(rc) := before if {
	"update" in rc.change.actions
	before := object.get(rc.change, "before", null)
	is_object(before)
} else := null

# present drops null attributes, so that object.union over a defaults object fills the unset ones. One
# comprehension per block instead of a helper call per attribute: the adapter runs for every planned table.
present(obj) := {k: v | some k, v in obj; v != null}

# with_defaults picks the attributes named in defaults from a planned block, defaults where null or missing.
# object.filter first: a planned aws_dynamodb_table has many more attributes than the rules read.
with_defaults(block, defaults) := object.union(defaults, present(object.filter(block, object.keys(defaults))))

map_entries(x) := x if is_object(x)

map_entries(x) := {} if not is_object(x)

# unknown_paths turns after_unknown into dotted paths (two levels deep is enough for the rules). The
# computed design attributes live under derived in the document. Attributes no rule reads (arn, id,
# stream and tag settings) are left out: every rule checks its inputs against this list.
unknown_paths(au) := array.concat(
	[doc_path(k) | some k, v in map_entries(au); v == true; k in relevant_attributes],
	[concat(".", [doc_path(k), k2]) | some k, sub in map_entries(au); k in relevant_attributes; is_object(sub); some k2, v2 in sub; v2 == true],
)

relevant_attributes := {
	"name", "billing_mode", "read_capacity", "write_capacity", "partition_key", "sort_key", "segments", "sharding",
	"traffic", "target_utilization", "local_secondary_indexes", "global_secondary_indexes", "capacity", "shard_count",
	"shard_width", "routing", "hash_key", "range_key", "attribute", "local_secondary_index", "global_secondary_index",
}

derived_attributes := {"capacity", "shard_count", "shard_width", "routing"}

doc_path(attr) := concat(".", ["derived", attr]) if attr in derived_attributes

doc_path(attr) := attr if not attr in derived_attributes

placeholder_names(template) := [m[1] | some m in regex.find_all_string_submatch_n(`\{([a-z][a-z0-9_]*)\}`, template, -1)] if is_string(template)

placeholder_names(template) := [] if not is_string(template)

literal_parts(template) := [p | some p in regex.split(`\{[a-z][a-z0-9_]*\}`, template); p != ""] if is_string(template)

literal_parts(template) := [] if not is_string(template)

key_facts(key, segments) := facts if {
	template := object.get(map_entries(key), "template", null)
	names := placeholder_names(template)
	facts := {
		"template": template,
		"placeholders": names,
		"literals": literal_parts(template),
		"segments": [{"name": n, "kind": seg.kind, "cardinality": object.get(seg, "cardinality", null), "monotonic": monotonic(seg)} |
			some n in names
			seg := segments[n]
			is_object(seg)
		],
		"has_shard": "shard" in names,
		"has_time_bucket": count([n | some n in names; segments[n].kind == "time"]) > 0,
		"max_bytes": null,
		"min_bytes": null,
		"cardinality": null,
		"monotonic": leading_monotonic(names, segments),
		"name_hint": "",
	}
}

# monotonic: a time segment grows unless monotonic = false; other kinds only when monotonic = true.
monotonic(seg) := flag if {
	flag := object.get(seg, "monotonic", null)
	is_boolean(flag)
} else := object.get(seg, "kind", "") == "time"

leading_monotonic(names, segments) := monotonic(seg) if {
	count(names) > 0
	seg := object.get(segments, names[0], null)
	is_object(seg)
} else := false

key_attribute(path, key) := {"path": path, "name": attrs.name, "name_bytes": count(attrs.name), "type": attrs.type} if {
	attrs := object.union({"name": "", "type": "S"}, present(key))
}

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

# sharded_document maps a planned dynamokeys_sharded_table: its computed design attributes (capacity,
# shard_count, routing) are in the plan; the prior state is the same mapping of change.before.
sharded_document(address, after, after_unknown, before) := object.union(
	sharded_base(after, after_unknown),
	{"address": address, "prior": prior_document(before)},
)

sharded_base(after, after_unknown) := {
	"kind": "sharded_table",
	"address": "",
	"table": table,
	"segments": segments,
	"sharding": with_defaults(map_entries(values.sharding), {"strategy": "none", "source": "", "count": null, "scheme_version": 1}),
	"traffic": map_entries(values.traffic),
	"target_utilization": values.target_utilization,
	"derived": {
		"capacity": capacity,
		"required_shards": object.get(present(capacity), "required_shard_count", 1),
		"shard_count": values.shard_count,
		"shard_width": values.shard_width,
		"routing": values.routing,
		"partition_key": pk_facts,
		"sort_key": sk_facts,
		"partition_key_max_bytes": null,
		"partition_key_segments": pk_facts.segments,
		"has_time_bucket": pk_facts.has_time_bucket,
		"undeclared_placeholders": [{"key": key, "placeholder": p} |
			some key, facts in {"partition_key": pk_facts, "sort_key": object.union({"placeholders": []}, present(sk_facts))}
			some p in facts.placeholders
			p != "shard"
			not segments[p]
		],
		"key_attributes": table_key_attributes(table),
		"conventions": {"delimiters": [], "letter_cases": []},
		"collection": {"items_per_key": null, "basis": "unknown", "entry_bytes": 0, "bytes": null},
		"projected_non_key_attributes": projected(table),
	},
	"prior": null,
	"unknown": unknown_paths(after_unknown),
} if {
	# The attributes the document reads, with the values they take where the plan has null.
	values := with_defaults(after, {
		"name": "", "billing_mode": "PAY_PER_REQUEST", "read_capacity": null, "write_capacity": null,
		"partition_key": {}, "sort_key": null, "segments": {}, "sharding": {}, "traffic": {}, "capacity": {},
		"target_utilization": 0.8, "shard_count": 1, "shard_width": 1, "routing": {},
		"local_secondary_indexes": {}, "global_secondary_indexes": {},
	})
	segments := map_entries(values.segments)
	capacity := map_entries(values.capacity)
	table := {
		"name": values.name,
		"billing_mode": values.billing_mode,
		"read_capacity": values.read_capacity,
		"write_capacity": values.write_capacity,
		"partition_key": map_entries(values.partition_key),
		"sort_key": values.sort_key,
		"lsis": [object.union(present(l), {"name": name, "non_key_attributes": object.get(present(l), "non_key_attributes", [])}) |
			some name, l in map_entries(values.local_secondary_indexes)
			is_object(l)
		],
		"gsis": [object.union(g, {
			"name": name,
			"partition_key_cardinality": single_cardinality(g.partition_key),
			"time_bucketed": count([k | some k in g.partition_key; segments[k.name].kind == "time"]) > 0,
			"hot_partition_write_units": null,
		}) |
			some name, raw in map_entries(values.global_secondary_indexes)
			is_object(raw)
			g := object.union({"partition_key": [], "sort_key": [], "non_key_attributes": []}, present(raw))
		],
	}
	pk_facts := key_facts(table.partition_key, segments)
	sk_facts := sort_facts(table.sort_key, segments)
}

sort_facts(key, segments) := key_facts(key, segments) if is_object(key)

sort_facts(key, _) := null if not is_object(key)

single_cardinality(keys) := keys[0].cardinality if count(keys) == 1

single_cardinality(keys) := null if count(keys) != 1

prior_document(before) := doc if {
	is_object(before)
	base := sharded_base(before, {})
	doc := object.union(base, {"unknown": recorded_design_unknown(base)})
}

# recorded_design_unknown: a state without a partition-key template (an imported table) recorded no design,
# so its sharding scheme is unknown.
recorded_design_unknown(doc) := ["sharding", "derived.shard_count"] if not is_string(doc.table.partition_key.template)

recorded_design_unknown(doc) := [] if is_string(doc.table.partition_key.template)

prior_document(null) := null

# aws_document maps a planned aws_dynamodb_table (hashicorp/aws >= 5). Without templates or traffic, the
# rules that need them stay silent (their inputs are listed as unknown); a partition key named like a
# status or a date gives the name heuristics of DK302 and DK301.
aws_document(address, after, after_unknown) := {
	"kind": "aws_dynamodb_table",
	"address": address,
	"table": table,
	"segments": {},
	"sharding": {"strategy": "none", "source": "", "count": null, "scheme_version": 1},
	"traffic": {},
	"target_utilization": 0.8,
	"derived": {
		"capacity": {},
		"required_shards": 1,
		"shard_count": 1,
		"shard_width": 1,
		"routing": {},
		"partition_key": object.union(key_facts({}, {}), {"name_hint": name_hint(table.partition_key.name)}),
		"sort_key": sort_facts(table.sort_key, {}),
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
	})
	types := {a.name: a.type | some a in values.attribute; is_object(a)}
	table := {
		"name": values.name,
		"billing_mode": values.billing_mode,
		"read_capacity": values.read_capacity,
		"write_capacity": values.write_capacity,
		"partition_key": {"name": values.hash_key, "type": object.get(types, values.hash_key, "S"), "template": null},
		"sort_key": aws_sort_key(values.range_key, types),
		"lsis": [{
			"name": l.name,
			"sort_key": {"name": l.range_key, "type": object.get(types, l.range_key, "S"), "cardinality": null},
			"projection_type": l.projection_type,
			"non_key_attributes": l.non_key_attributes,
		} |
			some raw in values.local_secondary_index
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
			some raw in values.global_secondary_index
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

# name_hint applies the partition-key guidance to a bare attribute name.
name_hint(name) := "low_cardinality" if {
	regex.match(`(?i)^(status|state|type|kind|category|flag|level|priority|gender|country)$|(_|-)?(status|state|type)$`, name)
} else := "time" if {
	regex.match(`(?i)(date|day|hour|month|year|time|timestamp|created|updated)`, name)
} else := ""
