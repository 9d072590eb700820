package keydesign

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// ordersDesign is the unsharded customer-keyed table of the fixtures, declared at 500 writes and 1,000
// reads per second.
func ordersDesign() *model.Input {
	return &model.Input{
		Kind: "sharded_table", TableName: "orders", BillingMode: "PAY_PER_REQUEST",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("CUSTOMER#{customer_id}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("ORDER#{order_id}")},
		Segments:     map[string]model.Segment{"customer_id": {Kind: model.KindID}, "order_id": {Kind: model.KindID}},
		Traffic:      model.Traffic{WritesPerSecond: p(500.0), ReadsPerSecond: p(1000.0), ItemSizeBytes: p(int64(1024)), ReadConsistency: "strong"},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{Name: "by_status",
			PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S", Cardinality: p(int64(3))}},
			OnDemand:     &model.UnitPair{Write: p(int64(1500))}}},
	}
}

// measuredTable is an observation of the table: peak writes and reads (units/s), the busiest key's units/s
// at its busiest minute, then further keys.
func measuredTable(writes, reads, hot float64, keys ...observed.Key) observed.Observation {
	top := append([]observed.Key{{Key: "CUSTOMER#c-1001", UnitsPerSecond: p(hot)}}, keys...)
	return observed.Observation{TableName: "orders", Traffic: observed.Traffic{WritesPerSecond: p(writes), ReadsPerSecond: p(reads),
		HotKeyUnitsPerSecond: p(hot)}, TopKeys: top, KeyAttributes: p(int64(1)), Complete: true,
		Window: observed.Window{Start: "2026-11-30T09:00:00Z", End: "2026-11-30T12:00:00Z", Datapoints: 180}}
}

// A read-heavy table (1,500 WCU/s and 9,000 RCU/s at peak) whose busiest customer writes 950 WCU/s at the
// daily peak: 2,850 units/s, 95% of a partition; at 80% it needs ceil(2,850 / 2,400) = 2 shards. The
// share-of-requests model applied to each side (a ~32% share of 9,000 RCU is under a partition) missed it.
func TestMeasuredFactsWriteHotKeyInReadHeavyTable(t *testing.T) {
	for _, tc := range []struct {
		writes, reads, hot, u float64
		shards                int64
	}{
		{1500, 9000, 2850, 0.8, 2},
		{1500, 9000, 2850, 1, 1},
		{1200, 20000, 7500, 0.8, 4}, // 7,500 / 2,400 = 3.1
		{50, 400, 30, 0.8, 1},
	} {
		in := ordersDesign()
		in.TargetUtilization = p(tc.u)
		in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: measuredTable(tc.writes, tc.reads, tc.hot,
			observed.Key{Key: "CUSTOMER#c-2002", UnitsPerSecond: p(tc.hot / 3), ThrottleEvents: 12})}}
		doc := analyze(t, in)
		m := doc.Observed[0].Measured
		want := model.MeasuredFacts{
			DeclaredWriteUnits: p(500.0), DeclaredReadUnits: p(1000.0), ShardCount: 1,
			HotKeySource: model.MeasuredShareMeasured, HotKey: p("CUSTOMER#c-1001"),
			HotKeyUnits: p(tc.hot), HotKeyPartitionShare: p(tc.hot / 3000), LogicalKeyUnits: p(tc.hot), RequiredShards: tc.shards,
			WriteLimit:        &model.CapacityLimit{Units: 40000, Name: "the on-demand table quota", Path: model.Path{}},
			ReadLimit:         &model.CapacityLimit{Units: 40000, Name: "the on-demand table quota", Path: model.Path{}},
			KeysOutsideDesign: []model.KeyMismatch{}, ThrottledKeys: []string{"CUSTOMER#c-2002"}, ThrottleCauses: []model.ThrottleCause{},
			KeyFigures: model.KeyFiguresAccessed,
		}
		if !reflect.DeepEqual(m, want) {
			t.Errorf("%+v: measured facts =\n%+v\nwant\n%+v", tc, m, want)
		}
	}
}

func TestMeasuredFactsThrottleCauses(t *testing.T) {
	in := ordersDesign()
	o := measuredTable(100, 100, 10)
	o.TopKeys = nil
	o.Traffic.HotKeyUnitsPerSecond = nil
	o.ThrottleEvents = observed.Throttles{Read: p(40.0), Write: p(300.0), ReadKeyRange: p(0.0), WriteKeyRange: p(250.0),
		WriteMaxOnDemand: p(50.0), ReadAccountLimit: p(40.0)}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: o}}
	m := analyze(t, in).Observed[0].Measured
	want := []model.ThrottleCause{{Cause: "key_range", Write: 250}, {Cause: "max_on_demand", Write: 50}, {Cause: "account_limit", Read: 40}}
	if !reflect.DeepEqual(m.ThrottleCauses, want) || m.ThrottleEventsByCause != 340 || *m.ThrottleEvents != 340 || m.KeyFigures != model.KeyFiguresNone {
		t.Errorf("causes = %+v (%v of %v), key figures %s", m.ThrottleCauses, m.ThrottleEventsByCause, *m.ThrottleEvents, m.KeyFigures)
	}
}

func TestMeasuredFactsShardedKeyCountsEveryShard(t *testing.T) {
	in := ordersDesign()
	in.PartitionKey.Template = p("CUSTOMER#{customer_id}#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyRandom, Count: p(int64(2))}
	o := measuredTable(4000, 1000, 1800)
	o.TopKeys = []observed.Key{{Key: "CUSTOMER#c-1#1", UnitsPerSecond: p(1800.0)}, {Key: "CUSTOMER#c-1#2", UnitsPerSecond: p(600.0)}}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: o}}
	m := analyze(t, in).Observed[0].Measured
	// One of two shards takes 1,800 units/s: the logical key about 3,600, which needs 2 shards at 80%.
	if m.RequiredShards != 2 || *m.LogicalKeyUnits != 3600 || m.ShardCount != 2 {
		t.Errorf("required shards %d, logical key %v units/s, shards %d", m.RequiredShards, *m.LogicalKeyUnits, m.ShardCount)
	}
	if len(m.KeysOutsideDesign) != 1 || m.KeysOutsideDesign[0].Key != "CUSTOMER#c-1#2" ||
		m.KeysOutsideDesign[0].Reason != "shard suffix 2 is outside 0..1: the design has 2 shards" {
		t.Errorf("keys outside = %+v", m.KeysOutsideDesign)
	}
	// The logical key never takes more than the whole table: 8 shards of 1,800 units/s against 3 × 400 + 300.
	in.Sharding.Count = p(int64(8))
	in.PartitionKey.Template = p("CUSTOMER#{customer_id}#{shard}")
	in.Observed[0].Traffic.WritesPerSecond, in.Observed[0].Traffic.ReadsPerSecond = p(400.0), p(300.0)
	if m := analyze(t, in).Observed[0].Measured; *m.LogicalKeyUnits != 1800 || m.RequiredShards != 1 {
		t.Errorf("logical key %v units/s, %d shards", *m.LogicalKeyUnits, m.RequiredShards)
	}
}

func TestMeasuredFactsWithoutKeysUseTheDesignShare(t *testing.T) {
	in := dailyEventLog()
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: observed.Observation{Traffic: observed.Traffic{WritesPerSecond: p(1800.0)}}}}
	m := analyze(t, in).Observed[0].Measured
	// A lone day bucket takes every write: 1,800 WCU needs 3 shards.
	if m.HotKeySource != model.MeasuredShareDesign || m.RequiredShards != 3 || m.HotKey != nil || m.HotKeyUnits != nil || m.KeyFigures != model.KeyFiguresNone {
		t.Errorf("measured = %+v", m)
	}
}

func TestMeasuredFactsIndex(t *testing.T) {
	in := ordersDesign()
	in.BillingMode = "PROVISIONED"
	in.ReadCapacity, in.WriteCapacity = p(int64(5000)), p(int64(5000))
	in.GlobalSecondaryIndexes[0].OnDemand = nil
	in.GlobalSecondaryIndexes[0].WriteCapacity = p(int64(2000))
	in.GlobalSecondaryIndexes[0].Autoscaling = &model.Autoscaling{Read: &model.CapacityRange{Min: 5, Max: 50}}
	// The status index: "shipped" takes 2,000 WCU = 6,000 units/s, which needs ceil(6,000 / 2,400) = 3 partitions.
	o := observed.Observation{IndexName: "by_status", Traffic: observed.Traffic{WritesPerSecond: p(2500.0), ReadsPerSecond: p(100.0),
		HotKeyUnitsPerSecond: p(6000.0)}, TopKeys: []observed.Key{{Key: "shipped", UnitsPerSecond: p(6000.0)}}, KeyAttributes: p(int64(1))}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed_indexes", "by_status"}, Observation: o}}
	doc := analyze(t, in)
	m := doc.Observed[0].Measured
	if m.HotKey == nil || *m.HotKey != "shipped" || *m.HotKeyUnits != 6000 || m.RequiredShards != 3 {
		t.Errorf("index hot key = %v, %v units/s, %d partitions", m.HotKey, m.HotKeyUnits, m.RequiredShards)
	}
	if !reflect.DeepEqual(m.WriteLimit, &model.CapacityLimit{Units: 2000, Name: "write_capacity", Path: model.Path{"global_secondary_indexes", "by_status", "write_capacity"}}) ||
		!reflect.DeepEqual(m.ReadLimit, &model.CapacityLimit{Units: 50, Name: "autoscaling.read.max", Path: model.Path{"global_secondary_indexes", "by_status", "autoscaling", "read", "max"}}) {
		t.Errorf("limits = %+v, %+v", m.WriteLimit, m.ReadLimit)
	}
	if len(m.KeysOutsideDesign) != 0 {
		t.Errorf("an index key has no template to check: %+v", m.KeysOutsideDesign)
	}
	g := doc.Table.GSIs[0]
	if *g.PeakWriteUnits != 2500 || *g.PeakReadUnits != 100 || g.PeakSource != model.PeakMeasured {
		t.Errorf("index demand = %v / %v (%s), want the measured 2,500 / 100", *g.PeakWriteUnits, *g.PeakReadUnits, g.PeakSource)
	}
}

func TestObservedInputErrors(t *testing.T) {
	in := ordersDesign()
	in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, model.GlobalSecondaryIndex{Name: "by_region",
		PartitionKey: []model.IndexKeyAttribute{{Name: "region", Type: "S"}, {Name: "tier", Type: "S"}}})
	in.Observed = []model.ObservedInput{
		{Path: model.Path{"observed"}, Observation: observed.Observation{KeyAttributes: p(int64(2)),
			Traffic: observed.Traffic{WritesPerSecond: p(-1.0), HotKeyUnitShare: p(1.5)}}},
		{Path: model.Path{"observed_indexes", "nope"}, Observation: observed.Observation{IndexName: "nope", TopKeys: []observed.Key{{Key: ""}}}},
		{Path: model.Path{"observed_indexes", "x"}, Observation: observed.Observation{}},
		// A two-attribute index key: two values per contributor fit, one does not.
		{Path: model.Path{"observed_indexes", "by_region"}, Observation: observed.Observation{IndexName: "by_region", KeyAttributes: p(int64(1))}},
	}
	_, errs := Analyze(in)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"observed.traffic.writes_per_second: must be a finite number between 0 and 1,000,000,000, got -1",
		"observed.traffic.hot_key_unit_share: must be a finite number between 0 and 1, got 1.5",
		"observed.key_attributes: is 2: the Contributor Insights reports list 2 key value(s) per contributor, but the table's partition key is one attribute",
		"observed_indexes.by_region.key_attributes: is 1: the Contributor Insights reports list 1 key value(s) per contributor, but index by_region's partition key has 2 attribute(s)",
		`observed_indexes.nope.index_name: names index "nope", which is not among global_secondary_indexes`,
		"observed_indexes.nope.top_keys[0].key: is empty",
		"observed_indexes.x: is a second observation of the table",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("errors lack %q:\n%s", want, text)
		}
	}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed_indexes", "by_region"}, Observation: observed.Observation{IndexName: "by_region", KeyAttributes: p(int64(2))}}}
	if _, errs := Analyze(in); len(errs) != 0 {
		t.Errorf("a two-value report of a two-attribute index key: %v", errs)
	}
}

func TestReportShowsMeasuredShardsNextToCurrent(t *testing.T) {
	in := ordersDesign()
	o := measuredTable(1500, 9000, 2850, observed.Key{Key: "CUSTOMER#c-9009", ThrottleEvents: 40})
	o.Traffic.HotKeyUnitShare = p(0.2)
	o.ThrottleEvents = observed.Throttles{Read: p(0.0), Write: p(40.0), ReadKeyRange: p(0.0), WriteKeyRange: p(40.0)}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: o}}
	report := report.Text(analyze(t, in), nil)
	for _, want := range []string{
		"Measured (orders)\n  window 2026-11-30T09:00:00Z to 2026-11-30T12:00:00Z, 180 one-minute datapoints (complete)\n",
		"  peak writes 1,500 WCU/s (busiest minute / 60)\n",
		"  throttle events: 0 read, 40 write\n",
		"    0 read, 40 write: key range: a partition over its throughput",
		"  busiest key: 2,850 units/s at its busiest minute (units = 3 × WCU + RCU; a partition serves 3,000), 20% of the table's units that minute\n",
		"  1. CUSTOMER#c-1001  2,850 units/s at its busiest minute\n",
		"  2. CUSTOMER#c-9009  throttled only, 40 throttled\n",
		"  declared peak writes 500 units/s, measured 1,500\n",
		"  shards: 1 in use; the measured peak calls for 2 (the busiest key's 2,850 units/s, 95% of a partition's 3,000, at 80% utilisation)\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

func TestObservationOfAnotherTableIsQuestionable(t *testing.T) {
	in := ordersDesign()
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed_indexes", "by_status"}, Observation: observed.Observation{TableName: "payments", IndexName: "by_status"}}}
	got := Questionable(in)
	if len(got) != 1 || got[0].Error() != `observed_indexes.by_status.table_name: the measurements are of table "payments" but this is table "orders": give the observation of this table` {
		t.Errorf("questionable = %v", got)
	}
	in.Observed[0].TableName = "orders"
	if got := Questionable(in); len(got) != 0 {
		t.Errorf("questionable = %v", got)
	}
}

func TestObservationForIndex(t *testing.T) {
	t.Parallel()
	named := model.ObservedInput{Path: model.Path{"observed_indexes", "by_status"}}
	if err := named.ForIndex("by_status"); err != nil || named.IndexName != "by_status" {
		t.Errorf("an observation naming no index: %v, index %q", err, named.IndexName)
	}
	same := model.ObservedInput{Path: model.Path{"observed_indexes", "by_status"}, Observation: observed.Observation{IndexName: "by_status"}}
	if err := same.ForIndex("by_status"); err != nil {
		t.Errorf("an observation of its own index: %v", err)
	}
	other := model.ObservedInput{Path: model.Path{"observed_indexes", "by_status"}, Observation: observed.Observation{IndexName: "by_day"}}
	err := other.ForIndex("by_status")
	if err == nil || err.Path.String() != "observed_indexes.by_status.index_name" || !strings.Contains(err.Message, `index "by_day", but it is given for index "by_status"`) {
		t.Errorf("an observation of another index: %v", err)
	}
}
