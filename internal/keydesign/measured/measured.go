// Package measured is the measured-traffic stage of the analysis: it checks the observations given by hand
// and holds what CloudWatch and Contributor Insights measured (internal/observed) against the design.
package measured

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// Validate checks observations given by hand (the data source's own are checked when parsed): every
// number finite and ≥ 0, shares at most 1, each target observed once, an index that the design has, and
// key figures with one value per partition-key attribute.
func Validate(design *model.Model) model.FieldErrors {
	var errs model.FieldErrors
	targets := map[string]bool{}
	gsisKnown := !design.IsUnknown("global_secondary_indexes")
	for _, o := range design.Input.Observed {
		check := func(attr string, v *float64, most float64) {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || *v > most) {
				errs.Add(append(slices.Clone(o.Path), attr), "must be a finite number between 0 and %s, got %v", textfmt.Thousands(most), *v)
			}
		}
		check("traffic.writes_per_second", o.Traffic.WritesPerSecond, model.MaxRequestsPerSecond)
		check("traffic.reads_per_second", o.Traffic.ReadsPerSecond, model.MaxRequestsPerSecond)
		// The averages price the month (the cost stage): bounded like the peaks and never above them.
		for _, r := range []struct {
			attr, peakAttr string
			avg, peak      *float64
		}{{"traffic.average_writes_per_second", "writes_per_second", o.Traffic.AverageWritesPerSecond, o.Traffic.WritesPerSecond},
			{"traffic.average_reads_per_second", "reads_per_second", o.Traffic.AverageReadsPerSecond, o.Traffic.ReadsPerSecond}} {
			check(r.attr, r.avg, model.MaxRequestsPerSecond)
			if r.avg != nil && r.peak != nil && *r.avg <= model.MaxRequestsPerSecond && *r.avg > *r.peak {
				errs.Add(append(slices.Clone(o.Path), r.attr), "is %v, above the peak traffic.%s = %v: an average cannot exceed the peak", *r.avg, r.peakAttr, *r.peak)
			}
		}
		check("traffic.hot_key_units_per_second", o.Traffic.HotKeyUnitsPerSecond, model.MaxRequestsPerSecond*observed.WriteUnitWeight)
		check("traffic.hot_key_unit_share", o.Traffic.HotKeyUnitShare, 1)
		t := o.ThrottleEvents
		for name, v := range model.SortedByName(map[string]*float64{"read": t.Read, "write": t.Write, "read_key_range": t.ReadKeyRange, "write_key_range": t.WriteKeyRange,
			"read_provisioned": t.ReadProvisioned, "write_provisioned": t.WriteProvisioned, "read_max_on_demand": t.ReadMaxOnDemand,
			"write_max_on_demand": t.WriteMaxOnDemand, "read_account_limit": t.ReadAccountLimit, "write_account_limit": t.WriteAccountLimit}) {
			check("throttle_events."+name, v, math.MaxFloat64)
		}
		for i, k := range o.TopKeys {
			p := append(slices.Clone(o.Path), "top_keys", fmt.Sprint(i))
			if k.Key == "" {
				errs.Add(append(p, "key"), "is empty: every top key names a partition-key value")
			}
			check(fmt.Sprintf("top_keys[%d].units_per_second", i), k.UnitsPerSecond, model.MaxRequestsPerSecond*observed.WriteUnitWeight)
			check(fmt.Sprintf("top_keys[%d].throttle_events", i), &k.ThrottleEvents, math.MaxFloat64)
		}
		g, isGSI := gsiNamed(design.Input.GlobalSecondaryIndexes, o.IndexName)
		if o.IndexName != "" && gsisKnown && !isGSI {
			errs.Add(append(slices.Clone(o.Path), "index_name"), "names index %q, which is not among global_secondary_indexes: observe an index the design has, or the table (index_name = null)", o.IndexName)
		}
		if n := o.KeyAttributes; n != nil {
			want, what := int64(1), "the table's partition key is one attribute"
			if isGSI {
				want, what = int64(len(g.PartitionKey)), fmt.Sprintf("index %s's partition key has %d attribute(s)", g.Name, len(g.PartitionKey))
			}
			if *n != want && (o.IndexName == "" || (isGSI && gsisKnown)) {
				errs.Add(append(slices.Clone(o.Path), "key_attributes"), "is %d: the Contributor Insights reports list %d key value(s) per contributor, but %s. "+
					"A report with more values is of the partition-and-sort-key rule (-SKC-/-SKT-): give the -PKC- and -PKT- reports", *n, *n, what)
			}
		}
		if targets[o.IndexName] {
			what := "the table"
			if o.IndexName != "" {
				what = "index " + o.IndexName
			}
			errs.Add(o.Path, "is a second observation of %s: give each table or index one observation", what)
		}
		targets[o.IndexName] = true
	}
	return errs
}

// gsiNamed is the GSI of that name (the last, should two share it), without building a map for the few
// observations a design has.
func gsiNamed(gsis []model.GlobalSecondaryIndex, name string) (model.GlobalSecondaryIndex, bool) {
	for i := len(gsis) - 1; i >= 0; i-- {
		if gsis[i].Name == name {
			return gsis[i], true
		}
	}
	return model.GlobalSecondaryIndex{}, false
}

// Facts are the measured facts of each observation, and the GSIs with each one's demand: measured, else
// declared. st is the stated design, s the table's key facts and demand, shardCount its shards, indexes the
// GSIs with their partitions (capacity.Indexes). A top key is held against the partition-key templates of the
// model's scopes: each entity's, or the table's own.
func Facts(design *model.Model, st *model.Stated, s *capacity.Sizing, shardCount int64, indexes []model.GSIDoc) ([]model.ObservedDoc, []model.GSIDoc) {
	doc := designFacts{Stated: st, sizing: s, shardCount: shardCount, gsis: indexes}
	observedDocs := make([]model.ObservedDoc, 0, len(design.Input.Observed))
	byIndex := map[string]*observed.Observation{}
	for i := range design.Input.Observed {
		o := &design.Input.Observed[i]
		byIndex[o.IndexName] = &o.Observation
		od := model.ObservedDoc{Observation: o.Observation, Path: o.Path}
		if o.IndexName == "" {
			od.Measured = tableMeasured(design, doc, o.Observation)
		} else {
			od.Measured = indexMeasured(design, doc, o.Observation)
		}
		if od.TopKeys == nil {
			od.TopKeys = []observed.Key{}
		}
		observedDocs = append(observedDocs, od)
	}
	slices.SortFunc(observedDocs, func(x, y model.ObservedDoc) int { return cmp.Compare(x.IndexName, y.IndexName) })
	gsis := slices.Clone(indexes)
	for i := range gsis {
		g := &gsis[i]
		if o := byIndex[g.Name]; o != nil {
			g.PeakWriteUnits, g.PeakReadUnits, g.PeakSource = o.Traffic.WritesPerSecond, o.Traffic.ReadsPerSecond, model.PeakMeasured
			continue
		}
		if g.PeakWriteUnits = capacity.GSIDeclaredWriteUnits(design, s, g); g.PeakWriteUnits != nil {
			g.PeakSource = model.PeakDeclared
		}
	}
	return observedDocs, gsis
}

// designFacts are the facts of the design a measurement is held against.
type designFacts struct {
	*model.Stated
	sizing     *capacity.Sizing
	shardCount int64
	gsis       []model.GSIDoc
}

func tableMeasured(design *model.Model, doc designFacts, o observed.Observation) model.MeasuredFacts {
	c := doc.sizing.Capacity
	m := model.MeasuredFacts{DeclaredWriteUnits: c.PeakWriteUnits, DeclaredReadUnits: c.PeakReadUnits, ShardCount: doc.shardCount}
	measuredDemand(&m, o, c.HotKeyShare, doc.shardCount, doc.TargetUtilization)
	m.WriteLimit, m.ReadLimit = capacityLimits(model.Path{}, doc.Table.BillingMode, doc.Table.ReadCapacity, doc.Table.WriteCapacity,
		doc.Table.OnDemandThroughput, doc.Table.Autoscaling, true)
	m.KeysOutsideDesign = []model.KeyMismatch{}
	if doc.Table.PartitionKey.Type == model.KeyTypeBinary || len(doc.sizing.Keys.Undeclared) > 0 || design.IsUnknown("partition_key.template") || design.IsUnknown("sharding") {
		return m
	}
	// A key is outside the design when no entity's partition-key template can produce it (the implicit
	// entity's, the table's own, for a design without entities).
	for _, s := range design.Scopes {
		if s.PartitionKey == nil || s.KeysUnknown {
			return m // a template not known yet, or none: any key may be its
		}
	}
	matchers := make([]*keyMatcher, 0, len(design.Scopes))
	for _, s := range design.Scopes {
		matcher := newKeyMatcher(s.PartitionKey, design.Segments, doc.shardCount, doc.Sharding.Strategy, doc.Sharding.Source)
		if matcher == nil {
			return m
		}
		matchers = append(matchers, matcher)
	}
	for _, k := range o.TopKeys {
		if why := mismatchAll(matchers, k.Key); why != "" {
			m.KeysOutsideDesign = append(m.KeysOutsideDesign, model.KeyMismatch{Key: k.Key, Reason: why})
		}
	}
	return m
}

// mismatchAll is why no matcher's template can produce key, or "" when one can: the reason of the first
// template whose literal text the key follows, else of the first.
func mismatchAll(matchers []*keyMatcher, key string) string {
	var first, shaped string
	for _, m := range matchers {
		why := m.mismatch(key)
		if why == "" {
			return ""
		}
		first = cmp.Or(first, why)
		if why != literalMismatch {
			shaped = cmp.Or(shaped, why)
		}
	}
	if len(matchers) > 1 && shaped == "" {
		return "its literal text follows no entity's partition-key template"
	}
	return cmp.Or(shaped, first)
}

func indexMeasured(design *model.Model, doc designFacts, o observed.Observation) model.MeasuredFacts {
	var g model.GSIDoc
	for _, x := range doc.gsis {
		if x.Name == o.IndexName {
			g = x
		}
	}
	m := model.MeasuredFacts{DeclaredWriteUnits: capacity.GSIDeclaredWriteUnits(design, doc.sizing, &g), ShardCount: 1, KeysOutsideDesign: []model.KeyMismatch{}}
	designShare := math.NaN()
	if pw := m.DeclaredWriteUnits; pw != nil && *pw > 0 && g.HotPartitionWriteUnits != nil {
		designShare = *g.HotPartitionWriteUnits / *pw
	}
	measuredDemand(&m, o, designShare, 1, doc.TargetUtilization)
	at := model.Path{"global_secondary_indexes", g.Name}
	m.WriteLimit, m.ReadLimit = capacityLimits(at, doc.Table.BillingMode, g.ReadCapacity, g.WriteCapacity, g.OnDemandThroughput, g.Autoscaling, false)
	return m
}

// measuredDemand fills the hot-key and shard facts. With Contributor Insights' most accessed keys the
// busiest key's units per second at its busiest minute, held against a partition's 3,000 units/s (1,000 WCU
// = 3,000 RCU); without them the design's share of the measured peaks (NaN: none).
func measuredDemand(m *model.MeasuredFacts, o observed.Observation, designShare float64, shards int64, u float64) {
	switch {
	case o.TopKeys == nil:
		m.KeyFigures = model.KeyFiguresNone
	case o.Traffic.HotKeyUnitsPerSecond == nil:
		m.KeyFigures = model.KeyFiguresThrottledOnly
	default:
		m.KeyFigures = model.KeyFiguresAccessed
	}
	m.RequiredShards = 1
	switch hot := o.Traffic.HotKeyUnitsPerSecond; {
	case hot != nil:
		m.HotKeySource = model.MeasuredShareMeasured
		if len(o.TopKeys) > 0 && o.TopKeys[0].UnitsPerSecond != nil {
			m.HotKey = model.Ptr(o.TopKeys[0].Key)
		}
		m.HotKeyUnits = model.Ptr(*hot)
		m.HotKeyPartitionShare = model.Ptr(*hot / model.PartitionReadUnitsLimit)
		logical := *hot * float64(max(shards, 1))
		if w, r := o.Traffic.WritesPerSecond, o.Traffic.ReadsPerSecond; w != nil || r != nil {
			logical = math.Min(logical, math.Max(*hot, observed.WriteUnitWeight*orZero(w)+orZero(r)))
		}
		m.LogicalKeyUnits = &logical
		m.RequiredShards = capacity.RequiredShards(0, logical, u)
	case !math.IsNaN(designShare):
		m.HotKeySource = model.MeasuredShareDesign
		var hotW, hotR float64
		if w := o.Traffic.WritesPerSecond; w != nil {
			hotW = *w * designShare
		}
		if r := o.Traffic.ReadsPerSecond; r != nil {
			hotR = *r * designShare
		}
		m.RequiredShards = capacity.RequiredShards(hotW, hotR, u)
	}
	m.ThrottledKeys = []string{}
	for _, k := range o.TopKeys {
		if k.ThrottleEvents > 0 {
			m.ThrottledKeys = append(m.ThrottledKeys, k.Key)
		}
	}
	t := o.ThrottleEvents
	if t.Read != nil || t.Write != nil {
		m.ThrottleEvents = model.Ptr(orZero(t.Read) + orZero(t.Write))
	}
	m.ThrottleCauses = []model.ThrottleCause{}
	for _, c := range t.Causes() {
		if r, w := orZero(c.Read), orZero(c.Write); r+w > 0 {
			m.ThrottleCauses = append(m.ThrottleCauses, model.ThrottleCause{Cause: c.Cause, Read: r, Write: w})
			m.ThrottleEventsByCause += r + w
		}
	}
}

func orZero(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// capacityLimits are the most a table or index serves per side: a PROVISIONED one its autoscaling max or
// its capacity; an on-demand one its on_demand_throughput cap, or for a table the default table quota.
func capacityLimits(at model.Path, billing string, read, write *int64, onDemand *model.UnitPair, scaling *model.Autoscaling, table bool) (*model.CapacityLimit, *model.CapacityLimit) {
	side := func(kind string, capacity *int64, odCap *int64, rng *model.CapacityRange) *model.CapacityLimit {
		attr := func(steps ...string) model.Path { return append(slices.Clone(at), steps...) }
		switch {
		case billing == model.BillingProvisioned && rng != nil:
			return &model.CapacityLimit{Units: float64(rng.Max), Name: "autoscaling." + kind + ".max", Path: attr("autoscaling", kind, "max")}
		case billing == model.BillingProvisioned && capacity != nil:
			return &model.CapacityLimit{Units: float64(*capacity), Name: kind + "_capacity", Path: attr(kind + "_capacity")}
		case billing != model.BillingProvisioned && odCap != nil:
			return &model.CapacityLimit{Units: float64(*odCap), Name: "on_demand_throughput.max_" + kind + "_request_units",
				Path: attr("on_demand_throughput", "max_"+kind+"_request_units")}
		case billing != model.BillingProvisioned && table:
			return &model.CapacityLimit{Units: float64(model.OnDemandTableUnitsQuota), Name: "the on-demand table quota", Path: attr()}
		}
		return nil
	}
	var odRead, odWrite *int64
	if onDemand != nil {
		odRead, odWrite = onDemand.Read, onDemand.Write
	}
	var rRead, rWrite *model.CapacityRange
	if scaling != nil {
		rRead, rWrite = scaling.Read, scaling.Write
	}
	return side("write", write, odWrite, rWrite), side("read", read, odRead, rRead)
}

// Questionable warns about an observation of another table than the one the design names: the
// figures are someone else's.
func Questionable(in *model.Input) []*model.FieldError {
	var out []*model.FieldError
	for _, o := range in.Observed {
		if in.TableName != "" && o.TableName != "" && o.TableName != in.TableName {
			out = append(out, &model.FieldError{Path: append(slices.Clone(o.Path), "table_name"), Message: fmt.Sprintf(
				"the measurements are of table %q but this is table %q: give the observation of this table", o.TableName, in.TableName)})
		}
	}
	return out
}
