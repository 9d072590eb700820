package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// entityFindings evaluates a single-table design with the built-in rules and returns its findings by rule.
func entityFindings(t *testing.T, in *model.Input) map[string][]Finding {
	t.Helper()
	out := map[string][]Finding{}
	for _, f := range builtinFindings(t, in) {
		out[f.Rule] = append(out[f.Rule], f)
	}
	return out
}

// builtinFindings analyses a design and evaluates the built-in rules on it.
func builtinFindings(t *testing.T, in *model.Input) []Finding {
	t.Helper()
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, in))
	if err != nil {
		t.Fatal(err)
	}
	return findings
}

func dayTable(entities ...model.Entity) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"day": {Kind: model.KindTime, Granularity: "day"}, "event_id": {Kind: model.KindID}, "user_id": {Kind: model.KindID},
		},
		LocalSecondaryIndexes: []model.LocalSecondaryIndex{{Name: "by_user", SortKey: model.IndexKeyAttribute{Name: "LSI1SK", Type: "S"}, ProjectionType: "ALL"}},
		Entities:              entities,
	}
}

// Two entities of one day bucket are each within a partition, together not: the hot-key rules read the
// collection, name its entities and point at the busiest entity's template.
func TestEntityCollectionFeedsTheHotKeyRules(t *testing.T) {
	t.Parallel()
	got := entityFindings(t, dayTable(
		model.Entity{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(600.0), MaxItemsPerPartitionKey: p(int64(1000))}},
		model.Entity{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}", "LSI1SK": "USER#{user_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(700.0), MaxItemsPerPartitionKey: p(int64(1000))}},
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
		model.Entity{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(1.0), ItemSizeBytes: p(int64(400000)), MaxItemsPerPartitionKey: p(int64(20000))}},
		model.Entity{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}", "LSI1SK": "USER#{user_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(1.0), ItemSizeBytes: p(int64(400000)), MaxItemsPerPartitionKey: p(int64(10000))}},
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
	in := &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID, Characters: p("0-9A-Z")}, "id": {Kind: model.KindID},
			"day": {Kind: model.KindTime, Granularity: "day"}, "email": {Kind: model.KindID},
		},
		LocalSecondaryIndexes: []model.LocalSecondaryIndex{{Name: "by_created", SortKey: model.IndexKeyAttribute{Name: "LSI1SK", Type: "S"}, ProjectionType: "KEYS_ONLY"}},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{Name: "GSI1", ProjectionType: "ALL",
			PartitionKey: []model.IndexKeyAttribute{{Name: "GSI1PK", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI1SK", Type: "S"}}}},
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
		in.Entities = append(in.Entities, model.Entity{Name: fmt.Sprintf("entity_%02d", i), Keys: keys,
			Traffic: model.EntityTraffic{WritesPerSecond: p(float64(50 * (i + 1))), ItemSizeBytes: p(int64(300 * (i + 1))), MaxItemsPerPartitionKey: p(int64(100))}})
	}
	for i := range 20 {
		e := in.Entities[i%10]
		ap := model.AccessPattern{Name: fmt.Sprintf("pattern_%02d", i), Entities: []string{e.Name}, ReadsPerSecond: p(float64(10 * (i + 1)))}
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

// findingsAt lists the findings of one rule as "severity path" strings, sorted.
func findingsAt(got map[string][]Finding, rule string) []string {
	var out []string
	for _, f := range got[rule] {
		out = append(out, f.Severity+" "+f.Path.String())
	}
	slices.Sort(out)
	return out
}

func singleTable(gsis []model.GlobalSecondaryIndex, entities ...model.Entity) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"day": {Kind: model.KindTime, Granularity: "day"}, "event_id": {Kind: model.KindID}, "user_id": {Kind: model.KindID},
			"task_id": {Kind: model.KindID}, "email": {Kind: model.KindID, MaxLength: p(int64(254))},
			"status":       {Kind: model.KindEnum, Values: []string{"open", "doing", "done"}},
			"order_status": {Kind: model.KindEnum, Values: []string{"new", "paid", "shipped", "returned"}},
			"order_id":     {Kind: model.KindID},
		},
		GlobalSecondaryIndexes: gsis,
		Entities:               entities,
	}
}

// Each entity's partition key gets the key rules: a day bucket (DK301 on event) and a three-valued status
// (DK302 on task), each pointing at that entity's own template, whichever entity is the busiest.
func TestEveryEntityGetsTheKeyRules(t *testing.T) {
	t.Parallel()
	got := entityFindings(t, singleTable(nil,
		model.Entity{Name: "event", Keys: map[string]string{"PK": "DAY#{day}", "SK": "EVENT#{event_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(600.0)}},
		model.Entity{Name: "task", Keys: map[string]string{"PK": "STATUS#{status}", "SK": "TASK#{task_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(1500.0)}},
	))
	if want := []string{"warning entities.event.keys.PK"}; !slices.Equal(findingsAt(got, "DK301"), want) {
		t.Errorf("DK301 %v, want %v", findingsAt(got, "DK301"), want)
	}
	if want := []string{"warning entities.task.keys.PK"}; !slices.Equal(findingsAt(got, "DK302"), want) {
		t.Errorf("DK302 %v, want %v", findingsAt(got, "DK302"), want)
	}
	if f := got["DK302"][0]; !strings.Contains(f.Message, "the partition key (entity task) has only 3 distinct value(s)") {
		t.Errorf("DK302 message %q", f.Message)
	}
	// 1,500 writes over 3 statuses is 500 WCU a value, 600 on the day: neither over a partition.
	if len(got["DK303"]) != 0 {
		t.Errorf("DK303 %v", got["DK303"])
	}
}

// An overloaded GSI holds every entity that writes its key: user's EMAIL#{email} spreads, click's
// DAY#{day} sends its 2,000 writes a second to one index partition, which throttles the table (DK501).
func TestOverloadedIndexHeatComesFromEachEntity(t *testing.T) {
	t.Parallel()
	in := singleTable([]model.GlobalSecondaryIndex{{Name: "GSI1",
		PartitionKey: []model.IndexKeyAttribute{{Name: "GSI1PK"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI1SK"}}, ProjectionType: "KEYS_ONLY"}},
		model.Entity{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE", "GSI1PK": "EMAIL#{email}", "GSI1SK": "USER"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(50.0)}},
		model.Entity{Name: "click", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "CLICK#{event_id}", "GSI1PK": "DAY#{day}", "GSI1SK": "{event_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(2000.0), ItemSizeBytes: p(int64(300))}},
	)
	doc := analyzed(t, in)
	g := doc.Table.GSIs[0]
	if !g.TimeBucketed || g.PartitionKeyCardinality != nil || g.HotPartitionWriteUnits == nil || *g.HotPartitionWriteUnits != 2000 {
		t.Errorf("GSI1 time_bucketed %v, cardinality %v, hot partition %v; want true, null, 2,000 WCU",
			g.TimeBucketed, g.PartitionKeyCardinality, g.HotPartitionWriteUnits)
	}
	if want := []string{"click"}; !slices.Equal(g.HotEntities, want) {
		t.Errorf("GSI1 hot entities %v, want %v", g.HotEntities, want)
	}
	got := entityFindings(t, in)
	if want := []string{"error global_secondary_indexes.GSI1.partition_key"}; !slices.Equal(findingsAt(got, "DK501"), want) {
		t.Errorf("DK501 %v, want %v", findingsAt(got, "DK501"), want)
	}
	// The finding names the entity whose key makes the partition hot, not user, whose key spreads.
	want := `GSI "GSI1" sends 2,000 WCU to its busiest partition (a partition serves 1,000), written by entity "click" as DAY#{day}; ` +
		"its throttling would throttle writes to the table"
	if f := got["DK501"][0]; f.Message != want {
		t.Errorf("DK501 message\n got %s\nwant %s", f.Message, want)
	}
}

// Under the over-limit figure, a time-bucketed entity key is a warning that names that entity.
func TestIndexHotKeyWarningNamesItsEntity(t *testing.T) {
	t.Parallel()
	got := entityFindings(t, singleTable([]model.GlobalSecondaryIndex{{Name: "GSI1",
		PartitionKey: []model.IndexKeyAttribute{{Name: "GSI1PK"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI1SK"}}, ProjectionType: "KEYS_ONLY"}},
		model.Entity{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE", "GSI1PK": "EMAIL#{email}", "GSI1SK": "USER"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(50.0)}},
		model.Entity{Name: "click", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "CLICK#{event_id}", "GSI1PK": "DAY#{day}", "GSI1SK": "{event_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(200.0), ItemSizeBytes: p(int64(300))}},
	))
	want := []string{`GSI "GSI1" has a time-bucketed partition key under 250 WCU of index writes, written by entity "click" as DAY#{day}: ` +
		"its hot partitions can throttle writes to the table"}
	var msgs []string
	for _, f := range got["DK501"] {
		msgs = append(msgs, f.Message)
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("DK501\n got %q\nwant %q", msgs, want)
	}
}

// A pattern on orders that also returns each order's lines (their sort keys nest under the order's) is
// bounded by the lines one order can hold: a four-digit line number is 10,000 a returned order.
func TestNestedEntityOverlapIsBoundedPerReturnedItem(t *testing.T) {
	t.Parallel()
	in := singleTable(nil,
		model.Entity{Name: "order", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "ORDER#{order_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(10.0), ItemSizeBytes: p(int64(800))}},
		model.Entity{Name: "line", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "ORDER#{order_id}#LINE#{line}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(40.0), ItemSizeBytes: p(int64(400))}},
	)
	in.Segments["line"] = model.Segment{Kind: model.KindNumber, MaxLength: p(int64(4))}
	in.AccessPatterns = []model.AccessPattern{{Name: "orders_of_user", Entities: []string{"order"}, Equals: []string{"user_id"},
		Sort: &model.SortCondition{On: "order_id", Condition: model.SortBeginsWith}, Items: p(int64(5)), ReadsPerSecond: p(2.0)}}
	doc := analyzed(t, in)
	overlaps := doc.Derived.AccessPatterns[0].EntityOverlaps
	if len(overlaps) != 1 || model.Deref(overlaps[0].ExtraItemsPerItem) != 10000 || model.Deref(overlaps[0].ExtraItems) != 50000 {
		t.Fatalf("overlaps %+v; want line, 10,000 per order, 50,000 for 5 orders", overlaps)
	}
	got := entityFindings(t, in)
	want := []string{`pattern "orders_of_user"'s Query also returns the items of entity "line", which share its item collection and meet ` +
		"its key condition: up to 50,000 extra items (at most 10,000 under each item the pattern returns) and 2,441.5 RCU per call, " +
		"4,883 RCU per second at the pattern's rate"}
	var msgs []string
	for _, f := range got["DK110"] {
		msgs = append(msgs, f.Message)
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("DK110\n got %q\nwant %q", msgs, want)
	}
}

// A sparse index's demand and its cost count only the entities that write its key, in their own units; a
// four-valued status key is a low-cardinality index partition key.
func TestSparseIndexFiguresAgree(t *testing.T) {
	t.Parallel()
	in := singleTable([]model.GlobalSecondaryIndex{{Name: "by_status",
		PartitionKey: []model.IndexKeyAttribute{{Name: "GSI2PK"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI2SK"}}}},
		model.Entity{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(40.0)}},
		model.Entity{Name: "order", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "ORDER#{order_id}",
			"GSI2PK": "STATUS#{order_status}", "GSI2SK": "{order_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(300.0), ItemSizeBytes: p(int64(1500))}},
	)
	doc := analyzed(t, in)
	g := doc.Table.GSIs[0]
	if g.PeakWriteUnits == nil || *g.PeakWriteUnits != 600 || g.PartitionKeyCardinality == nil || *g.PartitionKeyCardinality != 4 ||
		g.HotPartitionWriteUnits == nil || *g.HotPartitionWriteUnits != 150 {
		t.Errorf("by_status peak %v, cardinality %v, hot partition %v; want 600 WCU (300/s × 2), 4 values, 150 WCU",
			g.PeakWriteUnits, g.PartitionKeyCardinality, g.HotPartitionWriteUnits)
	}
	var indexWrites float64
	for _, ic := range doc.Derived.Cost.Indexes {
		if ic.Name == "by_status" {
			indexWrites = ic.WriteUnitsPerWrite * ic.ItemShare * ptrOr(doc.Traffic.WritesPerSecond)
		}
	}
	if indexWrites != 600 {
		t.Errorf("the cost model prices %v write units a second in by_status; the index's peak says 600", indexWrites)
	}
	got := entityFindings(t, in)
	if want := []string{"warning global_secondary_indexes.by_status.partition_key"}; !slices.Equal(findingsAt(got, "DK501"), want) {
		t.Errorf("DK501 %v, want %v (%v)", findingsAt(got, "DK501"), want, got)
	}
}

func ptrOr(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// A sort key without placeholders is one item per partition-key value, and one of bounded segments at most
// the product of their values: the LSI limit reads these bounds before asking for
// max_items_per_partition_key.
func TestSortKeyTemplatesBoundTheCollection(t *testing.T) {
	t.Parallel()
	in := singleTable(nil,
		model.Entity{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "META", "LSI1SK": "{email}"}},
		model.Entity{Name: "state", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "STATE#{status}"}},
	)
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{{Name: "by_email", SortKey: model.IndexKeyAttribute{Name: "LSI1SK"}, ProjectionType: "ALL"}}
	doc := analyzed(t, in)
	c := doc.Derived.Collection
	if c.Basis != model.CollectionTemplate || c.ItemsPerKey == nil || *c.ItemsPerKey != 4 {
		t.Errorf("collection %+v; want 4 items (1 META + 3 states)", c)
	}
	items := map[string]string{}
	for _, e := range doc.Derived.Entities.Items {
		items[e.Name] = fmt.Sprint(*e.ItemsPerKey, " ", e.ItemsBasis)
	}
	if items["user"] != "1 template" || items["state"] != "3 template" {
		t.Errorf("items per key %v", items)
	}
	if got := entityFindings(t, in); len(got["DK203"]) != 0 {
		t.Errorf("DK203 %v", got["DK203"])
	}
}

// A pattern that names no entity knows only the key attributes it lists: no entity's templates are lent to
// the table's key, so it is a Scan, and DK801 says to name the entities it reads; naming one serves it.
func TestPatternNamingNoEntityIsNotMatchedWithAnEntitysTemplates(t *testing.T) {
	t.Parallel()
	design := func(entities ...string) *model.Input {
		in := dayTable(
			model.Entity{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"},
				Traffic: model.EntityTraffic{WritesPerSecond: p(60.0), MaxItemsPerPartitionKey: p(int64(1000))}},
			model.Entity{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE"},
				Traffic: model.EntityTraffic{WritesPerSecond: p(10.0)}},
		)
		in.AccessPatterns = []model.AccessPattern{{Name: "clicks_of_day", Equals: []string{"day"}, ReadsPerSecond: p(5.0), Entities: entities}}
		return in
	}
	got := entityFindings(t, design())
	if len(got["DK801"]) != 1 || !strings.Contains(got["DK801"][0].Message, "name the entities it reads") {
		t.Errorf("DK801 %v, want one that says to name the entities", got["DK801"])
	}
	if got := entityFindings(t, design("click")); len(got["DK801"]) != 0 {
		t.Errorf("the pattern on click is served by its DAY#{day} key, yet DK801 %v", got["DK801"])
	}
}
