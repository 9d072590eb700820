package keydesign

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

func p[T any](v T) *T { return &v }

// dailyEventLog is the partition-key guidance's classic hot design: every event of a day under one key.
func dailyEventLog() *model.Input {
	return &model.Input{
		Kind:         "keydesign",
		TableName:    "events",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("DAY#{day}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("EVENT#{event_id}")},
		Segments: map[string]model.Segment{
			"day":      {Kind: model.KindTime, Granularity: "day"},
			"event_id": {Kind: model.KindID},
		},
		Traffic: model.Traffic{WritesPerSecond: p(2500.0), ReadsPerSecond: p(400.0), ItemSizeBytes: p(int64(800))},
	}
}

func analyze(t *testing.T, in *model.Input) *model.Document {
	t.Helper()
	doc, errs := Analyze(in)
	if len(errs) > 0 {
		t.Fatalf("Analyze: %v", errs)
	}
	return doc
}

func TestAnalyzeDailyEventLogUnsharded(t *testing.T) {
	doc := analyze(t, dailyEventLog())
	c := doc.Derived.Capacity
	if c.WriteUnitsPerWrite != 1 || c.ReadUnitsPerRead != 0.5 {
		t.Errorf("units per request = %v WCU, %v RCU; want 1, 0.5", c.WriteUnitsPerWrite, c.ReadUnitsPerRead)
	}
	if c.HotKeyShare != 1 || c.HotKeyShareSource != "time_bucket" {
		t.Errorf("hot key share = %v (%s); a lone time bucket takes every current write", c.HotKeyShare, c.HotKeyShareSource)
	}
	if *c.HotKeyWriteUnits != 2500 || *c.HotKeyReadUnits != 200 {
		t.Errorf("hot key demand = %v WCU, %v RCU; want 2500, 200", *c.HotKeyWriteUnits, *c.HotKeyReadUnits)
	}
	if doc.Derived.RequiredShards != 4 || doc.Derived.ShardCount != 1 {
		t.Errorf("required %d shards, using %d; want 4 required, 1 used (no sharding)", doc.Derived.RequiredShards, doc.Derived.ShardCount)
	}
	if *c.PerShardWriteUnits != 2500 {
		t.Errorf("per-shard writes = %v, want 2500", *c.PerShardWriteUnits)
	}
	if !doc.Derived.HasTimeBucket || doc.Derived.PartitionKey.HasShard {
		t.Error("the daily key has a time bucket and no shard")
	}
	if got := *doc.Derived.PartitionKeyMaxBytes; got != int64(len("DAY#2026-11-30")) {
		t.Errorf("partition key max bytes = %d, want %d", got, len("DAY#2026-11-30"))
	}
	// 2,500 writes/s into one day bucket: 216,000,000 items per key.
	if doc.Derived.Collection.Basis != "time_bucket" || *doc.Derived.Collection.ItemsPerKey != 2500*86400 {
		t.Errorf("collection estimate = %+v", doc.Derived.Collection)
	}
}

func TestAnalyzeCalculatedShardingComputesCount(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id"}
	doc := analyze(t, in)
	d := doc.Derived
	if d.ShardCount != 4 || d.ShardWidth != 1 {
		t.Fatalf("shard count %d width %d; want 4, 1", d.ShardCount, d.ShardWidth)
	}
	if *d.Capacity.PerShardWriteUnits != 625 || d.Capacity.ReadFanout != 4 {
		t.Errorf("per shard %v WCU, fan-out %d; want 625, 4", *d.Capacity.PerShardWriteUnits, d.Capacity.ReadFanout)
	}
	if d.Routing != (model.Routing{Algorithm: model.RoutingAlgorithm, Count: 4, Width: 1, Source: "event_id", SchemeVersion: 1}) {
		t.Errorf("routing = %+v", d.Routing)
	}
	if got := *d.PartitionKey.MaxBytes; got != int64(len("DAY#2026-11-30#SHARD#3")) {
		t.Errorf("max bytes = %d", got)
	}
	if !d.PartitionKey.HasShard || d.PartitionKey.Cardinality != nil {
		t.Errorf("sharded key facts = %+v", d.PartitionKey)
	}
}

func TestAnalyzeExplicitCountAndWidth(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(16)), SchemeVersion: p(int64(2))}
	d := analyze(t, in).Derived
	if d.ShardCount != 16 || d.ShardWidth != 2 || d.RequiredShards != 4 || d.Routing.SchemeVersion != 2 {
		t.Errorf("derived = count %d width %d required %d scheme %d", d.ShardCount, d.ShardWidth, d.RequiredShards, d.Routing.SchemeVersion)
	}
	if *d.Capacity.PerShardWriteUnits != 2500.0/16 {
		t.Errorf("per shard = %v", *d.Capacity.PerShardWriteUnits)
	}
}

func TestHotKeyShare(t *testing.T) {
	tests := []struct {
		name     string
		template string
		segments map[string]model.Segment
		given    *float64
		want     float64
	}{
		{"literal-only key takes everything", "CONFIG", nil, nil, 1},
		{"unbounded id is uniform", "CUSTOMER#{customer_id}", map[string]model.Segment{"customer_id": {Kind: model.KindID}}, nil, 0},
		{"enum of 4 statuses", "STATUS#{status}", map[string]model.Segment{"status": {Kind: model.KindEnum, Values: []string{"a", "b", "c", "d"}}}, nil, 0.25},
		{"time bucket with 10 regions", "{region}#{hour}", map[string]model.Segment{
			"region": {Kind: model.KindEnum, Values: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
			"hour":   {Kind: model.KindTime, Granularity: "hour"}}, nil, 0.1},
		{"explicit cardinality", "T#{tenant}", map[string]model.Segment{"tenant": {Kind: model.KindID, Cardinality: p(int64(50))}}, nil, 0.02},
		{"given share overrides", "CUSTOMER#{customer_id}", map[string]model.Segment{"customer_id": {Kind: model.KindID}}, p(0.9), 0.9},
		{"shard does not count", "DAY#{day}#{shard}", map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"}}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &model.Input{PartitionKey: model.Key{Name: "pk", Template: p(tt.template)}, Segments: tt.segments,
				Traffic: model.Traffic{HotKeyShare: tt.given, WritesPerSecond: p(100.0)}}
			doc := analyze(t, in)
			if got := doc.Derived.Capacity.HotKeyShare; got != tt.want {
				t.Errorf("hot key share = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAnalyzeBadInputNamesTheAttribute(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*model.Input)
		path   string
		says   string
	}{
		{"malformed template", func(in *model.Input) { in.PartitionKey.Template = p("DAY#{day") }, "partition_key.template", "never closed"},
		{"bad placeholder name", func(in *model.Input) { in.SortKey.Template = p("E#{EventId}") }, "sort_key.template", "[a-z][a-z0-9_]*"},
		{"negative writes", func(in *model.Input) { in.Traffic.WritesPerSecond = p(-1.0) }, "traffic.writes_per_second", "≥ 0"},
		{"utilisation above 1", func(in *model.Input) { in.TargetUtilization = p(1.5) }, "target_utilization", "(0, 1]"},
		{"utilisation zero", func(in *model.Input) { in.TargetUtilization = p(0.0) }, "target_utilization", "(0, 1]"},
		{"unknown kind", func(in *model.Input) { in.Segments["event_id"] = model.Segment{Kind: "uuid"} }, "segments.event_id.kind", "unknown segment kind"},
		{"unknown granularity", func(in *model.Input) {
			in.Segments["day"] = model.Segment{Kind: model.KindTime, Granularity: "fortnight"}
		}, "segments.day.granularity", "fortnight"},
		{"time without granularity", func(in *model.Input) { in.Segments["day"] = model.Segment{Kind: model.KindTime} }, "segments.day.granularity", "needs a granularity"},
		{"enum without values", func(in *model.Input) { in.Segments["day"] = model.Segment{Kind: model.KindEnum} }, "segments.day.values", "at least one value"},
		{"unknown consistency", func(in *model.Input) { in.Traffic.ReadConsistency = "linear" }, "traffic.read_consistency", "linear"},
		{"share above 1", func(in *model.Input) { in.Traffic.HotKeyShare = p(2.0) }, "traffic.hot_key_share", "between 0 and 1"},
		{"item too large", func(in *model.Input) { in.Traffic.ItemSizeBytes = p(int64(500 * 1024)) }, "traffic.item_size_bytes", "item size limit"},
		{"zero shards", func(in *model.Input) { in.Sharding.Count = p(int64(0)) }, "sharding.count", "between 1"},
		{"unknown strategy", func(in *model.Input) { in.Sharding.Strategy = "hash" }, "sharding.strategy", "hash"},
		{"reserved shard segment", func(in *model.Input) { in.Segments["shard"] = model.Segment{Kind: model.KindID} }, "segments.shard", "reserved"},
		{"include without attributes", func(in *model.Input) {
			in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{{Name: "by.x", ProjectionType: model.ProjectionInclude}}
		}, "global_secondary_indexes.by.x.non_key_attributes", "at least one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := dailyEventLog()
			tt.mutate(in)
			doc, errs := Analyze(in)
			if doc != nil || len(errs) == 0 {
				t.Fatal("want an error")
			}
			for _, e := range errs {
				if e.Path.String() == tt.path && strings.Contains(e.Message, tt.says) {
					return
				}
			}
			t.Errorf("errors %v do not name %s with %q", errs, tt.path, tt.says)
		})
	}
}

func TestUnknownTrafficMarksDerivedCapacityUnknown(t *testing.T) {
	in := dailyEventLog()
	in.Traffic.WritesPerSecond = nil
	in.Unknown = []model.Path{{"traffic", "writes_per_second"}}
	doc := analyze(t, in)
	if doc.Derived.Capacity.PeakWriteUnits != nil {
		t.Error("peak writes must be null when writes are unknown")
	}
	joined := strings.Join(doc.Unknown, ",")
	for _, want := range []string{"traffic.writes_per_second", "derived.capacity", "derived.shard_count"} {
		if !strings.Contains(joined, want) {
			t.Errorf("unknown = %v, missing %s", doc.Unknown, want)
		}
	}
}

func TestUndeclaredPlaceholderIsAFactNotAnError(t *testing.T) {
	in := dailyEventLog()
	in.SortKey.Template = p("EVENT#{event_id}#{ts}")
	doc := analyze(t, in)
	if len(doc.Derived.UndeclaredPlaceholders) != 1 || doc.Derived.UndeclaredPlaceholders[0] != (model.PlaceholderRef{Key: "sort_key", Placeholder: "ts"}) {
		t.Errorf("undeclared = %v", doc.Derived.UndeclaredPlaceholders)
	}
	if doc.Derived.SortKey.MaxBytes != nil {
		t.Error("max bytes cannot be known with an undeclared placeholder")
	}
}

func TestCollectionEstimateWithLSIs(t *testing.T) {
	in := dailyEventLog()
	in.Traffic.MaxItemsPerPartitionKey = p(int64(1000))
	in.Traffic.ItemSizeBytes = p(int64(1000))
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{
		{Name: "by_created", SortKey: model.IndexKeyAttribute{Name: "created", Type: "N"}, ProjectionType: model.ProjectionKeysOnly},
		{Name: "by_status", SortKey: model.IndexKeyAttribute{Name: "status", Type: "S"}, ProjectionType: model.ProjectionAll},
	}
	c := analyze(t, in).Derived.Collection
	// item 1000 + KEYS_ONLY (pk 14 + sk 70 + N sort key 21 + 100) + ALL (1000 + 100)
	wantEntry := int64(1000 + (14 + 70 + 21 + 100) + (1000 + 100))
	if c.Basis != "given" || c.EntryBytes != wantEntry || *c.Bytes != float64(1000*wantEntry) {
		t.Errorf("collection = %+v, want entry %d", c, wantEntry)
	}
}

func TestDocumentIsJSON(t *testing.T) {
	in := dailyEventLog()
	in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{{Name: "by_day", PartitionKey: []model.IndexKeyAttribute{{Name: "day", Type: "S"}}}}
	doc := analyze(t, in)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	derived, ok := generic["derived"].(map[string]any)
	if !ok {
		t.Fatalf("derived is not an object: %v", generic["derived"])
	}
	for _, key := range []string{"capacity", "shard_count", "partition_key_max_bytes", "partition_key_segments", "has_time_bucket"} {
		if _, ok := derived[key]; !ok {
			t.Errorf("derived lacks %q", key)
		}
	}
	var table struct {
		GSIs []map[string]any `json:"gsis"`
	}
	if err := json.Unmarshal(mustJSON(t, generic["table"]), &table); err != nil || len(table.GSIs) == 0 {
		t.Fatalf("table.gsis: %v %v", err, generic["table"])
	}
	gsi := table.GSIs[0]
	if gsi["time_bucketed"] != true {
		t.Errorf("a GSI keyed by the day segment is time-bucketed: %v", gsi)
	}
}

func TestReportShowsBarsAndLimits(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id"}
	out := report.Text(analyze(t, in), []report.Finding{{Rule: "DK999", Name: "example", Severity: "warning", Message: "a message"}})
	for _, want := range []string{"DAY#{day}#SHARD#{shard}", "4 shards", "2,500 WCU", "625 WCU", "|", "WARNING DK999 example: a message", "62.5% of a partition"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Contributor Insights") {
		t.Errorf("a report without a hot-key finding points at Contributor Insights:\n%s", out)
	}
	hot := report.Text(analyze(t, in), []report.Finding{{Rule: "DK303", Name: "hot-key-demand", Severity: "error", Message: "too hot"}})
	if !strings.Contains(hot, "contributor_insights = { mode = \"THROTTLED_KEYS\" }") {
		t.Errorf("a hot-key finding must say how to find the hot keys in production:\n%s", hot)
	}
	if testing.Verbose() {
		t.Log("\n" + out)
	}
}

// BenchmarkAnalyze builds a document for a table with 2 GSIs and 2 LSIs (target: under 20 µs).
func BenchmarkAnalyze(b *testing.B) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id"}
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{
		{Name: "by_created", SortKey: model.IndexKeyAttribute{Name: "created", Type: "N"}, ProjectionType: model.ProjectionKeysOnly},
		{Name: "by_status", SortKey: model.IndexKeyAttribute{Name: "status", Type: "S"}, ProjectionType: model.ProjectionInclude, NonKeyAttributes: []string{"total"}},
	}
	in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{
		{Name: "by_customer", PartitionKey: []model.IndexKeyAttribute{{Name: "customerId", Cardinality: p(int64(1000000))}}, SortKey: []model.IndexKeyAttribute{{Name: "created", Type: "N"}}},
		{Name: "by_region_day", PartitionKey: []model.IndexKeyAttribute{{Name: "region"}, {Name: "day"}}, ProjectionType: model.ProjectionKeysOnly},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Analyze(in); errs != nil {
			b.Fatal(errs)
		}
	}
}

func TestConventionsAndKeyAttributes(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("day|{day}")
	in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{{Name: "by_tenant", PartitionKey: []model.IndexKeyAttribute{{Name: "tenantId"}, {Name: "region", Type: "S"}}}}
	d := analyze(t, in).Derived
	if strings.Join(d.Conventions.Delimiters, "") != "#|" || strings.Join(d.Conventions.LetterCases, ",") != "lower,upper" {
		t.Errorf("conventions = %+v", d.Conventions)
	}
	var paths []string
	for _, k := range d.KeyAttributes {
		paths = append(paths, k.Path.String()+"="+k.Name+":"+k.Type)
	}
	want := "partition_key=pk:S sort_key=sk:S global_secondary_indexes.by_tenant.partition_key[0]=tenantId:S global_secondary_indexes.by_tenant.partition_key[1]=region:S"
	if strings.Join(paths, " ") != want {
		t.Errorf("key attributes = %s", strings.Join(paths, " "))
	}
}

func TestGSIHotPartitionFacts(t *testing.T) {
	in := dailyEventLog() // 2,500 writes/s of 800 bytes: 2,500 WCU at peak
	in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{
		{Name: "by_day", PartitionKey: []model.IndexKeyAttribute{{Name: "day"}}},
		{Name: "by_status", PartitionKey: []model.IndexKeyAttribute{{Name: "status", Cardinality: p(int64(4))}}},
		{Name: "by_customer", PartitionKey: []model.IndexKeyAttribute{{Name: "customerId"}}},
	}
	gsis := map[string]model.GSIDoc{}
	for _, g := range analyze(t, in).Table.GSIs {
		gsis[g.Name] = g
	}
	if g := gsis["by_day"]; !g.TimeBucketed || *g.HotPartitionWriteUnits != 2500 {
		t.Errorf("a GSI keyed by the day bucket takes every write in one partition: %+v", g)
	}
	if g := gsis["by_status"]; *g.PartitionKeyCardinality != 4 || *g.HotPartitionWriteUnits != 625 {
		t.Errorf("4 statuses share 2,500 WCU: %+v", g)
	}
	if g := gsis["by_customer"]; g.PartitionKeyCardinality != nil || g.HotPartitionWriteUnits != nil {
		t.Errorf("an unstated cardinality gives no estimate: %+v", g)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestDocumentListsAreNeverNull: the rules count and iterate the document's lists, and a null there is a
// type error under strict evaluation (as conftest and opa eval run the bundle).
func TestDocumentListsAreNeverNull(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("EVENTS")
	in.SortKey = nil
	doc := analyze(t, in)
	raw, err := doc.AttributeJSON()
	if err != nil {
		t.Fatal(err)
	}
	js := string(raw)
	for _, field := range []string{`"delimiters":null`, `"letter_cases":null`, `"undeclared_placeholders":null`, `"key_attributes":null`} {
		if strings.Contains(js, field) {
			t.Errorf("the document has %s:\n%s", field, js)
		}
	}
}
