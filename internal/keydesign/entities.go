package keydesign

import (
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The entities' demand, from the entity model the model stage built (model/entity_model.go): each entity's
// units, the share of its traffic on one partition-key value, each item collection's summed demand and size,
// and the busiest collection, which the capacity rules read as the busiest key of a one-entity table.

// entityModel is the entity model the model stage built; the capacity figures below fill its demand.
type entityModel = model.Entities

func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// addTo adds a stated value to a total, which stays nil until something is stated.
func addTo[T int64 | float64](total **T, v *T) {
	if v != nil {
		*total = ptr(ptrValue(*total) + *v)
	}
}

// lowerEntities makes the entity model the table's design for the rest of the analysis: the busiest
// collection's busiest entity gives the key templates the key rules read, the entities' traffic sums to the
// table's, and each index's share of the writes is that of the entities carrying its key (unless stated).
// The capacity and collection figures are then taken from the model (capacity, collection).
func (a *analyzer) lowerEntities(m *entityModel) (pk, sk *model.Template) {
	a.entities = m
	lowered := *a.in
	busiest := m.Doc.Collections[m.Doc.Busiest]
	lead := -1
	for i, d := range m.Doc.Items {
		if !slices.Contains(busiest.Entities, d.Name) {
			continue
		}
		if lead < 0 || ptrValue(d.WriteUnits) > ptrValue(m.Doc.Items[lead].WriteUnits) ||
			ptrValue(d.WriteUnits) == ptrValue(m.Doc.Items[lead].WriteUnits) && ptrValue(d.ReadUnits) > ptrValue(m.Doc.Items[lead].ReadUnits) {
			lead = i
		}
	}
	m.Doc.Lead = m.Doc.Items[lead].Name
	templates := m.Templates[lead]
	pk = templates[m.TableKeys[0]]
	if pk != nil {
		lowered.PartitionKey.Template = &pk.Source
	}
	// A template of the lead not known yet leaves the table's template unknown: the rules on it stay silent.
	for i, k := range m.TableKeys {
		if templates[k] == nil {
			a.unknown[[]string{"partition_key", "sort_key"}[i]+".template"] = true
		}
	}
	if lowered.SortKey != nil {
		sortKey := *lowered.SortKey
		if sk = templates[m.TableKeys[1]]; sk != nil {
			sortKey.Template = &sk.Source
		}
		lowered.SortKey = &sortKey
	}
	var t model.Traffic
	var writes, sizeWeighted float64
	largest := int64(0)
	for i, e := range a.in.Entities {
		addTo(&t.WritesPerSecond, e.Traffic.WritesPerSecond)
		addTo(&t.AverageWritesPerSecond, e.Traffic.AverageWritesPerSecond)
		addTo(&t.ReadsPerSecond, e.Traffic.ReadsPerSecond)
		addTo(&t.ItemCount, e.Traffic.ItemCount)
		if ptrValue(e.Traffic.TransactionalWrites) {
			t.TransactionalWrites = true
		}
		w := ptrValue(e.Traffic.WritesPerSecond)
		writes += w
		sizeWeighted += w * float64(m.Doc.Items[i].ItemSizeBytes)
		largest = max(largest, m.Doc.Items[i].ItemSizeBytes)
	}
	size := largest
	if writes > 0 {
		size = int64(math.Ceil(sizeWeighted / writes))
	}
	t.ItemSizeBytes = &size
	if busiest.ItemsPerKey != nil {
		t.MaxItemsPerPartitionKey = ptr(int64(*busiest.ItemsPerKey))
	}
	lowered.Traffic = t
	share := func(index string) *float64 {
		if writes <= 0 {
			return nil
		}
		var in float64
		for i, e := range a.in.Entities {
			if slices.Contains(m.Doc.Items[i].Indexes, index) {
				in += ptrValue(e.Traffic.WritesPerSecond)
			}
		}
		return ptr(in / writes)
	}
	lowered.LocalSecondaryIndexes = slices.Clone(a.in.LocalSecondaryIndexes)
	for i, l := range lowered.LocalSecondaryIndexes {
		if l.ItemShare == nil {
			lowered.LocalSecondaryIndexes[i].ItemShare = share(l.Name)
		}
	}
	lowered.GlobalSecondaryIndexes = slices.Clone(a.in.GlobalSecondaryIndexes)
	for i, g := range lowered.GlobalSecondaryIndexes {
		if g.ItemShare == nil {
			lowered.GlobalSecondaryIndexes[i].ItemShare = share(g.Name)
		}
	}
	a.in = &lowered
	return pk, sk
}
