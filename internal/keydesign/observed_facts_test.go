package keydesign

import (
	"reflect"
	"strings"
	"testing"
)

// ordersDesign is the unsharded customer-keyed table of the fixtures, declared at 500 writes and 1,000
// reads per second.
func ordersDesign() *Input {
	return &Input{
		Kind: "sharded_table", TableName: "orders", BillingMode: "PAY_PER_REQUEST",
		PartitionKey: Key{Name: "pk", Type: "S", Template: p("CUSTOMER#{customer_id}")},
		SortKey:      &Key{Name: "sk", Type: "S", Template: p("ORDER#{order_id}")},
		Segments:     map[string]Segment{"customer_id": {Kind: KindID}, "order_id": {Kind: KindID}},
		Traffic:      Traffic{WritesPerSecond: p(500.0), ReadsPerSecond: p(1000.0), ItemSizeBytes: p(int64(1024)), ReadConsistency: "strong"},
		GlobalSecondaryIndexes: []GlobalSecondaryIndex{{Name: "by_status",
			PartitionKey: []IndexKeyAttribute{{Name: "status", Type: "S", Cardinality: p(int64(3))}},
			OnDemand:     &UnitPair{Write: p(int64(1500))}}},
	}
}

func observe(t *testing.T, prefix string, index string) Observation {
	t.Helper()
	e := ObservedExport{IndexName: index, MetricData: fixture(t, prefix+"-metric-data.json"), AccessedKeysReport: fixture(t, prefix+"-accessed-keys.json")}
	if prefix != "index-hot" {
		e.ThrottledKeysReport = fixture(t, prefix+"-throttled-keys.json")
	}
	obs, _, errs := ObserveTraffic(e)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return *obs
}

func TestMeasuredFactsHotTable(t *testing.T) {
	in := ordersDesign()
	in.Observed = []ObservedInput{{Path: Path{"observed"}, Observation: observe(t, "hot", "")}}
	doc := analyze(t, in)
	if len(doc.Observed) != 1 {
		t.Fatalf("observed = %+v", doc.Observed)
	}
	m := doc.Observed[0].Measured
	want := MeasuredFacts{
		DeclaredWriteUnits: p(500.0), DeclaredReadUnits: p(1000.0), ShardCount: 1,
		HotKeyShareSource: MeasuredShareMeasured, HotKey: p("CUSTOMER#c-1001"),
		// Half of the 2,500 WCU and 3,000 RCU peak on one key: 1,250 WCU needs ceil(1,250 / 800) = 2 shards.
		HotKeyWriteUnits: p(1250.0), HotKeyReadUnits: p(1500.0), RequiredShards: 2,
		WriteLimit:        &CapacityLimit{Units: 40000, Name: "the on-demand table quota", Path: Path{}},
		ReadLimit:         &CapacityLimit{Units: 40000, Name: "the on-demand table quota", Path: Path{}},
		KeysOutsideDesign: []KeyMismatch{{Key: "customer#c-77", Reason: "its literal text does not follow the template"}},
		ThrottledKeys:     []string{"CUSTOMER#c-1001", "CUSTOMER#c-9009"},
		ThrottleEvents:    p(15243.0),
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("measured facts =\n%+v\nwant\n%+v", m, want)
	}
	// Every table write may land in the index: its demand is the table's declared peak writes.
	if g := doc.Table.GSIs[0]; *g.PeakWriteUnits != 500 || g.PeakReadUnits != nil || g.PeakSource != PeakDeclared || *g.OnDemandThroughput.Write != 1500 {
		t.Errorf("index demand = %v / %v", g.PeakWriteUnits, g.PeakReadUnits)
	}
}

func TestMeasuredFactsShardedKeyCountsEveryShard(t *testing.T) {
	in := ordersDesign()
	in.PartitionKey.Template = p("CUSTOMER#{customer_id}#{shard}")
	in.Sharding = Sharding{Strategy: StrategyRandom, Count: p(int64(2))}
	in.Observed = []ObservedInput{{Path: Path{"observed"}, Observation: Observation{
		Traffic: ObservedTraffic{WritesPerSecond: p(4000.0), HotKeyShare: p(0.3)},
		TopKeys: []ObservedKey{{Key: "CUSTOMER#c-1#1", Share: p(0.3)}, {Key: "CUSTOMER#c-1#2", Share: p(0.1)}},
	}}}
	m := analyze(t, in).Observed[0].Measured
	// One shard takes 30%: the logical key 60% of 4,000 WCU = 2,400 WCU, which needs 3 shards at 80%.
	if m.RequiredShards != 3 || *m.HotKeyWriteUnits != 1200 || m.ShardCount != 2 {
		t.Errorf("required shards %d, hot key %v WCU, shards %d", m.RequiredShards, *m.HotKeyWriteUnits, m.ShardCount)
	}
	if len(m.KeysOutsideDesign) != 1 || m.KeysOutsideDesign[0].Key != "CUSTOMER#c-1#2" ||
		m.KeysOutsideDesign[0].Reason != "shard suffix 2 is outside 0..1: the design has 2 shards" {
		t.Errorf("keys outside = %+v", m.KeysOutsideDesign)
	}
}

func TestMeasuredFactsWithoutKeysUseTheDesignShare(t *testing.T) {
	in := dailyEventLog()
	in.Observed = []ObservedInput{{Path: Path{"observed"}, Observation: Observation{Traffic: ObservedTraffic{WritesPerSecond: p(1800.0)}}}}
	m := analyze(t, in).Observed[0].Measured
	// A lone day bucket takes every write: 1,800 WCU needs 3 shards.
	if m.HotKeyShareSource != MeasuredShareDesign || m.RequiredShards != 3 || m.HotKey != nil || m.HotKeyWriteUnits != nil {
		t.Errorf("measured = %+v", m)
	}
}

func TestMeasuredFactsIndex(t *testing.T) {
	in := ordersDesign()
	in.BillingMode = "PROVISIONED"
	in.ReadCapacity, in.WriteCapacity = p(int64(5000)), p(int64(5000))
	in.GlobalSecondaryIndexes[0].OnDemand = nil
	in.GlobalSecondaryIndexes[0].WriteCapacity = p(int64(2000))
	in.GlobalSecondaryIndexes[0].Autoscaling = &Autoscaling{Read: &CapacityRange{Min: 5, Max: 50}}
	in.Observed = []ObservedInput{{Path: Path{"observed_indexes", "by_status"}, Observation: observe(t, "index-hot", "by_status")}}
	doc := analyze(t, in)
	m := doc.Observed[0].Measured
	if m.HotKey == nil || *m.HotKey != "shipped" || *m.HotKeyWriteUnits != 2000 || m.RequiredShards != 3 {
		t.Errorf("index hot key = %v, %v WCU, %d partitions", m.HotKey, m.HotKeyWriteUnits, m.RequiredShards)
	}
	if !reflect.DeepEqual(m.WriteLimit, &CapacityLimit{Units: 2000, Name: "write_capacity", Path: Path{"global_secondary_indexes", "by_status", "write_capacity"}}) ||
		!reflect.DeepEqual(m.ReadLimit, &CapacityLimit{Units: 50, Name: "autoscaling.read.max", Path: Path{"global_secondary_indexes", "by_status", "autoscaling", "read", "max"}}) {
		t.Errorf("limits = %+v, %+v", m.WriteLimit, m.ReadLimit)
	}
	if len(m.KeysOutsideDesign) != 0 {
		t.Errorf("an index key has no template to check: %+v", m.KeysOutsideDesign)
	}
	g := doc.Table.GSIs[0]
	if *g.PeakWriteUnits != 2500 || *g.PeakReadUnits != 100 || g.PeakSource != PeakMeasured {
		t.Errorf("index demand = %v / %v (%s), want the measured 2,500 / 100", *g.PeakWriteUnits, *g.PeakReadUnits, g.PeakSource)
	}
}

func TestObservedInputErrors(t *testing.T) {
	in := ordersDesign()
	in.Observed = []ObservedInput{
		{Path: Path{"observed"}, Observation: Observation{Traffic: ObservedTraffic{WritesPerSecond: p(-1.0), HotKeyShare: p(1.5)}}},
		{Path: Path{"observed_indexes", "nope"}, Observation: Observation{IndexName: "nope", TopKeys: []ObservedKey{{Key: ""}}}},
		{Path: Path{"observed_indexes", "x"}, Observation: Observation{}},
	}
	_, errs := Analyze(in)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"observed.traffic.writes_per_second: must be a finite number between 0 and 1,000,000,000, got -1",
		"observed.traffic.hot_key_share: must be a finite number between 0 and 1, got 1.5",
		`observed_indexes.nope.index_name: names index "nope", which is not among global_secondary_indexes`,
		"observed_indexes.nope.top_keys[0].key: is empty",
		"observed_indexes.x: is a second observation of the table",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("errors lack %q:\n%s", want, text)
		}
	}
}

func TestKeyMatcher(t *testing.T) {
	segments := map[string]ResolvedSegment{}
	for name, s := range map[string]Segment{"day": {Kind: KindTime, Granularity: "day"}, "status": {Kind: KindEnum, Values: []string{"new", "done"}},
		"user_id": {Kind: KindID, MaxLength: p(int64(8))}, "n": {Kind: KindNumber}} {
		r, errs := s.Resolve(name)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		segments[name] = r
	}
	for _, tc := range []struct {
		template, strategy, source string
		count                      int64
		key, why                   string
	}{
		{"DAY#{day}#SHARD#{shard}", StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#07", ""},
		{"DAY#{day}#SHARD#{shard}", StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#7", `shard suffix "7" is not 2 digit(s) 00..15`},
		{"DAY#{day}#SHARD#{shard}", StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#16", "shard suffix 16 is outside 00..15: the design has 16 shards"},
		{"DAY#{day}#SHARD#{shard}", StrategyRandom, "", 16, "DAY#30.11.2026#SHARD#03", `{day} = "30.11.2026" is not a day bucket like 2006-01-02`},
		{"DAY#{day}#SHARD#{shard}", StrategyRandom, "", 16, "day#2026-11-30#SHARD#03", "its literal text does not follow the template"},
		{"{status}|{n}", StrategyNone, "", 1, "done|42.5", ""},
		{"{status}|{n}", StrategyNone, "", 1, "open|42", `{status} = "open" is not one of its values (new, done)`},
		{"{status}|{n}", StrategyNone, "", 1, "new|x", `{n} = "x" is not a number`},
		{"USER#{user_id}", StrategyNone, "", 1, "USER#123456789", `{user_id} = "123456789" is 9 bytes, longer than its max_length 8`},
		{"USER#{user_id}", StrategyNone, "", 1, "USER#", "{user_id} is empty"},
		{"USER#{user_id}#{shard}", StrategyCalculated, "user_id", 8, "USER#alice#" + ShardSuffix("alice", 8), ""},
		{"USER#{user_id}#{shard}", StrategyCalculated, "user_id", 8, "USER#alice#" + ShardSuffix("bob", 8),
			`shard suffix ` + ShardSuffix("bob", 8) + ` is not the routing's sha256("alice") mod 8 = ` + ShardSuffix("alice", 8) + `: the writer does not follow the calculated routing`},
	} {
		tmpl, err := ParseTemplate(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		m := newKeyMatcher(tmpl, segments, tc.count, tc.strategy, tc.source)
		if got := m.mismatch(tc.key); got != tc.why {
			t.Errorf("%s against %s: %q, want %q", tc.key, tc.template, got, tc.why)
		}
	}
}

func TestReportShowsMeasuredShardsNextToCurrent(t *testing.T) {
	in := ordersDesign()
	in.Observed = []ObservedInput{{Path: Path{"observed"}, Observation: observe(t, "hot", "")}}
	in.Observed[0].TableName = "orders"
	report := Report(analyze(t, in), nil)
	for _, want := range []string{
		"Measured (orders)\n  window 2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z, 180 one-minute datapoints (complete)\n",
		"  peak writes 2,500 WCU/s (busiest minute / 60)\n",
		"  throttle events: 0 read, 15,243 write\n",
		"  busiest key takes 50% of requests at the busiest time\n",
		"  1. CUSTOMER#c-1001  40% of requests, 10,450 throttled\n",
		"  5. CUSTOMER#c-9009  throttled only, 40 throttled\n",
		"  declared peak writes 500 units/s, measured 2,500\n",
		"  shards: 1 in use; the measured peak calls for 2 (the measured busiest key, at 80% utilisation)\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

func TestObservationReportWithoutInsights(t *testing.T) {
	obs, _, errs := ObserveTraffic(ObservedExport{TableName: "orders", IndexName: "by_status", MetricData: fixture(t, "index-hot-metric-data.json")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	report := ObservationReport(obs)
	want := "dynamokeys measured traffic: orders, index by_status\n\n" +
		"  window 2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z, 180 one-minute datapoints (complete)\n" +
		"  peak writes 2,500 WCU/s (busiest minute / 60)\n" +
		"  peak reads  100 RCU/s (busiest minute / 60)\n" +
		"  throttle events: 0 read, 0 write\n" +
		"  no key figures: turn on Contributor Insights (contributor_insights = { mode = \"ACCESSED_AND_THROTTLED_KEYS\" })\n"
	if report != want {
		t.Errorf("report =\n%s\nwant\n%s", report, want)
	}
}

func TestObservationOfAnotherTableIsQuestionable(t *testing.T) {
	in := ordersDesign()
	in.Observed = []ObservedInput{{Path: Path{"observed_indexes", "by_status"}, Observation: Observation{TableName: "payments", IndexName: "by_status"}}}
	got := Questionable(in)
	if len(got) != 1 || got[0].Error() != `observed_indexes.by_status.table_name: the measurements are of table "payments" but this is table "orders": give the observation of this table` {
		t.Errorf("questionable = %v", got)
	}
	in.Observed[0].TableName = "orders"
	if got := Questionable(in); len(got) != 0 {
		t.Errorf("questionable = %v", got)
	}
}
