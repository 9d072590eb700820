package dynamokeys.rules.migration_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.migration

unsharded := {"algorithm": "none", "count": 1, "width": 1, "source": "", "scheme_version": 1}

four_shards := {"algorithm": "sha256-be32-mod", "count": 4, "width": 1, "source": "order_id", "scheme_version": 2}

old_layout := {
	"keys": {"": {"pk": "CUSTOMER#{customer_id}", "sk": "ORDER#{order_id}"}},
	"sharding": unsharded,
	"patterns": {"orders_of_customer": ["pk=CUSTOMER#{customer_id}", "sk=ORDER#{order_id}"], "order_by_status": ["status=x"]},
	"from": `{ partition_key_template = "CUSTOMER#{customer_id}", sharding = { strategy = "none", scheme_version = 1 } }`,
}

new_layout := {
	"keys": {"": {"pk": "CUSTOMER#{customer_id}#SHARD#{shard}", "sk": "ORDER#{order_id}"}},
	"sharding": four_shards,
	"patterns": {
		"orders_of_customer": ["pk=CUSTOMER#{customer_id}#SHARD#{shard}", "sk=ORDER#{order_id}", "{shard}=sha256-be32-mod/4/order_id"],
		"order_by_status": ["status=x"],
	},
	"from": "unused",
}

backfill(overrides) := object.union(
	{
		"items": 1000000, "rate": 500, "headroom_write_units_per_second": 500, "headroom_limit": "partition",
		"hours": 1, "rate_for_max_hours": 10, "throttles": [],
	},
	overrides,
)

in_migration(phase, index) := {
	"phase": phase, "phase_index": index, "reached_phase_index": index, "from": old_layout, "changed": [""],
	"patterns": [{"name": "orders_of_customer", "changed": true}, {"name": "order_by_status", "changed": false}],
	"backfill": backfill({}),
}

# a plan of the new layout against a prior state (the prior's migration, if any) with this migration.
plan(prior_migration, current_migration) := fixtures.doc({
	"prior": fixtures.doc({"derived": {"layout": prior_layout(prior_migration), "migration": prior_migration}}),
	"derived": {"layout": new_layout, "migration": current_migration},
})

prior_layout(null) := old_layout

prior_layout(m) := new_layout if m != null

test_key_change_without_migration_names_the_missed_patterns if {
	some f in migration.findings with input as plan(null, null)
	f.rule == "DK406"
	f.severity == "error"
	f.path == ["partition_key", "template"]
	contains(f.message, "access patterns orders_of_customer would miss the items written before")
	contains(f.message, `from = { partition_key_template = "CUSTOMER#{customer_id}"`)
}

test_migration_from_the_prior_layout_passes if {
	findings := migration.findings with input as plan(null, in_migration("dual_write", 0))
	count(findings) == 0
}

test_migration_from_another_layout_is_error if {
	wrong := object.union(in_migration("dual_write", 0), {"from": {"keys": {"": {"pk": "C#{customer_id}"}}}})
	some f in migration.findings with input as plan(null, wrong)
	f.rule == "DK406"
	f.path == ["migration", "from"]
}

test_unchanged_keys_pass if {
	doc := fixtures.doc({"prior": fixtures.doc({"derived": {"layout": old_layout}}), "derived": {"layout": old_layout}})
	count(migration.findings) == 0 with input as doc
}

test_imported_prior_is_not_compared if {
	doc := object.union(plan(null, null), {"prior": {"unknown": ["derived.layout"]}})
	count(migration.findings) == 0 with input as doc
}

test_new_layout_declared_in_read_new_is_error if {
	some f in migration.findings with input as plan(null, in_migration("read_new", 2))
	f.rule == "DK407"
	f.path == ["migration", "phase"]
	contains(f.message, `from the old layout (no migration yet) to "read_new", skipping "dual_write" and "backfill"`)
	contains(f.message, "access patterns orders_of_customer")
}

test_read_new_without_backfill_is_error if {
	some f in migration.findings with input as plan(in_migration("dual_write", 0), in_migration("read_new", 2))
	f.rule == "DK407"
	contains(f.message, `skipping "backfill"`)
}

test_each_next_phase_passes if {
	every pair in [[0, 1], [1, 2], [2, 3]] {
		prior := in_migration(migration.phases[pair[0]], pair[0])
		current := in_migration(migration.phases[pair[1]], pair[1])
		not "DK407" in fixtures.ids(migration.findings) with input as plan(prior, current)
	}
}

test_done_skipping_read_new_is_error if {
	"DK407" in fixtures.ids(migration.findings) with input as plan(in_migration("backfill", 1), in_migration("done", 3))
}

test_rollback_to_backfill_passes if {
	not "DK407" in fixtures.ids(migration.findings) with input as plan(in_migration("read_new", 2), in_migration("backfill", 1))
}

test_rollback_from_done_to_old_reads_is_error if {
	back := object.union(in_migration("backfill", 1), {"reached_phase_index": 3})
	some f in migration.findings with input as plan(in_migration("read_new", 2), back)
	f.rule == "DK407"
	contains(f.message, "the old items were deleted")
}

test_throttling_backfill_warns_with_the_rate_that_fits if {
	throttled := object.union(in_migration("backfill", 1), {"backfill": backfill({
		"rate": 2000, "throttles": [{"what": "partition", "demand": 1125, "limit": 1000}],
		"headroom_write_units_per_second": 700,
	})})
	some f in migration.findings with input as plan(in_migration("dual_write", 0), throttled)
	f.rule == "DK408"
	f.severity == "warning"
	f.message == concat("", [
		"the backfill at 2,000 WCU/s with the production peak takes 1,125 of the partition's 1,000: ",
		"it throttles production; 700 WCU/s fits (the partition's headroom)",
	])
}

test_long_backfill_warns if {
	long := object.union(in_migration("dual_write", 0), {"backfill": backfill({"hours": 100, "rate_for_max_hours": 700})})
	some f in migration.findings with input as plan(null, long)
	f.rule == "DK408"
	contains(f.message, "runs 100 hours at 500 WCU/s, past 72 hours; 700 WCU/s finishes within them (the headroom is 500 WCU/s, under the partition)")
}

test_no_headroom_warns if {
	none := object.union(in_migration("dual_write", 0), {"backfill": backfill({"rate": 0, "hours": null, "headroom_write_units_per_second": 0})})
	some f in migration.findings with input as plan(null, none)
	contains(f.message, "no backfill rate fits")
}

test_finished_migration_is_silent if {
	long := object.union(in_migration("done", 3), {"backfill": backfill({"hours": 100, "throttles": [{"what": "partition", "demand": 2, "limit": 1}]})})
	count(migration.findings) == 0 with input as plan(in_migration("read_new", 2), long)
}

test_unknown_migration_is_silent if {
	doc := object.union(plan(null, null), {"unknown": ["derived.migration"]})
	count(migration.findings) == 0 with input as doc
}

test_forward_again_after_a_rollback_passes if {
	back := object.union(in_migration("dual_write", 0), {"reached_phase_index": 2})
	not "DK407" in fixtures.ids(migration.findings) with input as plan(back, in_migration("read_new", 2))
}

test_migration_removed_before_the_backfill_finished_is_error if {
	doc := fixtures.doc({
		"prior": fixtures.doc({"derived": {"layout": new_layout, "migration": in_migration("backfill", 1)}}),
		"derived": {"layout": new_layout, "migration": null},
	})
	some f in migration.findings with input as doc
	f.rule == "DK407"
	contains(f.message, `removed in phase "backfill"`)
	contains(f.message, "access patterns orders_of_customer")
}

test_migration_removed_when_done_passes if {
	doc := fixtures.doc({
		"prior": fixtures.doc({"derived": {"layout": new_layout, "migration": in_migration("done", 3)}}),
		"derived": {"layout": new_layout, "migration": null},
	})
	count(migration.findings) == 0 with input as doc
}

test_from_changed_during_the_migration_is_error if {
	other := object.union(in_migration("read_new", 2), {"from": {"keys": {"": {"pk": "C#{customer_id}"}}, "sharding": unsharded}})
	some f in migration.findings with input as plan(in_migration("backfill", 1), other)
	f.rule == "DK406"
	f.path == ["migration", "from"]
	contains(f.message, "changes during the migration")
}

test_scheme_version_alone_is_no_key_change if {
	bumped := object.union(old_layout, {"sharding": {"scheme_version": 2}})
	doc := fixtures.doc({"prior": fixtures.doc({"derived": {"layout": old_layout}}), "derived": {"layout": bumped}})
	count(migration.findings) == 0 with input as doc
}
