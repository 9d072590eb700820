package cost

import (
	"cmp"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/patterns"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// The demand the estimate prices: each side's requests per second, in the table's and each index's units.

// costModel carries the intermediate figures of one estimate.
type costModel struct {
	design *model.Model
	// in is the design, traffic the table's.
	in      *model.Input
	traffic *capacity.TableTraffic
	doc     *designFacts
	est     *model.CostEstimate
	u       float64
	// Write requests per second to the table: average and peak; ok is false without write traffic.
	reqAvg, reqPeak float64
	// writesKnown and readsKnown say whether the table's writes and reads have a basis (declared or
	// measured); without one the side's figures are unknown, not zero.
	writesKnown, readsKnown bool
	indexes                 []indexWrite
	// Table write units per request, and LSI units per request (they share the table's capacity).
	tableUnits, lsiUnits float64
	// Provisioned read capacity and the modes' parts, kept for the comparison.
	readCapacity                          float64
	odTableWrites, odIndexWrites, odReads float64
	prTableWrites, prIndexWrites, prReads float64
}

// indexWrite is one index's write demand.
type indexWrite struct {
	cost       *model.IndexCost
	gsi        *model.GSIDoc
	observed   *observed.Observation
	entryBytes int64
	avgUnits   float64
	peakUnits  float64
}

// newCostModel is the cost model of one estimate: each index's write demand, and what the patterns keep
// projected. It is a value, so that the estimate keeps it (and the facts it points at) off the heap.
func newCostModel(design *model.Model, traffic *capacity.TableTraffic, doc *designFacts, est *model.CostEstimate) costModel {
	table := design.Input
	m := costModel{design: design, in: table, traffic: traffic, doc: doc, est: est, u: doc.TargetUtilization, tableUnits: doc.Capacity.WriteUnitsPerWrite}
	txn := doc.Traffic.TransactionalWrites
	type index struct{ kind, name string }
	shares := make(map[index]*float64, len(table.LocalSecondaryIndexes)+len(table.GlobalSecondaryIndexes))
	for _, l := range table.LocalSecondaryIndexes {
		shares[index{"lsi", l.Name}] = traffic.IndexShare(l.Name)
	}
	for _, g := range table.GlobalSecondaryIndexes {
		shares[index{"gsi", g.Name}] = traffic.IndexShare(g.Name)
	}
	// Each index's cost is written where the estimate lists it: est.Indexes holds every index, so appending
	// never moves the costs m.indexes point at.
	n := len(doc.Table.LSIs) + len(doc.GSIs)
	m.indexes = make([]indexWrite, 0, n)
	est.Indexes = make([]model.IndexCost, 0, n)
	add := func(kind, name string, path model.Path, projection string, nonKey []string, keyBytes int64, g *model.GSIDoc) {
		entry := capacity.ProjectedEntryBytes(projection, doc.Traffic.ItemSizeBytes, keyBytes, nonKey)
		// An LSI entry's write counts its 100 bytes of overhead, a GSI entry's does not: what DynamoDB
		// Local, AWS's emulator, reports with ReturnConsumedCapacity = INDEXES
		// (TestAccCostWriteUnitsMatchConsumedCapacity); AWS's guides do not say.
		written := entry
		if kind == "lsi" {
			written += model.IndexEntryOverheadBytes
		}
		keysOnly := min(doc.Traffic.ItemSizeBytes, keyBytes) + (written - entry)
		est.Indexes = append(est.Indexes, model.IndexCost{Name: name, Kind: kind, EntryBytes: entry, WriteUnitsPerWrite: capacity.WriteUnitsPerWrite(written, txn), ItemShare: 1, Path: path})
		ic := &est.Indexes[len(est.Indexes)-1]
		ic.ReducibleWriteUnits = ic.WriteUnitsPerWrite - capacity.WriteUnitsPerWrite(keysOnly, txn)
		if design.Entities != nil {
			// Each entity writes its own entry: the index's units per write are their write-weighted mean.
			capacity.EntityIndexCost(design, ic, projection, nonKey, kind == "lsi")
			entry = ic.EntryBytes
		}
		if s := shares[index{kind, name}]; s != nil {
			ic.ItemShare = *s
		}
		m.indexes = append(m.indexes, indexWrite{cost: ic, gsi: g, entryBytes: entry})
	}
	for _, l := range doc.Table.LSIs {
		add("lsi", l.Name, model.Path{"local_secondary_indexes", l.Name}, l.ProjectionType, l.NonKeyAttributes,
			capacity.EntryKeyBytes(design, doc.sizing, nil, []model.IndexKeyDoc{l.SortKey}), nil)
		ic := m.indexes[len(m.indexes)-1].cost
		m.lsiUnits += ic.WriteUnitsPerWrite * ic.ItemShare
	}
	for i := range doc.GSIs {
		g := &doc.GSIs[i]
		add("gsi", g.Name, model.Path{"global_secondary_indexes", g.Name}, g.ProjectionType, g.NonKeyAttributes,
			capacity.EntryKeyBytes(design, doc.sizing, nil, g.PartitionKey, g.SortKey), g)
		for _, o := range table.Observed {
			if o.IndexName == g.Name {
				m.indexes[len(m.indexes)-1].observed = &o.Observation
			}
		}
	}
	m.keepProjectionsPatternsRead()
	return m
}

// keepProjectionsPatternsRead clears ReducibleWriteUnits of an index that a declared access pattern reads
// for more than the keys: the pattern needs what the index projects (a pattern without `attributes` needs
// the whole item), so projecting less would trade each saved write unit for a table read per item, and
// DK902's remedy does not apply.
func (m *costModel) keepProjectionsPatternsRead() {
	doc := m.doc
	if len(doc.PatternFacts) != len(doc.Patterns) || len(doc.PatternFacts) == 0 {
		return
	}
	keys := map[string]bool{doc.Table.PartitionKey.Name: true}
	if sk := doc.Table.SortKey; sk != nil {
		keys[sk.Name] = true
	}
	for name := range m.design.Segments {
		if patterns.TableSegment(*doc.Table, name, &doc.sizing.Keys.PartitionKey, doc.sizing.Keys.SortKey) {
			keys[name] = true
		}
	}
	indexKeys := map[string][]string{}
	for _, l := range doc.Table.LSIs {
		indexKeys[l.Name] = []string{l.SortKey.Name}
	}
	for _, g := range doc.GSIs {
		for _, keys := range [...][]model.IndexKeyDoc{g.PartitionKey, g.SortKey} {
			for _, k := range keys {
				indexKeys[g.Name] = append(indexKeys[g.Name], k.Name)
			}
		}
	}
	for i, f := range doc.PatternFacts {
		if !f.Serves || f.IndexKind == model.IndexKindTable {
			continue
		}
		needsMore := doc.Patterns[i].Attributes == nil
		for _, attr := range doc.Patterns[i].Attributes {
			if !keys[attr] && !slices.Contains(indexKeys[f.Index], attr) {
				needsMore = true
			}
		}
		if !needsMore {
			continue
		}
		for _, iw := range m.indexes {
			if iw.cost.Name == f.Index {
				iw.cost.ReducibleWriteUnits = 0
			}
		}
	}
}

// tableObservation is the table's measured traffic, nil when not observed.
func (m *costModel) tableObservation() *observed.Observation {
	for _, o := range m.in.Observed {
		if o.IndexName == "" {
			return &o.Observation
		}
	}
	return nil
}

// rate picks the average and peak of one side: measured (average, else peak as an upper bound), else
// declared (average, else peak). Measured figures are capacity units per second; declared ones requests.
func rate(measuredAvg, measuredPeak, declaredAvg, declaredPeak *float64) (avg, peak float64, basis string, measured bool) {
	switch {
	case measuredAvg != nil:
		return *measuredAvg, *cmp.Or(measuredPeak, measuredAvg), model.BasisMeasuredAverage, true
	case measuredPeak != nil:
		return *measuredPeak, *measuredPeak, model.BasisMeasuredPeak, true
	case declaredAvg != nil:
		return *declaredAvg, *cmp.Or(declaredPeak, declaredAvg), model.BasisDeclaredAverage, false
	case declaredPeak != nil:
		return *declaredPeak, *declaredPeak, model.BasisDeclaredPeak, false
	}
	return 0, 0, model.BasisNone, false
}

// writes computes the table's and every index's monthly write units and their provisioned capacity.
func (m *costModel) writes() {
	t, est := m.traffic.Traffic, m.est
	var mAvg, mPeak *float64
	if o := m.tableObservation(); o != nil {
		mAvg, mPeak = o.Traffic.AverageWritesPerSecond, o.Traffic.WritesPerSecond
	}
	avg, peak, basis, measured := rate(mAvg, mPeak, t.AverageWritesPerSecond, t.WritesPerSecond)
	est.WritesBasis = basis
	m.writesKnown = basis != model.BasisNone
	if !m.writesKnown {
		return
	}
	// The table's consumed units include its LSIs' writes (they share its capacity): split them back
	// into requests.
	if measured {
		perRequest := m.tableUnits + m.lsiUnits
		avg, peak = avg/perRequest, peak/perRequest
	}
	m.reqAvg, m.reqPeak = avg, peak
	sec := secondsPerMonth()
	est.TableWriteUnitsPerSecond = model.Ptr(avg * m.tableUnits)
	est.TableMonthlyWriteUnits = model.Ptr(avg * m.tableUnits * sec)
	total := *est.TableMonthlyWriteUnits
	for i := range m.indexes {
		iw := &m.indexes[i]
		ic := iw.cost
		ic.WritesBasis = basis
		iw.avgUnits = avg * ic.ItemShare * ic.WriteUnitsPerWrite
		iw.peakUnits = peak * ic.ItemShare * ic.WriteUnitsPerWrite
		if o := iw.observed; o != nil {
			if a, p, b, _ := rate(o.Traffic.AverageWritesPerSecond, o.Traffic.WritesPerSecond, nil, nil); b != model.BasisNone {
				iw.avgUnits, iw.peakUnits, ic.WritesBasis = a, p, b
			}
		}
		ic.MonthlyWriteUnits = model.Ptr(iw.avgUnits * sec)
		total += *ic.MonthlyWriteUnits
	}
	est.MonthlyWriteRequestUnits = model.Ptr(total)
}

// readSource is one source of read demand in units per second.
type readSource struct {
	name, basis string
	avg, peak   float64
	hasPeak     bool
	// capacity is the configured provisioned capacity or autoscaling range, when there is one.
	declared *int64
	scaling  *model.CapacityRange
}

// readSources lists the read demand: the table's (measured or declared), and each index's measured reads.
// Declared access patterns (the patterns stage) raise the table's peak reads above the declared
// ones, and give an index without a measurement its reads: where they do and no average is declared, their
// reads, held all month, are the figure (an upper bound, like a declared peak).
func (m *costModel) readSources(sources []readSource) []readSource {
	t, tbl := m.traffic.Traffic, m.doc.Table
	ru := m.doc.Capacity.ReadUnitsPerRead
	var mAvg, mPeak *float64
	if o := m.tableObservation(); o != nil {
		mAvg, mPeak = o.Traffic.AverageReadsPerSecond, o.Traffic.ReadsPerSecond
	}
	avg, peak, basis, measured := rate(mAvg, mPeak, t.AverageReadsPerSecond, t.ReadsPerSecond)
	if !measured {
		avg, peak = avg*ru, peak*ru
		if p := m.doc.Capacity.PeakReadUnits; p != nil && len(m.doc.PatternFacts) > 0 && *p > peak {
			peak = *p
			if basis != model.BasisDeclaredAverage {
				avg, basis = peak, model.BasisPatternPeak
			}
		}
	}
	table := readSource{name: "table", basis: basis, avg: avg, peak: peak, hasPeak: basis != model.BasisNone, declared: tbl.ReadCapacity}
	if tbl.Autoscaling != nil {
		table.scaling = tbl.Autoscaling.Read
	}
	sources = append(sources, table)
	for _, iw := range m.indexes {
		if iw.gsi == nil {
			continue
		}
		src := readSource{name: "index " + iw.cost.Name, basis: model.BasisNone, declared: iw.gsi.ReadCapacity}
		if iw.gsi.Autoscaling != nil {
			src.scaling = iw.gsi.Autoscaling.Read
		}
		if o := iw.observed; o != nil {
			src.avg, src.peak, src.basis, _ = rate(o.Traffic.AverageReadsPerSecond, o.Traffic.ReadsPerSecond, nil, nil)
		} else if r := iw.gsi.PatternReadUnits; r != nil {
			src.avg, src.peak, src.basis = *r, *r, model.BasisPatternPeak
		}
		src.hasPeak = src.basis != model.BasisNone
		sources = append(sources, src)
	}
	return sources
}

// reads computes each read source's monthly units and provisioned capacity.
func (m *costModel) reads() {
	est, pr := m.est, m.est.Prices
	sec := secondsPerMonth()
	total, capacity := 0.0, 0.0
	// The table's and a few indexes' sources fit the buffer on the stack.
	var buf [8]readSource
	sources := m.readSources(buf[:0])
	est.Reads = make([]model.ReadCost, 0, len(sources))
	est.ReadsBasis = sources[0].basis
	m.readsKnown = est.ReadsBasis != model.BasisNone
	for _, s := range sources {
		// Without the table's reads the read demand is unknown: a source without its own measured reads
		// adds neither units nor provisioned mode's one-unit floor.
		if !m.readsKnown && s.basis == model.BasisNone {
			continue
		}
		if s.name == "table" {
			est.ReadUnitsPerSecond = model.Ptr(s.avg)
		}
		units := s.avg * sec
		units0 := provisionedUnits(m.doc.Table.BillingMode, s.declared, s.scaling, s.avg, s.peak, m.u)
		rc := model.ReadCost{Source: s.name, Basis: s.basis, MonthlyReadUnits: units, AverageUnitsPerSec: s.avg,
			OnDemandCost:     units / model.RequestUnitsPerMillion * pr.ReadRequestUnitsPerMillion,
			ProvisionedUnits: units0, ProvisionedCost: units0 * model.HoursPerMonth * pr.ReadCapacityUnitHour}
		if s.hasPeak {
			rc.PeakUnitsPerSec = model.Ptr(s.peak)
		}
		est.Reads = append(est.Reads, rc)
		total += units
		capacity += units0
		m.odReads += rc.OnDemandCost
		m.prReads += rc.ProvisionedCost
	}
	if m.readsKnown {
		est.MonthlyReadRequestUnits = model.Ptr(total)
	}
	m.readCapacity = capacity
}
