package keydesign

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Entities: several item types in one table (single-table design). Each entity gives a template for every
// key attribute it writes; an index whose key attributes an entity does not write holds none of its items
// (a sparse index). This file builds the entity model the rest of the analysis reads:
//
//  1. parse each entity's templates and find the indexes it lands in;
//  2. key collisions: two entities whose table keys can render the same primary key (overlap.go), so that
//     one entity's PutItem overwrites the other's item;
//  3. item collections: entities whose partition-key templates can render the same value share one
//     partition-key value's collection, whose demand and size are the sums of theirs;
//  4. the table-wide figures of the capacity model: the writes of every entity, the busiest collection as
//     the busiest key, and each index's share of the writes (the entities that carry its key).
//
// The capacity rules then read the busiest collection as they read the busiest key of a one-entity table.

// entityModel is the parsed entities and their analysis.
type entityModel struct {
	doc       model.EntitiesDoc
	templates []map[string]*model.Template // by entity, by attribute
	// tableKeys are the table's key attribute names: partition key, then sort key.
	tableKeys []string
}

// indexKeyNames are the key attributes of each index, by index name.
func (a *analyzer) indexKeyNames() map[string][]model.IndexKeyAttribute {
	out := map[string][]model.IndexKeyAttribute{}
	for _, l := range a.in.LocalSecondaryIndexes {
		out[l.Name] = []model.IndexKeyAttribute{l.SortKey}
	}
	for _, g := range a.in.GlobalSecondaryIndexes {
		out[g.Name] = append(slices.Clone(g.PartitionKey), g.SortKey...)
	}
	return out
}

// parseEntities validates the entities and parses their templates; nil without entities.
func (a *analyzer) parseEntities() *entityModel {
	in := a.in
	if len(in.Entities) == 0 {
		return nil
	}
	// The model reads the entities in name order, as the provider gives them, whoever calls.
	sorted := *in
	sorted.Entities = slices.SortedFunc(slices.Values(in.Entities), func(x, y model.Entity) int { return strings.Compare(x.Name, y.Name) })
	a.in, in = &sorted, &sorted
	m := &entityModel{tableKeys: []string{in.PartitionKey.Name}}
	if in.SortKey != nil {
		m.tableKeys = append(m.tableKeys, in.SortKey.Name)
	}
	if in.PartitionKey.Template != nil {
		a.fail(model.Path{"partition_key", "template"}, "a design with entities takes its key templates from each entity's keys: remove partition_key.template")
	}
	if in.SortKey != nil && in.SortKey.Template != nil {
		a.fail(model.Path{"sort_key", "template"}, "a design with entities takes its key templates from each entity's keys: remove sort_key.template")
	}
	if in.Traffic != (model.Traffic{}) {
		a.fail(model.Path{"traffic"}, "a design with entities takes its traffic from each entity's traffic: move it into entities.<name>.traffic")
	}
	known := map[string]bool{}
	for _, k := range m.tableKeys {
		known[k] = true
	}
	for _, keys := range a.indexKeyNames() {
		for _, k := range keys {
			known[k.Name] = true
		}
	}
	for _, e := range in.Entities {
		p := model.Path{"entities", e.Name}
		if !model.ValidEntityName(e.Name) {
			a.fail(p, "entity name %q: use letters, digits and underscores", e.Name)
		}
		parsed := map[string]*model.Template{}
		for _, attr := range slices.Sorted(maps.Keys(e.Keys)) {
			kp := model.Path{"entities", e.Name, "keys", attr}
			if !known[attr] {
				a.fail(kp, "%q is no key attribute of the table or of an index: name the table's partition or sort key (%s) or an index key attribute",
					attr, strings.Join(m.tableKeys, ", "))
				continue
			}
			if a.isUnknown(kp.String()) {
				continue
			}
			t, err := model.ParseTemplate(e.Keys[attr])
			if err != nil {
				a.fail(kp, "%v", err)
				continue
			}
			for _, name := range t.Placeholders() {
				if _, ok := a.segments[name]; !ok && name != model.ShardPlaceholder {
					a.fail(kp, "placeholder {%s} has no segment: declare segments.%s (segments are shared by every entity)", name, name)
				}
			}
			parsed[attr] = t
		}
		for _, k := range m.tableKeys {
			if _, ok := e.Keys[k]; !ok && !a.isUnknown(model.Path{"entities", e.Name, "keys"}.String()) {
				a.fail(model.Path{"entities", e.Name, "keys"}, "entity %q has no template for the table key %q: every item carries the table's keys", e.Name, k)
			}
		}
		a.validateEntityTraffic(e)
		m.templates = append(m.templates, parsed)
	}
	return m
}

func (a *analyzer) validateEntityTraffic(e model.Entity) {
	t := e.Traffic
	p := func(attr string) model.Path { return model.Path{"entities", e.Name, "traffic", attr} }
	for attr, v := range map[string]*float64{"writes_per_second": t.WritesPerSecond, "average_writes_per_second": t.AverageWritesPerSecond, "reads_per_second": t.ReadsPerSecond} {
		if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
			a.fail(p(attr), "must be a finite number of at least 0, got %v", *v)
		}
	}
	if t.ItemSizeBytes != nil && (*t.ItemSizeBytes < 1 || *t.ItemSizeBytes > model.MaxItemSizeBytes) {
		a.fail(p("item_size_bytes"), "must be 1 to %d bytes (the item size limit), got %d", model.MaxItemSizeBytes, *t.ItemSizeBytes)
	}
	for attr, v := range map[string]*int64{"item_count": t.ItemCount, "max_items_per_partition_key": t.MaxItemsPerPartitionKey} {
		if v != nil && *v < 0 {
			a.fail(p(attr), "must be at least 0, got %d", *v)
		}
	}
}

// idCharacters is what an id segment without declared characters may hold: any byte but the attribute
// separator and the table's delimiters (a character that is no letter or digit and stands next to a
// placeholder in one of the templates).
func (m *entityModel) idCharacters() (model.ByteSet, string) {
	var delimiters model.ByteSet
	var listed []string
	note := func(c byte) {
		alphanumeric := '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if c < 0x80 && !alphanumeric && !delimiters.Has(c) {
			delimiters.Add(c)
			listed = append(listed, string(c))
		}
	}
	for _, byAttr := range m.templates {
		for _, attr := range slices.Sorted(maps.Keys(byAttr)) {
			parts := byAttr[attr].Parts
			for i, part := range parts {
				if part.Placeholder == "" {
					continue
				}
				if i > 0 && parts[i-1].Placeholder == "" && parts[i-1].Literal != "" {
					lit := parts[i-1].Literal
					note(lit[len(lit)-1])
				}
				if i+1 < len(parts) && parts[i+1].Placeholder == "" && parts[i+1].Literal != "" {
					note(parts[i+1].Literal[0])
				}
			}
		}
	}
	delimiters.Add(0)
	slices.Sort(listed)
	return model.AnyByte.Without(delimiters), strings.Join(listed, "")
}

// atoms are a template's parts as the collision check reads them.
func (a *analyzer) atoms(t *model.Template, idChars model.ByteSet, shardWidth int) []model.TemplateAtom {
	out := make([]model.TemplateAtom, 0, len(t.Parts))
	for _, part := range t.Parts {
		if part.Placeholder == "" {
			out = append(out, model.TemplateAtom{Literal: part.Literal})
			continue
		}
		shape := &model.ValueShape{Chars: idChars}
		if part.Placeholder == model.ShardPlaceholder {
			shape = &model.ValueShape{Digits: shardWidth}
		} else if seg, ok := a.segments[part.Placeholder]; ok {
			switch seg.Kind {
			case model.KindEnum:
				shape = &model.ValueShape{Values: seg.Values}
			case model.KindTime:
				shape = &model.ValueShape{Layout: model.TimeShape(seg.Granularity)}
			case model.KindNumber:
				shape = &model.ValueShape{Number: true}
			}
			if seg.Characters != "" {
				if chars, err := model.ParseCharacters(seg.Characters); err == nil {
					shape = &model.ValueShape{Chars: chars.Without(model.Single(0))}
				}
			}
		}
		out = append(out, model.TemplateAtom{Shape: shape})
	}
	return out
}

// analyzeEntities fills the entity model's document: index membership, collisions, collections and each
// entity's figures. shardWidth is the width of the {shard} suffix.
func (a *analyzer) analyzeEntities(m *entityModel, shardWidth int64) {
	in := a.in
	idChars, listed := m.idCharacters()
	m.doc = model.EntitiesDoc{Items: []model.EntityDoc{}, Collisions: []model.EntityCollision{}, Collections: []model.CollectionDoc{}, IDCharacters: "any but " + model.DelimiterList(listed)}
	indexKeys := a.indexKeyNames()
	width := int(max(shardWidth, 1))
	// Each entity's key as atoms, and its literal prefixes; the automata are built when a pair needs the
	// search.
	tableAtoms := make([][][]model.TemplateAtom, len(in.Entities))
	prefixes := make([][]string, len(in.Entities))
	tableAutomata := make([]*model.Automaton, len(in.Entities))
	partitionAutomata := make([]*model.Automaton, len(in.Entities))
	tableAutomaton := func(i int) *model.Automaton {
		if tableAutomata[i] == nil {
			tableAutomata[i] = model.KeyAutomaton(tableAtoms[i])
		}
		return tableAutomata[i]
	}
	partitionAutomaton := func(i int) *model.Automaton {
		if partitionAutomata[i] == nil {
			partitionAutomata[i] = model.KeyAutomaton(tableAtoms[i][:1])
		}
		return partitionAutomata[i]
	}
	for i, e := range in.Entities {
		parsed := m.templates[i]
		d := model.EntityDoc{Name: e.Name, Keys: e.Keys, Indexes: []string{}, IndexKeys: []model.EntityIndexKey{}, MaxBytes: map[string]*int64{}}
		for _, name := range slices.Sorted(maps.Keys(indexKeys)) {
			carries := true
			for _, k := range indexKeys[name] {
				if _, ok := e.Keys[k.Name]; !ok {
					carries = false
				}
				if t := parsed[k.Name]; t != nil {
					key := model.EntityIndexKey{Index: name, Attribute: k.Name, Type: cmp.Or(k.Type, model.KeyTypeString), Template: t.Source,
						Literals: orEmpty(t.Literals()), Segments: []string{}}
					for _, ph := range t.Placeholders() {
						if ph != model.ShardPlaceholder {
							key.Segments = append(key.Segments, ph)
						}
					}
					d.IndexKeys = append(d.IndexKeys, key)
				}
			}
			if carries {
				d.Indexes = append(d.Indexes, name)
			}
		}
		for attr, t := range parsed {
			d.MaxBytes[attr] = a.templateMaxBytes(t, shardWidth)
		}
		size := cmp.Or(ptrValue(e.Traffic.ItemSizeBytes), model.DefaultItemSizeBytes)
		d.ItemSizeBytes = size
		d.WriteUnitsPerWrite = WriteUnitsPerWrite(size, ptrValue(e.Traffic.TransactionalWrites))
		if w := e.Traffic.WritesPerSecond; w != nil {
			d.WriteUnits = ptr(*w * d.WriteUnitsPerWrite)
		}
		if r := e.Traffic.ReadsPerSecond; r != nil {
			units, _ := ReadUnitsPerRead(size, model.ReadEventual)
			d.ReadUnits = ptr(*r * units)
		}
		var pk *model.Template
		if len(m.tableKeys) > 0 {
			pk = parsed[m.tableKeys[0]]
		}
		d.HotKeyShare, _ = a.hotKeyShare(pk)
		var sk *model.Template
		if len(m.tableKeys) > 1 {
			sk = parsed[m.tableKeys[1]]
		}
		d.ItemsPerKey, d.ItemsBasis = a.itemsPerKey(e.Traffic.MaxItemsPerPartitionKey, len(m.tableKeys) > 1, sk,
			sk != nil && !a.isUnknown("segments"), ptrValue(in.Sharding.Count))
		m.doc.Items = append(m.doc.Items, d)

		var tableParts [][]model.TemplateAtom
		for _, k := range m.tableKeys {
			t := parsed[k]
			if t == nil {
				tableParts = nil
				break
			}
			atoms := a.atoms(t, idChars, width)
			tableParts = append(tableParts, atoms)
			prefixes[i] = append(prefixes[i], model.LiteralPrefix(atoms))
		}
		tableAtoms[i] = tableParts
	}
	// Collisions and shared collections, pair by pair.
	group := make([]int, len(in.Entities))
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	var searcher model.Search
	for i := range in.Entities {
		for j := i + 1; j < len(in.Entities); j++ {
			if tableAtoms[i] == nil || tableAtoms[j] == nil {
				continue
			}
			// The same partition-key template, or one whose value the search finds both render.
			samePartition := m.templates[i][m.tableKeys[0]].Source == m.templates[j][m.tableKeys[0]].Source
			if !samePartition && !model.DisjointPrefixes(prefixes[i][:1], prefixes[j][:1]) {
				_, samePartition = searcher.Common(partitionAutomaton(i), partitionAutomaton(j))
			}
			if !samePartition {
				continue
			}
			group[find(j)] = find(i)
			if model.DisjointPrefixes(prefixes[i], prefixes[j]) {
				continue
			}
			if example, ok := searcher.Common(tableAutomaton(i), tableAutomaton(j)); ok {
				m.doc.Collisions = append(m.doc.Collisions, model.EntityCollision{
					Entities: []string{in.Entities[i].Name, in.Entities[j].Name}, Example: model.ExampleKey(example, m.tableKeys)})
			}
		}
	}
	roots := map[int]int{}
	for i := range in.Entities {
		r := find(i)
		c, ok := roots[r]
		if !ok {
			c = len(m.doc.Collections)
			roots[r] = c
			m.doc.Collections = append(m.doc.Collections, model.CollectionDoc{Entities: []string{}})
		}
		m.doc.Items[i].Collection = c
		m.doc.Collections[c].Entities = append(m.doc.Collections[c].Entities, in.Entities[i].Name)
	}
	for c := range m.doc.Collections {
		a.collectionFigures(m, c)
	}
	for c, col := range m.doc.Collections {
		busiest := m.doc.Collections[m.doc.Busiest]
		if cmp.Compare(ptrValue(col.WriteUnits), ptrValue(busiest.WriteUnits)) > 0 ||
			ptrValue(col.WriteUnits) == ptrValue(busiest.WriteUnits) && ptrValue(col.ReadUnits) > ptrValue(busiest.ReadUnits) {
			m.doc.Busiest = c
		}
	}
}

// collectionFigures sums the demand on one partition-key value of a collection and its items with their LSI
// entries.
func (a *analyzer) collectionFigures(m *entityModel, c int) {
	col := &m.doc.Collections[c]
	var writes, reads, items, bytes float64
	writesKnown, readsKnown, itemsKnown := false, false, true
	for i := range a.in.Entities {
		d := m.doc.Items[i]
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
			bytes += float64(*n) * float64(a.entityEntryBytes(m, i))
		} else {
			itemsKnown = false
		}
	}
	if writesKnown {
		col.WriteUnits = ptr(writes)
	}
	if readsKnown {
		col.ReadUnits = ptr(reads)
	}
	if itemsKnown {
		col.ItemsPerKey, col.Bytes = ptr(items), ptr(bytes)
	}
}

// entityEntryBytes is an item of entity i with its LSI entries: an LSI holds only the entities that write
// its sort key.
func (a *analyzer) entityEntryBytes(m *entityModel, i int) int64 {
	d := m.doc.Items[i]
	entry := d.ItemSizeBytes
	keyBytes := int64(0)
	for _, k := range m.tableKeys {
		keyBytes += ptrValue(d.MaxBytes[k])
	}
	for _, l := range a.in.LocalSecondaryIndexes {
		if !slices.Contains(d.Indexes, l.Name) {
			continue
		}
		if l.ProjectionType == model.ProjectionKeysOnly {
			entry += keyBytes + cmp.Or(ptrValue(d.MaxBytes[l.SortKey.Name]), lsiSortKeyBytes(l.SortKey.Type)) + model.IndexEntryOverheadBytes
		} else {
			entry += d.ItemSizeBytes + model.IndexEntryOverheadBytes
		}
	}
	return entry
}

// templateMaxBytes bounds a template's rendered value: its literal bytes and each segment's max_length;
// nil when a placeholder has no segment.
func (a *analyzer) templateMaxBytes(t *model.Template, shardWidth int64) *int64 {
	n := int64(t.LiteralBytes())
	for _, name := range t.Placeholders() {
		if name == model.ShardPlaceholder {
			n += max(shardWidth, 1)
			continue
		}
		seg, ok := a.segments[name]
		if !ok {
			return nil
		}
		n += seg.MaxLength
	}
	return &n
}

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
	busiest := m.doc.Collections[m.doc.Busiest]
	lead := -1
	for i, d := range m.doc.Items {
		if !slices.Contains(busiest.Entities, d.Name) {
			continue
		}
		if lead < 0 || ptrValue(d.WriteUnits) > ptrValue(m.doc.Items[lead].WriteUnits) ||
			ptrValue(d.WriteUnits) == ptrValue(m.doc.Items[lead].WriteUnits) && ptrValue(d.ReadUnits) > ptrValue(m.doc.Items[lead].ReadUnits) {
			lead = i
		}
	}
	m.doc.Lead = m.doc.Items[lead].Name
	templates := m.templates[lead]
	pk = templates[m.tableKeys[0]]
	if pk != nil {
		lowered.PartitionKey.Template = &pk.Source
	}
	// A template of the lead not known yet leaves the table's template unknown: the rules on it stay silent.
	for i, k := range m.tableKeys {
		if templates[k] == nil {
			a.unknown[[]string{"partition_key", "sort_key"}[i]+".template"] = true
		}
	}
	if lowered.SortKey != nil {
		sortKey := *lowered.SortKey
		if sk = templates[m.tableKeys[1]]; sk != nil {
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
		sizeWeighted += w * float64(m.doc.Items[i].ItemSizeBytes)
		largest = max(largest, m.doc.Items[i].ItemSizeBytes)
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
			if slices.Contains(m.doc.Items[i].Indexes, index) {
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

// entityCapacity replaces the capacity model's table-wide figures with the entities': the peak is every
// entity's units, the busiest key the busiest collection's, units per request their write-weighted mean.
func (a *analyzer) entityCapacity(c *model.Capacity) (hotW, hotR float64) {
	m := a.entities
	var peakW, peakR, writes, reads float64
	var anyW, anyR bool
	for i, d := range m.doc.Items {
		t := a.in.Entities[i].Traffic
		if d.WriteUnits != nil {
			peakW, writes, anyW = peakW+*d.WriteUnits, writes+*t.WritesPerSecond, true
		}
		if d.ReadUnits != nil {
			peakR, reads, anyR = peakR+*d.ReadUnits, reads+*t.ReadsPerSecond, true
		}
	}
	busiest := m.doc.Collections[m.doc.Busiest]
	c.HotKeyShareSource = ShareEntities
	c.PeakWriteUnits, c.HotKeyWriteUnits, c.PeakReadUnits, c.HotKeyReadUnits = nil, nil, nil, nil
	if anyW {
		if writes > 0 {
			c.WriteUnitsPerWrite = peakW / writes
		}
		hotW = ptrValue(busiest.WriteUnits)
		if peakW > 0 {
			c.HotKeyShare = hotW / peakW
		}
		// A global table's TTL deletes are replicated like writes (replicas.go), spread as the writes are.
		if ttl := a.replicaTTLDeletes(); ttl > 0 && writes > 0 {
			peakW, hotW = peakW*(writes+ttl)/writes, hotW*(writes+ttl)/writes
		}
		c.PeakWriteUnits = ptr(peakW)
		c.HotKeyWriteUnits = ptr(hotW)
	}
	if anyR {
		c.PeakReadUnits = ptr(peakR)
		if reads > 0 {
			c.ReadUnitsPerRead = peakR / reads
		}
		hotR = ptrValue(busiest.ReadUnits)
		c.HotKeyReadUnits = ptr(hotR)
	}
	return hotW, hotR
}

// entityCollection is the item collection the LSI limit caps: the largest collection's, unbounded when an
// entity of any collection states no max_items_per_partition_key.
func (a *analyzer) entityCollection(est *model.CollectionEstimate) {
	*est = model.CollectionEstimate{EntryBytes: est.EntryBytes, Basis: CollectionUnbounded}
	var largest *model.CollectionDoc
	for i, col := range a.entities.doc.Collections {
		if col.Bytes == nil {
			return
		}
		if largest == nil || *col.Bytes > *largest.Bytes {
			largest = &a.entities.doc.Collections[i]
		}
	}
	if largest == nil || largest.ItemsPerKey == nil || *largest.ItemsPerKey <= 0 {
		return
	}
	est.ItemsPerKey, est.Bytes, est.Basis = largest.ItemsPerKey, largest.Bytes, CollectionGiven
	est.EntryBytes = int64(math.Ceil(*largest.Bytes / *largest.ItemsPerKey))
}

// entityIndexCost sets an index's entry and units per write from the entities it holds: each entity's
// projected entry (its item size, its key templates' bytes), and their write-weighted means (the plain mean
// when no entity states its writes).
func (a *analyzer) entityIndexCost(ic *model.IndexCost, projection string, nonKey []string, lsi bool) {
	var weight, entrySum, unitsSum, reducibleSum float64
	ic.Entities = []model.IndexEntityWrite{}
	for _, w := range a.entityIndexWrites(ic.Name, projection, nonKey, lsi) {
		ic.Entities = append(ic.Entities, w.write)
		weight1 := 1.0
		if w.write.WritesPerSecond != nil {
			weight1 = *w.write.WritesPerSecond
		}
		weight += weight1
		entrySum += weight1 * float64(w.write.EntryBytes)
		unitsSum += weight1 * w.write.WriteUnitsPerWrite
		reducibleSum += weight1 * w.reducible
	}
	if weight <= 0 {
		return
	}
	ic.EntryBytes = int64(math.Ceil(entrySum / weight))
	ic.WriteUnitsPerWrite = unitsSum / weight
	ic.ReducibleWriteUnits = reducibleSum / weight
}
