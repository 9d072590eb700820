package capacity

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Each entity's keys, each item collection's demand and each index's partitions, analysed for every entity
// of a single-table design: the key rules read an entity's own templates, the heat rules a collection's
// summed demand, and an index's busiest partition comes from the templates each entity writes into it.

// EntityKeys returns the entities' demand (EntityDemand's) with, once the shard count is known, each entity's
// key facts and the demand on its own busiest partition-key value, then each collection's demand per shard.
func EntityKeys(md *model.Model, demand *model.EntitiesDoc, shardCount int64, targetUtilization, ttlDeletes float64) *model.EntitiesDoc {
	m := md.Entities
	out := cloneEntities(demand)
	ttl := entityTTLFactor(md.Input, ttlDeletes)
	for i := range out.Items {
		d := &out.Items[i]
		e := md.Input.Entities[i]
		keys := model.Path{"entities", e.Name, "keys"}
		pk := m.Templates[i][m.TableKeys[0]]
		d.PartitionKey = TemplateFacts(pk, TemplateSource(pk), md.Segments, entityKeyDeclared(md, keys, m.TableKeys[0]), shardCount)
		if len(m.TableKeys) > 1 {
			sk := m.Templates[i][m.TableKeys[1]]
			f := TemplateFacts(sk, TemplateSource(sk), md.Segments, entityKeyDeclared(md, keys, m.TableKeys[1]), shardCount)
			d.SortKey = &f
		}
		d.Shards = 1
		if pk != nil && pk.HasPlaceholder(model.ShardPlaceholder) {
			d.Shards = max(shardCount, 1)
		}
		if d.WriteUnits != nil {
			d.HotKeyWriteUnits = model.Ptr(*d.WriteUnits * ttl * d.HotKeyShare)
		}
		if d.ReadUnits != nil {
			d.HotKeyReadUnits = model.Ptr(*d.ReadUnits * d.HotKeyShare)
		}
	}
	for c := range out.Collections {
		collectionDemand(out, targetUtilization, c)
	}
	return out
}

// cloneEntities is a copy of the entities' document whose entities and collections a stage fills in
// without changing the one it was given.
func cloneEntities(doc *model.EntitiesDoc) *model.EntitiesDoc {
	out := *doc
	out.Items, out.Collections = slices.Clone(doc.Items), slices.Clone(doc.Collections)
	return &out
}

// entityKeyDeclared is whether every placeholder of an entity's key template can be bounded: the template
// and the segments are known.
func entityKeyDeclared(md *model.Model, keys model.Path, attr string) bool {
	return !md.IsUnknown("segments") && !md.IsUnknown(keys.String()) && !md.IsUnknown(append(slices.Clone(keys), attr).String())
}

// entityTTLFactor spreads a global table's replicated TTL deletes over the entities as their writes are.
func entityTTLFactor(in *model.Input, ttl float64) float64 {
	if ttl <= 0 {
		return 1
	}
	writes := 0.0
	for _, e := range in.Entities {
		writes += model.Deref(e.Traffic.WritesPerSecond)
	}
	if writes <= 0 {
		return 1
	}
	return (writes + ttl) / writes
}

// collectionDemand sums a collection's demand per shard of its busiest value (each entity's busiest value
// spread over its own shards) and sizes the shards that demand needs.
func collectionDemand(entities *model.EntitiesDoc, targetUtilization float64, c int) {
	col := &entities.Collections[c]
	var hottest *model.EntityDoc
	var hotW, hotR float64
	col.Shards = 1
	for i := range entities.Items {
		d := &entities.Items[i]
		if d.Collection != c {
			continue
		}
		if d.HotKeyWriteUnits != nil {
			hotW += *d.HotKeyWriteUnits
			col.PerShardWriteUnits = model.Ptr(model.Deref(col.PerShardWriteUnits) + *d.HotKeyWriteUnits/float64(d.Shards))
		}
		if d.HotKeyReadUnits != nil {
			hotR += *d.HotKeyReadUnits
			col.PerShardReadUnits = model.Ptr(model.Deref(col.PerShardReadUnits) + *d.HotKeyReadUnits/float64(d.Shards))
		}
		col.Shards = max(col.Shards, d.Shards)
		if hottest == nil || model.Deref(d.HotKeyWriteUnits) > model.Deref(hottest.HotKeyWriteUnits) ||
			model.Deref(d.HotKeyWriteUnits) == model.Deref(hottest.HotKeyWriteUnits) && model.Deref(d.HotKeyReadUnits) > model.Deref(hottest.HotKeyReadUnits) {
			hottest = d
		}
	}
	if hottest != nil {
		col.Hottest = hottest.Name
	}
	col.RequiredShards = RequiredShards(hotW, hotR, targetUtilization)
}

// EntityIndexWrites are the entries of the entities an index holds: each entity's projected entry (its item
// size, its key templates' bytes) and its write units per write.
func EntityIndexWrites(md *model.Model, index, projection string, nonKey []string, lsi bool) []IndexWrite {
	m := md.Entities
	var keyDocs []model.IndexKeyDoc
	for _, k := range model.IndexKeyNames(md.Input)[index] {
		keyDocs = append(keyDocs, model.IndexKeyDoc{Name: k.Name, Type: cmp.Or(k.Type, model.KeyTypeString), Cardinality: k.Cardinality})
	}
	var out []IndexWrite
	for i, e := range md.Input.Entities {
		d := &m.Doc.Items[i]
		if !slices.Contains(d.Indexes, index) {
			continue
		}
		keyBytes := EntityEntryKeyBytes(m, d, keyDocs)
		entry := ProjectedEntryBytes(projection, d.ItemSizeBytes, keyBytes, nonKey)
		written := entry
		if lsi {
			written += model.IndexEntryOverheadBytes
		}
		txn := model.Deref(e.Traffic.TransactionalWrites)
		units := WriteUnitsPerWrite(written, txn)
		out = append(out, IndexWrite{
			Entity: i,
			Write:  model.IndexEntityWrite{Entity: e.Name, EntryBytes: entry, WriteUnitsPerWrite: units, WritesPerSecond: e.Traffic.WritesPerSecond},
			// What a KEYS_ONLY entry would save.
			Reducible: units - WriteUnitsPerWrite(min(d.ItemSizeBytes, keyBytes)+(written-entry), txn),
		})
	}
	return out
}

// IndexWrite is one entity's entry in an index: the entity's position in the model, its entry, and the
// units a KEYS_ONLY entry would save.
type IndexWrite struct {
	Entity    int
	Write     model.IndexEntityWrite
	Reducible float64
}

// EntityGSIFacts derives a GSI's partitions from the entities it holds. Each entity's templates of the
// index's partition-key attributes give its values (their cardinality, a time bucket) and the share of its
// index writes on its busiest value; entities with the same templates share those values, so the busiest
// partition is the busiest such group's. A cardinality stated on an index key attribute holds for every
// entity.
func EntityGSIFacts(md *model.Model, g *model.GSIDoc, shardCount int64) {
	m := md.Entities
	type group struct {
		writeUnits  float64
		cardinality *int64
		hot         []string
	}
	groups := map[string]*group{}
	var order []string
	allBounded, anyHot := true, false
	g.Entities = []model.GSIEntityDoc{}
	for _, w := range EntityIndexWrites(md, g.Name, g.ProjectionType, g.NonKeyAttributes, false) {
		templates := m.Templates[w.Entity]
		ed := model.GSIEntityDoc{Entity: w.Write.Entity, PartitionKey: []string{}, WriteUnitsPerWrite: w.Write.WriteUnitsPerWrite}
		cardinality, timeBucket := int64(1), false
		bounded, known := true, true
		otherValues := 1.0
		for _, k := range g.PartitionKey {
			t := templates[k.Name]
			if t == nil {
				known = false
				continue
			}
			ed.PartitionKey = append(ed.PartitionKey, t.Source)
			if k.Cardinality != nil {
				cardinality = model.SaturatingMul(cardinality, *k.Cardinality)
				otherValues *= float64(*k.Cardinality)
				continue
			}
			for _, name := range t.Placeholders() {
				if name == model.ShardPlaceholder {
					cardinality = model.SaturatingMul(cardinality, max(shardCount, 1))
					otherValues *= float64(max(shardCount, 1))
					continue
				}
				seg, ok := md.Segments[name]
				switch {
				case !ok:
					known = false
				case seg.Kind == model.KindTime:
					timeBucket, bounded = true, false
				case seg.Cardinality == nil:
					bounded = false
					otherValues = math.Inf(1)
				default:
					cardinality = model.SaturatingMul(cardinality, *seg.Cardinality)
					otherValues *= float64(*seg.Cardinality)
				}
			}
		}
		share := 1 / otherValues
		// A time bucket beside an unbounded value or a shard is spread; only a bucket of few values is hot.
		sharded := false
		for _, k := range g.PartitionKey {
			if t := templates[k.Name]; t != nil && t.HasPlaceholder(model.ShardPlaceholder) {
				sharded = true
			}
		}
		timeBucket = timeBucket && !sharded && !math.IsInf(otherValues, 1)
		ed.TimeBucketed = timeBucket
		if known && bounded {
			ed.Cardinality = model.Ptr(cardinality)
		}
		allBounded = allBounded && ed.Cardinality != nil
		if timeBucket {
			g.TimeBucketed = true
		}
		if w.Write.WritesPerSecond != nil && known && (timeBucket || bounded) {
			ed.HotPartitionWriteUnits = model.Ptr(*w.Write.WritesPerSecond * w.Write.WriteUnitsPerWrite * share)
			anyHot = true
		}
		g.Entities = append(g.Entities, ed)
		key := strings.Join(ed.PartitionKey, "\x00")
		gr, ok := groups[key]
		if !ok {
			gr = &group{cardinality: ed.Cardinality}
			groups[key] = gr
			order = append(order, key)
		}
		gr.writeUnits += model.Deref(ed.HotPartitionWriteUnits)
		if model.Deref(ed.HotPartitionWriteUnits) > 0 {
			gr.hot = append(gr.hot, ed.Entity)
		}
	}
	if len(order) > 0 && allBounded {
		total := int64(0)
		for _, key := range order {
			if groups[key].cardinality == nil {
				total = -1
				break
			}
			total = SaturatingAdd(total, *groups[key].cardinality)
		}
		if total >= 0 {
			g.PartitionKeyCardinality = model.Ptr(total)
		}
	}
	if !anyHot {
		return
	}
	hot, busiest := 0.0, ""
	for _, key := range order {
		if gr := groups[key]; gr.writeUnits > hot {
			hot, busiest = gr.writeUnits, key
		}
	}
	g.HotPartitionWriteUnits = model.Ptr(hot)
	if gr := groups[busiest]; gr != nil && len(gr.hot) > 0 {
		g.HotEntities = slices.Sorted(slices.Values(gr.hot))
	}
}

// EntityEntryKeyBytes bounds an entity's key attributes in an index entry: the table's keys and the index's,
// each its name and its template's longest value.
func EntityEntryKeyBytes(m *model.Entities, d *model.EntityDoc, indexKeys ...[]model.IndexKeyDoc) int64 {
	var n int64
	for _, k := range m.TableKeys {
		n += int64(len(k)) + model.Deref(d.MaxBytes[k])
	}
	for _, keys := range indexKeys {
		for _, k := range keys {
			n += int64(len(k.Name)) + model.Deref(d.MaxBytes[k.Name])
		}
	}
	return n
}

// EntityDemand is the entity model's document with each entity's units per request, its units and the share
// of its traffic on one partition-key value, then each collection's sums and the busiest collection; nil for a
// design without entities.
func EntityDemand(md *model.Model) *model.EntitiesDoc {
	m := md.Entities
	if m == nil {
		return nil
	}
	out := cloneEntities(&m.Doc)
	for i, e := range md.Input.Entities {
		d := &out.Items[i]
		d.WriteUnitsPerWrite = WriteUnitsPerWrite(d.ItemSizeBytes, model.Deref(e.Traffic.TransactionalWrites))
		if w := e.Traffic.WritesPerSecond; w != nil {
			d.WriteUnits = model.Ptr(*w * d.WriteUnitsPerWrite)
		}
		if r := e.Traffic.ReadsPerSecond; r != nil {
			units, _ := ReadUnitsPerRead(d.ItemSizeBytes, model.ReadEventual)
			d.ReadUnits = model.Ptr(*r * units)
		}
		d.HotKeyShare, _ = HotKeyShare(nil, m.Templates[i][m.TableKeys[0]], md.Segments)
	}
	for c := range out.Collections {
		collectionFigures(md, out, c)
	}
	for c, col := range out.Collections {
		busiest := out.Collections[out.Busiest]
		if cmp.Compare(model.Deref(col.WriteUnits), model.Deref(busiest.WriteUnits)) > 0 ||
			model.Deref(col.WriteUnits) == model.Deref(busiest.WriteUnits) && model.Deref(col.ReadUnits) > model.Deref(busiest.ReadUnits) {
			out.Busiest = c
		}
	}
	return out
}

// collectionFigures sums the demand on one partition-key value of a collection and its items with their LSI
// entries.
func collectionFigures(md *model.Model, entities *model.EntitiesDoc, c int) {
	col := &entities.Collections[c]
	var writes, reads, items, bytes float64
	writesKnown, readsKnown, itemsKnown := false, false, true
	for i := range md.Input.Entities {
		d := entities.Items[i]
		if d.Collection != c {
			continue
		}
		// The rates stated sum; an entity without one adds nothing it could be blamed for.
		if d.WriteUnits != nil {
			writes, writesKnown = writes+*d.WriteUnits*d.HotKeyShare, true
		}
		if d.ReadUnits != nil {
			reads, readsKnown = reads+*d.ReadUnits*d.HotKeyShare, true
		}
		if n := d.ItemsPerKey; n != nil {
			items += float64(*n)
			bytes += float64(*n) * float64(entityEntryBytes(md, i))
		} else {
			itemsKnown = false
		}
	}
	if writesKnown {
		col.WriteUnits = model.Ptr(writes)
	}
	if readsKnown {
		col.ReadUnits = model.Ptr(reads)
	}
	if itemsKnown {
		col.ItemsPerKey, col.Bytes = model.Ptr(items), model.Ptr(bytes)
	}
}

// entityEntryBytes is an item of entity i with its LSI entries: an LSI holds only the entities that write
// its sort key.
func entityEntryBytes(md *model.Model, i int) int64 {
	m := md.Entities
	d := m.Doc.Items[i]
	entry := d.ItemSizeBytes
	keyBytes := int64(0)
	for _, k := range m.TableKeys {
		keyBytes += model.Deref(d.MaxBytes[k])
	}
	for _, l := range md.Input.LocalSecondaryIndexes {
		if !slices.Contains(d.Indexes, l.Name) {
			continue
		}
		if l.ProjectionType == model.ProjectionKeysOnly {
			entry += keyBytes + cmp.Or(model.Deref(d.MaxBytes[l.SortKey.Name]), LSISortKeyBytes(l.SortKey.Type)) + model.IndexEntryOverheadBytes
		} else {
			entry += d.ItemSizeBytes + model.IndexEntryOverheadBytes
		}
	}
	return entry
}

// HotKeyShare is the share of traffic on the busiest partition-key value: with a time segment,
// 1 / product of the other non-shard segments' cardinalities (1.0 when the time bucket stands alone: every
// current write lands in the current bucket); otherwise 1 / product of all segment cardinalities (a
// literal-only key is 1.0; an unbounded id is 0, i.e. uniform: skew must be stated). The second result
// says where the share came from.
func HotKeyShare(given *float64, pk *model.Template, segments map[string]model.ResolvedSegment) (float64, string) {
	if s := given; s != nil {
		return *s, ShareGiven
	}
	if pk == nil {
		return 0, ShareNoTemplate
	}
	product := 1.0
	timeBucket := false
	for _, name := range pk.Placeholders() {
		seg, ok := segments[name]
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
