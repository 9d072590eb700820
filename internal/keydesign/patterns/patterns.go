// Package patterns is the access-pattern stage of the analysis: it checks the patterns an application
// declares against the design, matches each with the key that serves it best and computes what each costs
// (contributing/capacity-model.md, "Access patterns"). Its functions run in the order match.go describes;
// each returns its facts, which the keydesign facade writes into the document.
package patterns

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// analysis is the stage's view of the design: the model and its input.
type analysis struct {
	m        *model.Model
	in       *model.Input
	segments map[string]model.ResolvedSegment
	unknown  map[string]bool
	entities *model.Entities
	errs     model.FieldErrors
}

func newAnalysis(m *model.Model) *analysis {
	return &analysis{m: m, in: m.Input, segments: m.Segments, unknown: m.Unknown, entities: m.Entities}
}

func (an *analysis) fail(path model.Path, format string, args ...any) {
	an.errs.Add(path, format, args...)
}

// Validate rejects patterns that name what the design does not have, or that ask what no Query can; sk is
// the table's sort-key template.
func Validate(m *model.Model, sk *model.Template) model.FieldErrors {
	an := newAnalysis(m)
	an.validateAccessPatterns(sk)
	return an.errs
}

// Matched are the patterns with their defaults, and each pattern's key and the facts that do not depend on
// the shard count.
type Matched struct {
	Patterns []model.AccessPatternDoc
	Facts    []model.PatternFacts
	// Unknown lists the derived paths left unknown by patterns not known at plan time.
	Unknown []string
}

// Match matches every pattern with the table key pk and sk, the LSIs and the GSIs of the stated design.
func Match(m *model.Model, stated *model.Stated, pk, sk *model.Template) Matched {
	return newAnalysis(m).matchAccessPatterns(stated, pk, sk)
}

// HotReads are the matched patterns' reads on the table key's busiest value, which the capacity stage adds
// to the table's hot-key read demand.
func HotReads(m *model.Model, matched Matched) capacity.PatternReads {
	an := newAnalysis(m)
	hot, ok := an.patternHotReads(matched)
	return capacity.PatternReads{HotReadUnits: hot, Complete: ok && an.patternsComplete(matched.Facts)}
}

// Figures are the patterns' facts once the shard count is known, in the order of Matched.Patterns, and the
// table's peak read units: the larger of the declared reads and the patterns' reads on the table and its
// LSIs.
type Figures struct {
	Facts         []model.PatternFacts
	PeakReadUnits *float64
}

// Finish computes the matched patterns' figures that depend on the table's demand and shard count.
func Finish(m *model.Model, stated *model.Stated, matched Matched, demand capacity.TableDemand) Figures {
	return newAnalysis(m).finishAccessPatterns(stated, matched, demand)
}

// IndexReads are the GSIs, each without a measurement taking the reads of the patterns it serves (their
// figures) as its read demand.
func IndexReads(m *model.Model, figures Figures, gsis []model.GSIDoc) []model.GSIDoc {
	return newAnalysis(m).indexPatternReads(figures.Facts, gsis)
}
