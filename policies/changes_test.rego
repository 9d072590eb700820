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

# vector is a vector index of the vectors stage (derived.vector_indexes) on embedding, 1,024 dimensions,
# HASH tenant_id, whose one member writes 4,196 bytes an item (4,096 of vector and 100 projected), searched
# by pattern similar (20 searches/s), priced at $0.1 per GB written; with overrides.
vector(overrides) := object.union(
	{
		"name": "by_embedding", "vector_attribute": "embedding", "dimensions": 1024, "distance_function": "COSINE",
		"partition_key": {"name": "tenant_id", "type": "S"}, "inline_filters": [], "projection_type": "KEYS_ONLY",
		"non_key_attributes": [], "vector_bytes": 4096,
		"entities": [{"entity": "", "member": true, "write_bytes_per_item": 4196}],
		"searches": [{"pattern": "similar", "reads_per_second": 20}],
		"cost": {"prices": {"write_gb": 0.1}},
	},
	overrides,
)

# with_vectors is the live table whose vector indexes are before and after before and after the change.
with_vectors(facts, before, after) := object.union(live(facts, {"table": unchanged_table}), {
	"derived": object.union(live({}, {}).derived, {"vector_indexes": after}),
	"prior": object.union(live({}, {}).prior, {"derived": object.union(live({}, {}).prior.derived, {"vector_indexes": before})}),
})

test_unchanged_vector_index_is_silent if {
	count(changes.findings) == 0 with input as with_vectors({}, [vector({})], [vector({})])
}

test_vector_index_with_other_dimensions_is_rebuilt_with_its_backfill_and_searches if {
	doc := with_vectors({"item_count": 1048576}, [vector({})], [vector({"dimensions": 1536})])
	some f in changes.warnings with input as doc
	f.rule == "DK003"
	f.path == ["vector_indexes", "by_embedding"]
	contains(f.message, "vector index by_embedding is deleted and created again, as dimensions changed")
	contains(f.message, "searches similar (20 searches/s) fail until it is ACTIVE and backfilled again")

	# 1,048,576 items of 4,196 bytes: 4.1 GB (4,196 MiB), $0.4 at $0.1 per GB.
	contains(f.message, "each of 1,048,576 items that carry its vector and HASH attributes: 4.1 GB (4,196 bytes each), $0.4 at the vector write price")
}

test_vector_index_with_another_hash_is_rebuilt if {
	doc := with_vectors({}, [vector({})], [vector({"partition_key": {"name": "org_id", "type": "S"}})])
	some f in changes.warnings with input as doc
	f.rule == "DK003"
	contains(f.message, "as search_schema changed")
	contains(f.message, "the backfill is not sized: set traffic.item_count")
}

test_dropping_a_searchs_only_vector_index_is_an_error if {
	doc := with_vectors({}, [vector({})], [])
	some f in changes.errors with input as doc
	f.rule == "DK004"
	f.path == ["vector_indexes", "by_embedding"]
	contains(f.message, "vector index by_embedding is deleted, and searches similar (20 searches/s) have no other index")
}

test_dropped_vector_index_whose_search_moved_is_a_warning if {
	doc := with_vectors({}, [vector({})], [vector({"name": "by_embedding_v2"})])
	fixtures.severities(changes.findings, "DK004") == {"warning"} with input as doc
}

test_vector_index_and_gsi_changes_count_against_one_index_update_at_a_time if {
	doc := with_vectors({}, [], [vector({})])
	some f in changes.warnings with input as object.union(doc, {"table": object.union(fixtures.doc({}).table, {"gsis": after_gsis})})
	f.rule == "DK008"
	contains(f.message, "changes 2 indexes of table")
	contains(f.message, "GSI by_email rebuilt, vector index by_embedding created")
}

test_table_class_change_names_the_quota if {
	doc := live({"table_class": {"before": "STANDARD", "after": "STANDARD_INFREQUENT_ACCESS"}}, {"table": unchanged_table})
	some f in changes.warnings with input as doc
	f.rule == "DK008"
	f.path == ["table_class"]
	contains(f.message, "changes the table class of table orders from STANDARD to STANDARD_INFREQUENT_ACCESS")
	contains(f.message, "DynamoDB takes 2 table class updates in a 30-day trailing period")
}

# provisioned is the live table provisioned at 500 RCU and 200 WCU before the change, its GSI at 100 and 50,
# with the table part after the change overridden.
provisioned_table := object.union(unchanged_table, {
	"billing_mode": "PROVISIONED", "read_capacity": 500, "write_capacity": 200,
	"gsis": [object.union(fixtures.gsi("by_email"), {"read_capacity": 100, "write_capacity": 50})],
})

provisioned(after) := object.union(
	live({}, {"table": object.union(provisioned_table, after)}),
	{"prior": object.union(live({}, {}).prior, {"table": provisioned_table})},
)

test_lowered_capacity_names_the_daily_decreases if {
	doc := provisioned({"read_capacity": 300, "gsis": [object.union(fixtures.gsi("by_email"), {"read_capacity": 100, "write_capacity": 20})]})
	some f in changes.warnings with input as doc
	f.rule == "DK008"
	contains(f.message, "lowers read_capacity of table orders from 500 to 300, write_capacity of GSI by_email from 50 to 20")
	contains(f.message, "DynamoDB takes 4 decreases of a table's or GSI's capacity at any time of a UTC day, and one more in each hour without one, 27 a day at most")
}

test_raised_capacity_is_silent if {
	doc := provisioned({"read_capacity": 800})
	count(changes.findings) == 0 with input as doc
}

test_lowered_capacity_under_autoscaling_is_dk007s if {
	doc := object.union(provisioned({"read_capacity": 300}), {"change": object.union(no_change, {"capacity_resets": [{
		"index": "", "attribute": "read_capacity", "path": ["read_capacity"], "before": 500, "after": 300,
		"managed_by": "aws_appautoscaling_target.orders_read",
	}]})})
	fixtures.severities(changes.findings, "DK008") == set() with input as doc
	fixtures.severities(changes.findings, "DK007") == {"error"} with input as doc
}

# created_gsi is the live table of live() with GSI by_status added beside by_email, which pattern by_status
# (5 reads/s) reads.
created_gsi(facts) := object.union(live(facts, {}), {
	"table": object.union(fixtures.doc({}).table, {"gsis": [fixtures.gsi("by_email"), fixtures.gsi("by_status")]}),
	"derived": object.union(live({}, {}).derived, {
		"access_patterns": [
			{"name": "by_email", "index": "by_email", "serves": true},
			{"name": "by_status", "index": "by_status", "serves": true},
		],
		"cost": {
			"indexes": [{"name": "by_status", "entry_bytes": 300, "item_share": 0.5}],
			"prices": {"write_request_units_per_million": 0.625},
		},
	}),
	"access_patterns": [{"name": "by_status", "reads_per_second": 5}],
})

test_created_index_on_a_live_table_sizes_its_backfill_and_names_who_waits if {
	doc := created_gsi({"item_count": 4000000, "item_count_source": "table"})
	some f in changes.warnings with input as doc
	f.rule == "DK009"
	f.path == ["global_secondary_indexes", "by_status"]
	contains(f.message, "GSI by_status is created on a live table and answers no query until it is ACTIVE")
	contains(f.message, "patterns by_status (5 reads/s) wait for it")

	# Half the 4,000,000 items carry its keys; a 300-byte entry is 1 write unit: 2,000,000 units, $1.25 (lib.fmt: $1.3).
	contains(f.message, "an entry for each of 2,000,000 items: 2,000,000 write units (1 each), $1.3 on demand")
}

test_created_index_on_an_empty_table_is_silent if {
	doc := created_gsi({"item_count": 0, "item_count_source": "table"})
	not "DK009" in {f.rule | some f in changes.findings} with input as doc
}

test_created_index_of_unknown_size_says_which_input_sizes_it if {
	some f in changes.warnings with input as created_gsi({})
	f.rule == "DK009"
	contains(f.message, "the backfill is not sized: set traffic.item_count")
}

test_created_vector_index_names_the_searches_that_wait if {
	doc := with_vectors({"item_count": 1048576}, [], [vector({})])
	some f in changes.warnings with input as doc
	f.rule == "DK009"
	f.path == ["vector_indexes", "by_embedding"]
	contains(f.message, "vector index by_embedding is created on a live table and answers no search until it is ACTIVE and backfilled")
	contains(f.message, "patterns similar (20 searches/s) wait for it")
	contains(f.message, "each of 1,048,576 items that carry its vector and HASH attributes: 4.1 GB")
}
