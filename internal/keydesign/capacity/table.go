package capacity

import (
	"cmp"
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The table-level capacity stage: units per request, the busiest key's demand and the shard count, the key
// facts the shard count sizes, the item collection the LSI limit caps, and each index's demand.

// TableDemand is the capacity stage's result: Derived.Capacity, the shards the busiest key needs and the
// shard count the design uses.
type TableDemand struct {
	Capacity       model.Capacity
	RequiredShards int64
	ShardCount     int64
	// Unknown lists the derived paths built from inputs not known at plan time: rules on them stay silent.
	Unknown []string
}

// PatternReads is what the access patterns read of the table key's busiest value: their read units, and
// whether they are complete (every pattern's rate known), as the patterns stage states them.
type PatternReads struct {
	HotReadUnits float64
	Complete     bool
}

// Sizing is what sizes an index entry and the writes it takes: the stated table and traffic, the table's
// key facts (Keys) and its demand (Table).
type Sizing struct {
	Table    model.TableDoc
	Traffic  model.TrafficDoc
	Keys     TableKeys
	Capacity model.Capacity
}

// Table is the table's capacity: units per request, peak and hot-key demand, per-shard demand, read
// fan-out, the required shards and the shard count. traffic is the table's (Traffic), stated the
// stated inputs with their defaults (traffic, sharding, target utilization), entities the entities' demand
// (EntityDemand; nil without entities), reads the access patterns' reads on the table key, pk the table's
// partition-key template.
func Table(m *model.Model, traffic *TableTraffic, stated *model.Stated, entities *model.EntitiesDoc, pk *model.Template, reads PatternReads) TableDemand {
	var out TableDemand
	in, t := m.Input, stated.Traffic
	c := &out.Capacity
	c.WriteUnitsPerWrite = WriteUnitsPerWrite(t.ItemSizeBytes, t.TransactionalWrites)
	c.ReadUnitsPerRead, _ = ReadUnitsPerRead(t.ItemSizeBytes, model.ReadConsistency(t.ReadConsistency))
	// The share of traffic on the busiest value of pk, unless traffic.hot_key_share states it.
	c.HotKeyShare, c.HotKeyShareSource = HotKeyShare(traffic.Traffic.HotKeyShare, pk, m.Segments)

	var hotW, hotR float64
	if t.WritesPerSecond != nil {
		// With replicas, the writes are every Region's, and the TTL deletes are replicated too.
		c.PeakWriteUnits = model.Ptr((*t.WritesPerSecond + in.ReplicatedTTLDeletes()) * c.WriteUnitsPerWrite)
		hotW = *c.PeakWriteUnits * c.HotKeyShare
		c.HotKeyWriteUnits = model.Ptr(hotW)
	}
	if t.ReadsPerSecond != nil {
		c.PeakReadUnits = model.Ptr(*t.ReadsPerSecond * c.ReadUnitsPerRead)
		hotR = *c.PeakReadUnits * c.HotKeyShare
		c.HotKeyReadUnits = model.Ptr(hotR)
	}
	if m.Entities != nil {
		hotW, hotR = entityCapacity(m, entities, c)
	}
	if reads.Complete && reads.HotReadUnits > hotR {
		hotR = reads.HotReadUnits // the access patterns' reads on the table key
		c.HotKeyReadUnits = model.Ptr(hotR)
	}
	if v := t.HottestItemWritesPerSecond; v != nil {
		c.HottestItemWriteUnits = model.Ptr(*v * c.WriteUnitsPerWrite)
	}
	if v := t.HottestItemReadsPerSecond; v != nil {
		c.HottestItemReadUnits = model.Ptr(*v * c.ReadUnitsPerRead)
	}
	out.RequiredShards = RequiredShards(hotW, hotR, stated.TargetUtilization)

	switch {
	case stated.Sharding.Strategy == model.StrategyNone:
		out.ShardCount = 1
	case in.Sharding.Count != nil:
		out.ShardCount = *in.Sharding.Count
	default:
		out.ShardCount = min(out.RequiredShards, model.MaxShardCount)
	}
	// The busiest key spreads over the shards only when its template carries {shard} (with entities, the
	// busiest collection's may not, though another entity's does).
	shards := float64(out.ShardCount)
	if m.Entities != nil && (pk == nil || !pk.HasPlaceholder(model.ShardPlaceholder)) {
		shards = 1
	}
	if c.HotKeyWriteUnits != nil {
		c.PerShardWriteUnits = model.Ptr(*c.HotKeyWriteUnits / shards)
	}
	if c.HotKeyReadUnits != nil {
		c.PerShardReadUnits = model.Ptr(*c.HotKeyReadUnits / shards)
	}
	c.ReadFanout = out.ShardCount
	// Derived numbers built from unknown inputs are unknown too, so rules on them stay silent.
	for _, p := range []string{"traffic", "traffic.writes_per_second", "traffic.reads_per_second", "traffic.item_size_bytes",
		"traffic.hot_key_share", "sharding", "sharding.count", "sharding.strategy", "segments", "partition_key.template", "target_utilization"} {
		if m.IsUnknown(p) {
			out.Unknown = []string{"derived.capacity", "derived.shard_count", "derived.required_shards"}
			break
		}
	}
	return out
}

// Collection estimates the item collection of one partition-key value: items per key × (item size + one
// entry per LSI). ALL and INCLUDE entries are bounded by item size + 100 bytes; KEYS_ONLY entries by the
// key bytes + 100. Items per key are given, bounded by the sort-key template sk (the table's own; nil with
// entities, whose collections bound theirs), or follow from a time bucket's writes. s are the stated table, its key facts and its demand, shardCount the table's shards,
// entities the entities with their key facts (EntityKeys; nil without entities).
func Collection(m *model.Model, s *Sizing, shardCount int64, entities *model.EntitiesDoc, sk *model.Template) model.CollectionEstimate {
	keys, t := s.Keys, s.Traffic
	entry := t.ItemSizeBytes
	keyBytes := int64(0)
	if keys.PartitionKey.MaxBytes != nil {
		keyBytes += *keys.PartitionKey.MaxBytes
	}
	if keys.SortKey != nil && keys.SortKey.MaxBytes != nil {
		keyBytes += *keys.SortKey.MaxBytes
	}
	for _, l := range s.Table.LSIs {
		switch l.ProjectionType {
		case model.ProjectionKeysOnly:
			entry += keyBytes + LSISortKeyBytes(l.SortKey.Type) + model.IndexEntryOverheadBytes
		default:
			entry += t.ItemSizeBytes + model.IndexEntryOverheadBytes
		}
	}
	est := model.CollectionEstimate{EntryBytes: entry, Basis: model.CollectionUnbounded}
	switch {
	case t.MaxItemsPerPartitionKey != nil:
		est.ItemsPerKey = model.Ptr(float64(*t.MaxItemsPerPartitionKey))
		est.Basis = model.CollectionGiven
	case sk != nil && keys.SortKey != nil && keys.SortKey.MaxBytes != nil && model.TemplateValues(sk, m.Segments, m.Input.Segments, shardCount) != nil:
		// The sort-key template bounds the items: a constant is one item, bounded segments their product.
		est.ItemsPerKey = model.Ptr(float64(*model.TemplateValues(sk, m.Segments, m.Input.Segments, shardCount)))
		est.Basis = model.CollectionTemplate
	case keys.PartitionKey.HasTimeBucket && t.WritesPerSecond != nil:
		bucket := math.Inf(1)
		for _, seg := range keys.PartitionKey.Segments {
			if seg.Kind == model.KindTime {
				bucket = math.Min(bucket, m.Segments[seg.Name].BucketSeconds)
			}
		}
		share := s.Capacity.HotKeyShare
		est.ItemsPerKey = model.Ptr(math.Ceil(*t.WritesPerSecond * share * bucket / float64(shardCount)))
		est.Basis = model.CollectionTimeBucket
	}
	if est.ItemsPerKey != nil {
		est.Bytes = model.Ptr(*est.ItemsPerKey * float64(entry))
	}
	if m.Entities != nil {
		entityCollection(entities, &est)
	}
	return est
}

// entityCapacity replaces the capacity model's table-wide figures with the entities': the peak is every
// entity's units, the busiest key the busiest collection's, units per request their write-weighted mean.
func entityCapacity(mdl *model.Model, entities *model.EntitiesDoc, c *model.Capacity) (hotW, hotR float64) {
	var peakW, peakR, writes, reads float64
	var anyW, anyR bool
	for i, d := range entities.Items {
		t := mdl.Input.Entities[i].Traffic
		if d.WriteUnits != nil {
			peakW, writes, anyW = peakW+*d.WriteUnits, writes+*t.WritesPerSecond, true
		}
		if d.ReadUnits != nil {
			peakR, reads, anyR = peakR+*d.ReadUnits, reads+*t.ReadsPerSecond, true
		}
	}
	busiest := entities.Collections[entities.Busiest]
	c.HotKeyShareSource = ShareEntities
	c.PeakWriteUnits, c.HotKeyWriteUnits, c.PeakReadUnits, c.HotKeyReadUnits = nil, nil, nil, nil
	if anyW {
		if writes > 0 {
			c.WriteUnitsPerWrite = peakW / writes
		}
		hotW = model.Deref(busiest.WriteUnits)
		if peakW > 0 {
			c.HotKeyShare = hotW / peakW
		}
		// A global table's TTL deletes are replicated like writes, spread as the writes are.
		if ttl := mdl.Input.ReplicatedTTLDeletes(); ttl > 0 && writes > 0 {
			peakW, hotW = peakW*(writes+ttl)/writes, hotW*(writes+ttl)/writes
		}
		c.PeakWriteUnits = model.Ptr(peakW)
		c.HotKeyWriteUnits = model.Ptr(hotW)
	}
	if anyR {
		c.PeakReadUnits = model.Ptr(peakR)
		if reads > 0 {
			c.ReadUnitsPerRead = peakR / reads
		}
		hotR = model.Deref(busiest.ReadUnits)
		c.HotKeyReadUnits = model.Ptr(hotR)
	}
	return hotW, hotR
}

// entityCollection is the item collection the LSI limit caps: the largest collection's, unbounded when an
// entity of any collection states no max_items_per_partition_key.
func entityCollection(entities *model.EntitiesDoc, est *model.CollectionEstimate) {
	*est = model.CollectionEstimate{EntryBytes: est.EntryBytes, Basis: model.CollectionUnbounded}
	var largest *model.CollectionDoc
	for i, col := range entities.Collections {
		if col.Bytes == nil {
			return
		}
		if largest == nil || *col.Bytes > *largest.Bytes {
			largest = &entities.Collections[i]
		}
	}
	if largest == nil || largest.ItemsPerKey == nil || *largest.ItemsPerKey <= 0 {
		return
	}
	est.ItemsPerKey, est.Bytes, est.Basis = largest.ItemsPerKey, largest.Bytes, model.CollectionTemplate
	// Given when an entity of it states its bound; else every entity's sort-key template bounds it.
	for _, d := range entities.Items {
		if slices.Contains(largest.Entities, d.Name) && d.ItemsBasis == model.CollectionGiven {
			est.Basis = model.CollectionGiven
		}
	}
	est.EntryBytes = int64(math.Ceil(*largest.Bytes / *largest.ItemsPerKey))
}

// EntityIndexCost sets an index's entry and units per write from the entities it holds: each entity's
// projected entry (its item size, its key templates' bytes), and their write-weighted means (the plain mean
// when no entity states its writes).
func EntityIndexCost(m *model.Model, ic *model.IndexCost, projection string, nonKey []string, lsi bool) {
	var weight, entrySum, unitsSum, reducibleSum float64
	ic.Entities = []model.IndexEntityWrite{}
	for _, w := range EntityIndexWrites(m, ic.Name, projection, nonKey, lsi) {
		ic.Entities = append(ic.Entities, w.Write)
		weight1 := 1.0
		if w.Write.WritesPerSecond != nil {
			weight1 = *w.Write.WritesPerSecond
		}
		weight += weight1
		entrySum += weight1 * float64(w.Write.EntryBytes)
		unitsSum += weight1 * w.Write.WriteUnitsPerWrite
		reducibleSum += weight1 * w.Reducible
	}
	if weight <= 0 {
		return
	}
	ic.EntryBytes = int64(math.Ceil(entrySum / weight))
	ic.WriteUnitsPerWrite = unitsSum / weight
	ic.ReducibleWriteUnits = reducibleSum / weight
}

// Indexes are the GSIs with their partition-key cardinality, time bucketing and hot partition demand, and
// the projected non-key attributes of all indexes, from the stated table, its key facts and demand (s) and
// its shard count.
func Indexes(m *model.Model, s *Sizing, shardCount int64) (gsis []model.GSIDoc, projectedNonKey int) {
	gsis = slices.Clone(s.Table.GSIs)
	for i := range gsis {
		g := &gsis[i]
		if g.ProjectionType == model.ProjectionInclude {
			projectedNonKey += len(g.NonKeyAttributes)
		}
		if m.Entities != nil {
			EntityGSIFacts(m, g, shardCount)
			continue
		}
		product, bounded := int64(1), len(g.PartitionKey) > 0
		for _, k := range g.PartitionKey {
			if seg, ok := m.Segments[k.Name]; ok && seg.Kind == model.KindTime {
				g.TimeBucketed = true
			}
			card := k.Cardinality
			if card == nil {
				if seg, ok := m.Segments[k.Name]; ok {
					card = seg.Cardinality
				}
			}
			if card == nil {
				bounded = false
				continue
			}
			product = model.SaturatingMul(product, *card)
		}
		if bounded {
			g.PartitionKeyCardinality = model.Ptr(product)
		}
		g.HotPartitionWriteUnits = GSIHotPartitionWriteUnits(GSIDeclaredWriteUnits(m, s, g), *g)
	}
	for _, l := range s.Table.LSIs {
		if l.ProjectionType == model.ProjectionInclude {
			projectedNonKey += len(l.NonKeyAttributes)
		}
	}
	return gsis, projectedNonKey
}

// tableKeyBytes bounds the table's key attributes of an index entry: names plus the templates' longest
// values (an id's default length without a template).
func tableKeyBytes(s *Sizing) int64 {
	d, t := s.Keys, s.Table
	n := int64(len(t.PartitionKey.Name)) + cmp.Or(model.Deref(d.PartitionKey.MaxBytes), model.DefaultIDMaxLength)
	if t.SortKey != nil {
		n += int64(len(t.SortKey.Name))
		if d.SortKey != nil {
			n += cmp.Or(model.Deref(d.SortKey.MaxBytes), model.DefaultIDMaxLength)
		}
	}
	return n
}

// EntryKeyBytes bounds the key attributes of one item's index entry, names and values: the table's keys and
// the index's own. d is the item's entity, whose templates bound its keys; nil for a table without
// entities, whose templates (or an id's default length) bound them.
// s holds the stated table and its key facts.
func EntryKeyBytes(m *model.Model, s *Sizing, d *model.EntityDoc, indexKeys ...[]model.IndexKeyDoc) int64 {
	if d == nil {
		n := tableKeyBytes(s)
		for _, keys := range indexKeys {
			for _, k := range keys {
				n += attributeBytes(k, m.Segments)
			}
		}
		return n
	}
	return EntityEntryKeyBytes(m.Entities, d, indexKeys...)
}

// GSIWriteUnitsPerWrite is what one table write that carries a GSI's key costs the index: its projected
// entry in 1 KB write units (×2 transactional), the IndexCost.WriteUnitsPerWrite the cost model prices.
func GSIWriteUnitsPerWrite(m *model.Model, s *Sizing, g *model.GSIDoc) float64 {
	entry := ProjectedEntryBytes(g.ProjectionType, s.Traffic.ItemSizeBytes, EntryKeyBytes(m, s, nil, g.PartitionKey, g.SortKey), g.NonKeyAttributes)
	return WriteUnitsPerWrite(entry, s.Traffic.TransactionalWrites)
}

// GSIDeclaredWriteUnits is a GSI's declared peak write demand: the table's peak writes per second, each in
// the index's own write units (a KEYS_ONLY entry of a large item costs fewer than the item); nil without
// declared writes.
func GSIDeclaredWriteUnits(m *model.Model, s *Sizing, g *model.GSIDoc) *float64 {
	if m.Entities != nil {
		// The writes of the entities it holds, each in its own entry's units.
		var units *float64
		for _, w := range EntityIndexWrites(m, g.Name, g.ProjectionType, g.NonKeyAttributes, false) {
			if w.Write.WritesPerSecond != nil {
				units = model.Ptr(model.Deref(units) + *w.Write.WritesPerSecond*w.Write.WriteUnitsPerWrite)
			}
		}
		return units
	}
	c := s.Capacity
	if c.PeakWriteUnits == nil || c.WriteUnitsPerWrite <= 0 {
		return nil
	}
	return model.Ptr(*c.PeakWriteUnits / c.WriteUnitsPerWrite * GSIWriteUnitsPerWrite(m, s, g))
}

// attributeBytes bounds an index key attribute: its name and the longest value of the segment of the same
// name, else a number's or an id's default bound.
func attributeBytes(k model.IndexKeyDoc, segments map[string]model.ResolvedSegment) int64 {
	if s, ok := segments[k.Name]; ok {
		return int64(len(k.Name)) + s.MaxLength
	}
	return int64(len(k.Name)) + LSISortKeyBytes(k.Type)
}

// BusiestPerShard is the demand on one shard of a single-table design's busiest key: the busiest
// collection's (each entity's busiest value over its own shards, summed), the reads raised to the table's
// per-shard reads where the access patterns read the key harder than the entities state.
func BusiestPerShard(entities *model.EntitiesDoc, c model.Capacity) (writes, reads *float64) {
	busiest := entities.Collections[entities.Busiest]
	writes, reads = busiest.PerShardWriteUnits, busiest.PerShardReadUnits
	if writes == nil {
		writes = c.PerShardWriteUnits
	}
	if c.HotKeyReadUnits != nil && (busiest.ReadUnits == nil || *c.HotKeyReadUnits > *busiest.ReadUnits) {
		reads = c.PerShardReadUnits
	}
	return writes, reads
}
