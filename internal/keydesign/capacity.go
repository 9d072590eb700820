package keydesign

import (
	"fmt"
	"math"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The capacity model: everything dynamokeys derives from traffic, in the order it is computed.
//
//  1. Units per request: a write costs ceil(item size / 1 KB) write units (×2 transactional); a read costs
//     ceil(item size / 4 KB) read units × 0.5 eventual, 1 strong, 2 transactional.
//  2. Hot-key share: the busiest partition-key value's share of traffic, given or derived from the
//     partition key's segments.
//  3. Hot demand = rate × units per request × share. Required shards = max(1, ceil(hot WCU / (1,000·u)),
//     ceil(hot RCU / (3,000·u))), u the target utilisation. Per-shard demand = hot demand / shard count;
//     read fan-out = shard count.
//  4. GSI hot partition: every table write lands in the index, spread over its partition-key values.
//  5. Item collection (what the 10 GB LSI limit caps): items per key × (item size + one entry per LSI:
//     ALL or INCLUDE → item size + 100 bytes, KEYS_ONLY → key bytes + 100 bytes).
//
// The results live in Derived.Capacity, Derived.RequiredShards, Derived.ShardCount, GSIDoc and
// Derived.Collection (document.go); the AWS limits they are compared with are in limits.go.

// Request-unit multipliers (ProvisionedThroughput.html, "Read capacity units" and "Write capacity units"):
// an eventually consistent read of up to 4 KB costs half a read unit, a strongly consistent one a whole
// unit, a transactional one two; a transactional write costs two write units per KB.
const (
	eventualReadFactor       = 0.5
	strongReadFactor         = 1
	transactionalReadFactor  = 2
	transactionalWriteFactor = 2
)

// Sources of the hot-key share (Capacity.HotKeyShareSource).
const (
	ShareGiven                 = "given"                  // traffic.hot_key_share
	ShareNoTemplate            = "no_template"            // no partition key template: 0
	ShareUndeclaredPlaceholder = "undeclared_placeholder" // a placeholder has no segment: 0
	ShareTimeBucket            = "time_bucket"            // 1 / the other segments' cardinalities
	ShareKeyCardinality        = "key_cardinality"        // 1 / all segments' cardinalities
	ShareEntities              = "entities"               // the busiest collection's units / every entity's
)

// WriteUnitsPerWrite is ceil(item size / WriteUnitBytes) write units, doubled for transactional writes
// (ProvisionedThroughput.html).
func WriteUnitsPerWrite(itemSizeBytes int64, transactional bool) float64 {
	units := model.CeilUnits(float64(itemSizeBytes) / model.WriteUnitBytes)
	if transactional {
		units *= transactionalWriteFactor
	}
	return units
}

// ReadUnitsPerRead is ceil(item size / ReadUnitBytes) read units × 0.5 eventual, 1 strong, 2 transactional
// (ProvisionedThroughput.html).
func ReadUnitsPerRead(itemSizeBytes int64, consistency model.ReadConsistency) (float64, error) {
	units := model.CeilUnits(float64(itemSizeBytes) / model.ReadUnitBytes)
	switch consistency {
	case model.ReadEventual, "":
		return units * eventualReadFactor, nil
	case model.ReadStrong:
		return units * strongReadFactor, nil
	case model.ReadTransactional:
		return units * transactionalReadFactor, nil
	}
	return 0, fmt.Errorf("unknown read consistency %q", consistency)
}

// RequiredShards is the number of shards that brings the busiest logical key under a partition's limits at
// the target utilisation u: max(1, ceil(hotWCU / (PartitionWriteUnitsLimit·u)), ceil(hotRCU / (PartitionReadUnitsLimit·u))).
func RequiredShards(hotWriteUnits, hotReadUnits, targetUtilization float64) int64 {
	if targetUtilization <= 0 || targetUtilization > 1 {
		targetUtilization = model.DefaultTargetUtilization
	}
	w := model.CeilUnits(hotWriteUnits / (model.PartitionWriteUnitsLimit * targetUtilization))
	r := model.CeilUnits(hotReadUnits / (model.PartitionReadUnitsLimit * targetUtilization))
	n := math.Max(1, math.Max(w, r))
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(n)
}

// hotKeyShare is the default share of traffic on the busiest partition-key value: with a time segment,
// 1 / product of the other non-shard segments' cardinalities (1.0 when the time bucket stands alone: every
// current write lands in the current bucket); otherwise 1 / product of all segment cardinalities (a
// literal-only key is 1.0; an unbounded id is 0, i.e. uniform: skew must be stated). The second result
// says where the share came from.
func (a *analyzer) hotKeyShare(pk *model.Template) (float64, string) {
	if s := a.in.Traffic.HotKeyShare; s != nil {
		return *s, ShareGiven
	}
	if pk == nil {
		return 0, ShareNoTemplate
	}
	product := 1.0
	timeBucket := false
	for _, name := range pk.Placeholders() {
		seg, ok := a.segments[name]
		switch {
		case name == model.ShardPlaceholder:
		case !ok:
			return 0, ShareUndeclaredPlaceholder
		case seg.Kind == model.KindTime:
			timeBucket = true
		case seg.Cardinality == nil:
			product = math.Inf(1)
		default:
			product *= float64(*seg.Cardinality)
		}
	}
	if timeBucket {
		return 1 / product, ShareTimeBucket
	}
	return 1 / product, ShareKeyCardinality
}

// capacity fills Derived.Capacity, the required shards and the shard count: units per request, peak and
// hot-key demand, per-shard demand and read fan-out.
func (a *analyzer) capacity(doc *model.Document, pk *model.Template) {
	in, d, t := a.in, &doc.Derived, doc.Traffic
	c := &d.Capacity
	c.WriteUnitsPerWrite = WriteUnitsPerWrite(t.ItemSizeBytes, t.TransactionalWrites)
	c.ReadUnitsPerRead, _ = ReadUnitsPerRead(t.ItemSizeBytes, model.ReadConsistency(t.ReadConsistency))
	c.HotKeyShare, c.HotKeyShareSource = a.hotKeyShare(pk)

	var hotW, hotR float64
	if t.WritesPerSecond != nil {
		// With replicas, the writes are every Region's (replicas.go), and the TTL deletes are replicated too.
		c.PeakWriteUnits = ptr((*t.WritesPerSecond + a.replicaTTLDeletes()) * c.WriteUnitsPerWrite)
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
	d.RequiredShards = RequiredShards(hotW, hotR, doc.TargetUtilization)

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

// gsiHotPartitionWriteUnits is the write demand on an index's busiest partition: every table write lands in
// the index, all into one partition when the index key is time-bucketed, else spread over its
// partition-key values; nil without writes or a bounded cardinality.
func gsiHotPartitionWriteUnits(peakWriteUnits *float64, g model.GSIDoc) *float64 {
	switch {
	case peakWriteUnits == nil:
		return nil
	case g.TimeBucketed:
		return ptr(*peakWriteUnits)
	case g.PartitionKeyCardinality != nil:
		return ptr(*peakWriteUnits / float64(*g.PartitionKeyCardinality))
	}
	return nil
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
			entry += keyBytes + lsiSortKeyBytes(l.SortKey.Type) + model.IndexEntryOverheadBytes
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

// lsiSortKeyBytes bounds an LSI sort key value that has no template: a number takes at most
// NumberKeyMaxBytes; strings and binaries get the id default.
func lsiSortKeyBytes(keyType string) int64 {
	if keyType == model.KeyTypeNumber {
		return model.NumberKeyMaxBytes
	}
	return model.DefaultIDMaxLength
}
