package report

import (
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// sharded is the document of a day-bucketed table sharded 16 ways: 2,000 writes a second of 1 KB all on the
// current day.
func sharded() *model.Document {
	day := model.ResolvedSegment{Kind: model.KindTime, Granularity: "day", MaxLength: 10}
	return &model.Document{
		Table: model.TableDoc{Name: "events", BillingMode: "PAY_PER_REQUEST",
			PartitionKey: model.KeyDoc{Name: "pk", Type: "S", Template: model.Ptr("DAY#{day}#SHARD#{shard}")}},
		Segments: map[string]model.ResolvedSegment{"day": day},
		Sharding: model.ShardingDoc{Strategy: model.StrategyCalculated, Source: "event_id", SchemeVersion: 1},
		Traffic:  model.TrafficDoc{WritesPerSecond: model.Ptr(2000.0), ItemSizeBytes: 1024, ReadConsistency: "eventual"},
		Derived: model.Derived{ShardCount: 16, ShardWidth: 2, RequiredShards: 3,
			PartitionKey: model.KeyFacts{Segments: []model.SegmentRef{{Name: "day", Kind: model.KindTime, MaxLength: 10}}},
			Capacity: model.Capacity{WriteUnitsPerWrite: 1, ReadUnitsPerRead: 0.5, PeakWriteUnits: model.Ptr(2000.0),
				HotKeyShare: 1, HotKeyShareSource: "time_bucket", HotKeyWriteUnits: model.Ptr(2000.0),
				PerShardWriteUnits: model.Ptr(125.0), ReadFanout: 16}},
		TargetUtilization: 0.8,
	}
}

// The report states the routing and draws the busiest key against a partition's 1,000 WCU: the whole key
// runs 40 characters past the limit marker (2,000 WCU is two partitions), one shard fills 5 of 40.
func TestTextDrawsTheBusiestKeyAgainstAPartition(t *testing.T) {
	t.Parallel()
	got := Text(sharded(), nil)
	for _, want := range []string{
		"dynamokeys key design: events\n",
		"  {shard} 16 shards, suffixes 00..15 = sha256(event_id) mod 16, scheme v1\n",
		"  writes 2,000/s = 2,000 WCU\n",
		"  shards needed at 80% utilisation: 3; shards used: 16; queries to read one collection: 16\n",
		"  write, whole key  " + strings.Repeat("#", 40) + "|" + strings.Repeat("!", 19) + "+ 2,000 WCU (200% of a partition)\n",
		"  write, per shard  " + strings.Repeat("#", 5) + strings.Repeat(".", 35) + "| 125 WCU (12.5% of a partition)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// Findings are listed with their rule, severity and message.
func TestTextListsTheFindings(t *testing.T) {
	t.Parallel()
	got := Text(sharded(), []Finding{{Rule: "DK404", Name: "fanout", Severity: "warning", Message: "16 shards is more than 4 times the 3 needed"}})
	if !strings.Contains(got, "DK404") || !strings.Contains(got, "16 shards is more than 4 times the 3 needed") {
		t.Errorf("report lacks the finding:\n%s", got)
	}
}

// TestChangesListsThePlansChangeFindings: "This plan changes" names the table and what the plan does to it,
// and lists the change rules' findings with their paths and figures, and no other finding; a document
// without a change, or a change no change rule fired on (tags alone), has no section.
func TestChangesListsThePlansChangeFindings(t *testing.T) {
	findings := []Finding{
		{Rule: "DK003", Name: "index-rebuilt", Severity: "warning", Path: model.Path{"global_secondary_indexes", "by_order"},
			Message: "GSI by_order is deleted and created again; patterns by_order (20 reads/s) fail until it is ACTIVE again; the backfill writes an entry for each of 2,000,000 items"},
		{Rule: "DK302", Name: "low-cardinality-partition-key", Severity: "warning", Message: "few values"},
	}
	doc := &model.Document{Table: model.TableDoc{Name: "orders"}, Change: &model.Change{Action: model.ChangeUpdate}}
	want := "This plan changes table orders (updated in place)\n" +
		"  WARNING DK003 index-rebuilt at global_secondary_indexes.by_order: GSI by_order is deleted and created again; " +
		"patterns by_order (20 reads/s) fail until it is ACTIVE again; the backfill writes an entry for each of 2,000,000 items\n"
	if got := Changes(doc, findings); got != want {
		t.Errorf("Changes:\n%s\nwant:\n%s", got, want)
	}
	if got := Changes(doc, findings[1:]); got != "" {
		t.Errorf("a change no change rule fired on has a section:\n%s", got)
	}
	doc.Change.Action = model.ChangeReplace
	if got := Changes(doc, findings); !strings.HasPrefix(got, "This plan changes table orders (replaced: destroyed and created empty)\n") {
		t.Errorf("replacement:\n%s", got)
	}
	doc.Change = nil
	if got := Changes(doc, findings); got != "" {
		t.Errorf("a document without a change has a section:\n%s", got)
	}
	if text := Text(doc, findings); strings.Contains(text, "This plan changes") {
		t.Errorf("the report holds the plan's section:\n%s", text)
	}
}
