package keydesign

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

// shardedMigration is the daily event log moved from one hot day key to four calculated shards.
func shardedMigration(phase string) *model.Input {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(4)), SchemeVersion: p(int64(2))}
	in.Traffic.ItemCount = p(int64(10_000_000))
	in.AccessPatterns = []model.AccessPattern{{Name: "events_of_day", Equals: []string{"day"}, ReadsPerSecond: p(50.0), Items: p(int64(20))}}
	in.Migration = &model.MigrationInput{Phase: phase, From: model.LayoutInput{PartitionKeyTemplate: p("DAY#{day}"), Sharding: &model.Sharding{Strategy: model.StrategyNone}}}
	return in
}

func TestMigrationShardAddedToHotKey(t *testing.T) {
	doc := analyze(t, shardedMigration(model.PhaseBackfill))
	m := doc.Derived.Migration
	if m == nil {
		t.Fatal("no derived.migration")
	}
	if m.PhaseIndex != 1 || len(m.Changed) != 1 || m.Changed[0] != "" {
		t.Errorf("phase index %d, changed %q; want 1, the table's one entity", m.PhaseIndex, m.Changed)
	}
	if m.OldRouting.Algorithm != "none" || m.NewRouting.Count != 4 || m.NewRouting.SchemeVersion != 2 {
		t.Errorf("routings old %+v new %+v", m.OldRouting, m.NewRouting)
	}
	b := m.Backfill
	// 10M items of 800 B: 1 WCU per put and per delete; the Scan reads 8e9 B in 4 KB units at 0.5.
	if *b.Items != 1e7 || *b.PutWriteUnits != 1e7 || *b.DeleteWriteUnits != 1e7 || *b.WriteUnits != 2e7 {
		t.Errorf("items %v puts %v deletes %v total %v", *b.Items, *b.PutWriteUnits, *b.DeleteWriteUnits, *b.WriteUnits)
	}
	if want := math.Ceil(8e9/4096) * 0.5; *b.ScanReadUnits != want {
		t.Errorf("scan read units %v, want %v", *b.ScanReadUnits, want)
	}
	// us-east-1 on-demand: 20M WRU and 976,562.5 RRU.
	prices := model.PriceTable.Regions["us-east-1"][model.TableClassStandard]
	wantCost := math.Round((20*prices.WriteRequestUnitsPerMillion+976562.5/1e6*prices.ReadRequestUnitsPerMillion)*100) / 100
	if b.Cost == nil || *b.Cost != wantCost {
		t.Errorf("cost %v, want %v", b.Cost, wantCost)
	}
	// The busiest day's 2,500 WCU over 4 shards leaves 800 - 625 = 175 WCU per shard at 0.8, on 4 shards.
	if !near(b.HeadroomWriteUnitsPerSecond, 700) || b.HeadroomLimit != "partition" || b.RateSource != "headroom" {
		t.Errorf("headroom %v (%s), rate source %s; want 700 (partition)", b.HeadroomWriteUnitsPerSecond, b.HeadroomLimit, b.RateSource)
	}
	if want := 1e7 / 700 / 3600; b.Hours == nil || !near(*b.Hours, want) {
		t.Errorf("hours %v, want %v", b.Hours, want)
	}
	if len(b.Throttles) != 0 {
		t.Errorf("throttles at the headroom: %+v", b.Throttles)
	}
	if len(m.Patterns) != 1 {
		t.Fatalf("patterns %+v", m.Patterns)
	}
	pt := m.Patterns[0]
	if !pt.Changed || pt.OldQueriesPerCall != 1 || pt.NewQueriesPerCall != 4 || pt.BothQueriesPerCall != 5 {
		t.Errorf("pattern %+v", pt)
	}
	if pt.Reads[1].Layout != "old" || pt.Reads[2].Layout != "new" || pt.Reads[2].QueriesPerCall != 4 {
		t.Errorf("reads by phase %+v", pt.Reads)
	}
	if m.Overlap != nil {
		t.Errorf("DAY#… and DAY#…#SHARD#… cannot render the same key: %+v", m.Overlap)
	}
	raw, _ := json.Marshal(doc.Derived.Layout)
	if !strings.Contains(doc.Derived.Migration.From.From, `partition_key_template = "DAY#{day}"`) {
		t.Errorf("from %s; layout %s", doc.Derived.Migration.From.From, raw)
	}
}

func TestMigrationDeclaredRateThrottles(t *testing.T) {
	in := shardedMigration(model.PhaseDualWrite)
	in.Migration.BackfillWriteUnitsPerSecond = p(2000.0)
	b := analyze(t, in).Derived.Migration.Backfill
	// 625 WCU of production per shard plus 2,000 / 4 = 1,125 WCU > 1,000.
	if len(b.Throttles) != 1 || b.Throttles[0].What != "partition" || !near(b.Throttles[0].Demand, 1125) {
		t.Errorf("throttles %+v", b.Throttles)
	}
}

func TestMigrationShardCountChangeKeepsSomeKeys(t *testing.T) {
	in := dailyEventLog()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(8)), SchemeVersion: p(int64(2))}
	in.Traffic.ItemCount = p(int64(1_000_000))
	in.Migration = &model.MigrationInput{Phase: model.PhaseDualWrite, From: model.LayoutInput{Sharding: &model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(4))}}}
	m := analyze(t, in).Derived.Migration
	if m.Overlap == nil || m.Overlap.KeptShare != 0.5 {
		t.Fatalf("overlap %+v; 4 → 8 shards keeps the suffix of half the ids", m.Overlap)
	}
	if *m.Backfill.Items != 500_000 {
		t.Errorf("items %v, want 500,000", *m.Backfill.Items)
	}
}

func TestMigrationBadInputs(t *testing.T) {
	for name, tc := range map[string]struct {
		mutate func(*model.Input)
		path   string
	}{
		"unknown phase":    {func(in *model.Input) { in.Migration.Phase = "cutover" }, "migration.phase"},
		"zero rate":        {func(in *model.Input) { in.Migration.BackfillWriteUnitsPerSecond = p(0.0) }, "migration.backfill_write_units_per_second"},
		"same layout":      {func(in *model.Input) { in.Migration.From = model.LayoutInput{} }, "migration.from"},
		"bad old template": {func(in *model.Input) { in.Migration.From.PartitionKeyTemplate = p("DAY#{day") }, "migration.from.partition_key_template"},
		"old count missing": {func(in *model.Input) {
			in.Migration.From.Sharding = &model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id"}
		}, "migration.from.sharding.count"},
	} {
		t.Run(name, func(t *testing.T) {
			in := shardedMigration(model.PhaseDualWrite)
			tc.mutate(in)
			_, errs := Analyze(in)
			if len(errs) == 0 || errs[0].Path.String() != tc.path {
				t.Fatalf("errors %v; want one on %s", errs, tc.path)
			}
		})
	}
}

func TestMigrationEntityRekeyed(t *testing.T) {
	in := customerTable()
	in.Entities[1].Traffic.ItemCount = p(int64(10_000_000))
	in.AccessPatterns = []model.AccessPattern{
		{Name: "orders_of_customer", Entities: []string{"order"}, Equals: []string{"customer_id"}, ReadsPerSecond: p(100.0), Items: p(int64(20))},
		{Name: "customer_by_email", Entities: []string{"customer"}, Index: p("GSI1"), Equals: []string{"email"}, ReadsPerSecond: p(10.0)},
	}
	in.Migration = &model.MigrationInput{Phase: model.PhaseBackfill, From: model.LayoutInput{Entities: map[string]map[string]string{
		"order": {"PK": "CUSTOMER#{customer_id}", "SK": "ORDER#{order_id}"}}}}
	m := analyze(t, in).Derived.Migration
	if len(m.Changed) != 1 || m.Changed[0] != "order" {
		t.Fatalf("changed %v, want order alone", m.Changed)
	}
	b := m.Backfill
	// 10M orders of 1,500 B: 2 WCU per put and per delete, in no index; the Scan reads the 2M profiles too.
	if *b.Items != 1e7 || *b.ScannedItems != 1.2e7 || *b.PutWriteUnits != 2e7 || *b.DeleteWriteUnits != 2e7 || len(b.IndexPutWriteUnits) != 0 {
		t.Errorf("items %v scanned %v puts %v deletes %v index puts %v", *b.Items, *b.ScannedItems, *b.PutWriteUnits, *b.DeleteWriteUnits, b.IndexPutWriteUnits)
	}
	if want := math.Ceil((1e7*1500+2e6*600)/4096) * 0.5; *b.ScanReadUnits != want {
		t.Errorf("scan %v, want %v", *b.ScanReadUnits, want)
	}
	prices := model.PriceTable.Regions["us-east-1"][model.TableClassStandard]
	if want := math.Round((40*prices.WriteRequestUnitsPerMillion+*b.ScanReadUnits/1e6*prices.ReadRequestUnitsPerMillion)*100) / 100; *b.Cost != want {
		t.Errorf("cost %v, want %v", *b.Cost, want)
	}
	// The same partition key: an old collection's rewrites land on one partition, with no hot key (ids).
	if b.HeadroomWriteUnitsPerSecond != 800 || b.HeadroomLimit != "partition" || !near(*b.Hours, 2e7/800/3600) {
		t.Errorf("headroom %v (%s), hours %v", b.HeadroomWriteUnitsPerSecond, b.HeadroomLimit, *b.Hours)
	}
	byName := map[string]model.MigrationPattern{}
	for _, pt := range m.Patterns {
		byName[pt.Name] = pt
	}
	if pt := byName["orders_of_customer"]; !pt.Changed || pt.Reads[1].Layout != "old" || pt.Reads[2].Layout != "new" {
		t.Errorf("orders_of_customer %+v", pt)
	}
	if pt := byName["customer_by_email"]; pt.Changed || pt.IndexDuplicates {
		t.Errorf("customer_by_email %+v: profiles do not move", pt)
	}
	if m.Overlap != nil {
		t.Errorf("ORDER#{order_id} cannot render ORDER#{order_date}#{order_id} (ids hold no #): %+v", m.Overlap)
	}
	if !strings.Contains(m.From.From, `order = { keys = { PK = "CUSTOMER#{customer_id}", SK = "ORDER#{order_id}" } }`) {
		t.Errorf("from %s", m.From.From)
	}
}

func TestMigrationDoneAndSingleRegionFiguresUnchanged(t *testing.T) {
	// A migration adds facts and changes none of the design's own.
	with, without := shardedMigration(model.PhaseDone), shardedMigration(model.PhaseDone)
	without.Migration = nil
	a, b := analyze(t, with), analyze(t, without)
	a.Derived.Migration = nil
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("a migration changed the design's facts:\n%s\n%s", ja, jb)
	}
}

func TestMigrationUnknownIsNotAnError(t *testing.T) {
	in := shardedMigration(model.PhaseBackfill)
	in.Migration.Phase = ""
	in.Unknown = []model.Path{{"migration", "phase"}}
	doc := analyze(t, in)
	if doc.Derived.Migration != nil || !slices.Contains(doc.Unknown, "derived.migration") {
		t.Errorf("migration %+v, unknown %v", doc.Derived.Migration, doc.Unknown)
	}
}

func TestMigrationProvisionedTableLimitsTheRate(t *testing.T) {
	in := shardedMigration(model.PhaseBackfill)
	in.BillingMode, in.WriteCapacity, in.ReadCapacity = "PROVISIONED", p(int64(8000)), p(int64(550))
	doc := analyze(t, in)
	b := doc.Derived.Migration.Backfill
	// The production reads of 550 × 0.8 = 440 RCU leave the rest for the Scan, at 976,562.5 RCU per 10M WCU.
	peak := *doc.Derived.Capacity.PeakReadUnits
	if want := (440 - peak) / (976562.5 / 1e7); peak >= 440 || !near(b.HeadroomWriteUnitsPerSecond, want) || b.HeadroomLimit != "provisioned read capacity" {
		t.Errorf("headroom %v (%s), want %v under the read capacity", b.HeadroomWriteUnitsPerSecond, b.HeadroomLimit, want)
	}
	in.Migration.BackfillWriteUnitsPerSecond = p(2000.0)
	b = analyze(t, in).Derived.Migration.Backfill
	if len(b.Throttles) != 2 || b.Throttles[1].What != "provisioned read capacity" || !near(b.Throttles[1].Demand, peak+2000*976562.5/1e7) {
		t.Errorf("throttles %+v", b.Throttles)
	}
}

// BenchmarkAnalyzeMigration is the guide's migration: the design and its old layout are both analysed.
func BenchmarkAnalyzeMigration(b *testing.B) {
	in := guideDesign(model.PhaseBackfill)
	for b.Loop() {
		if _, errs := Analyze(in); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func TestMigrationIndexKeyOnlyUpdatesInPlace(t *testing.T) {
	in := customerTable()
	in.Migration = &model.MigrationInput{Phase: model.PhaseBackfill, From: model.LayoutInput{Entities: map[string]map[string]string{
		"customer": {"PK": "CUSTOMER#{customer_id}", "SK": "PROFILE", "GSI1PK": "E#{email}", "GSI1SK": "CUSTOMER"}}}}
	m := analyze(t, in).Derived.Migration
	b := m.Backfill
	// 2M profiles of 600 B keep their primary key: one update each, and GSI1 replaces each entry.
	if m.Entities[0].Moves || *b.Items != 2e6 || *b.PutWriteUnits != 2e6 || *b.DeleteWriteUnits != 0 ||
		b.IndexPutWriteUnits["GSI1"] != 2e6 || b.IndexDeleteWriteUnits["GSI1"] != 2e6 {
		t.Errorf("moves %v, items %v, puts %v, deletes %v, GSI1 %v/%v", m.Entities[0].Moves, *b.Items, *b.PutWriteUnits, *b.DeleteWriteUnits,
			b.IndexPutWriteUnits["GSI1"], b.IndexDeleteWriteUnits["GSI1"])
	}
	if m.Overlap != nil {
		t.Errorf("an update in place is no overlap of layouts: %+v", m.Overlap)
	}
	// The orders state no item_count, so the Scan's reads are unknown; the report says so and goes on.
	if b.ScanReadUnits != nil {
		t.Errorf("Scan RCU %v with an entity of unknown item count", *b.ScanReadUnits)
	}
	if want := ": 2,000,000 items, Scan RCU unknown, 4,000,000 WCU"; !strings.Contains(report.Text(analyze(t, in), nil), want) {
		t.Errorf("the report's backfill step lacks %q:\n%s", want, report.Text(analyze(t, in), nil))
	}
}

func TestMigrationKeptShareIsPerEntity(t *testing.T) {
	in := customerTable()
	in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "order_id", Count: p(int64(8)), SchemeVersion: p(int64(2))}
	in.Entities[1].Keys["PK"] = "CUSTOMER#{customer_id}#{shard}"
	in.Entities[1].Traffic.ItemCount = p(int64(10_000_000))
	in.Entities[0].Keys["PK"] = "C#{customer_id}"
	in.Migration = &model.MigrationInput{Phase: model.PhaseDualWrite, From: model.LayoutInput{
		Sharding: &model.Sharding{Strategy: model.StrategyCalculated, Source: "order_id", Count: p(int64(4))},
		Entities: map[string]map[string]string{"customer": {"PK": "CUSTOMER#{customer_id}", "SK": "PROFILE", "GSI1PK": "EMAIL#{email}", "GSI1SK": "CUSTOMER"}}}}
	b := analyze(t, in).Derived.Migration.Backfill
	// Every profile moves; half the orders keep their suffix under 8 shards.
	if *b.Items != 2e6+5e6 {
		t.Errorf("items %v, want 7,000,000", *b.Items)
	}
}

func TestMigrationUnknownObjectWaits(t *testing.T) {
	in := shardedMigration(model.PhaseBackfill)
	in.Migration = nil
	in.Unknown = []model.Path{{"migration"}}
	if doc := analyze(t, in); !slices.Contains(doc.Unknown, "derived.migration") {
		t.Errorf("unknown %v: a migration known after apply must keep DK406 silent", doc.Unknown)
	}
}

func TestMigrationSchemeVersionAloneIsNoMove(t *testing.T) {
	in := shardedMigration(model.PhaseBackfill)
	in.Migration.From = model.LayoutInput{Sharding: &model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(4)), SchemeVersion: p(int64(1))}}
	if _, errs := Analyze(in); len(errs) != 1 || errs[0].Path.String() != "migration.from" {
		t.Errorf("errors %v: a scheme version alone moves no item", errs)
	}
}

func TestMigrationBackfillOnAGlobalTableIsPricedInEveryRegion(t *testing.T) {
	in := shardedMigration(model.PhaseBackfill)
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(0.5)}, "eu-west-1": {WriteShare: p(0.5)}}}
	b := analyze(t, in).Derived.Migration.Backfill
	use1, euw1 := model.PriceTable.Regions["us-east-1"][model.TableClassStandard], model.PriceTable.Regions["eu-west-1"][model.TableClassStandard]
	want := math.Round((20*use1.WriteRequestUnitsPerMillion+20*euw1.WriteRequestUnitsPerMillion+976562.5/1e6*use1.ReadRequestUnitsPerMillion)*100) / 100
	if b.Regions != 2 || b.Cost == nil || *b.Cost != want {
		t.Errorf("regions %d, cost %v; want 2 Regions, %v", b.Regions, b.Cost, want)
	}
}
