# Terraform plan adapter, global tables of aws_dynamodb_table
# A planned table's replica blocks (region_name, consistency_mode EVENTUAL or STRONG), its global_table_witness
# (region_name), its ttl block, its own Region (the region attribute of hashicorp/aws >= 6), and the planned
# aws_dynamodb_table_replica resources joined to it (by global_table_arn when the plan knows it, else through
# the configuration's reference, global_table_arn = aws_dynamodb_table.x.arn) become the document's
# derived.replicas, which the replica rules (DK604–DK606) read. A table without replicas gets none.
package dynamokeys.plan

# replica_changes are the planned aws_dynamodb_table_replica resources: the table they join (null when none in
# the plan) and their Region (null when known only after apply).
replica_changes := [{"table": replica_table(rc), "region": region} |
	some i in candidates
	rc := input.resource_changes[i]
	rc.type == "aws_dynamodb_table_replica"
	is_object(rc.change.after)
	region := string_or_null(object.get(rc.change.after, "region", null))
]

string_or_null(s) := s if is_string(s)

else := null

# replica_table is the address of the planned table a replica resource belongs to, or null.
replica_table(rc) := address if {
	arn := rc.change.after.global_table_arn
	is_string(arn)
	[address] := [a | some a, t in aws_tables; t.arn == arn]
} else := address if {
	address := referenced_table(rc_config_key(rc), rc)
} else := null

# with_replicas adds derived.replicas to a planned table's document when the table has replica blocks, a
# witness or joined replica resources; replicas known only after apply leave the facts unknown.
with_replicas(doc, after, au) := object.union(doc, {
	"derived": object.union(doc.derived, {"replicas": facts}),
	"unknown": array.concat(doc.unknown, ["derived.replicas" | replicas_unknown(au)]),
}) if {
	blocks := [b | some b in array_or_empty(object.get(after, "replica", [])); is_object(b)]
	witnesses := [string_or_null(object.get(w, "region_name", null)) | some w in array_or_empty(object.get(after, "global_table_witness", [])); is_object(w)]
	joined := [r.region | some r in replica_changes; r.table == doc.address]
	(count(blocks) + count(witnesses)) + count(joined) > 0
	own := string_or_null(object.get(after, "region", null))
	regions := array.flatten([[own], [string_or_null(object.get(b, "region_name", null)) | some b in blocks], joined])
	named := [r | some r in regions; is_string(r)]
	facts := {
		"consistency": consistency(blocks),
		"witness": first_or_null(witnesses),
		"regions": [{"region": r, "write_share": null, "region_set": ""} | some r in regions],
		"region_count": count(regions) + count(witnesses),
		"duplicate_regions": sort({r | some i, r in named; some j, s in named; i < j; r == s}),
		"write_share_sum": 1,
		"write_shares_sum_to_one": true,
		"writes_basis": "unknown",
		"global_writes_per_second": null,
		"ttl_deletes_per_second": null,
		"ttl": ttl_enabled(after),
		"hot_key_write_units": null,
	}
} else := doc

first_or_null(list) := list[0] if count(list) > 0

else := null

consistency(blocks) := "strong" if {
	some b in blocks
	upper(object.get(b, "consistency_mode", "")) == "STRONG"
} else := "eventual"

ttl_enabled(after) if {
	some t in array_or_empty(object.get(after, "ttl", []))
	t.enabled == true
}

else := false

# replicas_unknown holds when a Region, a consistency mode or TTL's enabled is known only after apply, or a
# whole block list is. A replica's computed attributes (arn, stream_arn, stream_label) are unknown in every
# create plan and do not count.
replicas_unknown(au) if {
	some attr in ["replica", "global_table_witness", "ttl"]
	au[attr] == true
}

replicas_unknown(au) if {
	some [attr, field] in [
		["replica", "region_name"], ["replica", "consistency_mode"],
		["global_table_witness", "region_name"], ["ttl", "enabled"],
	]
	some block in array_or_empty(object.get(au, attr, []))
	block[field] == true
}
