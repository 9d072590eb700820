package patterns

import (
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The figures of the matched patterns: their reads on the table key, what depends on the shard count, and
// each GSI's reads.

// consistencyFactor is the read-unit multiplier of a consistency (ProvisionedThroughput.html).
func consistencyFactor(c string) float64 {
	units, err := capacity.ReadUnitsPerRead(int64(model.ReadUnitBytes), model.ReadConsistency(c))
	if err != nil {
		return capacity.EventualReadFactor
	}
	return units
}

// patternHotReads is the busiest table key's reads from the patterns whose reads land on the table's
// partition-key values one shard per call (SizedBySharding): they add up, as every such pattern may read
// the same busiest value. It does not depend on the shard count.
func (an *analysis) patternHotReads(matched Matched) (float64, bool) {
	sum, found := 0.0, false
	for _, f := range matched.Facts {
		if f.SizedBySharding {
			sum += f.ReadUnitsPerQuery * matched.rate(f.Name) * f.HotKeyShare
			found = true
		}
	}
	return sum, found
}

// rate is a pattern's reads per second; 0 when not stated.
func (matched Matched) rate(name string) float64 {
	for _, ap := range matched.Patterns {
		if ap.Name == name && ap.ReadsPerSecond != nil {
			return *ap.ReadsPerSecond
		}
	}
	return 0
}

// finishAccessPatterns computes the numbers that depend on the shard count and adds the patterns' reads on
// the table and its LSIs to the table's peak read demand.
func (an *analysis) finishAccessPatterns(st *model.Stated, matched Matched, demand capacity.TableDemand) Figures {
	out := Figures{Facts: matched.Facts, PeakReadUnits: demand.Capacity.PeakReadUnits}
	if len(matched.Facts) == 0 {
		return out
	}
	patterns := slices.Clone(matched.Facts)
	tableReads := 0.0
	for i := range patterns {
		f := &patterns[i]
		rate := matched.rate(f.Name)
		shards := int64(1)
		if f.IndexKind != model.IndexKindGSI && tableKeySharded(st) {
			shards = demand.ShardCount
		}
		if f.Fanout {
			f.QueriesPerCall = shards
		}
		if !f.Serves {
			continue
		}
		f.ReadUnitsPerCall = f.ReadUnitsPerQuery * float64(f.QueriesPerCall)
		f.ReadUnitsPerSecond = f.ReadUnitsPerCall * rate
		if len(f.MissingAttributes) > 0 {
			// One table read per item returned fetches what the index does not project.
			perItem := model.CeilUnits(float64(f.ItemSizeBytes)/model.ReadUnitBytes) * consistencyFactor(fetchConsistency(f.Consistency))
			f.FetchReadUnitsPerSecond = perItem * float64(f.ItemsPerQuery*f.QueriesPerCall) * rate
		}
		f.HotKeyReadUnits = f.ReadUnitsPerSecond * f.HotKeyShare
		f.PartitionReadUnits = f.HotKeyReadUnits / float64(shards)
		if f.IndexKind != model.IndexKindGSI {
			tableReads += f.ReadUnitsPerSecond
		}
		tableReads += f.FetchReadUnitsPerSecond
	}
	out.Facts = patterns
	if an.patternsComplete(patterns) && (out.PeakReadUnits == nil || *out.PeakReadUnits < tableReads) {
		out.PeakReadUnits = model.Ptr(tableReads)
	}
	return out
}

// fetchConsistency is the consistency of the table reads that fetch unprojected attributes: what the
// pattern asks, except that a GSI's own reads are eventual, and so is what follows them.
func fetchConsistency(c string) string {
	if c == string(model.ReadTransactional) {
		return string(model.ReadStrong)
	}
	return c
}

// patternsComplete is true when every declared pattern was analysed.
func (an *analysis) patternsComplete(facts []model.PatternFacts) bool {
	return len(facts) == len(an.in.AccessPatterns) && !an.m.IsUnknown("access_patterns")
}

// indexPatternReads gives each GSI without a measurement the reads of the patterns it serves as its read
// demand (GSIDoc.PatternReadUnits and PeakReadUnits).
func (an *analysis) indexPatternReads(facts []model.PatternFacts, indexes []model.GSIDoc) []model.GSIDoc {
	if len(facts) == 0 || !an.patternsComplete(facts) {
		return indexes
	}
	gsis := slices.Clone(indexes)
	for i := range gsis {
		g := &gsis[i]
		sum, served := 0.0, false
		for _, f := range facts {
			if f.Serves && f.Index == g.Name {
				sum += f.ReadUnitsPerSecond
				served = true
			}
		}
		if !served {
			continue
		}
		g.PatternReadUnits = model.Ptr(sum)
		if g.PeakSource != model.PeakMeasured {
			g.PeakReadUnits = model.Ptr(sum)
		}
	}
	return gsis
}

// tableKeySharded reports whether the table's partition key carries a {shard} suffix that sharding fills.
func tableKeySharded(st *model.Stated) bool {
	t := st.Table.PartitionKey.Template
	return t != nil && strings.Contains(*t, "{"+model.ShardPlaceholder+"}") && st.Sharding.Strategy != model.StrategyNone
}
