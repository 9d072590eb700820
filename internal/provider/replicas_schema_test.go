package provider

import (
	"math/big"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// globalEventLog is a held-out global table (TestKeydesignDataSourceReads plans it): 600 writes/s of 1 KB items in each of three US Regions on a
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
