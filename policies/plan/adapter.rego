# METADATA
# title: Terraform plan adapter
# description: |
#   Builds design documents (DESIGN §4.1) from the resource_changes of `terraform show -json` output, for
#   dynamokeys_sharded_table and for the AWS provider's aws_dynamodb_table. It only maps: the rules in
#   dynamokeys.rules.* decide. Values in after_unknown become input.unknown paths, so rules on them stay silent.
package dynamokeys.plan

supported_types := {"dynamokeys_sharded_table", "aws_dynamodb_table"}

# candidates are the supported resources the plan creates or updates (replacements included).
candidates contains rc if {
	some rc in input.resource_changes
	is_object(rc)
	rc.type in supported_types
	some action in rc.change.actions
	action in {"create", "update"}
}

# documents maps each readable candidate's address to its design document.
documents[rc.address] := sharded_document(rc.change.after, rc.change.after_unknown, prior_after(rc)) if {
	some rc in candidates
	rc.type == "dynamokeys_sharded_table"
	readable(rc)
}

documents[rc.address] := aws_document(rc.change.after, rc.change.after_unknown) if {
	some rc in candidates
	rc.type == "aws_dynamodb_table"
	readable(rc)
}

# unreadable lists candidates whose planned values are missing or malformed.
unreadable contains rc.address if {
	some rc in candidates
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
	key_name(rc) != ""
}

key_name(rc) := rc.change.after.partition_key.name if rc.type == "dynamokeys_sharded_table"

key_name(rc) := rc.change.after.hash_key if rc.type == "aws_dynamodb_table"

# prior_after is the state before an in-place update; a create or a replacement starts from nothing.
prior_after(rc) := before if {
	"update" in rc.change.actions
	before := object.get(rc.change, "before", null)
	is_object(before)
} else := null

get(obj, key, fallback) := object.get(obj, key, fallback) if is_object(obj)

get(obj, _, fallback) := fallback if not is_object(obj)

# or_default replaces null with a default.
or_default(x, _) := x if x != null

or_default(null, fallback) := fallback

list(x) := x if is_array(x)

list(x) := [] if not is_array(x)

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
	template := get(key, "template", null)
	names := placeholder_names(template)
	facts := {
		"template": template,
		"placeholders": names,
		"literals": literal_parts(template),
		"segments": [{"name": n, "kind": segments[n].kind, "cardinality": get(segments[n], "cardinality", null), "monotonic": monotonic(segments[n])} |
			some n in names
			is_object(segments[n])
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

index_list(indexes) := [object.union(idx, {"name": name}) | some name, idx in map_entries(indexes)]

key_attribute(path, key) := {"path": path, "name": name, "name_bytes": count(name), "type": or_default(get(key, "type", "S"), "S")} if {
	name := or_default(get(key, "name", ""), "")
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
sharded_document(after, after_unknown, before) := object.union(sharded_base(after, after_unknown), {"prior": prior_document(before)})

sharded_base(after, after_unknown) := {
	"kind": "sharded_table",
	"address": "",
	"table": table,
	"segments": segments,
	"sharding": sharding,
	"traffic": traffic,
	"target_utilization": or_default(get(after, "target_utilization", null), 0.8),
	"derived": {
		"capacity": capacity,
		"required_shards": or_default(get(capacity, "required_shard_count", 1), 1),
		"shard_count": or_default(get(after, "shard_count", 1), 1),
		"shard_width": or_default(get(after, "shard_width", 1), 1),
		"routing": get(after, "routing", {}),
		"partition_key": pk_facts,
		"sort_key": sk_facts,
		"partition_key_max_bytes": null,
		"partition_key_segments": pk_facts.segments,
		"has_time_bucket": pk_facts.has_time_bucket,
		"undeclared_placeholders": [{"key": key, "placeholder": p} |
			some key, facts in {"partition_key": pk_facts, "sort_key": object.union(sk_facts_or_empty, {})}
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
	segments := map_entries(get(after, "segments", {}))
	raw_sharding := map_entries(get(after, "sharding", {}))
	sharding := {
		"strategy": or_default(get(raw_sharding, "strategy", null), "none"),
		"source": or_default(get(raw_sharding, "source", null), ""),
		"count": get(raw_sharding, "count", null),
		"scheme_version": or_default(get(raw_sharding, "scheme_version", null), 1),
	}
	traffic := map_entries(get(after, "traffic", {}))
	capacity := map_entries(get(after, "capacity", {}))
	table := {
		"name": or_default(get(after, "name", ""), ""),
		"billing_mode": or_default(get(after, "billing_mode", "PAY_PER_REQUEST"), "PAY_PER_REQUEST"),
		"read_capacity": get(after, "read_capacity", null),
		"write_capacity": get(after, "write_capacity", null),
		"partition_key": get(after, "partition_key", {}),
		"sort_key": get(after, "sort_key", null),
		"lsis": [object.union(l, {"non_key_attributes": list(get(l, "non_key_attributes", []))}) |
			some l in index_list(get(after, "local_secondary_indexes", {}))
		],
		"gsis": [object.union(g, {
			"partition_key": list(get(g, "partition_key", [])),
			"sort_key": list(get(g, "sort_key", [])),
			"non_key_attributes": list(get(g, "non_key_attributes", [])),
			"partition_key_cardinality": single_cardinality(list(get(g, "partition_key", []))),
			"time_bucketed": count([k | some k in list(get(g, "partition_key", [])); segments[k.name].kind == "time"]) > 0,
			"hot_partition_write_units": null,
		}) |
			some g in index_list(get(after, "global_secondary_indexes", {}))
		],
	}
	pk_facts := key_facts(table.partition_key, segments)
	sk_facts := sort_facts(table.sort_key, segments)
	sk_facts_or_empty := or_default(sk_facts, {"placeholders": []})
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
aws_document(after, after_unknown) := {
	"kind": "aws_dynamodb_table",
	"address": "",
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
	types := {a.name: a.type | some a in list(get(after, "attribute", [])); is_object(a)}
	table := {
		"name": or_default(get(after, "name", ""), ""),
		"billing_mode": or_default(get(after, "billing_mode", "PROVISIONED"), "PROVISIONED"),
		"read_capacity": get(after, "read_capacity", null),
		"write_capacity": get(after, "write_capacity", null),
		"partition_key": {"name": after.hash_key, "type": object.get(types, after.hash_key, "S"), "template": null},
		"sort_key": aws_sort_key(after, types),
		"lsis": [{
			"name": or_default(get(l, "name", ""), ""),
			"sort_key": {"name": get(l, "range_key", ""), "type": object.get(types, get(l, "range_key", ""), "S"), "cardinality": null},
			"projection_type": or_default(get(l, "projection_type", "ALL"), "ALL"),
			"non_key_attributes": list(get(l, "non_key_attributes", [])),
		} |
			some l in list(get(after, "local_secondary_index", []))
		],
		"gsis": [{
			"name": or_default(get(g, "name", ""), ""),
			"partition_key": aws_gsi_keys(g, "HASH", "hash_key", types),
			"sort_key": aws_gsi_keys(g, "RANGE", "range_key", types),
			"projection_type": or_default(get(g, "projection_type", "ALL"), "ALL"),
			"non_key_attributes": list(get(g, "non_key_attributes", [])),
			"read_capacity": get(g, "read_capacity", null),
			"write_capacity": get(g, "write_capacity", null),
			"partition_key_cardinality": null,
			"time_bucketed": false,
			"hot_partition_write_units": null,
		} |
			some g in list(get(after, "global_secondary_index", []))
		],
	}
}

aws_sort_key(after, types) := {"name": after.range_key, "type": object.get(types, after.range_key, "S"), "template": null} if {
	is_string(after.range_key)
	after.range_key != ""
}

aws_sort_key(after, _) := null if not after.range_key

aws_sort_key(after, _) := null if after.range_key == ""

aws_sort_key(after, _) := null if after.range_key == null

# aws_gsi_keys reads a GSI key from the multi-attribute key_schema blocks, else from hash_key/range_key.
aws_gsi_keys(g, key_type, _, types) := keys if {
	schema := list(get(g, "key_schema", []))
	count(schema) > 0
	keys := [{"name": k.attribute_name, "type": object.get(types, k.attribute_name, "S"), "cardinality": null} |
		some k in schema
		k.key_type == key_type
	]
}

aws_gsi_keys(g, _, attr, types) := keys if {
	count(list(get(g, "key_schema", []))) == 0
	name := get(g, attr, "")
	keys := [{"name": name, "type": object.get(types, name, "S"), "cardinality": null} | is_string(name); name != ""]
}

# name_hint applies the partition-key guidance to a bare attribute name.
name_hint(name) := "low_cardinality" if regex.match(`(?i)^(status|state|type|kind|category|flag|level|priority|gender|country)$|(_|-)?(status|state|type)$`, name)

name_hint(name) := "time" if {
	not regex.match(`(?i)^(status|state|type|kind|category|flag|level|priority|gender|country)$|(_|-)?(status|state|type)$`, name)
	regex.match(`(?i)(date|day|hour|month|year|time|timestamp|created|updated)`, name)
}

name_hint(name) := "" if {
	not regex.match(`(?i)^(status|state|type|kind|category|flag|level|priority|gender|country)$|(_|-)?(status|state|type)$`, name)
	not regex.match(`(?i)(date|day|hour|month|year|time|timestamp|created|updated)`, name)
}
