package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccShardedTableMigrationPhases walks a live table through a key-scheme migration, a hot day key moved
// to calculated shards, as the guide does: the change without a migration fails the plan (DK406), a jump
// to read_new fails it (DK407), each next phase applies in place and the table is untouched, a step back
// is a rollback the report names (and the furthest phase reached still counts), a return to the old layout
// after done fails, and a finished migration is silent and removable.
func TestAccShardedTableMigrationPhases(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "migrating-events"
	created := &tableCreation{}
	const unsharded = `partition_key = { name = "pk", template = "DAY#{day}" }`
	const sharded = `partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sharding      = { strategy = "calculated", source = "event_id", count = 4, scheme_version = 2 }`
	config := func(keys, migration string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  %s
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments            = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  traffic             = { writes_per_second = 500, item_count = 1000000 }
  access_patterns     = { events_of_day = { equals = ["day"], reads_per_second = 10 } }
  %s
}`, name, keys, migration)
	}
	phase := func(p string) string {
		return fmt.Sprintf(`migration = { phase = %q, from = { partition_key_template = "DAY#{day}", sharding = { strategy = "none" } } }`, p)
	}
	reportSays := func(pattern string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(pattern)))
	}
	inPlace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate)}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{Config: config(unsharded, ""), Check: created.record(api, name)},
			{Config: config(sharded, ""), ExpectError: expectError(`DK406 key-change-without-migration: .*access patterns events_of_day would miss the items written before.*` +
				regexp.QuoteMeta(`from = { partition_key_template = "DAY#{day}", sort_key_template = "EVENT#{event_id}", sharding = { strategy = "none", scheme_version = 1 } }`))},
			{Config: config(sharded, phase("read_new")), ExpectError: expectError(`DK407 migration-reader-miss: the migration moves from the old layout \(no migration yet\) to "read_new"`)},
			{Config: config(sharded, phase("dual_write")), ConfigPlanChecks: inPlace, Check: created.unchanged(api, name, "pk", "sk"),
				ConfigStateChecks: []statecheck.StateCheck{reportSays(`now  1\. write both layouts`)}},
			{Config: config(sharded, phase("backfill")), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{reportSays(`now  2\. rewrite the old items under the new keys \(backfill\): 1,000,000 items`)}},
			{Config: config(sharded, phase("read_new")), ConfigPlanChecks: inPlace},
			// A rollback: readers go back to the old layout, which the dual writes kept complete. The
			// furthest phase is remembered, so the next step may go straight to done.
			{Config: config(sharded, phase("dual_write")), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{reportSays(`rollback: back from read_new`)}},
			{Config: config(sharded, phase("done")), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("ok"), knownvalue.Bool(true))}},
			{Config: config(sharded, phase("backfill")), ExpectError: expectError(`DK407 migration-reader-miss: the migration moves back from "done" to "backfill": the old items were deleted`)},
			// Finished: the migration block goes, and the table is the one step 1 created.
			{Config: config(sharded, ""), Check: created.unchanged(api, name, "pk", "sk")},
		},
	})
}
