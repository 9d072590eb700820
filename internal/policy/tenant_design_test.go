package policy

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

var update = flag.Bool("update", false, "rewrite testdata/entity_design_findings.json from the current rules")

// tenantDesign is a single-table design of ten entities under one TENANT#{tenant_id} partition key, each with
// its own sort-key segment, the shared id overloaded into GSI1 (E{n}#{id}) and the status into a KEYS_ONLY
// GSI2 (S{n}#{status}), and two access patterns per entity: thirteen segments, twenty patterns. It is the
// tenant shape that scripts/bench-entities-plan.sh plans forty times.
func tenantDesign() *model.Input {
	in := overloadedTable(map[string]model.Segment{
		"tenant_id": {Kind: model.KindID, MaxLength: p(int64(26))},
		"id":        {Kind: model.KindID, MaxLength: p(int64(26))},
		"status":    {Kind: model.KindEnum, Values: []string{"new", "open", "done", "void"}},
	})
	for n := range 10 {
		ref := fmt.Sprintf("ref%d", n)
		in.Segments[ref] = model.Segment{Kind: model.KindID, MaxLength: p(int64(20))}
		name := fmt.Sprintf("e%d", n)
		in.Entities = append(in.Entities, model.Entity{Name: name,
			Keys: map[string]string{"PK": "TENANT#{tenant_id}", "SK": fmt.Sprintf("E%d#{%s}#{id}", n, ref),
				"GSI1PK": fmt.Sprintf("E%d#{id}", n), "GSI1SK": fmt.Sprintf("E%d", n),
				"GSI2PK": fmt.Sprintf("S%d#{status}", n), "GSI2SK": "{tenant_id}#{id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(float64(10 * (n + 1))), ReadsPerSecond: p(20.0),
				ItemSizeBytes: p(int64(500 + 100*n)), MaxItemsPerPartitionKey: p(int64(1000))}})
		in.AccessPatterns = append(in.AccessPatterns, model.AccessPattern{Name: name + "_of_tenant", Entities: []string{name},
			Equals: []string{"tenant_id"}, Sort: &model.SortCondition{On: ref, Condition: model.SortBeginsWith}, ReadsPerSecond: p(5.0)})
		second := model.AccessPattern{Name: name + "_by_id", Entities: []string{name}, Index: p("GSI1"), Equals: []string{"id"}, ReadsPerSecond: p(2.0)}
		if n%2 == 1 {
			second = model.AccessPattern{Name: name + "_by_status", Entities: []string{name}, Index: p("GSI2"), Equals: []string{"status"}, ReadsPerSecond: p(2.0)}
		}
		in.AccessPatterns = append(in.AccessPatterns, second)
	}
	return in
}

// customerDesign is the customer shape of scripts/bench-entities-plan.sh: ten entities in one
// CUSTOMER#{customer_id} collection, each writing both overloaded GSIs, two access patterns each.
func customerDesign() *model.Input {
	in := overloadedTable(map[string]model.Segment{
		"customer_id": {Kind: model.KindID, MaxLength: p(int64(26))},
		"item_id":     {Kind: model.KindID, MaxLength: p(int64(26))},
		"day":         {Kind: model.KindTime, Granularity: "day"},
		"status":      {Kind: model.KindEnum, Values: []string{"new", "open", "done"}},
	})
	gsi1 := []string{"DAY#{day}", "STATUS#{status}", "ITEM#{item_id}"}
	for n := range 10 {
		name := fmt.Sprintf("kind%02d", n)
		in.Entities = append(in.Entities, model.Entity{Name: name,
			Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": fmt.Sprintf("KIND%02d#{item_id}", n),
				"GSI1PK": gsi1[n%3], "GSI1SK": fmt.Sprintf("KIND%02d#{item_id}", n),
				"GSI2PK": fmt.Sprintf("KIND%02d#{customer_id}", n), "GSI2SK": "{item_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(float64(10 * (n + 1))), ReadsPerSecond: p(20.0),
				ItemSizeBytes: p(int64(500 + 100*n)), MaxItemsPerPartitionKey: p(int64(100))}})
		in.AccessPatterns = append(in.AccessPatterns,
			model.AccessPattern{Name: name + "_of_customer", Entities: []string{name}, Equals: []string{"customer_id"},
				Sort: &model.SortCondition{On: "item_id", Condition: model.SortBeginsWith}, ReadsPerSecond: p(5.0)},
			model.AccessPattern{Name: name + "_by_customer", Entities: []string{name}, Index: p("GSI2"), Equals: []string{"customer_id"}, ReadsPerSecond: p(2.0)})
	}
	return in
}

// overloadedTable is the table of both shapes: PK and SK named only, an overloaded GSI1 and a KEYS_ONLY GSI2,
// with the given segments; the entities give the templates.
func overloadedTable(segments map[string]model.Segment) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: segments,
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "GSI1", PartitionKey: []model.IndexKeyAttribute{{Name: "GSI1PK", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI1SK", Type: "S"}}},
			{Name: "GSI2", PartitionKey: []model.IndexKeyAttribute{{Name: "GSI2PK", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI2SK", Type: "S"}}, ProjectionType: "KEYS_ONLY"},
		},
	}
}

// The findings of the benchmarked single-table designs, whole: a change that makes the rules cheaper must
// leave them as they are. `go test ./internal/policy -run TestEntityDesignFindings -update` rewrites them
// after a change that means to change them.
func TestEntityDesignFindings(t *testing.T) {
	got := map[string][]Finding{}
	for name, in := range map[string]*model.Input{"tenant": tenantDesign(), "customer": customerDesign()} {
		got[name] = builtinFindings(t, in)
	}
	encoded, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("testdata", "entity_design_findings.json")
	if *update {
		if err := os.WriteFile(file, append(encoded, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(encoded)+"\n" {
		t.Errorf("findings differ from %s:\n%s", file, encoded)
	}
}

func BenchmarkEvaluateTenantDesign(b *testing.B) { benchmarkEvaluate(b, tenantDesign()) }

func BenchmarkEvaluateCustomerDesign(b *testing.B) { benchmarkEvaluate(b, customerDesign()) }
