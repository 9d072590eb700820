// Package cost is the cost stage of the analysis: what a design costs per month, on demand and provisioned,
// in its pricing Region and in every replica Region of a global table (contributing/cost-model.md).
package cost

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The cost model: what a design costs per month on-demand and provisioned (contributing/cost-model.md).
//
//  1. Write requests per second: the month's average (traffic.average_writes_per_second, or the measured
//     window's consumed units over its length), else the peak held all month, an upper bound.
//  2. Each write costs the table ceil(item / 1 KB) units and every index that the item carries the key of
//     ceil(projected entry / 1 KB) units (×2 transactional); reads cost the capacity model's units per read.
//  3. On-demand: monthly request units × the price per million. Provisioned: the capacity that would be
//     provisioned (the configured capacity, the autoscaling range at the average demand, or the peak over
//     target_utilization) × 730 hours × the unit-hour price.
//  4. Storage: items × (item + 100 bytes) plus each index's entries, per GB-month of the table class;
//     PITR on the table and its LSIs.
//
// Access patterns add read demand through readSources.

// secondsPerMonth is the priced month in seconds.
func secondsPerMonth() float64 { return model.HoursPerMonth * model.SecondsPerHour }

// Validate checks the cost inputs: rates finite, between 0 and MaxRequestsPerSecond, and averages not above
// their peaks, counts and shares in range, a known table class, prices between 0 and MaxPriceUSD.
func Validate(design *model.Model) model.FieldErrors {
	var errs model.FieldErrors
	t := design.Input.Traffic
	for _, r := range []struct {
		attr, peakAttr string
		avg, peak      *float64
	}{{"average_writes_per_second", "writes_per_second", t.AverageWritesPerSecond, t.WritesPerSecond},
		{"average_reads_per_second", "reads_per_second", t.AverageReadsPerSecond, t.ReadsPerSecond}} {
		switch {
		case r.avg == nil:
		case math.IsNaN(*r.avg) || math.IsInf(*r.avg, 0) || *r.avg < 0 || *r.avg > model.MaxRequestsPerSecond:
			errs.Add(model.Path{"traffic", r.attr}, "must be a finite number between 0 and %s per second, got %v", textfmt.Thousands(model.MaxRequestsPerSecond), *r.avg)
		case r.peak != nil && *r.avg > *r.peak:
			errs.Add(model.Path{"traffic", r.attr}, "is %v, above the peak traffic.%s = %v: an average cannot exceed the peak", *r.avg, r.peakAttr, *r.peak)
		}
	}
	if n := t.ItemCount; n != nil && *n < 0 {
		errs.Add(model.Path{"traffic", "item_count"}, "must be ≥ 0, got %d", *n)
	}
	share := func(indexes, name string, v *float64) {
		if v != nil && (math.IsNaN(*v) || *v < 0 || *v > 1) {
			errs.Add(model.Path{indexes, name, "item_share"}, "is the share of items that carry the index key and must be between 0 and 1, got %v", *v)
		}
	}
	for _, l := range design.Input.LocalSecondaryIndexes {
		share("local_secondary_indexes", l.Name, l.ItemShare)
	}
	for _, g := range design.Input.GlobalSecondaryIndexes {
		share("global_secondary_indexes", g.Name, g.ItemShare)
	}
	p := design.Input.Pricing
	if p == nil {
		return errs
	}
	if p.TableClass != "" && !slices.Contains(model.TableClasses, p.TableClass) {
		errs.Add(model.Path{"pricing", "table_class"}, "unknown table class %q: use one of %s", p.TableClass, strings.Join(model.TableClasses, ", "))
	}
	for name, v := range model.SortedByName(p.Prices.ByName()) {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || *v > model.MaxPriceUSD) {
			errs.Add(model.Path{"pricing", "prices", name}, "must be a price in dollars between 0 and %s, got %v", textfmt.Thousands(model.MaxPriceUSD), *v)
		}
	}
	return errs
}

// costInputs are the paths the estimate depends on; while one is unknown the estimate is too.
var costInputs = []string{"traffic", "traffic.writes_per_second", "traffic.reads_per_second", "traffic.item_size_bytes",
	"traffic.average_writes_per_second", "traffic.average_reads_per_second", "traffic.item_count", "traffic.transactional_writes",
	"traffic.read_consistency", "pricing", "target_utilization", "global_secondary_indexes", "local_secondary_indexes",
	"observed", "observed_indexes", "billing_mode", "read_capacity", "write_capacity", "autoscaling",
	// dynamokeys_sharded_table's own class and PITR, which price the table unless pricing says.
	"table_class", "point_in_time_recovery",
	// A global table's Regions, their writes and prices (the replicas stage).
	"replicas"}

// Facts are what the cost stage prices: the stated design, the table's key facts and demand, the GSIs with
// their demand (measured, declared and the patterns' reads), the access patterns with their figures, and a
// global table's Regions.
type Facts struct {
	Stated   *model.Stated
	Sizing   *capacity.Sizing
	GSIs     []model.GSIDoc
	Patterns []model.AccessPatternDoc
	Figures  []model.PatternFacts
	Replicas *model.ReplicasFacts
}

// designFacts are the facts as the estimate reads them: the stated table, and each GSI with its demand.
type designFacts struct {
	Table             *model.TableDoc
	GSIs              []model.GSIDoc
	Traffic           *model.TrafficDoc
	TargetUtilization float64
	Capacity          *model.Capacity
	Patterns          []model.AccessPatternDoc
	PatternFacts      []model.PatternFacts
	Replicas          *model.ReplicasFacts
	sizing            *capacity.Sizing
}

// Estimate is the monthly price of the design (Derived.Cost), nil while an input it depends on is unknown.
// traffic is the table's (capacity.Traffic).
func Estimate(design *model.Model, traffic *capacity.TableTraffic, facts *Facts) *model.CostEstimate {
	table := design.Input
	doc := designFacts{Table: &facts.Stated.Table, GSIs: facts.GSIs, Traffic: &facts.Stated.Traffic, TargetUtilization: facts.Stated.TargetUtilization,
		Capacity: &facts.Sizing.Capacity, Patterns: facts.Patterns, PatternFacts: facts.Figures, Replicas: facts.Replicas, sizing: facts.Sizing}
	for _, p := range costInputs {
		if design.IsUnknown(p) || design.HasUnknownUnder(p) {
			return nil
		}
	}
	p := model.PricingInput{}
	if table.Pricing != nil {
		p = *table.Pricing
	}
	if r := table.Replicas; r.HasReplicas() && len(r.Regions) > 0 {
		// A global table is priced where it has replicas: a pricing Region that is none of them (the provider's,
		// or the default) gives way to the first replica Region; pricing.region itself must be one of them.
		if _, ok := r.Regions[cmp.Or(p.Region, model.DefaultPricingRegion)]; !ok {
			p.Region, p.RegionSource = slices.Sorted(maps.Keys(r.Regions))[0], model.CostRegionSourceReplicas
		}
	}
	est := estimate(design, traffic, &doc, p)
	if table.Replicas.HasReplicas() && doc.Replicas != nil && est.Problem == "" {
		replicaCosts(design, traffic, &doc, est, p)
	}
	return est
}

// estimate prices the design in one Region: the pricing Region, or a replica Region (the replicas stage).
func estimate(design *model.Model, traffic *capacity.TableTraffic, doc *designFacts, p model.PricingInput) *model.CostEstimate {
	est := &model.CostEstimate{Region: p.Region, RegionSource: p.RegionSource, TableClass: cmp.Or(p.TableClass, model.TableClassStandard),
		Currency: model.PriceTable.Currency, PricesRetrieved: model.PriceTable.Retrieved, PointInTimeRecovery: p.PointInTimeRecovery,
		Indexes: []model.IndexCost{}, Reads: []model.ReadCost{}, ItemCount: traffic.Traffic.ItemCount}
	if est.Region == "" {
		est.Region, est.RegionSource = model.DefaultPricingRegion, model.CostRegionSourceDefault
	}
	est.ChosenMode = chosenMode(doc.Table.BillingMode)
	prices, source, missing := model.ResolvePrices(est.Region, est.TableClass, p.Prices)
	if len(missing) > 0 {
		est.Problem = fmt.Sprintf("the price table has no %s prices for %s (it has %s): give pricing.prices.%s, or a listed pricing.region",
			est.TableClass, est.Region, strings.Join(slices.Sorted(maps.Keys(model.PriceTable.Regions)), ", "), strings.Join(missing, ", pricing.prices."))
		return est
	}
	est.Prices, est.PriceSource = &prices, source
	est.PriceStatus = model.PriceStatusOf(est.Region, est.TableClass, p.Prices)
	m := newCostModel(design, traffic, doc, est)
	m.writes()
	m.reads()
	m.storage()
	m.modes()
	return est
}

func chosenMode(billing string) string {
	switch billing {
	case model.BillingProvisioned:
		return model.CostModeProvisioned
	case model.BillingPayPerRequest:
		return model.CostModeOnDemand
	}
	return ""
}

// provisionedUnits is the capacity provisioned mode pays for every hour: on a PROVISIONED table the
// autoscaling range at the average demand over the target utilisation, else the configured capacity;
// otherwise (an on-demand table, or no capacity configured) the peak over the target utilisation. At least
// one unit: DynamoDB provisions no less.
func provisionedUnits(billing string, declared *int64, scaling *model.CapacityRange, avg, peak, u float64) float64 {
	if billing == model.BillingProvisioned {
		switch {
		case scaling != nil:
			return math.Min(float64(scaling.Max), math.Max(float64(scaling.Min), model.CeilUnits(avg/u)))
		case declared != nil:
			return float64(*declared)
		}
	}
	return math.Max(model.UnitsPerCapacityFloor, model.CeilUnits(peak/u))
}

// storage computes the table's and indexes' GB and the PITR GB (the table and its LSIs).
func (m *costModel) storage() {
	est := m.est
	if est.ItemCount == nil {
		return
	}
	items := float64(*est.ItemCount)
	gb := float64(model.Limits.BytesPerGB) // the GB that storage is priced per
	table := items * float64(m.doc.Traffic.ItemSizeBytes+model.IndexEntryOverheadBytes)
	lsis, gsis := 0.0, 0.0
	for _, iw := range m.indexes {
		b := items * iw.cost.ItemShare * float64(iw.entryBytes+model.IndexEntryOverheadBytes)
		if iw.gsi == nil {
			lsis += b
		} else {
			gsis += b
		}
	}
	est.StorageGB = model.Ptr((table + lsis + gsis) / gb)
	if est.PointInTimeRecovery {
		est.PITRGB = model.Ptr((table + lsis) / gb)
	}
}

// modes prices both billing modes and compares them.
func (m *costModel) modes() {
	est, pr := m.est, m.est.Prices
	if !m.writesKnown && est.ReadsBasis == model.BasisNone {
		est.Problem = "no traffic: set traffic.writes_per_second and reads_per_second (and their averages), or give observed traffic"
		return
	}
	sec, hours := secondsPerMonth(), model.HoursPerMonth
	perMillion := func(units, price float64) float64 { return units / model.RequestUnitsPerMillion * price }
	tbl := m.doc.Table
	// Provisioned writes: the table's capacity serves its own writes and its LSIs'; each GSI has its own.
	var scaling *model.CapacityRange
	if tbl.Autoscaling != nil {
		scaling = tbl.Autoscaling.Write
	}
	tableAvg, tablePeak := m.reqAvg*(m.tableUnits+m.lsiUnits), m.reqPeak*(m.tableUnits+m.lsiUnits)
	tableCapacity := provisionedUnits(tbl.BillingMode, tbl.WriteCapacity, scaling, tableAvg, tablePeak, m.u)
	writeCapacity := tableCapacity
	tableShare := 1.0
	if perRequest := m.tableUnits + m.lsiUnits; perRequest > 0 {
		tableShare = m.tableUnits / perRequest
	}
	m.odTableWrites = perMillion(m.reqAvg*m.tableUnits*sec, pr.WriteRequestUnitsPerMillion)
	m.prTableWrites = tableCapacity * tableShare * hours * pr.WriteCapacityUnitHour
	for _, iw := range m.indexes {
		ic := iw.cost
		if ic.MonthlyWriteUnits == nil {
			continue
		}
		ic.OnDemandWriteCost = model.Ptr(perMillion(*ic.MonthlyWriteUnits, pr.WriteRequestUnitsPerMillion))
		if iw.gsi == nil {
			// An LSI's writes take their share of the table's capacity.
			if perRequest := m.tableUnits + m.lsiUnits; perRequest > 0 {
				ic.ProvisionedCapacity = model.Ptr(tableCapacity * ic.ItemShare * ic.WriteUnitsPerWrite / perRequest)
			}
		} else {
			var s *model.CapacityRange
			if iw.gsi.Autoscaling != nil {
				s = iw.gsi.Autoscaling.Write
			}
			ic.ProvisionedCapacity = model.Ptr(provisionedUnits(tbl.BillingMode, iw.gsi.WriteCapacity, s, iw.avgUnits, iw.peakUnits, m.u))
			writeCapacity += *ic.ProvisionedCapacity
		}
		ic.ProvisionedCost = model.Ptr(*ic.ProvisionedCapacity * hours * pr.WriteCapacityUnitHour)
		if m.odTableWrites > 0 {
			ic.ShareOfTableWrites = model.Ptr(*ic.OnDemandWriteCost / m.odTableWrites)
		}
		m.odIndexWrites += *ic.OnDemandWriteCost
		m.prIndexWrites += *ic.ProvisionedCost
	}
	if m.writesKnown {
		est.ProvisionedWriteCapacity = model.Ptr(writeCapacity)
	} else {
		m.prTableWrites = 0
	}
	if m.readsKnown {
		est.ProvisionedReadCapacity = model.Ptr(m.readCapacity)
	}
	est.CapacityBasis = capacityBasis(*tbl)

	var storage, pitr *float64
	if est.StorageGB != nil {
		storage = model.Ptr(*est.StorageGB * pr.StorageGBMonth)
	}
	if est.PITRGB != nil {
		pitr = model.Ptr(*est.PITRGB * pr.PITRGBMonth)
	}
	// A side without traffic has no figures: its parts are 0 and the totals, the cheaper mode, the excess
	// and the break-even utilization stay null, because a comparison on one side alone decides nothing.
	complete := m.writesKnown && m.readsKnown
	mode := func(tw, iw, r float64) *model.ModeCost {
		mc := &model.ModeCost{TableWrites: tw, IndexWrites: iw, Reads: r, Storage: storage, PITR: pitr}
		if !complete {
			return mc
		}
		total := tw + iw + r
		for _, p := range []*float64{storage, pitr} {
			if p != nil {
				total += *p
			}
		}
		mc.Total = &total
		return mc
	}
	est.OnDemand = mode(m.odTableWrites, m.odIndexWrites, m.odReads)
	est.Provisioned = mode(m.prTableWrites, m.prIndexWrites, m.prReads)
	if complete {
		m.compare()
	}
}

func capacityBasis(t model.TableDoc) string {
	switch {
	case t.BillingMode == model.BillingProvisioned && t.Autoscaling != nil:
		return "autoscaling range at the average demand over target_utilization"
	case t.BillingMode == model.BillingProvisioned && (t.WriteCapacity != nil || t.ReadCapacity != nil):
		return "configured capacity"
	}
	return "peak demand over target_utilization"
}

// compare finds the cheaper mode, the chosen mode's excess and the break-even utilisation: the share of
// the provisioned capacity that, consumed on average, costs on-demand what the capacity costs.
func (m *costModel) compare() {
	est, pr := m.est, m.est.Prices
	od, pv := est.OnDemand, est.Provisioned
	est.CheaperMode = model.CostModeOnDemand
	if *pv.Total < *od.Total {
		est.CheaperMode = model.CostModeProvisioned
	}
	sec := secondsPerMonth()
	full := *est.ProvisionedWriteCapacity*sec/model.RequestUnitsPerMillion*pr.WriteRequestUnitsPerMillion +
		*est.ProvisionedReadCapacity*sec/model.RequestUnitsPerMillion*pr.ReadRequestUnitsPerMillion
	if full > 0 {
		est.BreakEvenUtilization = model.Ptr((pv.TableWrites + pv.IndexWrites + pv.Reads) / full)
		est.Utilization = model.Ptr((od.TableWrites + od.IndexWrites + od.Reads) / full)
	}
	chosen, other := od, pv
	switch est.ChosenMode {
	case model.CostModeProvisioned:
		chosen, other = pv, od
	case model.CostModeOnDemand:
	default:
		return
	}
	excess := *chosen.Total - *other.Total
	// On-demand priced at the peak is an upper bound: it does not show that on-demand costs more.
	upperBound := est.WritesBasis == model.BasisDeclaredPeak || est.WritesBasis == model.BasisMeasuredPeak ||
		est.ReadsBasis == model.BasisDeclaredPeak || est.ReadsBasis == model.BasisMeasuredPeak || est.ReadsBasis == model.BasisPatternPeak
	switch {
	case excess <= 0:
		est.ChosenExcessShare, est.ChosenExcessMonthly = model.Ptr(0.0), model.Ptr(0.0)
	case est.ChosenMode == model.CostModeOnDemand && upperBound:
	case *other.Total > 0:
		est.ChosenExcessShare, est.ChosenExcessMonthly = model.Ptr(excess / *other.Total), model.Ptr(excess)
	}
}
