# Plan changes against DynamoDB's quotas on what a table may change (DK008): index creates and deletes one
# at a time, TTL moved, billing mode switched, table class changed, provisioned capacity lowered.
package dynamokeys.rules.changes

import data.dynamokeys.lib
import data.dynamokeys.limits

# METADATA
# title: Change quotas
# description: |
#   DynamoDB takes one GSI create or delete per UpdateTable call and the table must be ACTIVE between
#   them (GSI.OnlineOps), and vector indexes share that one create or delete at a time
#   (VectorSearchWorkingWith): several index changes in one apply run one after another, each waiting for
#   the last backfill. DynamoDB takes one UpdateTimeToLive call per table per hour (UpdateTimeToLive), and moving
#   TTL to another attribute takes two, turning it off and on. A table switches from provisioned to on-demand at
#   most ${billing_switches_to_on_demand_per_day}
#   times in a 24-hour window (switching.capacitymode): an apply that fails half-way may not be able to
#   switch again the same day. A table's class changes at most ${table_class_updates} times in a
#   ${table_class_update_window_days}-day trailing period (HowItWorks.TableClasses). Provisioned capacity of a table or GSI is lowered at most
#   ${capacity_decreases_any_time_per_day} times at any time of a UTC day, plus once in each hour without a
#   decrease, ${capacity_decreases_per_day} times a day at most (ServiceQuotas, "Decreasing provisioned
#   throughput").
# custom:
#   id: DK008
#   name: change-quota
#   cases:
#     index-updates:
#       severity: warning
#       when: the plan creates, deletes or rebuilds more than one index (GSI or vector index) of a table in one apply
#       remediation: Apply the index changes in separate plans, each after the last index is ACTIVE, or budget the time for all of them in one.
#     ttl-attribute:
#       severity: warning
#       when: the plan moves TTL from one attribute to another
#       remediation: >-
#         Turn TTL off in one apply and on with the new attribute in another, an hour or more later, or keep
#         the attribute and write the new expiry into it.
#     billing-switch:
#       severity: warning
#       when: the plan switches a table from provisioned to on-demand
#       remediation: Switch once and keep the mode for the day; a table may switch back to provisioned at any time.
#     table-class:
#       severity: warning
#       when: >-
#         the plan changes the table class (STANDARD and STANDARD_INFREQUENT_ACCESS); a plan cannot see the
#         table's past updates, so every class change names the quota
#       remediation: >-
#         Change the class when the table's storage and traffic have settled (a table whose storage is most of
#         its cost suits Standard-IA), and not back and forth: a third change within 30 days is refused.
#     capacity-decrease:
#       severity: warning
#       when: >-
#         the plan lowers the provisioned read or write capacity of a table or GSI that no autoscaling target
#         manages (a raise is silent; a managed one is DK007)
#       remediation: >-
#         Lower the capacity in one apply rather than in steps, and leave room in the day's decreases for the
#         autoscaler or an operator who must lower it again; or switch a table with spiky traffic to on-demand.
quota := rego.metadata.rule()

warnings contains lib.finding_case(quota, "index-updates", msg, ["global_secondary_indexes"]) if {
	changed := array.concat(
		[sprintf("GSI %s %s", [n, a]) | some n, a in index_actions],
		[sprintf("vector index %s %s", [n, a]) | some n, a in vector_actions],
	)
	count(changed) > limits.index_updates_per_update_table
	msg := sprintf("this plan changes %d indexes of table %s (%s); DynamoDB takes one index create or delete per UpdateTable call, %s", [
		count(changed), table_name, concat(", ", sort(changed)),
		"so they run one after another, each after the last backfill",
	])
}

warnings contains lib.finding_case(quota, "billing-switch", msg, ["billing_mode"]) if {
	change.action == "update"
	change.billing_mode_before == "PROVISIONED"
	lib.on_demand
	msg := sprintf("this plan switches table %s from provisioned to on-demand, which DynamoDB allows %d times in 24 hours", [
		table_name, limits.billing_switches_to_on_demand_per_day,
	])
}

warnings contains lib.finding_case(quota, "ttl-attribute", msg, ["ttl"]) if {
	t := change.ttl
	is_object(t)
	t.before != ""
	t.after != ""
	msg := sprintf("this plan moves TTL of table %s from %s to %s, which takes turning TTL off and on: %s within %d hour, %s", [
		table_name, t.before, t.after, "DynamoDB refuses a second TTL change on the table",
		limits.ttl_changes_interval_hours, sprintf("so the apply can stop with TTL off, and items that carry only %s no longer expire", [t.before]),
	])
}

warnings contains lib.finding_case(quota, "table-class", msg, ["table_class"]) if {
	change.action == "update"
	c := change.table_class
	is_object(c)
	msg := sprintf("this plan changes the table class of table %s from %s to %s: DynamoDB takes %d table class updates in a %d-day trailing period, %s", [
		table_name, c.before, c.after, limits.table_class_updates, limits.table_class_update_window_days,
		"which a plan cannot count: check the table's last update (DescribeTable's TableClassSummary) before the apply",
	])
}

# capacity_decreases are the provisioned capacities of the table and its GSIs that the plan lowers, compared
# between the table before the change and after it; those an autoscaling target manages are DK007's, and a
# table our resource autoscales leaves its capacity to the autoscaler.
capacity_decreases := [sprintf("%s of %s from %s to %s", [attribute, subject, lib.fmt(b), lib.fmt(a)]) |
	change.action == "update"
	input.prior.table.billing_mode == "PROVISIONED"
	input.table.billing_mode == "PROVISIONED"
	some [subject, path, before, after] in capacity_pairs
	some attribute in ["read_capacity", "write_capacity"]
	b := object.get(before, attribute, null)
	a := object.get(after, attribute, null)
	lib.number(b)
	lib.number(a)
	a < b
	not managed_capacity(array.concat(path, [attribute]))
]

capacity_pairs contains [sprintf("table %s", [table_name]), [], input.prior.table, input.table] if {
	object.get(input, ["table", "autoscaling"], null) == null
}

capacity_pairs contains [sprintf("GSI %s", [name]), ["global_secondary_indexes", name], before, g] if {
	some name, g in after_gsis
	before := prior_gsis[name]
	object.get(g, "autoscaling", null) == null
}

managed_capacity(path) if {
	some r in object.get(change, "capacity_resets", [])
	r.path == path
}

warnings contains lib.finding_case(quota, "capacity-decrease", msg, ["write_capacity"]) if {
	count(capacity_decreases) > 0
	msg := sprintf("this plan lowers %s: DynamoDB takes %d decreases of a table's or GSI's capacity at any time of a UTC day, %s, %d a day at most, %s", [
		concat(", ", sort(capacity_decreases)), limits.capacity_decreases_any_time_per_day, "and one more in each hour without one",
		limits.capacity_decreases_per_day, "so an apply that must lower it again the same day may be refused (LimitExceededException)",
	])
}
