package keydesign

import (
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The table-level view of a single-table design. The entity model (model/entity_model.go) and its demand
// (capacity/entities.go) are what the key, collection and index rules read; the stages that still read a
// table of one entity (pattern matching on the table key, the layout, the cost's table figures) read this
// view of it.

// addTo adds a stated value to a total, which stays nil until something is stated.
func addTo[T int64 | float64](total **T, v *T) {
	if v != nil {
		*total = model.Ptr(model.Deref(*total) + *v)
	}
}

// tableView is the entity model seen as one table: the table's own keys, which name attributes only (each
// entity writes its own templates), the entities' traffic summed, the item size their write-weighted mean,
// the items per key the busiest collection's, and each index's share of the writes that of the entities
// carrying its key (unless stated). demand is the entities' (capacity.EntityDemand).
func tableView(design *model.Model, demand *model.EntitiesDoc) *model.Input {
	view := *design.Input
	table := &view
	busiest := demand.Collections[demand.Busiest]
	var t model.Traffic
	var writes, sizeWeighted float64
	largest := int64(0)
	for i, e := range design.Input.Entities {
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
	if busiest.ItemsPerKey != nil {
		t.MaxItemsPerPartitionKey = model.Ptr(int64(*busiest.ItemsPerKey))
	}
	view.Traffic = t
	share := func(index string) *float64 {
		if writes <= 0 {
			return nil
		}
		var in float64
		for i, e := range design.Input.Entities {
			if slices.Contains(demand.Items[i].Indexes, index) {
				in += model.Deref(e.Traffic.WritesPerSecond)
			}
		}
		return model.Ptr(in / writes)
	}
	view.LocalSecondaryIndexes = slices.Clone(design.Input.LocalSecondaryIndexes)
	for i, l := range view.LocalSecondaryIndexes {
		if l.ItemShare == nil {
			view.LocalSecondaryIndexes[i].ItemShare = share(l.Name)
		}
	}
	view.GlobalSecondaryIndexes = slices.Clone(design.Input.GlobalSecondaryIndexes)
	for i, g := range view.GlobalSecondaryIndexes {
		if g.ItemShare == nil {
			view.GlobalSecondaryIndexes[i].ItemShare = share(g.Name)
		}
	}
	return table
}
