package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// TestUnknownTableClassOrPITRMarksCostUnknown: a table class or point-in-time recovery known only at apply
// leaves derived.cost unknown at plan (listed in the document's unknown) instead of pricing STANDARD
// without PITR; known settings price the design.
func TestUnknownTableClassOrPITRMarksCostUnknown(t *testing.T) {
	pitrType := map[string]attr.Type{"enabled": types.BoolType, "recovery_period_in_days": types.NumberType}
	pitr := func(enabled types.Bool) types.Object {
		return types.ObjectValueMust(pitrType, map[string]attr.Value{"enabled": enabled, "recovery_period_in_days": types.NumberNull()})
	}
	for _, tt := range []struct {
		name        string
		class       types.String
		pitr        types.Object
		wantUnknown bool
	}{
		{"known", types.StringValue("STANDARD_INFREQUENT_ACCESS"), pitr(types.BoolValue(true)), false},
		{"class unknown", types.StringUnknown(), types.ObjectNull(pitrType), true},
		{"pitr object unknown", types.StringValue("STANDARD"), types.ObjectUnknown(pitrType), true},
		{"pitr enabled unknown", types.StringValue("STANDARD"), pitr(types.BoolUnknown()), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := shardedTableModel{Name: types.StringValue("orders"), BillingMode: types.StringValue("PAY_PER_REQUEST"),
				TableClass: tt.class, PointInTimeRecovery: tt.pitr}
			in, diags := readTableDesign(m)
			if diags.HasError() {
				t.Fatalf("readTableDesign: %v", diags)
			}
			in.PartitionKey = model.Key{Name: "pk", Type: "S"}
			writes, items := 100.0, int64(1_000_000)
			in.Traffic.WritesPerSecond, in.Traffic.ReadsPerSecond, in.Traffic.ItemCount = &writes, &writes, &items
			doc, errs := keydesign.Analyze(in)
			if len(errs) != 0 {
				t.Fatalf("analyze: %v", errs)
			}
			unknown := slices.Contains(doc.Unknown, "derived.cost")
			if unknown != tt.wantUnknown || (doc.Derived.Cost == nil) != tt.wantUnknown {
				t.Errorf("cost unknown %v (cost %v), want unknown %v", unknown, doc.Derived.Cost, tt.wantUnknown)
			}
			if c := doc.Derived.Cost; c != nil && (c.TableClass != "STANDARD_INFREQUENT_ACCESS" || !c.PointInTimeRecovery || c.PITRGB == nil) {
				t.Errorf("known settings not priced: class %s, PITR %v", c.TableClass, c.PointInTimeRecovery)
			}
		})
	}
}
