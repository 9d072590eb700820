package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// entityFindings evaluates a single-table design with the built-in rules and returns its findings by rule.
func entityFindings(t *testing.T, in *keydesign.Input) map[string][]Finding {
	t.Helper()
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, in))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]Finding{}
	for _, f := range findings {
		out[f.Rule] = append(out[f.Rule], f)
	}
	return out
}

func dayTable(entities ...keydesign.Entity) *keydesign.Input {
	return &keydesign.Input{Kind: "keydesign",
		PartitionKey: keydesign.Key{Name: "PK", Type: "S"}, SortKey: &keydesign.Key{Name: "SK", Type: "S"},
		Segments: map[string]keydesign.Segment{
			"day": {Kind: keydesign.KindTime, Granularity: "day"}, "event_id": {Kind: keydesign.KindID}, "user_id": {Kind: keydesign.KindID},
		},
		LocalSecondaryIndexes: []keydesign.LocalSecondaryIndex{{Name: "by_user", SortKey: keydesign.IndexKeyAttribute{Name: "LSI1SK", Type: "S"}, ProjectionType: "ALL"}},
		Entities:              entities,
	}
}

// Two entities of one day bucket are each within a partition, together not: the hot-key rules read the
// collection, name its entities and point at the busiest entity's template.
func TestEntityCollectionFeedsTheHotKeyRules(t *testing.T) {
	t.Parallel()
	got := entityFindings(t, dayTable(
		keydesign.Entity{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"},
			Traffic: keydesign.EntityTraffic{WritesPerSecond: p(600.0), MaxItemsPerPartitionKey: p(int64(1000))}},
		keydesign.Entity{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}", "LSI1SK": "USER#{user_id}"},
			Traffic: keydesign.EntityTraffic{WritesPerSecond: p(700.0), MaxItemsPerPartitionKey: p(int64(1000))}},
	))
	for _, id := range []string{"DK301", "DK303", "DK204"} {
		if len(got[id]) == 0 {
			t.Fatalf("no %s: %v", id, got)
		}
		f := got[id][0]
		if !strings.Contains(f.Message, "entities click, view share this partition-key value") {
			t.Errorf("%s does not name the collection's entities: %s", id, f.Message)
		}
	}
	if f := got["DK303"][0]; f.Path.String() != "entities.view.keys.PK" || !strings.Contains(f.Message, "1,300 WCU") {
		t.Errorf("DK303 = %s on %s; want 600 + 700 WCU on view's partition-key template", f.Message, f.Path)
	}
	if len(got["DK109"]) != 0 {
		t.Errorf("CLICK# and VIEW# cannot collide: %v", got["DK109"])
	}
}

// The LSI limit counts every entity of a collection, and only the LSI entries of the entities it holds.
func TestEntityCollectionFeedsTheLSILimit(t *testing.T) {
	t.Parallel()
	got := entityFindings(t, dayTable(
		keydesign.Entity{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"},
			Traffic: keydesign.EntityTraffic{WritesPerSecond: p(1.0), ItemSizeBytes: p(int64(400000)), MaxItemsPerPartitionKey: p(int64(20000))}},
		keydesign.Entity{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}", "LSI1SK": "USER#{user_id}"},
			Traffic: keydesign.EntityTraffic{WritesPerSecond: p(1.0), ItemSizeBytes: p(int64(400000)), MaxItemsPerPartitionKey: p(int64(10000))}},
	))
	// 20,000 × 400,000 B + 10,000 × (400,000 + 400,100 B) = 16 GB: over the 10 GB limit.
	if len(got["DK203"]) == 0 {
		t.Fatalf("no DK203: %v", got)
	}
	f := got["DK203"][0]
	if f.Severity != SeverityError || !strings.Contains(f.Message, "(of entities click, view)") || !strings.Contains(f.Message, "30,000 items") ||
		f.Path.String() != "entities.click.traffic.max_items_per_partition_key" {
		t.Errorf("DK203 = %s %s on %s", f.Severity, f.Message, f.Path)
	}
}

// BenchmarkEvaluateEntities is a single table of 10 entities under two partition-key shapes (a customer's
// collection and a day's), with an overloaded GSI, an LSI and 20 access patterns on the entities: the whole
// analysis and every rule.
func BenchmarkEvaluateEntities(b *testing.B) {
	in := &keydesign.Input{Kind: "keydesign",
		PartitionKey: keydesign.Key{Name: "PK", Type: "S"}, SortKey: &keydesign.Key{Name: "SK", Type: "S"},
		Segments: map[string]keydesign.Segment{
			"customer_id": {Kind: keydesign.KindID, Characters: p("0-9A-Z")}, "id": {Kind: keydesign.KindID},
			"day": {Kind: keydesign.KindTime, Granularity: "day"}, "email": {Kind: keydesign.KindID},
		},
		LocalSecondaryIndexes: []keydesign.LocalSecondaryIndex{{Name: "by_created", SortKey: keydesign.IndexKeyAttribute{Name: "LSI1SK", Type: "S"}, ProjectionType: "KEYS_ONLY"}},
		GlobalSecondaryIndexes: []keydesign.GlobalSecondaryIndex{{Name: "GSI1", ProjectionType: "ALL",
			PartitionKey: []keydesign.IndexKeyAttribute{{Name: "GSI1PK", Type: "S"}}, SortKey: []keydesign.IndexKeyAttribute{{Name: "GSI1SK", Type: "S"}}}},
	}
	for i := range 10 {
		pk := "CUSTOMER#{customer_id}"
		if i%2 == 1 {
			pk = "DAY#{day}"
		}
		keys := map[string]string{"PK": pk, "SK": fmt.Sprintf("KIND%02d#{id}", i), "LSI1SK": "AT#{day}"}
		if i%3 == 0 {
			keys["GSI1PK"], keys["GSI1SK"] = fmt.Sprintf("KIND%02d#{email}", i), "X"
		}
		in.Entities = append(in.Entities, keydesign.Entity{Name: fmt.Sprintf("entity_%02d", i), Keys: keys,
			Traffic: keydesign.EntityTraffic{WritesPerSecond: p(float64(50 * (i + 1))), ItemSizeBytes: p(int64(300 * (i + 1))), MaxItemsPerPartitionKey: p(int64(100))}})
	}
	for i := range 20 {
		e := in.Entities[i%10]
		ap := keydesign.AccessPattern{Name: fmt.Sprintf("pattern_%02d", i), Entities: []string{e.Name}, ReadsPerSecond: p(float64(10 * (i + 1)))}
		switch {
		case i%4 == 3 && e.Keys["GSI1PK"] != "":
			ap.Index, ap.Equals = p("GSI1"), []string{"email"}
		case e.Keys["PK"] == "DAY#{day}":
			ap.Equals = []string{"day"}
		default:
			ap.Equals = []string{"customer_id"}
		}
		in.AccessPatterns = append(in.AccessPatterns, ap)
	}
	benchmarkEvaluate(b, in)
}
