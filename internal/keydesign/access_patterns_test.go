package keydesign

import (
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// patternOrdersDesign is the orders table of the access-patterns guide: orders under their customer, sorted by
// date then id, with a GSI by order id and a GSI by status and date.
func patternOrdersDesign(patterns ...model.AccessPattern) *model.Input {
	return &model.Input{
		Kind:         "keydesign",
		TableName:    "orders",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("CUSTOMER#{customer_id}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("ORDER#{order_date}#{order_id}")},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID},
			"order_date":  {Kind: model.KindTime, Granularity: "day", Monotonic: p(false)},
			"order_id":    {Kind: model.KindID},
			"status":      {Kind: model.KindEnum, Values: []string{"PENDING", "PAID", "SHIPPED"}},
		},
		Traffic: model.Traffic{WritesPerSecond: p(100.0), ItemSizeBytes: p(int64(1024))},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "by_order", PartitionKey: []model.IndexKeyAttribute{{Name: "order_id"}}, ProjectionType: model.ProjectionAll},
			{Name: "by_status", PartitionKey: []model.IndexKeyAttribute{{Name: "status"}}, SortKey: []model.IndexKeyAttribute{{Name: "order_date"}},
				ProjectionType: model.ProjectionInclude, NonKeyAttributes: []string{"total"}},
		},
		AccessPatterns: patterns,
	}
}

func facts(t *testing.T, doc *model.Document, name string) model.PatternFacts {
	t.Helper()
	for _, f := range doc.Derived.AccessPatterns {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no facts for pattern %q in %+v", name, doc.Derived.AccessPatterns)
	return model.PatternFacts{}
}

var (
	orderByID        = model.AccessPattern{Name: "order_by_id", Equals: []string{"order_id"}, ReadsPerSecond: p(300.0)}
	ordersOfCustomer = model.AccessPattern{Name: "orders_of_customer", Equals: []string{"customer_id"},
		Sort: &model.SortCondition{On: "order_date", Condition: model.SortBetween}, ReadsPerSecond: p(200.0), Items: p(int64(25))}
	pendingOrders = model.AccessPattern{Name: "pending_orders", Index: p("by_status"), Equals: []string{"status"},
		Sort: &model.SortCondition{On: "order_date", Condition: model.SortGreaterEqual}, ReadsPerSecond: p(50.0), Items: p(int64(100))}
)

func TestAccessPatternsWellModeled(t *testing.T) {
	doc := analyze(t, patternOrdersDesign(orderByID, ordersOfCustomer, pendingOrders))
	for _, want := range []struct {
		name, index, kind   string
		perQuery, perSecond float64
		share               float64
	}{
		// 1 item of 1 KB, eventual: half a unit.
		{"order_by_id", "by_order", model.IndexKindGSI, 0.5, 150, 0},
		// 25 items of 1 KB = 25 KB, 7 units of 4 KB, halved.
		{"orders_of_customer", model.TableKeyIndex, model.IndexKindTable, 3.5, 700, 0},
		// 100 KB: 25 units, halved; status has 3 values.
		{"pending_orders", "by_status", model.IndexKindGSI, 12.5, 625, 1.0 / 3},
	} {
		f := facts(t, doc, want.name)
		if !f.Serves || !f.SortExpressible || f.Index != want.index || f.IndexKind != want.kind {
			t.Errorf("%s: served by %q (%s) serves=%v sort=%v %q; want %q", want.name, f.Index, f.IndexKind, f.Serves, f.SortExpressible, f.SortReason, want.index)
		}
		if f.QueriesPerCall != 1 || f.Fanout || f.StrongOnGSI || len(f.MissingAttributes) != 0 || f.PagesPerQuery != 1 {
			t.Errorf("%s: %+v; want one Query of one page, nothing missing", want.name, f)
		}
		if f.ReadUnitsPerQuery != want.perQuery || f.ReadUnitsPerSecond != want.perSecond {
			t.Errorf("%s: %v RCU per query, %v RCU/s; want %v, %v", want.name, f.ReadUnitsPerQuery, f.ReadUnitsPerSecond, want.perQuery, want.perSecond)
		}
		if f.HotKeyShare != want.share {
			t.Errorf("%s: hot key share %v, want %v", want.name, f.HotKeyShare, want.share)
		}
	}
	// The table serves orders_of_customer; the GSIs take the others as their read demand.
	if c := doc.Derived.Capacity; c.PeakReadUnits == nil || *c.PeakReadUnits != 700 {
		t.Errorf("table peak reads = %v, want the 700 RCU/s of the pattern it serves", c.PeakReadUnits)
	}
	for _, g := range doc.Table.GSIs {
		want := map[string]float64{"by_order": 150, "by_status": 625}[g.Name]
		if g.PatternReadUnits == nil || *g.PatternReadUnits != want || *g.PeakReadUnits != want {
			t.Errorf("%s: pattern reads %v, peak reads %v; want %v", g.Name, g.PatternReadUnits, g.PeakReadUnits, want)
		}
	}
	if got := doc.AccessPatterns[0]; got.Name != "order_by_id" || got.Items != 1 || got.ItemSizeBytes != 1024 || got.Consistency != "eventual" {
		t.Errorf("first pattern doc = %+v; want sorted by name with defaults applied", got)
	}
}

func TestAccessPatternScanNeeded(t *testing.T) {
	in := patternOrdersDesign(model.AccessPattern{Name: "orders_by_total", Equals: []string{"status"}, ReadsPerSecond: p(5.0)})
	in.GlobalSecondaryIndexes = in.GlobalSecondaryIndexes[:1]
	f := facts(t, analyze(t, in), "orders_by_total")
	if f.Serves {
		t.Fatalf("served by %s; no key has status as its partition key", f.Index)
	}
	want := []model.UnservedKey{{Index: "table", Missing: []string{"customer_id"}}, {Index: "by_order", Missing: []string{"order_id"}}}
	if len(f.Unserved) != 2 || !slices.EqualFunc(f.Unserved, want, func(a, b model.UnservedKey) bool { return a.Index == b.Index && slices.Equal(a.Missing, b.Missing) }) {
		t.Errorf("unserved = %+v, want %+v", f.Unserved, want)
	}
	if !slices.Equal(f.SuggestedIndex.PartitionKey, []string{"status"}) || f.ReadUnitsPerSecond != 0 {
		t.Errorf("suggested %+v, %v RCU/s; want a GSI on status and no read figure for a Scan", f.SuggestedIndex, f.ReadUnitsPerSecond)
	}
}

func TestAccessPatternSortConditions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pattern model.AccessPattern
		ok      bool
		reason  string
	}{
		{"range on the next segment", model.AccessPattern{Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "order_date", Condition: model.SortBetween}}, true, ""},
		{"skips a segment", model.AccessPattern{Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "order_id", Condition: model.SortBetween}}, false, "{order_date} comes before it"},
		{"known after an unknown", model.AccessPattern{Index: p("table"), Equals: []string{"customer_id", "order_id"}}, false, "{order_id} is known but {order_date}"},
		{"prefix then begins_with", model.AccessPattern{Equals: []string{"customer_id", "order_date"}, Sort: &model.SortCondition{On: "order_id", Condition: model.SortBeginsWith}}, true, ""},
		{"pinned GSI sort attribute", model.AccessPattern{Index: p("by_status"), Equals: []string{"status"}, Sort: &model.SortCondition{On: "order_date", Condition: model.SortLess}}, true, ""},
		{"pinned key without the part", model.AccessPattern{Index: p("by_status"), Equals: []string{"status"}, Sort: &model.SortCondition{On: "order_id", Condition: model.SortEqual}}, false, "does not hold order_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.pattern.Name, tc.pattern.ReadsPerSecond = "q", p(10.0)
			f := facts(t, analyze(t, patternOrdersDesign(tc.pattern)), "q")
			if !f.Serves || f.SortExpressible != tc.ok || !strings.Contains(f.SortReason, tc.reason) {
				t.Errorf("serves=%v sort=%v reason %q; want sort=%v with %q", f.Serves, f.SortExpressible, f.SortReason, tc.ok, tc.reason)
			}
		})
	}
}

func TestAccessPatternRangeOnNumberText(t *testing.T) {
	in := patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "seq", Condition: model.SortGreater}, ReadsPerSecond: p(1.0)})
	in.SortKey.Template = p("SEQ#{seq}")
	in.Segments["seq"] = model.Segment{Kind: model.KindNumber}
	f := facts(t, analyze(t, in), "q")
	if f.SortExpressible || !strings.Contains(f.SortReason, "compares it as text") {
		t.Errorf("sort=%v %q; a range on a number in a string key is not a numeric range", f.SortExpressible, f.SortReason)
	}
}

func TestAccessPatternFanout(t *testing.T) {
	in := patternOrdersDesign(ordersOfCustomer,
		model.AccessPattern{Name: "one_order", Equals: []string{"customer_id", "order_id"}, Index: p("table"), ReadsPerSecond: p(100.0)})
	in.PartitionKey.Template = p("CUSTOMER#{customer_id}#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "order_id", Count: p(int64(8))}
	doc := analyze(t, in)
	f := facts(t, doc, "orders_of_customer")
	if !f.Fanout || f.QueriesPerCall != 8 || f.ReadUnitsPerCall != 28 || f.ReadUnitsPerSecond != 5600 || f.SizedBySharding {
		t.Errorf("fan-out = %v, %d queries, %v RCU per call, %v RCU/s; want 8 queries of 3.5 RCU, 5,600 RCU/s", f.Fanout, f.QueriesPerCall, f.ReadUnitsPerCall, f.ReadUnitsPerSecond)
	}
	one := facts(t, doc, "one_order")
	// The sort key's {order_id} is known but {order_date} is not, yet the query computes the shard.
	if one.Fanout || one.QueriesPerCall != 1 || !one.SizedBySharding {
		t.Errorf("one_order: fan-out %v, %d queries; knowing the source it queries one shard", one.Fanout, one.QueriesPerCall)
	}
}

func TestAccessPatternStrongReadAndProjection(t *testing.T) {
	pattern := pendingOrders
	pattern.Consistency = "strong"
	pattern.Attributes = []string{"total", "customer_id", "shipping_address", "status"}
	f := facts(t, analyze(t, patternOrdersDesign(pattern)), "pending_orders")
	if !f.StrongOnGSI {
		t.Error("a strong read on a GSI must be flagged")
	}
	// total is projected, customer_id travels in the table key, status is the index key.
	if !slices.Equal(f.MissingAttributes, []string{"shipping_address"}) || f.Projection != model.ProjectionInclude {
		t.Errorf("missing %v (%s), want [shipping_address]", f.MissingAttributes, f.Projection)
	}
	// 100 items fetched from the table, 1 KB each, strongly consistent: 1 unit each, 50 calls/s.
	if f.FetchReadUnitsPerSecond != 5000 {
		t.Errorf("fetch = %v RCU/s, want 5,000", f.FetchReadUnitsPerSecond)
	}
}

func TestAccessPatternPicksTheKeyThatProjects(t *testing.T) {
	in := patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "created", Condition: model.SortGreater},
		ReadsPerSecond: p(10.0), Attributes: []string{"total"}})
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{
		{Name: "keys_by_created", SortKey: model.IndexKeyAttribute{Name: "created"}, ProjectionType: model.ProjectionKeysOnly},
		{Name: "zz_by_created", SortKey: model.IndexKeyAttribute{Name: "created"}, ProjectionType: model.ProjectionAll},
	}
	if f := facts(t, analyze(t, in), "q"); f.Index != "zz_by_created" || f.IndexKind != model.IndexKindLSI {
		t.Errorf("picked %s (%s), want the LSI that projects total", f.Index, f.IndexKind)
	}
}

func TestAccessPatternHotReadAndPages(t *testing.T) {
	pattern := pendingOrders
	pattern.HotKeyShare, pattern.ReadsPerSecond, pattern.Items = p(1.0), p(1000.0), p(int64(2000))
	f := facts(t, analyze(t, patternOrdersDesign(pattern)), "pending_orders")
	// 2,000 KB: 2 pages of 1 MB; 500 units halved = 250 RCU per call, 250,000 RCU/s all on PENDING.
	if f.BytesPerQuery != 2000*1024 || f.PagesPerQuery != 2 || f.PartitionReadUnits != 250000 || f.SizedBySharding {
		t.Errorf("bytes %d, pages %d, partition reads %v; want 2,048,000 bytes, 2 pages, 250,000 RCU/s", f.BytesPerQuery, f.PagesPerQuery, f.PartitionReadUnits)
	}
}

func TestAccessPatternReadsSizeTheShards(t *testing.T) {
	pattern := model.AccessPattern{Name: "hot_customer", Equals: []string{"customer_id"}, ReadsPerSecond: p(2000.0), Items: p(int64(40)), HotKeyShare: p(1.0)}
	in := patternOrdersDesign(pattern)
	in.PartitionKey.Template = p("CUSTOMER#{customer_id}#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "customer_id"}
	doc := analyze(t, in)
	// 40 KB = 10 units, halved: 5 RCU per call × 2,000 = 10,000 RCU/s on one customer; at 80% of 3,000 that
	// is 5 shards.
	c := doc.Derived.Capacity
	if *c.HotKeyReadUnits != 10000 || doc.Derived.ShardCount != 5 || *c.PeakReadUnits != 10000 {
		t.Errorf("hot key %v RCU, %d shards, peak %v; want 10,000 RCU over 5 shards", *c.HotKeyReadUnits, doc.Derived.ShardCount, *c.PeakReadUnits)
	}
	if f := facts(t, doc, "hot_customer"); f.PartitionReadUnits != 2000 || !f.SizedBySharding {
		t.Errorf("partition reads %v, want 2,000 on each of 5 shards", f.PartitionReadUnits)
	}
}

func TestAccessPatternBadInput(t *testing.T) {
	numberSort := patternOrdersDesign(model.AccessPattern{Name: "by_seq", Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "seq", Condition: model.SortBeginsWith}, ReadsPerSecond: p(1.0)})
	numberSort.SortKey = &model.Key{Name: "seq", Type: "N"}
	noSortKey := patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "order_date", Condition: model.SortBetween}, ReadsPerSecond: p(1.0)})
	noSortKey.SortKey = nil
	noSortKey.GlobalSecondaryIndexes = noSortKey.GlobalSecondaryIndexes[:1]
	for _, tc := range []struct {
		name string
		in   *model.Input
		path string
		msg  string
	}{
		{"unknown index", patternOrdersDesign(model.AccessPattern{Name: "q", Index: p("by_day"), Equals: []string{"order_id"}, ReadsPerSecond: p(1.0)}), "access_patterns.q.index", `"by_order", "by_status", "table"`},
		{"unknown segment", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"region"}, ReadsPerSecond: p(1.0)}), "access_patterns.q.equals[0]", `"region" is neither`},
		{"unknown sort part", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"customer_id"}, Sort: &model.SortCondition{On: "created", Condition: model.SortLess}, ReadsPerSecond: p(1.0)}), "access_patterns.q.sort.on", `"created"`},
		{"sort on a key without sort key", patternOrdersDesign(model.AccessPattern{Name: "q", Index: p("by_order"), Equals: []string{"order_id"}, Sort: &model.SortCondition{On: "order_date", Condition: model.SortLess}, ReadsPerSecond: p(1.0)}), "access_patterns.q.sort", `index "by_order" has no sort key`},
		{"sort without any sort key", noSortKey, "access_patterns.q.sort", "neither the table nor an index"},
		{"begins_with on a number", numberSort, "access_patterns.by_seq.sort.condition", "begins_with works on string and binary keys only"},
		{"zero rate", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"order_id"}, ReadsPerSecond: p(0.0)}), "access_patterns.q.reads_per_second", "above 0"},
		{"negative rate", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"order_id"}, ReadsPerSecond: p(-3.0)}), "access_patterns.q.reads_per_second", "above 0"},
		{"zero items", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"order_id"}, ReadsPerSecond: p(1.0), Items: p(int64(0))}), "access_patterns.q.items", "between 1 and"},
		{"sort also known", patternOrdersDesign(model.AccessPattern{Name: "q", Equals: []string{"customer_id", "order_date"}, Sort: &model.SortCondition{On: "order_date", Condition: model.SortLess}, ReadsPerSecond: p(1.0)}), "access_patterns.q.sort.on", "also in equals"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := Analyze(tc.in)
			if len(errs) != 1 || errs[0].Path.String() != tc.path || !strings.Contains(errs[0].Message, tc.msg) {
				t.Errorf("errors = %v; want one at %s containing %q", errs, tc.path, tc.msg)
			}
		})
	}
}

func TestAccessPatternUnknownValuesAreNotErrors(t *testing.T) {
	unknownRate := model.AccessPattern{Name: "later", Equals: []string{"order_id"}}
	in := patternOrdersDesign(orderByID, unknownRate)
	in.Unknown = []model.Path{{"access_patterns", "later", "reads_per_second"}}
	doc := analyze(t, in)
	if len(doc.Derived.AccessPatterns) != 1 || doc.Derived.AccessPatterns[0].Name != "order_by_id" {
		t.Errorf("analysed %+v; want only the known pattern", doc.Derived.AccessPatterns)
	}
	if !slices.Contains(doc.Unknown, "derived.access_patterns") || !slices.Contains(doc.Unknown, "derived.capacity") {
		t.Errorf("unknown = %v; the pattern facts and the capacity they feed are incomplete", doc.Unknown)
	}
	// An unknown index map: names cannot be checked, nothing is analysed, no error.
	in = patternOrdersDesign(model.AccessPattern{Name: "q", Index: p("by_later"), Equals: []string{"later_attr"}, ReadsPerSecond: p(1.0)})
	in.Unknown = []model.Path{{"global_secondary_indexes"}}
	if doc := analyze(t, in); len(doc.Derived.AccessPatterns) != 0 {
		t.Errorf("analysed %+v against unknown indexes", doc.Derived.AccessPatterns)
	}
}

func TestNoAccessPatternsLeaveTheDesignAsItWas(t *testing.T) {
	doc := analyze(t, dailyEventLog())
	if len(doc.AccessPatterns) != 0 || doc.Derived.AccessPatterns == nil || slices.Contains(doc.Unknown, "derived.access_patterns") {
		t.Errorf("patterns %v, facts %v, unknown %v; want empty lists and nothing unknown", doc.AccessPatterns, doc.Derived.AccessPatterns, doc.Unknown)
	}
	if *doc.Derived.Capacity.PeakReadUnits != 200 {
		t.Errorf("peak reads %v, want the declared 200", *doc.Derived.Capacity.PeakReadUnits)
	}
}
