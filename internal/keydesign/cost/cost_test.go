package cost

import (
	"math"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// priced runs the stages the cost stage reads on a design of one entity and prices it.
func priced(t *testing.T, in *model.Input) *model.CostEstimate {
	t.Helper()
	m, errs := model.Build(in)
	if errs = append(errs, Validate(m)...); len(errs) > 0 {
		t.Fatalf("design errors: %v", errs)
	}
	traffic := capacity.Traffic(m, nil)
	st := model.State(m, traffic.Traffic)
	demand := capacity.Table(m, traffic, st, nil, m.PartitionKey, capacity.PatternReads{})
	keys := capacity.Keys(m, st.Sharding, demand.ShardCount, m.PartitionKey, m.SortKey)
	sizing := &capacity.Sizing{Table: st.Table, Traffic: st.Traffic, Keys: keys, Capacity: demand.Capacity}
	gsis, _ := capacity.Indexes(m, sizing, demand.ShardCount)
	est := Estimate(m, traffic, &Facts{Stated: st, Sizing: sizing, GSIs: gsis})
	if est == nil || est.OnDemand == nil || est.Prices == nil {
		t.Fatalf("no estimate: %+v", est)
	}
	return est
}

func events(writes float64, itemBytes int64, gsis ...model.GlobalSecondaryIndex) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: model.Ptr("EVENT#{event_id}")},
		Segments:     map[string]model.Segment{"event_id": {Kind: model.KindID}},
		Traffic: model.Traffic{WritesPerSecond: model.Ptr(writes), AverageWritesPerSecond: model.Ptr(writes),
			ReadsPerSecond: model.Ptr(0.0), AverageReadsPerSecond: model.Ptr(0.0), ItemSizeBytes: model.Ptr(itemBytes)},
		GlobalSecondaryIndexes: gsis,
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// On demand, a month of writes is the average write rate × the month's seconds × the units per write, at the
// Region's price per million write request units (us-east-1 unless the design says otherwise).
func TestOnDemandTableWrites(t *testing.T) {
	t.Parallel()
	est := priced(t, events(100, 3000))
	// 3,000 bytes are 3 write units of 1 KB.
	units := 100 * 3.0 * model.HoursPerMonth * model.SecondsPerHour
	if want := units / 1e6 * est.Prices.WriteRequestUnitsPerMillion; !near(est.OnDemand.TableWrites, want) {
		t.Errorf("on-demand table writes $%v, want $%v", est.OnDemand.TableWrites, want)
	}
	if est.Region != model.DefaultPricingRegion || est.OnDemand.Reads != 0 {
		t.Errorf("region %s, reads $%v; want %s, $0", est.Region, est.OnDemand.Reads, model.DefaultPricingRegion)
	}
	if twice := priced(t, events(200, 3000)); !near(twice.OnDemand.TableWrites, 2*est.OnDemand.TableWrites) {
		t.Errorf("twice the writes cost $%v, want $%v", twice.OnDemand.TableWrites, 2*est.OnDemand.TableWrites)
	}
}

// An index's writes are priced in its own entry's units: a KEYS_ONLY entry of a 4 KB item is one write unit,
// an ALL entry the item's units, and its on-demand cost follows the units.
func TestIndexWritesFollowTheProjection(t *testing.T) {
	t.Parallel()
	key := []model.IndexKeyAttribute{{Name: "user", Type: "S"}}
	est := priced(t, events(100, 4000,
		model.GlobalSecondaryIndex{Name: "all", PartitionKey: key, ProjectionType: model.ProjectionAll},
		model.GlobalSecondaryIndex{Name: "keys", PartitionKey: key, ProjectionType: model.ProjectionKeysOnly},
	))
	byName := map[string]model.IndexCost{}
	for _, ic := range est.Indexes {
		byName[ic.Name] = ic
	}
	all, keys := byName["all"], byName["keys"]
	if keys.WriteUnitsPerWrite != 1 || all.WriteUnitsPerWrite < 4 {
		t.Fatalf("units per write: ALL %v, KEYS_ONLY %v; want at least 4 and 1", all.WriteUnitsPerWrite, keys.WriteUnitsPerWrite)
	}
	if all.OnDemandWriteCost == nil || keys.OnDemandWriteCost == nil ||
		!near(*all.OnDemandWriteCost / *keys.OnDemandWriteCost, all.WriteUnitsPerWrite/keys.WriteUnitsPerWrite) {
		t.Errorf("on-demand index costs ALL %v, KEYS_ONLY %v: not in the ratio of their units", all.OnDemandWriteCost, keys.OnDemandWriteCost)
	}
	if !near(est.OnDemand.IndexWrites, *all.OnDemandWriteCost+*keys.OnDemandWriteCost) {
		t.Errorf("index writes $%v, want the sum of the indexes' $%v", est.OnDemand.IndexWrites, *all.OnDemandWriteCost+*keys.OnDemandWriteCost)
	}
}
