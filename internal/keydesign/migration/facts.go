package migration

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Facts are derived.migration, from the design's analysis and its old layout's (nil without a migration);
// unknown is true while the migration or a layout is not known at plan time: the rules that read it wait.
// design.Doc holds every fact of the design but the cost.
func Facts(design Analysis, old *Analysis) (md *model.MigrationDoc, unknown bool) {
	a := newLayout(design.Model, design.Table, design.Doc)
	if old != nil {
		a.old = newLayout(old.Model, old.Table, old.Doc)
	}
	return a.migrationFacts(design.Doc)
}

func (a *layout) migrationFacts(doc *model.Document) (*model.MigrationDoc, bool) {
	m := a.in.Migration
	if m == nil {
		// A migration known only after apply: the rules that read it wait for it.
		return nil, a.migrationUnknown()
	}
	if a.migrationUnknown() || a.old == nil || doc.Derived.Layout == nil || a.old.doc.Derived.Layout == nil {
		return nil, true
	}
	old := a.old.doc
	md := &model.MigrationDoc{Phase: m.Phase, PhaseIndex: slices.Index(model.MigrationPhases, m.Phase), From: *old.Derived.Layout,
		OldRouting: old.Derived.Routing, NewRouting: doc.Derived.Routing, Changed: []string{}}
	md.ReachedPhaseIndex = md.PhaseIndex
	if prior := a.in.Prior; prior != nil && prior.Derived.Migration != nil && SameLayout(prior.Derived.Migration.From, md.From) {
		md.ReachedPhaseIndex = max(md.PhaseIndex, prior.Derived.Migration.ReachedPhaseIndex)
	}
	newL, oldL := doc.Derived.Layout, old.Derived.Layout
	shardingChanged := !sameRouting(oldL.Sharding, newL.Sharding)
	for _, name := range slices.Sorted(maps.Keys(newL.Keys)) {
		e := model.MigrationEntity{Name: name, OldKeys: oldL.Keys[name], NewKeys: newL.Keys[name]}
		e.Changed = !maps.Equal(e.OldKeys, e.NewKeys) || shardingChanged && (hasShard(e.OldKeys) || hasShard(e.NewKeys))
		e.Moves = e.Changed && a.primaryKeyMoves(e, shardingChanged)
		e.Items = a.entityItems(name)
		for _, phase := range model.MigrationPhases {
			layouts := []string{model.LayoutNew}
			if e.Changed && phase != model.PhaseDone {
				layouts = []string{model.LayoutOld, model.LayoutNew}
			}
			e.Writes = append(e.Writes, model.PhaseLayouts{Phase: phase, Layouts: layouts})
		}
		if e.Changed {
			md.Changed = append(md.Changed, name)
		}
		md.Entities = append(md.Entities, e)
	}
	md.Patterns = a.migrationPatterns(doc, old, md)
	md.Overlap = a.layoutOverlap(md)
	a.backfill(doc, md)
	md.Steps = migrationSteps(md)
	return md, false
}

// primaryKeyMoves reports whether a changed entity's items get another primary key (a table key template
// or the routing of a sharded partition key changes); otherwise only index keys change, in place.
func (a *layout) primaryKeyMoves(e model.MigrationEntity, shardingChanged bool) bool {
	keys := []string{a.in.PartitionKey.Name}
	if a.in.SortKey != nil {
		keys = append(keys, a.in.SortKey.Name)
	}
	for _, k := range keys {
		if e.OldKeys[k] != e.NewKeys[k] {
			return true
		}
	}
	pk := a.in.PartitionKey.Name
	return shardingChanged && (strings.Contains(e.OldKeys[pk], "{"+model.ShardPlaceholder+"}") || strings.Contains(e.NewKeys[pk], "{"+model.ShardPlaceholder+"}"))
}

// sameRouting compares routings apart from the scheme version, which names a layout but moves no item.
func sameRouting(x, y model.Routing) bool {
	x.SchemeVersion, y.SchemeVersion = 0, 0
	return x == y
}

// SameLayout reports whether two layouts write the same keys with the same routing (the scheme version
// aside).
func SameLayout(x, y model.LayoutDoc) bool {
	if !sameRouting(x.Sharding, y.Sharding) || len(x.Keys) != len(y.Keys) {
		return false
	}
	for name, keys := range x.Keys {
		if !maps.Equal(keys, y.Keys[name]) {
			return false
		}
	}
	return true
}

func hasShard(keys map[string]string) bool {
	for _, t := range keys {
		if strings.Contains(t, "{"+model.ShardPlaceholder+"}") {
			return true
		}
	}
	return false
}

// entityItems is an entity's item count ("" is the table's).
func (a *layout) entityItems(name string) *int64 {
	if i := a.m.EntityIndex(name); i >= 0 {
		return a.in.Entities[i].Traffic.ItemCount
	}
	return a.in.Traffic.ItemCount
}

// entityDoc is the entity model's entity of that name; nil for a table without entities.
func (a *layout) entityDoc(name string) *model.EntityDoc {
	if i := a.m.EntityIndex(name); i >= 0 {
		return &a.entities.Doc.Items[i]
	}
	return nil
}

// migrationPatterns pairs each access pattern's facts in both layouts.
func (a *layout) migrationPatterns(doc, old *model.Document, md *model.MigrationDoc) []model.MigrationPattern {
	out := []model.MigrationPattern{}
	if len(old.Derived.AccessPatterns) != len(doc.Derived.AccessPatterns) {
		return out
	}
	for i, nf := range doc.Derived.AccessPatterns {
		of := old.Derived.AccessPatterns[i]
		p := model.MigrationPattern{Name: nf.Name, Path: nf.Path, OldIndex: of.Index, NewIndex: nf.Index,
			OldKey: md.From.Patterns[nf.Name], NewKey: doc.Derived.Layout.Patterns[nf.Name],
			OldQueriesPerCall: of.QueriesPerCall, NewQueriesPerCall: nf.QueriesPerCall,
			OldPartitionReadUnits: of.PartitionReadUnits, NewPartitionReadUnits: nf.PartitionReadUnits}
		p.Changed = !slices.Equal(p.OldKey, p.NewKey)
		p.BothQueriesPerCall = p.NewQueriesPerCall
		p.BothPartitionReadUnits = p.NewPartitionReadUnits
		if p.Changed && sameKeysApartFromShards(p.OldKey, p.NewKey) && md.OldRouting.Width == md.NewRouting.Width {
			// One template, another count: the keys of the smaller count are among the larger's.
			p.BothQueriesPerCall = max(p.OldQueriesPerCall, p.NewQueriesPerCall)
			p.BothPartitionReadUnits = math.Max(p.OldPartitionReadUnits, p.NewPartitionReadUnits)
		} else if p.Changed {
			p.BothQueriesPerCall += p.OldQueriesPerCall
			p.BothPartitionReadUnits = math.Max(p.OldPartitionReadUnits, p.NewPartitionReadUnits)
		}
		for _, phase := range model.MigrationPhases {
			r := model.PatternPhaseRead{Phase: phase, Layout: model.LayoutNew, QueriesPerCall: p.NewQueriesPerCall}
			if p.Changed && (phase == model.PhaseDualWrite || phase == model.PhaseBackfill) {
				r = model.PatternPhaseRead{Phase: phase, Layout: model.LayoutOld, QueriesPerCall: p.OldQueriesPerCall}
			}
			p.Reads = append(p.Reads, r)
		}
		// A secondary index holds the old copy and the new copy of every re-keyed item it carries.
		if nf.IndexKind != model.IndexKindTable && !p.Changed {
			for _, e := range a.patternEntities(doc.AccessPatterns[i], nf.Index) {
				if slices.Contains(md.Changed, e) {
					p.IndexDuplicates = true
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// sameKeysApartFromShards reports whether two patterns' reads differ only in their shard routing.
func sameKeysApartFromShards(x, y []string) bool {
	drop := func(reads []string) []string {
		return slices.DeleteFunc(slices.Clone(reads), func(r string) bool { return strings.HasPrefix(r, "{"+model.ShardPlaceholder+"}=") })
	}
	return slices.Equal(drop(x), drop(y))
}

// layoutOverlap finds a primary key both layouts can render, for the entities that change. A shard count
// change that keeps the templates and the suffix width keeps the key of the ids whose suffix is the same:
// min(a, b) of every lcm(a, b) hash values.
func (a *layout) layoutOverlap(md *model.MigrationDoc) *model.LayoutOverlap {
	oldM, newM := a.old.entities, a.entities
	tableKeys := []string{a.in.PartitionKey.Name}
	if a.in.SortKey != nil {
		tableKeys = append(tableKeys, a.in.SortKey.Name)
	}
	var searcher model.Search
	build := func(an *layout, keys map[string]string, chars model.ByteSet, width int) *model.Automaton {
		var parts [][]model.TemplateAtom
		for _, k := range tableKeys {
			t, err := model.ParseTemplate(keys[k])
			if err != nil || keys[k] == "" {
				return nil
			}
			parts = append(parts, model.Atoms(t, an.segments, chars, width))
		}
		return model.KeyAutomaton(parts)
	}
	oldChars, newChars := model.AnyByte.Without(model.Single(0)), model.AnyByte.Without(model.Single(0))
	if oldM != nil {
		oldChars = oldM.IDChars
	}
	if newM != nil {
		newChars = newM.IDChars
	}
	var first *model.LayoutOverlap
	for i := range md.Entities {
		e := &md.Entities[i]
		if !e.Moves {
			continue
		}
		oa := build(a.old, e.OldKeys, oldChars, md.OldRouting.Width)
		na := build(a, e.NewKeys, newChars, md.NewRouting.Width)
		if oa == nil || na == nil {
			continue
		}
		example, ok := searcher.Common(oa, na)
		if !ok {
			continue
		}
		or, nr := md.OldRouting, md.NewRouting
		if maps.Equal(e.OldKeys, e.NewKeys) && or.Algorithm == model.RoutingAlgorithm && nr.Algorithm == model.RoutingAlgorithm &&
			or.Source == nr.Source && or.Width == nr.Width {
			e.KeptShare = float64(min(or.Count, nr.Count)) / float64(lcm(or.Count, nr.Count))
		}
		if first == nil {
			first = &model.LayoutOverlap{Example: model.ExampleKey(example, tableKeys), KeptShare: e.KeptShare}
		}
	}
	return first
}

// movedResidues is the number of new shards the moved ids land on when a shard count changes from
// oldCount to newCount on the same template: the suffixes h mod newCount of the hashes whose suffix
// changes, over one period of both counts (the new count when the period is too long to walk).
func movedResidues(oldCount, newCount int64) int64 {
	period := lcm(oldCount, newCount)
	if period > 1_000_000 {
		return newCount
	}
	seen := map[int64]bool{}
	for r := range period {
		if r%oldCount != r%newCount {
			seen[r%newCount] = true
		}
	}
	return max(int64(len(seen)), 1)
}

func lcm(x, y int64) int64 {
	g, b := x, y
	for b != 0 {
		g, b = b, g%b
	}
	return x / g * y
}

// itemWrite is what writing (or deleting) one item costs: table write units (its LSI entries included) and
// each GSI's.
type itemWrite struct {
	table float64
	gsis  map[string]float64
}

// itemWrites is one item of the entity ("" for a table without entities) in this analysis's layout: a
// non-transactional put or delete of the item and of every index entry it carries.
func (a *layout) itemWrites(doc *model.Document, entity string) itemWrite {
	size, d := a.itemSize(doc, entity), a.entityDoc(entity)
	w := itemWrite{table: capacity.WriteUnitsPerWrite(size, false), gsis: map[string]float64{}}
	shares := map[string]float64{}
	for _, l := range a.in.LocalSecondaryIndexes {
		shares[l.Name] = model.Deref(cmp.Or(l.ItemShare, model.Ptr(1.0)))
	}
	for _, g := range a.in.GlobalSecondaryIndexes {
		shares[g.Name] = model.Deref(cmp.Or(g.ItemShare, model.Ptr(1.0)))
	}
	carries := func(index string) (float64, bool) {
		if d != nil {
			return 1, slices.Contains(d.Indexes, index)
		}
		return shares[index], true
	}
	for _, l := range doc.Table.LSIs {
		if share, ok := carries(l.Name); ok {
			entry := capacity.ProjectedEntryBytes(l.ProjectionType, size, capacity.EntryKeyBytes(a.m, doc, d, []model.IndexKeyDoc{l.SortKey}), l.NonKeyAttributes)
			w.table += share * capacity.WriteUnitsPerWrite(entry+model.IndexEntryOverheadBytes, false)
		}
	}
	for _, g := range doc.Table.GSIs {
		if share, ok := carries(g.Name); ok {
			entry := capacity.ProjectedEntryBytes(g.ProjectionType, size, capacity.EntryKeyBytes(a.m, doc, d, slices.Concat(g.PartitionKey, g.SortKey)), g.NonKeyAttributes)
			w.gsis[g.Name] = share * capacity.WriteUnitsPerWrite(entry, false)
		}
	}
	return w
}

// changedIndexes are the GSIs whose key templates the entity changes, or that it enters or leaves.
func (a *layout) changedIndexes(doc *model.Document, e model.MigrationEntity) []string {
	var out []string
	for _, g := range doc.Table.GSIs {
		for _, k := range slices.Concat(g.PartitionKey, g.SortKey) {
			if e.OldKeys[k.Name] != e.NewKeys[k.Name] {
				out = append(out, g.Name)
				break
			}
		}
	}
	return out
}

// itemSize is one entity's item size ("" for the table's).
func (a *layout) itemSize(doc *model.Document, entity string) int64 {
	if d := a.entityDoc(entity); d != nil {
		return d.ItemSizeBytes
	}
	return doc.Traffic.ItemSizeBytes
}

// backfill computes the rewrite of the changed entities' items and the deletion of their old copies.
func (a *layout) backfill(doc *model.Document, md *model.MigrationDoc) {
	b := &md.Backfill
	b.IndexPutWriteUnits, b.IndexDeleteWriteUnits, b.Throttles = map[string]float64{}, map[string]float64{}, []model.BackfillThrottle{}
	var items, scanned, scanBytes, puts, deletes float64
	// The rewrites need the moving entities' counts; the Scan every entity's.
	countsKnown, scanKnown := true, true
	for _, e := range md.Entities {
		if e.Items == nil {
			scanKnown = false
			countsKnown = countsKnown && !e.Changed
			continue
		}
		n := float64(*e.Items)
		scanned += n
		scanBytes += n * float64(a.itemSize(doc, e.Name))
		if !e.Changed {
			continue
		}
		put, del := a.itemWrites(doc, e.Name), a.old.itemWrites(a.old.doc, e.Name)
		if !e.Moves {
			// Only index keys change: each item is updated in place, and each index whose key changes
			// deletes the old entry and writes the new one.
			items += n
			puts += n * put.table
			for _, g := range a.changedIndexes(doc, e) {
				b.IndexPutWriteUnits[g] += n * put.gsis[g]
				b.IndexDeleteWriteUnits[g] += n * del.gsis[g]
			}
			continue
		}
		moved := n * (1 - e.KeptShare)
		items += moved
		puts += moved * put.table
		deletes += moved * del.table
		for g, u := range put.gsis {
			b.IndexPutWriteUnits[g] += moved * u
		}
		for g, u := range del.gsis {
			b.IndexDeleteWriteUnits[g] += moved * u
		}
	}
	for g, u := range b.IndexPutWriteUnits {
		if u == 0 {
			delete(b.IndexPutWriteUnits, g)
		}
	}
	for g, u := range b.IndexDeleteWriteUnits {
		if u == 0 {
			delete(b.IndexDeleteWriteUnits, g)
		}
	}
	// Each GSI's write units per table write unit of the rewrites, weighted by items (1 where a count is
	// missing), for the limits the rate is set against.
	var tableWeighted float64
	gsiWeighted := map[string]float64{}
	for _, e := range md.Entities {
		if !e.Changed {
			continue
		}
		weight := 1.0
		if e.Items != nil {
			weight = float64(*e.Items)
		}
		put := a.itemWrites(doc, e.Name)
		tableWeighted += weight * put.table
		for g, u := range put.gsis {
			gsiWeighted[g] += weight * u
		}
	}
	perTable := map[string]float64{}
	for g, w := range gsiWeighted {
		if tableWeighted > 0 {
			perTable[g] = w / tableWeighted
		}
	}
	if scanKnown {
		b.ScannedItems, b.ScanReadUnits = model.Ptr(scanned), model.Ptr(model.CeilUnits(scanBytes/model.ReadUnitBytes)*0.5)
	}
	if countsKnown {
		b.Items, b.PutWriteUnits, b.DeleteWriteUnits = model.Ptr(items), model.Ptr(puts), model.Ptr(deletes)
		total := puts + deletes + model.SumValues(b.IndexPutWriteUnits) + model.SumValues(b.IndexDeleteWriteUnits)
		b.WriteUnits = model.Ptr(total)
		if scanKnown {
			a.backfillCost(doc, b, total)
		}
	}
	a.backfillRate(doc, md, perTable)
	if b.Rate > 0 && b.PutWriteUnits != nil {
		b.Hours = model.Ptr(*b.PutWriteUnits / b.Rate / model.SecondsPerHour)
		b.DeleteHours = model.Ptr(*b.DeleteWriteUnits / b.Rate / model.SecondsPerHour)
		b.RateForMaxHours = model.Ptr(*b.PutWriteUnits / (model.Limits.BackfillMaxHours * model.SecondsPerHour))
	}
}

// backfillCost prices the backfill on demand: the Scan in the pricing Region, and every write in each
// Region that performs it (a global table's replicas perform every write). Nil when a Region lacks prices.
func (a *layout) backfillCost(doc *model.Document, b *model.BackfillDoc, writeUnits float64) {
	region, class := a.pricingRegion(), a.pricingClass()
	prices, _, missing := model.ResolvePrices(region, class, a.pricingOverrides())
	if len(missing) > 0 {
		return
	}
	cost := *b.ScanReadUnits / model.RequestUnitsPerMillion * prices.ReadRequestUnitsPerMillion
	st := model.PriceStatusOf(region, class, a.pricingOverrides())
	regions := []string{region}
	if f := doc.Derived.Replicas; f != nil && len(f.Regions) > 0 {
		regions = nil
		for _, r := range f.Regions {
			regions = append(regions, r.Region)
		}
	}
	for _, r := range regions {
		o := a.pricingOverrides()
		if r != region || doc.Derived.Replicas != nil {
			o = a.in.RegionPrices(r)
		}
		rp, _, missing := model.ResolvePrices(r, class, o)
		if len(missing) > 0 {
			return
		}
		cost += writeUnits / model.RequestUnitsPerMillion * rp.WriteRequestUnitsPerMillion
		rs := model.PriceStatusOf(r, class, o)
		if !slices.Contains(rs.Confirmed, "write_request_units_per_million") {
			st.Confirmed = slices.DeleteFunc(st.Confirmed, func(n string) bool { return n == "write_request_units_per_million" })
		}
	}
	b.Cost, b.Regions = model.Ptr(roundCents(cost)), len(regions)
	b.PricesConfirmed = slices.Contains(st.Confirmed, "write_request_units_per_million") && slices.Contains(st.Confirmed, "read_request_units_per_million")
}

func roundCents(x float64) float64 { return math.Round(x*100) / 100 }

func (a *layout) pricingRegion() string {
	if p := a.in.Pricing; p != nil && p.Region != "" {
		return p.Region
	}
	return model.DefaultPricingRegion
}

func (a *layout) pricingClass() string {
	if p := a.in.Pricing; p != nil {
		return cmp.Or(p.TableClass, model.TableClassStandard)
	}
	return model.TableClassStandard
}

func (a *layout) pricingOverrides() model.PriceOverrides {
	if p := a.in.Pricing; p != nil {
		return p.Prices
	}
	return model.PriceOverrides{}
}

// backfillRate sets the headroom, the rate and the limits the rate and production exceed together. During
// the backfill the changed entities are written in both layouts, so their production writes count twice.
// The items of one old partition-key value, which a Scan reads together, land on the new layout's values
// of that key: its shards, times the values of new placeholders the old key lacks.
// gsiPerTable is each GSI's write units per table write unit of the rewrites.
func (a *layout) backfillRate(doc *model.Document, md *model.MigrationDoc, gsiPerTable map[string]float64) {
	b := &md.Backfill
	u := doc.TargetUtilization
	c := doc.Derived.Capacity
	// Production table writes during the backfill: the design's peak, plus the old copies of the changed
	// entities' writes.
	production := model.Deref(c.PeakWriteUnits) + a.changedWriteUnits(doc, md)
	type limit struct {
		what            string
		headroom, limit float64
		demand          func(rate float64) float64
	}
	var limits []limit
	if spread := a.backfillSpread(md); spread > 0 {
		perShard := model.Deref(c.PerShardWriteUnits)
		limits = append(limits, limit{what: "partition",
			headroom: spread * (model.PartitionWriteUnitsLimit*u - perShard), limit: model.PartitionWriteUnitsLimit,
			demand: func(rate float64) float64 { return perShard + rate/spread }})
	}
	if w, name := tableLimit(doc, false); w > 0 {
		gsiProduction, gsiShare := 0.0, 0.0
		if name == onDemandQuotaLimit {
			// The account's per-table quota counts the GSIs' units too.
			for _, g := range doc.Table.GSIs {
				gsiProduction += model.Deref(g.PeakWriteUnits)
			}
			gsiShare = model.SumValues(gsiPerTable)
		}
		limits = append(limits, limit{what: name,
			headroom: (w*u - production - gsiProduction) / (1 + gsiShare), limit: w,
			demand: func(rate float64) float64 { return production + gsiProduction + rate*(1+gsiShare) }})
	}
	// The Scan's reads beside the production reads, when the item counts give its units per rewrite.
	if r, name := tableLimit(doc, true); r > 0 && b.ScanReadUnits != nil && b.PutWriteUnits != nil && *b.PutWriteUnits > 0 {
		perTable := *b.ScanReadUnits / *b.PutWriteUnits
		prod := model.Deref(c.PeakReadUnits)
		limits = append(limits, limit{what: name,
			headroom: (r*u - prod) / perTable, limit: r,
			demand: func(rate float64) float64 { return prod + rate*perTable }})
	}
	for _, g := range doc.Table.GSIs {
		gw := model.Deref(g.WriteCapacity)
		if g.OnDemandThroughput != nil && g.OnDemandThroughput.Write != nil {
			gw = *g.OnDemandThroughput.Write
		}
		perTable := gsiPerTable[g.Name]
		if gw <= 0 || perTable <= 0 {
			continue
		}
		prod := model.Deref(g.PeakWriteUnits)
		limits = append(limits, limit{what: "index " + g.Name + " write capacity",
			headroom: (float64(gw)*u - prod) / perTable, limit: float64(gw),
			demand: func(rate float64) float64 { return prod + rate*perTable }})
	}
	b.HeadroomWriteUnitsPerSecond = math.Inf(1)
	for _, l := range limits {
		if l.headroom < b.HeadroomWriteUnitsPerSecond {
			b.HeadroomWriteUnitsPerSecond, b.HeadroomLimit = math.Max(0, l.headroom), l.what
		}
	}
	if math.IsInf(b.HeadroomWriteUnitsPerSecond, 1) {
		b.HeadroomWriteUnitsPerSecond = 0
	}
	b.Rate, b.RateSource = b.HeadroomWriteUnitsPerSecond, "headroom"
	if r := a.in.Migration.BackfillWriteUnitsPerSecond; r != nil {
		b.Rate, b.RateSource = *r, "declared"
	}
	for _, l := range limits {
		if d := l.demand(b.Rate); d > l.limit*(1+1e-9) {
			b.Throttles = append(b.Throttles, model.BackfillThrottle{What: l.what, Demand: d, Limit: l.limit})
		}
	}
}

// changedWriteUnits are the production write units of the changed entities: the second copy dual
// writes add.
func (a *layout) changedWriteUnits(doc *model.Document, md *model.MigrationDoc) float64 {
	if a.entities == nil {
		if len(md.Changed) > 0 {
			return model.Deref(doc.Derived.Capacity.PeakWriteUnits)
		}
		return 0
	}
	var sum float64
	for _, d := range a.entities.Doc.Items {
		if slices.Contains(md.Changed, d.Name) {
			sum += model.Deref(d.WriteUnits)
		}
	}
	return sum
}

// backfillSpread is the number of new partition-key values the items of one old value land on; 0 when
// unbounded (the rewrites spread over the table).
func (a *layout) backfillSpread(md *model.MigrationDoc) float64 {
	pkName := a.in.PartitionKey.Name
	spread := 0.0
	for _, e := range md.Entities {
		if !e.Moves {
			continue
		}
		oldT, err1 := model.ParseTemplate(e.OldKeys[pkName])
		newT, err2 := model.ParseTemplate(e.NewKeys[pkName])
		if err1 != nil || err2 != nil {
			continue
		}
		n := 1.0
		for _, ph := range newT.Placeholders() {
			if ph == model.ShardPlaceholder {
				switch {
				case e.KeptShare > 0:
					// The same template with another count: the moved ids land on some of the new shards.
					n *= float64(movedResidues(md.OldRouting.Count, md.NewRouting.Count))
				case !oldT.HasPlaceholder(ph) || !sameRouting(md.OldRouting, md.NewRouting):
					n *= float64(md.NewRouting.Count)
				}
				continue
			}
			if oldT.HasPlaceholder(ph) {
				continue
			}
			seg, ok := a.segments[ph]
			if !ok || seg.Cardinality == nil {
				n = math.Inf(1)
				break
			}
			n *= float64(*seg.Cardinality)
		}
		if math.IsInf(n, 1) {
			continue
		}
		if spread == 0 || n < spread {
			spread = n
		}
	}
	return spread
}

const onDemandQuotaLimit = "on-demand table quota"

// tableLimit is the table's write (or read) throughput and what sets it: provisioned capacity (the
// autoscaling maximum when autoscaled), the on-demand cap, or the on-demand quota per table.
func tableLimit(doc *model.Document, read bool) (float64, string) {
	t := doc.Table
	kind, capacity, scaled, capped := "write", t.WriteCapacity, (*model.CapacityRange)(nil), (*int64)(nil)
	if t.Autoscaling != nil {
		scaled = t.Autoscaling.Write
	}
	if t.OnDemandThroughput != nil {
		capped = t.OnDemandThroughput.Write
	}
	if read {
		kind, capacity, scaled, capped = "read", t.ReadCapacity, nil, nil
		if t.Autoscaling != nil {
			scaled = t.Autoscaling.Read
		}
		if t.OnDemandThroughput != nil {
			capped = t.OnDemandThroughput.Read
		}
	}
	switch {
	case t.BillingMode == "PROVISIONED" && scaled != nil:
		return float64(scaled.Max), "provisioned " + kind + " capacity (autoscaling maximum)"
	case t.BillingMode == "PROVISIONED" && capacity != nil:
		return float64(*capacity), "provisioned " + kind + " capacity"
	case t.BillingMode == "PROVISIONED":
		return 0, ""
	case capped != nil:
		return float64(*capped), "on-demand maximum " + kind + " throughput"
	case read:
		return float64(model.OnDemandTableUnitsQuota), "on-demand table read quota"
	}
	return float64(model.OnDemandTableUnitsQuota), onDemandQuotaLimit
}

// migrationSteps are the steps of a migration in order, with their state against the current phase.
func migrationSteps(md *model.MigrationDoc) []model.StepDoc {
	steps := []model.StepDoc{
		{Phase: model.PhaseDualWrite, Step: "write both layouts"},
		{Phase: model.PhaseBackfill, Step: "rewrite the old items under the new keys"},
		{Phase: model.PhaseReadNew, Step: "switch readers to the new layout"},
		{Phase: model.PhaseDone, Step: "stop writing the old layout"},
		{Phase: model.PhaseDone, Step: "delete the old items"},
	}
	for i := range steps {
		switch at := slices.Index(model.MigrationPhases, steps[i].Phase); {
		case at < md.PhaseIndex:
			steps[i].State = "done"
		case at == md.PhaseIndex:
			steps[i].State = "current"
		default:
			steps[i].State = "next"
		}
	}
	return steps
}
