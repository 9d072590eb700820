package policy

import (
	"math"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// FuzzEvaluateNumbers drives the numeric traffic, capacity and sharding inputs through the analysis and the
// policies: every input is either refused with a field error, or gives a document whose derived numbers are
// all finite and which the policies evaluate without error or panic.
func FuzzEvaluateNumbers(f *testing.F) {
	f.Add(2500.0, 400.0, int64(800), 0.9, int64(200000), int64(4), 0.8, 50.0, int64(1000), int64(5))
	f.Add(1e308, 1e308, int64(409600), 1.0, int64(math.MaxInt64), int64(100000), 1e-300, 1e308, int64(math.MaxInt64), int64(math.MaxInt64))
	f.Add(1e9, 1e9, int64(409600), 1.0, int64(1e12), int64(1), 1e-9, 1e9, int64(1e9), int64(1e9))
	f.Add(-1.0, math.NaN(), int64(0), -0.5, int64(-1), int64(0), 0.0, math.Inf(1), int64(0), int64(-3))
	engine, err := Builtin()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, writes, reads float64, itemSize int64, share float64, items, count int64, utilization, hotItem float64, capacity, cardinality int64) {
		in := tableDesign()
		in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
		in.Sharding = model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: &count}
		in.Traffic = model.Traffic{WritesPerSecond: &writes, ReadsPerSecond: &reads, ItemSizeBytes: &itemSize, HotKeyShare: &share,
			MaxItemsPerPartitionKey: &items, HottestItemWritesPerSecond: &hotItem, HottestItemReadsPerSecond: &hotItem}
		in.TargetUtilization = &utilization
		in.BillingMode = "PROVISIONED"
		in.ReadCapacity, in.WriteCapacity = &capacity, &capacity
		for i := range in.GlobalSecondaryIndexes {
			in.GlobalSecondaryIndexes[i].PartitionKey[0].Cardinality = &cardinality
		}
		doc, errs := keydesign.Analyze(in)
		if len(errs) > 0 {
			return
		}
		c := doc.Derived.Capacity
		for _, v := range []*float64{c.PeakWriteUnits, c.PeakReadUnits, c.HotKeyWriteUnits, c.HotKeyReadUnits, c.PerShardWriteUnits,
			c.PerShardReadUnits, c.HottestItemWriteUnits, c.HottestItemReadUnits, &c.HotKeyShare, doc.Derived.Collection.Bytes,
			doc.Derived.Collection.ItemsPerKey} {
			if v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v)) {
				t.Fatalf("a derived number is not finite: %+v", doc.Derived)
			}
		}
		if _, err := engine.Evaluate(t.Context(), doc); err != nil {
			t.Fatalf("evaluation failed on an accepted design: %v", err)
		}
	})
}
