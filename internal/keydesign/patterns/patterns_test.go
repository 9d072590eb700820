package patterns

import (
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// ordersDesign is a table of one entity: orders under their customer, a GSI on a four-valued status.
func ordersDesign(sharding model.Sharding, patterns ...model.AccessPattern) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: model.Ptr("CUSTOMER#{customer_id}#{shard}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: model.Ptr("ORDER#{order_date}#{order_id}")},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID}, "order_id": {Kind: model.KindID},
			"order_date": {Kind: model.KindTime, Granularity: "day"},
		},
		Sharding: sharding,
		Traffic:  model.Traffic{WritesPerSecond: model.Ptr(100.0), ItemSizeBytes: model.Ptr(int64(1500))},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{Name: "by_status", ProjectionType: "KEYS_ONLY",
			PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S", Cardinality: model.Ptr(int64(4))}}}},
		AccessPatterns: patterns,
	}
}

// built is the model and the stated design of a valid input.
func built(t *testing.T, in *model.Input) (*model.Model, *model.Stated) {
	t.Helper()
	m, errs := model.Build(in)
	if errs = append(errs, Validate(m, m.SortKey)...); len(errs) > 0 {
		t.Fatalf("design errors: %v", errs)
	}
	return m, model.State(m, m.Input.Traffic)
}

// The stage on typed inputs: a pattern is matched with the table key, sized in read units from its items and
// their size (25 items of 1,500 bytes = 37,500 bytes = 10 units of 4 KB, halved for eventual reads), and fanned
// out over the shards once the shard count is known, since it does not know the shard source.
func TestMatchFinishAndIndexReads(t *testing.T) {
	t.Parallel()
	m, st := built(t, ordersDesign(model.Sharding{Strategy: model.StrategyRandom, Count: model.Ptr(int64(8))},
		model.AccessPattern{Name: "orders_of_customer", Equals: []string{"customer_id"},
			Sort: &model.SortCondition{On: "order_date", Condition: model.SortBetween}, Items: model.Ptr(int64(25)), ReadsPerSecond: model.Ptr(200.0)},
		model.AccessPattern{Name: "by_status", Index: model.Ptr("by_status"), Equals: []string{"status"}, ReadsPerSecond: model.Ptr(10.0)},
		model.AccessPattern{Name: "by_order_id", Equals: []string{"order_id"}, ReadsPerSecond: model.Ptr(1.0)},
	))
	matched := Match(m, st, m.PartitionKey, m.SortKey)
	if len(matched.Facts) != 3 || len(matched.Patterns) != 3 {
		t.Fatalf("matched %d facts, %d patterns; want 3", len(matched.Facts), len(matched.Patterns))
	}
	byName := map[string]model.PatternFacts{}
	for _, f := range matched.Facts {
		byName[f.Name] = f
	}
	orders := byName["orders_of_customer"]
	if !orders.Serves || orders.IndexKind != model.IndexKindTable || orders.ReadUnitsPerQuery != 5 || !orders.Fanout {
		t.Errorf("orders_of_customer: serves %v on %s, %v RU per query, fanout %v; want the table, 5 RU, a fan-out",
			orders.Serves, orders.IndexKind, orders.ReadUnitsPerQuery, orders.Fanout)
	}
	if f := byName["by_order_id"]; f.Serves {
		t.Errorf("by_order_id: every key needs more than order_id, yet %q serves it", f.Index)
	}

	figures := Finish(m, st, matched, capacity.TableDemand{ShardCount: 8, Capacity: model.Capacity{PeakReadUnits: model.Ptr(100.0)}})
	for _, f := range figures.Facts {
		if f.Name != "orders_of_customer" {
			continue
		}
		// 8 Queries of 5 RU per call, 200 calls a second.
		if f.QueriesPerCall != 8 || f.ReadUnitsPerCall != 40 || f.ReadUnitsPerSecond != 8000 {
			t.Errorf("orders_of_customer: %d queries, %v RU per call, %v RU/s; want 8, 40, 8,000", f.QueriesPerCall, f.ReadUnitsPerCall, f.ReadUnitsPerSecond)
		}
	}
	// Every pattern was analysed, so the table's peak reads are the larger of the declared 100 RU/s and the
	// patterns' reads on the table: 8,000 (by_status reads the GSI, by_order_id reads nothing).
	if got := model.Deref(figures.PeakReadUnits); got != 8000 {
		t.Errorf("peak read units %v, want 8,000", got)
	}

	gsis := IndexReads(m, figures, st.Table.GSIs)
	if got := gsis[0].PatternReadUnits; got == nil || *got != 5 {
		t.Errorf("by_status pattern reads %v; want 10 calls of one KEYS_ONLY entry at 0.5 RU = 5 RU/s", got)
	}
}

// The patterns' reads that land on the table key's busiest value one shard per call feed the capacity stage;
// a pattern that knows the shard source reads one shard.
func TestHotReadsFeedTheCapacity(t *testing.T) {
	t.Parallel()
	in := ordersDesign(model.Sharding{Strategy: model.StrategyCalculated, Source: "order_id", Count: model.Ptr(int64(4))},
		model.AccessPattern{Name: "order", Equals: []string{"customer_id", "order_date", "order_id"}, ReadsPerSecond: model.Ptr(300.0)})
	m, st := built(t, in)
	matched := Match(m, st, m.PartitionKey, m.SortKey)
	reads := HotReads(m, matched)
	f := matched.Facts[0]
	if !f.Serves || f.Fanout || !f.SizedBySharding {
		t.Fatalf("order: serves %v, fanout %v, sized by sharding %v; want a one-shard read of the table key", f.Serves, f.Fanout, f.SizedBySharding)
	}
	if want := f.ReadUnitsPerQuery * 300 * f.HotKeyShare; !reads.Complete || reads.HotReadUnits != want {
		t.Errorf("hot reads %+v, want %v complete", reads, want)
	}
}
