package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccShardedTableMeasuredTrafficPath walks the path after a finding on a live table: a calm measurement
// applies; a measured peak the four shards cannot take fails the plan (DK701, DK702) and the report shows
// the count it calls for; raising the declared traffic changes the computed count, which DK402 refuses on a
// live table and tells how to pin; pinning the new count with a new scheme_version applies.
func TestAccShardedTableMeasuredTrafficPath(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "measured-events"
	const address = "dynamokeys_sharded_table.t"
	config := func(writes int, sharding, observed string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments            = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding            = { strategy = "calculated", source = "event_id"%s }
  traffic             = { writes_per_second = %d }
  observed = {
    table_name = %q
    traffic    = { writes_per_second = %s }
    top_keys   = [{ key = "DAY#2026-11-30#SHARD#2", units_per_second = 1500, throttle_events = 0 }]
    window     = { start = "2026-11-30T09:00:00Z", end = "2026-11-30T12:00:00Z", datapoints = 180 }
    complete   = true
  }
}`, name, sharding, writes, name, observed)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: config(2500, "", "2000, hot_key_units_per_second = 1500"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("ok"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("report"),
						knownvalue.StringRegexp(expectError(`shards: 4 in use; the measured peak calls for 3`))),
				},
			},
			{
				// One of four shards takes 4,500 units/s (1,500 WCU): the logical key about 18,000 units/s, which needs 8 shards.
				Config: config(2500, "", "6000, hot_key_units_per_second = 4500"),
				ExpectError: expectError(`DK701 declared-below-measured: the table measured a peak of 6,000 write units/s .* ` +
					`the busiest key needs 8 shards and the table is written with 4`),
			},
			{
				Config:      config(6000, "", "6000, hot_key_units_per_second = 4500"),
				ExpectError: expectError(`DK402 shard-scheme-change: the shard count changes from 4 to 8 .* pin sharding.count = 4 to keep the scheme`),
			},
			{
				// The new count with a migration from the items' 4 shards (closed by the sharding line's brace).
				Config: config(6000, `, count = 8, scheme_version = 2 }
  migration = { phase = "dual_write", from = { sharding = { strategy = "calculated", source = "event_id", count = 4 } }`,
					"6000, hot_key_units_per_second = 2250"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(8)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("ok"), knownvalue.Bool(true)),
				},
			},
		},
	})
}
