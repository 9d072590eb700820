package migration

import (
	"cmp"
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The backfill: the items a migration rewrites, the Scan that finds them, the write units of the rewrites
// and deletes, their cost, and the rate the design's headroom leaves for them.

// itemWrite is what writing (or deleting) one item costs: table write units (its LSI entries included) and
// each GSI's.
type itemWrite struct {
	table float64
	gsis  map[string]float64
}

// itemWrites is one item of the entity ("" for a table without entities) in this analysis's layout: a
// non-transactional put or delete of the item and of every index entry it carries.
func (a *layout) itemWrites(doc *Design, entity string) itemWrite {
	size, d := a.itemSize(doc, entity), a.entityDoc(entity)
	w := itemWrite{table: capacity.WriteUnitsPerWrite(size, false), gsis: map[string]float64{}}
	shares := map[string]float64{}
	for _, l := range a.in.LocalSecondaryIndexes {
		shares[l.Name] = model.Deref(cmp.Or(a.traffic.IndexShare(l.Name), model.Ptr(1.0)))
	}
	for _, g := range a.in.GlobalSecondaryIndexes {
		shares[g.Name] = model.Deref(cmp.Or(a.traffic.IndexShare(g.Name), model.Ptr(1.0)))
	}
	carries := func(index string) (float64, bool) {
		if d != nil {
			return 1, slices.Contains(d.Indexes, index)
		}
		return shares[index], true
	}
	for _, l := range doc.Table.LSIs {
		if share, ok := carries(l.Name); ok {
			entry := capacity.ProjectedEntryBytes(l.ProjectionType, size, capacity.EntryKeyBytes(a.m, doc.Sizing, d, []model.IndexKeyDoc{l.SortKey}), l.NonKeyAttributes)
			w.table += share * capacity.WriteUnitsPerWrite(entry+model.IndexEntryOverheadBytes, false)
		}
	}
	for _, g := range doc.Table.GSIs {
		if share, ok := carries(g.Name); ok {
			entry := capacity.ProjectedEntryBytes(g.ProjectionType, size, capacity.EntryKeyBytes(a.m, doc.Sizing, d, g.PartitionKey, g.SortKey), g.NonKeyAttributes)
			w.gsis[g.Name] = share * capacity.WriteUnitsPerWrite(entry, false)
		}
	}
	return w
}

// changedIndexes are the GSIs whose key templates the entity changes, or that it enters or leaves.
func (a *layout) changedIndexes(doc *Design, e model.MigrationEntity) []string {
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
func (a *layout) itemSize(doc *Design, entity string) int64 {
	if d := a.entityDoc(entity); d != nil {
		return d.ItemSizeBytes
	}
	return doc.Sizing.Traffic.ItemSizeBytes
}

// backfill computes the rewrite of the changed entities' items and the deletion of their old copies.
func (a *layout) backfill(doc *Design, md *model.MigrationDoc) {
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
func (a *layout) backfillCost(doc *Design, b *model.BackfillDoc, writeUnits float64) {
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
func (a *layout) backfillRate(doc *Design, md *model.MigrationDoc, gsiPerTable map[string]float64) {
	b := &md.Backfill
	u := doc.TargetUtilization
	c := doc.Sizing.Capacity
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
func (a *layout) changedWriteUnits(doc *Design, md *model.MigrationDoc) float64 {
	var sum float64
	for _, s := range a.m.Scopes {
		if slices.Contains(md.Changed, s.Name) {
			sum += a.writeUnits(doc, s.Name)
		}
	}
	return sum
}

// writeUnits are one entity's peak write units ("" the table's).
func (a *layout) writeUnits(doc *Design, entity string) float64 {
	if d := a.entityDoc(entity); d != nil {
		return model.Deref(d.WriteUnits)
	}
	return model.Deref(doc.Sizing.Capacity.PeakWriteUnits)
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
func tableLimit(doc *Design, read bool) (float64, string) {
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
