package provider

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// globalEventLog is a held-out global table: 600 writes/s of 1 KB items in each of three US Regions on a
// day-bucketed key, calculated sharding sized from traffic.
const globalEventLog = `
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 26 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { reads_per_second = 100, item_size_bytes = 1000 }
  pricing  = { region = "us-east-1" }
  replicas = {
    regions = {
      "us-east-1" = { writes_per_second = 600 }
      "us-east-2" = { writes_per_second = 600 }
      "us-west-2" = { writes_per_second = 600 }
    }
  }
}
`

// TestKeydesignDataSourceGlobalTable plans the global table with the Terraform CLI: each Region's partitions
// take the 1,800 writes/s of all three, so the key needs 3 shards (one Region alone needs 1), and every
// Region pays for all of them: 1,800 × 2,628,000 s / 10^6 × $0.625 = $2,956.50 of table writes a month each.
func TestKeydesignDataSourceGlobalTable(t *testing.T) {
	t.Parallel()
	ds := "data.dynamokeys_keydesign.events"
	region := func(name string) tfjsonpath.Path {
		return tfjsonpath.New("cost").AtMapKey("replica_regions").AtMapKey(name)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: globalEventLog,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("capacity").AtMapKey("hot_key_write_units"), knownvalue.Float64Exact(1800)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("capacity").AtMapKey("hot_key_read_units"), knownvalue.Float64Exact(50)),
				statecheck.ExpectKnownValue(ds, region("us-east-2").AtMapKey("on_demand").AtMapKey("table_writes"), knownvalue.Float64Exact(2956.5)),
				statecheck.ExpectKnownValue(ds, region("us-east-1").AtMapKey("write_share"), knownvalue.Float64Func(func(v float64) error {
					if v < 0.3333 || v > 0.3334 {
						return fmt.Errorf("write share %v, want a third", v)
					}
					return nil
				})),
				statecheck.ExpectKnownValue(ds, region("us-west-2").AtMapKey("prices"),
					knownvalue.StringRegexp(expectError(`^estimates, not confirmed list prices, for write request units`))),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("cost").AtMapKey("prices"),
					knownvalue.StringRegexp(expectError(`^confirmed list prices \(sources as of \d{4}-\d\d-\d\d\) for write request units`))),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("cost").AtMapKey("all_regions").AtMapKey("on_demand"), knownvalue.Float64Func(func(v float64) error {
					if v < 3*2972.92 || v > 3*2972.94 {
						return fmt.Errorf("all Regions on-demand %v, want 3 × $2,972.93", v)
					}
					return nil
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("report"),
					knownvalue.StringRegexp(regexp.MustCompile(`us-east-1 +600 writes/s made here \(33\.3%\) \+ 1,200/s replicated`))),
			},
		}},
	})
}

// TestKeydesignDataSourceSingleRegionHasNoRegionCosts: without replicas the per-Region cost is null.
func TestKeydesignDataSourceSingleRegionHasNoRegionCosts(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: shardedEventLog,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.dynamokeys_keydesign.events", tfjsonpath.New("cost").AtMapKey("replica_regions"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.dynamokeys_keydesign.events", tfjsonpath.New("cost").AtMapKey("all_regions"), knownvalue.Null()),
			},
		}},
	})
}

// TestUnknownReplicasAreNotErrors: replicas, or one Region's share, known only at apply leave the replica
// facts, the capacity and the cost unknown, without an error.
func TestUnknownReplicasAreNotErrors(t *testing.T) {
	replicasType := objectType(replicasAttribute().Attributes)
	regions, ok := replicasAttribute().Attributes["regions"].(rschema.MapNestedAttribute)
	if !ok {
		t.Fatal("replicas.regions is not a map of objects")
	}
	regionType := objectType(regions.NestedObject.Attributes)
	pricesType := objectType(pricesAttributes())
	region := func(share types.Number) attr.Value {
		return types.ObjectValueMust(regionType.AttrTypes, map[string]attr.Value{
			"write_share": share, "writes_per_second": types.NumberNull(), "prices": types.ObjectNull(pricesType.AttrTypes)})
	}
	partlyKnown := types.ObjectValueMust(replicasType.AttrTypes, map[string]attr.Value{
		"regions": types.MapValueMust(regionType, map[string]attr.Value{
			"us-east-1": region(types.NumberUnknown()), "us-east-2": region(types.NumberValue(big.NewFloat(0.5)))}),
		"consistency": types.StringValue("strong"), "witness": types.StringNull(), "ttl_deletes_per_second": types.NumberNull(),
	})
	for name, v := range map[string]types.Object{"unknown": types.ObjectUnknown(replicasType.AttrTypes), "share unknown": partlyKnown} {
		t.Run(name, func(t *testing.T) {
			in, diags := readDesign(designInputModel{
				PartitionKey: types.ObjectValueMust(objectType(tableKeyAttributes()).AttrTypes, map[string]attr.Value{
					"name": types.StringValue("pk"), "type": types.StringNull(), "template": types.StringNull()}),
				Replicas: v,
			})
			if diags.HasError() {
				t.Fatalf("readDesign: %v", diags)
			}
			doc, errs := keydesign.Analyze(in)
			if len(errs) > 0 {
				t.Fatalf("Analyze: %v", errs)
			}
			for _, want := range []string{"derived.replicas", "derived.capacity", "derived.cost"} {
				if !slices.Contains(doc.Unknown, want) {
					t.Errorf("unknown %v lacks %s", doc.Unknown, want)
				}
			}
		})
	}
}
