package capacity

import (
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// TableTraffic is the traffic the table as a whole takes, which the table-level figures (units per request,
// the patterns' default item size, the cost's table writes and storage, a migration's items) read. A design
// without entities states it (`traffic`); a single-table design's is its entities' together.
type TableTraffic struct {
	Traffic model.Traffic
	in      *model.Input
	// shares are a single-table design's indexes' shares of the table's writes, by index name; nil without
	// entities, whose input states them.
	shares map[string]*float64
}

// IndexShare is the share of the table's items (and writes) that carry the index's key; nil: every item.
func (t *TableTraffic) IndexShare(index string) *float64 {
	if t.shares != nil {
		return t.shares[index]
	}
	return statedShare(t.in, index)
}

// statedShare is an index's item_share as the design states it; nil when it does not.
func statedShare(in *model.Input, index string) *float64 {
	if in == nil {
		return nil
	}
	for _, l := range in.LocalSecondaryIndexes {
		if l.Name == index {
			return l.ItemShare
		}
	}
	for _, g := range in.GlobalSecondaryIndexes {
		if g.Name == index {
			return g.ItemShare
		}
	}
	return nil
}

// Traffic is the table's traffic. Without entities, the design's own traffic and each index's stated
// item_share. With entities (demand is EntityDemand's result), their writes, reads and items summed, the
// item size their write-weighted mean (the largest without writes), the items per partition-key value the
// busiest collection's, and each index's share the writes of the entities carrying its key, unless stated.
func Traffic(design *model.Model, demand *model.EntitiesDoc) *TableTraffic {
	in := design.Input
	out := &TableTraffic{Traffic: in.Traffic, in: in}
	if demand == nil {
		return out
	}
	out.shares = make(map[string]*float64, len(in.LocalSecondaryIndexes)+len(in.GlobalSecondaryIndexes))
	for _, l := range in.LocalSecondaryIndexes {
		out.shares[l.Name] = l.ItemShare
	}
	for _, g := range in.GlobalSecondaryIndexes {
		out.shares[g.Name] = g.ItemShare
	}
	var t model.Traffic
	var writes, sizeWeighted float64
	largest := int64(0)
	for i, e := range in.Entities {
		addTo(&t.WritesPerSecond, e.Traffic.WritesPerSecond)
		addTo(&t.AverageWritesPerSecond, e.Traffic.AverageWritesPerSecond)
		addTo(&t.ReadsPerSecond, e.Traffic.ReadsPerSecond)
		addTo(&t.ItemCount, e.Traffic.ItemCount)
		if model.Deref(e.Traffic.TransactionalWrites) {
			t.TransactionalWrites = true
		}
		w := model.Deref(e.Traffic.WritesPerSecond)
		writes += w
		sizeWeighted += w * float64(demand.Items[i].ItemSizeBytes)
		largest = max(largest, demand.Items[i].ItemSizeBytes)
	}
	size := largest
	if writes > 0 {
		size = int64(math.Ceil(sizeWeighted / writes))
	}
	t.ItemSizeBytes = &size
	if busiest := demand.Collections[demand.Busiest]; busiest.ItemsPerKey != nil {
		t.MaxItemsPerPartitionKey = model.Ptr(int64(*busiest.ItemsPerKey))
	}
	out.Traffic = t
	for name, stated := range out.shares {
		if stated != nil || writes <= 0 {
			continue
		}
		var carried float64
		for i, e := range in.Entities {
			if slices.Contains(demand.Items[i].Indexes, name) {
				carried += model.Deref(e.Traffic.WritesPerSecond)
			}
		}
		out.shares[name] = model.Ptr(carried / writes)
	}
	return out
}

// addTo adds a stated value to a total, which stays nil until something is stated.
func addTo[T int64 | float64](total **T, v *T) {
	if v != nil {
		*total = model.Ptr(model.Deref(*total) + *v)
	}
}
