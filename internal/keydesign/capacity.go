package keydesign

import (
	"math"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// hotKeyShare is the share of traffic on the busiest value of the partition key pk (capacity.HotKeyShare),
// unless traffic.hot_key_share states it.
func (a *analyzer) hotKeyShare(pk *model.Template) (float64, string) {
	return capacity.HotKeyShare(a.in.Traffic.HotKeyShare, pk, a.segments)
}

// capacity fills Derived.Capacity, the required shards and the shard count: units per request, peak and
// hot-key demand, per-shard demand and read fan-out.
func (a *analyzer) capacity(doc *model.Document, pk *model.Template) {
	in, d, t := a.in, &doc.Derived, doc.Traffic
	c := &d.Capacity
	c.WriteUnitsPerWrite = capacity.WriteUnitsPerWrite(t.ItemSizeBytes, t.TransactionalWrites)
	c.ReadUnitsPerRead, _ = capacity.ReadUnitsPerRead(t.ItemSizeBytes, model.ReadConsistency(t.ReadConsistency))
	c.HotKeyShare, c.HotKeyShareSource = a.hotKeyShare(pk)

	var hotW, hotR float64
	if t.WritesPerSecond != nil {
		// With replicas, the writes are every Region's (replicas.go), and the TTL deletes are replicated too.
		c.PeakWriteUnits = ptr((*t.WritesPerSecond + a.in.ReplicatedTTLDeletes()) * c.WriteUnitsPerWrite)
		hotW = *c.PeakWriteUnits * c.HotKeyShare
		c.HotKeyWriteUnits = ptr(hotW)
	}
	if t.ReadsPerSecond != nil {
		c.PeakReadUnits = ptr(*t.ReadsPerSecond * c.ReadUnitsPerRead)
		hotR = *c.PeakReadUnits * c.HotKeyShare
		c.HotKeyReadUnits = ptr(hotR)
	}
	if a.entities != nil {
		hotW, hotR = a.entityCapacity(c)
	}
	if hot, ok := a.patternHotReads(doc); ok && a.patternsComplete(doc) && hot > hotR {
		hotR = hot // the access patterns' reads on the table key (access_patterns_analysis.go)
		c.HotKeyReadUnits = ptr(hotR)
	}
	if v := t.HottestItemWritesPerSecond; v != nil {
		c.HottestItemWriteUnits = ptr(*v * c.WriteUnitsPerWrite)
	}
	if v := t.HottestItemReadsPerSecond; v != nil {
		c.HottestItemReadUnits = ptr(*v * c.ReadUnitsPerRead)
	}
	d.RequiredShards = capacity.RequiredShards(hotW, hotR, doc.TargetUtilization)

	switch {
	case doc.Sharding.Strategy == model.StrategyNone:
		d.ShardCount = 1
	case in.Sharding.Count != nil:
		d.ShardCount = *in.Sharding.Count
	default:
		d.ShardCount = min(d.RequiredShards, model.MaxShardCount)
	}
	// The busiest key spreads over the shards only when its template carries {shard} (with entities, the
	// busiest collection's may not, though another entity's does).
	shards := float64(d.ShardCount)
	if a.entities != nil && (pk == nil || !pk.HasPlaceholder(model.ShardPlaceholder)) {
		shards = 1
	}
	if c.HotKeyWriteUnits != nil {
		c.PerShardWriteUnits = ptr(*c.HotKeyWriteUnits / shards)
	}
	if c.HotKeyReadUnits != nil {
		c.PerShardReadUnits = ptr(*c.HotKeyReadUnits / shards)
	}
	c.ReadFanout = d.ShardCount
	if d.Replicas != nil {
		d.Replicas.HotKeyWriteUnits = c.HotKeyWriteUnits
	}
	// Derived numbers built from unknown inputs are unknown too, so rules on them stay silent.
	for _, p := range []string{"traffic", "traffic.writes_per_second", "traffic.reads_per_second", "traffic.item_size_bytes",
		"traffic.hot_key_share", "sharding", "sharding.count", "sharding.strategy", "segments", "partition_key.template", "target_utilization"} {
		if a.isUnknown(p) {
			doc.Unknown = append(doc.Unknown, "derived.capacity", "derived.shard_count", "derived.required_shards")
			break
		}
	}
}

// collection estimates the item collection of one partition-key value: items per key × (item size + one
// entry per LSI). ALL and INCLUDE entries are bounded by item size + 100 bytes; KEYS_ONLY entries by the
// key bytes + 100. Items per key are given, or follow from a time bucket's writes.
func (a *analyzer) collection(doc *model.Document) {
	d, t := &doc.Derived, doc.Traffic
	entry := t.ItemSizeBytes
	keyBytes := int64(0)
	if d.PartitionKey.MaxBytes != nil {
		keyBytes += *d.PartitionKey.MaxBytes
	}
	if d.SortKey != nil && d.SortKey.MaxBytes != nil {
		keyBytes += *d.SortKey.MaxBytes
	}
	for _, l := range doc.Table.LSIs {
		switch l.ProjectionType {
		case model.ProjectionKeysOnly:
			entry += keyBytes + capacity.LSISortKeyBytes(l.SortKey.Type) + model.IndexEntryOverheadBytes
		default:
			entry += t.ItemSizeBytes + model.IndexEntryOverheadBytes
		}
	}
	d.Collection = model.CollectionEstimate{EntryBytes: entry, Basis: CollectionUnbounded}
	switch {
	case t.MaxItemsPerPartitionKey != nil:
		d.Collection.ItemsPerKey = ptr(float64(*t.MaxItemsPerPartitionKey))
		d.Collection.Basis = CollectionGiven
	case a.entities == nil && a.sk != nil && d.SortKey != nil && d.SortKey.MaxBytes != nil && model.TemplateValues(a.sk, a.segments, a.in.Segments, d.ShardCount) != nil:
		// The sort-key template bounds the items: a constant is one item, bounded segments their product.
		d.Collection.ItemsPerKey = ptr(float64(*model.TemplateValues(a.sk, a.segments, a.in.Segments, d.ShardCount)))
		d.Collection.Basis = CollectionTemplate
	case d.PartitionKey.HasTimeBucket && t.WritesPerSecond != nil:
		bucket := math.Inf(1)
		for _, s := range d.PartitionKey.Segments {
			if s.Kind == model.KindTime {
				bucket = math.Min(bucket, a.segments[s.Name].BucketSeconds)
			}
		}
		share := d.Capacity.HotKeyShare
		d.Collection.ItemsPerKey = ptr(math.Ceil(*t.WritesPerSecond * share * bucket / float64(d.ShardCount)))
		d.Collection.Basis = CollectionTimeBucket
	}
	if d.Collection.ItemsPerKey != nil {
		d.Collection.Bytes = ptr(*d.Collection.ItemsPerKey * float64(entry))
	}
	if a.entities != nil {
		a.entityCollection(&d.Collection)
	}
}
