package dynamokeys.rules.changes_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.changes

# no_change is the change of a plan that updates the table in place and touches nothing the rules read.
no_change := {
	"action": "update", "only": false, "replaced_by": [], "disposable": false, "item_count": null,
	"item_count_source": "", "replicas_removed": [], "stream": null, "billing_mode_before": "PAY_PER_REQUEST",
	"capacity_resets": [], "index_changes": [],
}

# live is a design document of a live table with GSI by_email, serving pattern by_email (20 reads/s), before
# (prior) and after the change, with the given change facts and overrides of the planned document.
live(facts, overrides) := object.union(
	fixtures.doc({
		"kind": "sharded_table",
		"table": object.union(fixtures.doc({}).table, {"gsis": after_gsis}),
		"derived": object.union(fixtures.doc({}).derived, {
			"access_patterns": [{"name": "by_email", "index": "by_email", "serves": true}],
			"cost": {
				"indexes": [{"name": "by_email", "entry_bytes": 1500, "item_share": 1}],
				"prices": {"write_request_units_per_million": 0.625},
			},
		}),
		"prior": {
			"table": object.union(fixtures.doc({}).table, {"gsis": [fixtures.gsi("by_email")]}),
			"derived": {"access_patterns": [{"name": "by_email", "index": "by_email", "serves": true}]},
			"access_patterns": [{"name": "by_email", "reads_per_second": 20}],
		},
		"change": object.union(no_change, facts),
	}),
	overrides,
)

# unchanged_table is the table with its GSI as before the change.
unchanged_table := object.union(fixtures.doc({}).table, {"gsis": [fixtures.gsi("by_email")]})

after_gsis := [object.union(fixtures.gsi("by_email"), {"sort_key": [{"name": "created", "type": "S", "cardinality": null}]})]

test_unchanged_index_is_silent if {
	doc := live({}, {"table": object.union(fixtures.doc({}).table, {"gsis": [fixtures.gsi("by_email")]})})
	count(changes.findings) == 0 with input as doc
}

test_rebuilt_index_sizes_the_backfill_and_names_the_patterns if {
	doc := live({"item_count": 2000000, "item_count_source": "design"}, {})
	some f in changes.warnings with input as doc
	f.rule == "DK003"
	f.path == ["global_secondary_indexes", "by_email"]

	# 1,500-byte entries are 2 write units each: 4,000,000 write units, $2.50 at $0.625 per million.
	contains(f.message, "patterns by_email (20 reads/s) fail until it is ACTIVE again")
	contains(f.message, "an entry for each of 2,000,000 items: 4,000,000 write units (2 each), $2.5 on demand")
}

test_backfill_hours_at_the_index_capacity if {
	provisioned := object.union(fixtures.doc({}).table, {
		"billing_mode": "PROVISIONED",
		"gsis": [object.union(after_gsis[0], {"write_capacity": 500})],
	})
	doc := live({"item_count": 1800000, "item_count_source": "table"}, {"table": provisioned})
	b := changes.backfill("by_email") with input as doc
	b.write_units == 3600000
	b.hours == 2
	b.dollars == null
}

test_unsized_backfill_says_which_input_sizes_it if {
	some f in changes.warnings with input as live({}, {})
	contains(f.message, "the backfill is not sized: set traffic.item_count")
}

test_dropped_index_a_pattern_still_has_is_a_warning if {
	doc := live({}, {
		"table": object.union(fixtures.doc({}).table, {"gsis": []}),
		"derived": object.union(fixtures.doc({}).derived, {"access_patterns": [{"name": "by_email", "index": "table", "serves": true}]}),
	})
	fixtures.severities(changes.findings, "DK004") == {"warning"} with input as doc
}

test_dropping_a_patterns_only_index_is_an_error if {
	doc := live({}, {
		"table": object.union(fixtures.doc({}).table, {"gsis": []}),
		"derived": object.union(fixtures.doc({}).derived, {"access_patterns": [{"name": "by_email", "index": "", "serves": false}]}),
	})
	some f in changes.errors with input as doc
	f.rule == "DK004"
	contains(f.message, "patterns by_email (20 reads/s) have no other key")
}

test_replacement_names_the_items if {
	doc := live({"action": "replace", "replaced_by": [["partition_key", "name"]], "item_count": 1200, "item_count_source": "table"}, {"prior": null})
	some f in changes.errors with input as doc
	f.rule == "DK001"
	f.path == ["partition_key", "name"]
	contains(f.message, "(partition_key.name forces it)")
	contains(f.message, "(1,200 items, by DescribeTable's ItemCount)")
}

test_disposable_replacement_and_destroy_are_silent if {
	count(changes.findings) == 0 with input as live({"action": "replace", "disposable": true}, {"prior": null})
	count(changes.findings) == 0 with input as live({"action": "delete", "disposable": true}, {"prior": null})
}

test_replica_removal_on_a_disposable_table_is_silent if {
	doc := live({"replicas_removed": ["eu-west-1"], "disposable": true}, {"table": unchanged_table})
	count(changes.findings) == 0 with input as doc
}

test_stream_turned_off_under_a_consumer_warns if {
	stream := {"before": "NEW_IMAGE", "after": "", "consumers": ["aws_lambda_event_source_mapping.x"]}
	doc := live({"stream": stream}, {"table": unchanged_table})
	some f in changes.warnings with input as doc
	f.rule == "DK006"
	contains(f.message, "is turned off")
}

test_capacity_reset_of_a_gsi_is_an_error if {
	reset := {
		"index": "by_email", "attribute": "write_capacity", "path": ["global_secondary_indexes", "by_email", "write_capacity"],
		"before": 900, "after": 50, "managed_by": "aws_appautoscaling_target.w",
	}
	doc := live({"capacity_resets": [reset]}, {"table": object.union(fixtures.doc({}).table, {"gsis": [fixtures.gsi("by_email")]})})
	some f in changes.errors with input as doc
	f.rule == "DK007"
	contains(f.message, "lowers write_capacity of GSI by_email from 900 to 50")
}

test_the_designs_item_count_before_the_tables if {
	derived := object.union(fixtures.doc({}).derived, {"cost": {"item_count": 5000, "indexes": [], "prices": {}}})
	doc := live({"action": "delete", "item_count": 0, "item_count_source": "table"}, {"prior": null, "derived": derived})
	some f in changes.warnings with input as doc
	f.rule == "DK002"
	contains(f.message, "(5,000 items, by traffic.item_count)")
}
