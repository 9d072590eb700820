# Terraform plan adapter, changes to live tables
# What a plan does to the AWS provider's live tables, as the document's `change` (read by the change rules,
# DK001–DK009): an aws_dynamodb_table updated, replaced (and the attributes that force it) or destroyed; its
# replicas removed, its stream turned off or replaced (and the aws_lambda_event_source_mapping resources that
# read the old stream), its billing mode switched, its provisioned capacity lowered where an
# aws_appautoscaling_target manages it; an aws_dynamodb_global_secondary_index deleted or replaced, and an
# aws_dynamodb_table_replica deleted, and an aws_dynamodb_vector_index deleted or replaced (every argument of
# it forces a replacement: a vector index changes nothing in place). The table before the change becomes the document's `prior` (its table
# part), so the rules compare indexes as they do for dynamokeys_sharded_table, whose change the provider
# computes itself (the design document carries it).
package dynamokeys.plan

# changed are the indexes of the AWS provider's table, index and replica resources that the plan updates,
# replaces or destroys (a subset of dynamodb_changes, the plan's DynamoDB resources).
changed contains i if {
	some i in dynamodb_changes
	rc := input.resource_changes[i]
	rc.type in {
		"aws_dynamodb_table", "aws_dynamodb_global_secondary_index", "aws_dynamodb_table_replica",
		"aws_dynamodb_vector_index", "dynamokeys_sharded_table",
	}
	some action in rc.change.actions
	action in {"update", "delete"}
}

# change_action is update, replace (deleted and created, in either order) or delete.
change_action(actions) := "replace" if {
	"delete" in actions
	"create" in actions
} else := "delete" if {
	"delete" in actions
} else := "update" if "update" in actions

# aws_table_changes maps the address of each changed aws_dynamodb_table to what its document gains: the
# change and the table before it.
aws_table_changes := {rc.address: {"change": table_change(rc, action, before, after), "prior": prior_of(indexes_known(action, rc.change), rc.address, before)} |
	some i in changed
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	is_string(rc.address)
	before := rc.change.before
	is_object(before)
	action := change_action(rc.change.actions)
	after := object.get(rc.change, "after", null)
}

# known_after is the action, or "unknown" for an update where one of the attributes is known only after
# apply: a value the plan does not know is no change the rules can judge (a replica list or a stream read as
# removed or off).
known_after("update", change, attributes) := "unknown" if {
	some a in attributes
	holds_unknown(object.get(change, ["after_unknown", a], false))
} else := "update"

known_after(action, _, _) := action if action != "update"

# indexes_known is the action, or "unknown" for an update whose planned GSIs are known only after apply (a
# hashicorp/aws 6 table whose indexes are standalone resources computes its global_secondary_index list):
# without the list, every index would read as deleted, so the table gets no prior to compare indexes with.
indexes_known("update", change) := "unknown" if holds_unknown(object.get(change, ["after_unknown", "global_secondary_index"], false))

else := "update"

indexes_known(action, _) := action if action != "update"

# prior_of is the table before an in-place update; a replacement starts a new table, with no prior.
prior_of("update", address, before) := {"table": aws_document(address, object.filter(before, relevant_attributes), {}).table}

prior_of(action, _, _) := null if action != "update"

table_change(rc, action, before, after) := object.union_n([
	no_change, {
		"action": action,
		"only": action == "delete",
		"replaced_by": replaced_by(rc.change),
		"disposable": disposable_table(before, after),
		"replicas_removed": replicas_removed(known_after(action, rc.change, ["replica"]), before, after),
		"stream": stream_change(known_after(action, rc.change, ["stream_enabled", "stream_view_type"]), before, after),
		"ttl": ttl_change(known_after(action, rc.change, ["ttl"]), aws_ttl_attribute(before), aws_ttl_attribute(after)),
		"billing_mode_before": object.get(before, "billing_mode", "PROVISIONED"),
		"capacity_resets": capacity_resets(action, before, after),
		"table_class": table_class_change(known_after(action, rc.change, ["table_class"]), aws_table_class(before), aws_table_class(after)),
	},
	observed_item_count(object.get(before, "name", "")),
])

# no_change is a change's every field as an update that touches nothing: each builder sets what it knows.
no_change := {
	"action": "update", "only": false, "replaced_by": [], "disposable": false, "item_count": null,
	"item_count_source": "", "replicas_removed": [], "stream": null, "ttl": null, "billing_mode_before": "",
	"capacity_resets": [], "index_changes": [], "vector_index_changes": [], "table_class": null,
}

# replaced_by are the attribute paths Terraform says force the replacement (replace_paths), as paths of
# attribute names: a list index into a set is left out.
replaced_by(change) := [[step | some step in path; is_string(step)] | some path in array_or_empty(object.get(change, "replace_paths", []))]

default disposable_table(_, _) := false

# disposable_table holds for a table tagged dynamokeys:disposable = "true", before or after the change.
disposable_table(before, after) if {
	some values in [before, after]
	is_object(values)
	some tags in [object.get(values, "tags_all", null), object.get(values, "tags", null)]
	is_object(tags)
	tags["dynamokeys:disposable"] == "true"
}

replicas_removed("update", before, after) := sort([r |
	some r in replica_regions(before)
	not r in {a | some a in replica_regions(after)}
])

replicas_removed(action, _, _) := [] if action != "update"

replica_regions(values) := [b.region_name |
	some b in array_or_empty(object.get(values, "replica", []))
	is_object(b)
	is_string(b.region_name)
]

# stream_change is the stream's view type before and after ("" when off) and the consumers of the old
# stream; null when the stream does not change or was off.
stream_change("update", before, after) := {"before": view_before, "after": view_after, "consumers": stream_consumers(before.stream_arn)} if {
	view_before := stream_view(before)
	view_before != ""
	view_after := stream_view(after)
	view_after != view_before
} else := null

stream_change(action, _, _) := null if action != "update"

stream_view(values) := v if {
	values.stream_enabled == true
	v := object.get(values, "stream_view_type", "")
	is_string(v)
} else := ""

# stream_consumers are the event source mappings that read the stream ARN, from the plan's changes and its
# prior state.
stream_consumers(arn) := sort({m.address |
	is_string(arn)
	arn != ""
	some m in event_source_mappings
	arn in m.arns
})

event_source_mappings := array.concat(
	[{"address": rc.address, "arns": [values.event_source_arn |
		some values in [rc.change.before, rc.change.after]
		is_object(values)
	]} |
		some rc in input.resource_changes
		rc.type == "aws_lambda_event_source_mapping"
		rc.change.actions != ["delete"]
	],
	[{"address": r.address, "arns": [r.values.event_source_arn]} |
		some m in state_modules
		some r in array_or_empty(object.get(m, "resources", []))
		r.type == "aws_lambda_event_source_mapping"
		r.mode == "managed"
	],
)

# capacity_resets are the provisioned capacities of the table and its GSIs that the plan changes where an
# aws_appautoscaling_target manages them; the rule fires on those it lowers.
capacity_resets("update", before, after) := array.concat(
	[reset |
		some attribute, dimension in capacity_dimensions
		reset := capacity_reset("", attribute, [attribute], before, after, [sprintf("table/%s", [before.name]), sprintf("dynamodb:table:%s", [dimension])])
	],
	[reset |
		some g in array_or_empty(object.get(after, "global_secondary_index", []))
		is_object(g)
		some b in array_or_empty(object.get(before, "global_secondary_index", []))
		is_object(b)
		b.name == g.name
		some attribute, dimension in capacity_dimensions
		scaled := [sprintf("table/%s/index/%s", [before.name, g.name]), sprintf("dynamodb:index:%s", [dimension])]
		reset := capacity_reset(g.name, attribute, ["global_secondary_indexes", g.name, attribute], b, g, scaled)
	],
) if {
	object.get(before, "billing_mode", "PROVISIONED") == "PROVISIONED"
	object.get(after, "billing_mode", "PROVISIONED") == "PROVISIONED"
} else := []

capacity_resets(action, _, _) := [] if action != "update"

capacity_dimensions := {"read_capacity": "ReadCapacityUnits", "write_capacity": "WriteCapacityUnits"}

# capacity_reset is a capacity the plan changes, with the autoscaling target that manages it (scaled: its
# resource id and scalable dimension); the targets are looked up only for a capacity that changes.
capacity_reset(index, attribute, path, before, after, scaled) := {
	"index": index, "attribute": attribute, "path": path, "before": b, "after": a, "managed_by": target,
} if {
	b := object.get(before, attribute, null)
	a := object.get(after, attribute, null)
	is_number(b)
	is_number(a)
	a != b
	target := autoscaling_target(scaled[0], scaled[1])
	target != null
}

# autoscaling_target is the address of the aws_appautoscaling_target (planned, or in the prior state) that
# scales the resource id's dimension; null when none does.
autoscaling_target(resource_id, dimension) := address if {
	some address in sort([t.address | some t in autoscaling_targets; t.resource_id == resource_id; t.dimension == dimension])
} else := null

autoscaling_targets := array.concat(
	[{"address": rc.address, "resource_id": rc.change.after.resource_id, "dimension": rc.change.after.scalable_dimension} |
		some rc in input.resource_changes
		rc.type == "aws_appautoscaling_target"
		is_object(rc.change.after)
	],
	[{"address": r.address, "resource_id": r.values.resource_id, "dimension": r.values.scalable_dimension} |
		some m in state_modules
		some r in array_or_empty(object.get(m, "resources", []))
		r.type == "aws_appautoscaling_target"
		r.mode == "managed"
	],
)

# change_documents are the documents of changes with no table document of their own: a destroyed table, a
# standalone GSI deleted or replaced, a replica resource deleted. The change rules alone judge them.
change_documents := object.union_n([
	sharded_destroyed,
	{address: object.union(aws_document(address, object.filter(c.prior_values, relevant_attributes), {}), {"change": c.change}) |
		some address, c in destroyed_tables
	},
	{rc.address: change_only_document(rc.address, table_name, {"index_changes": [{"name": name, "action": action}]}) |
		some i in changed
		rc := input.resource_changes[i]
		rc.type == "aws_dynamodb_global_secondary_index"
		before := rc.change.before
		is_object(before)
		action := object.get({"replace": "rebuilt", "delete": "deleted"}, change_action(rc.change.actions), null)
		action != null
		table_name := object.get(before, "table_name", "")
		name := object.get(before, "index_name", "")
	},
	{rc.address: change_only_document(rc.address, table_name, {"vector_index_changes": [vector_index_change(name, action, before, after)]}) |
		some i in changed
		rc := input.resource_changes[i]
		rc.type == "aws_dynamodb_vector_index"
		before := rc.change.before
		is_object(before)
		action := object.get({"replace": "rebuilt", "delete": "deleted"}, change_action(rc.change.actions), null)
		action != null
		after := object.get(rc.change, "after", null)
		table_name := object.get(before, "table_name", "")
		name := object.get(before, "index_name", "")
	},
	{rc.address: change_only_document(rc.address, table_from_arn(before.global_table_arn), {"replicas_removed": [region]}) |
		some i in changed
		rc := input.resource_changes[i]
		rc.type == "aws_dynamodb_table_replica"
		change_action(rc.change.actions) == "delete"
		before := rc.change.before
		is_object(before)
		region := object.get(before, "region", "")
		is_string(region)
	},
])

# sharded_destroyed are the documents of destroyed dynamokeys_sharded_table resources: the design their state
# recorded, with the change.
sharded_destroyed := {rc.address: object.union(doc, {"address": rc.address, "change": sharded_change(rc, "delete", rc.change.before, null)}) |
	some i in changed
	rc := input.resource_changes[i]
	rc.type == "dynamokeys_sharded_table"
	change_action(rc.change.actions) == "delete"
	is_object(rc.change.before)
	is_string(rc.address)
	doc := parsed(object.get(rc.change.before, "design_document", null))
	doc.schema_version in supported_schema_versions
}

destroyed_tables := {rc.address: {"prior_values": rc.change.before, "change": table_change(rc, "delete", rc.change.before, null)} |
	some i in changed
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table"
	change_action(rc.change.actions) == "delete"
	is_object(rc.change.before)
	is_string(rc.address)
}

# observed_item_count is the item count a live data "dynamokeys_observed_traffic" of the table read while
# planning (DescribeTable's ItemCount, which AWS updates about every six hours), as the change's item count:
# the AWS provider's table holds none. Empty when no such data source of the table is in the plan.
observed_item_count(table_name) := {"item_count": n, "item_count_source": "observed_traffic"} if {
	table_name != ""
	some n in sort([r.values.item_count |
		some m in state_modules
		some r in array_or_empty(object.get(m, "resources", []))
		r.type == "dynamokeys_observed_traffic"
		r.mode == "data"
		r.values.table_name == table_name
		object.get(r.values, "index_name", null) in {null, ""}
		is_number(r.values.item_count)
	])
} else := {}

change_only_document(address, table_name, facts) := {
	"schema_version": 1,
	"kind": "change",
	"address": address,
	"table": {"name": table_name, "billing_mode": "", "gsis": [], "lsis": []},
	"prior": null,
	"unknown": [],
	"observed": [],
	"derived": {"access_patterns": []},
	"change": object.union_n([no_change, {"only": true}, observed_item_count(table_name), facts]),
}

table_from_arn(arn) := name if {
	is_string(arn)
	parts := split(arn, "/")
	count(parts) >= 2
	name := parts[1]
} else := ""

# sharded_changes maps each dynamokeys_sharded_table the plan updates or replaces to its change: the fields
# the provider computes for its own findings (planChange, internal/provider/sharded_table_change.go). The
# design document leaves the change out, as it leaves the prior out, so that no change stays in the state.
# The resource creates no replicas and its autoscaling owns the capacities it sets: those stay empty.
sharded_changes := {rc.address: sharded_change(rc, action, rc.change.before, rc.change.after) |
	some i in changed
	rc := input.resource_changes[i]
	rc.type == "dynamokeys_sharded_table"
	action := change_action(rc.change.actions)
	action in {"update", "replace"}
	is_object(rc.change.before)
	is_string(rc.address)
}

sharded_change(rc, action, before, after) := object.union(no_change, {
	"action": action,
	"only": action == "delete",
	"replaced_by": replaced_by(rc.change),
	"disposable": disposable_table(before, after),
	"item_count": table_item_count(before),
	"item_count_source": item_count_source(before),
	"stream": sharded_stream(known_after(action, rc.change, ["stream"]), before, after),
	"ttl": ttl_change(known_after(action, rc.change, ["ttl"]), sharded_ttl_attribute(before), sharded_ttl_attribute(after)),
	"billing_mode_before": object.get(before, "billing_mode", ""),
	"table_class": table_class_change(known_after(action, rc.change, ["table_class"]), sharded_table_class(before), sharded_table_class(after)),
})

# sharded_stream is the stream's change: a stream that was on, turned off or given another view type.
sharded_stream("update", before, after) := {"before": had, "after": want, "consumers": []} if {
	had := sharded_stream_view(before)
	had != ""
	want := sharded_stream_view(after)
	want != had
} else := null

sharded_stream(action, _, _) := null if action != "update"

sharded_stream_view(values) := v if {
	s := object.get(values, "stream", null)
	is_object(s)
	s.enabled == true
	v := s.view_type
	is_string(v)
} else := ""

# table_item_count is the item count the last refresh read (the resource's item_count), null when none.
table_item_count(before) := n if {
	n := object.get(before, "item_count", null)
	is_number(n)
} else := null

item_count_source(before) := "table" if is_number(object.get(before, "item_count", null))

else := ""

# ttl_change is the attribute TTL reads before and after an in-place update ("" when off); null when it
# does not change.
ttl_change("update", had, want) := {"before": had, "after": want} if had != want

else := null

ttl_change(action, _, _) := null if action != "update"

# aws_ttl_attribute is the attribute of an aws_dynamodb_table's enabled ttl block, "" when TTL is off.
aws_ttl_attribute(values) := name if {
	is_object(values)
	some t in array_or_empty(object.get(values, "ttl", []))
	t.enabled == true
	name := t.attribute_name
	is_string(name)
} else := ""

# sharded_ttl_attribute is the attribute of a dynamokeys_sharded_table's enabled ttl, "" when off.
sharded_ttl_attribute(values) := name if {
	is_object(values)
	t := object.get(values, "ttl", null)
	is_object(t)
	t.enabled == true
	name := t.attribute_name
	is_string(name)
} else := ""

# vector_index_change is an aws_dynamodb_vector_index deleted or rebuilt, with the dimensions of the index
# the plan creates (a rebuild's, else the deleted one's) that size its backfill: dimensions × 4 bytes an item
# at least, as the plan knows no projection's size.
vector_index_change(name, action, before, after) := {
	"name": name,
	"action": action,
	"dimensions": vector_dimensions(action, before, after),
}

vector_dimensions("rebuilt", _, after) := d if {
	is_object(after)
	d := after.dimensions
	is_number(d)
} else := null

vector_dimensions("deleted", before, _) := d if {
	d := before.dimensions
	is_number(d)
} else := null

# table_class_change is the table class before and after an in-place update; null when it does not change or
# either side is not known.
table_class_change("update", had, want) := {"before": had, "after": want} if {
	is_string(had)
	is_string(want)
	had != ""
	want != ""
	had != want
} else := null

table_class_change(action, _, _) := null if action != "update"

# aws_table_class is an aws_dynamodb_table's table_class; the AWS provider plans "" or null for the default,
# STANDARD.
aws_table_class(values) := c if {
	is_object(values)
	c := object.get(values, "table_class", "")
	is_string(c)
	c != ""
} else := "STANDARD"

# sharded_table_class is a dynamokeys_sharded_table's table_class, "" when not known (a destroy has no after).
sharded_table_class(values) := c if {
	is_object(values)
	c := object.get(values, "table_class", "")
	is_string(c)
} else := ""
