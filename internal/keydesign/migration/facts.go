package migration

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Facts are derived.migration, from the design's analysis and its old layout's (nil without a migration);
// unknown is true while the migration or a layout is not known at plan time: the rules that read it wait.
func Facts(design Analysis, old *Analysis) (md *model.MigrationDoc, unknown bool) {
	a := newLayout(design.Model, design.Traffic, design.Facts)
	if old != nil {
		a.old = newLayout(old.Model, old.Traffic, old.Facts)
	}
	return a.migrationFacts(design.Facts)
}

func (a *layout) migrationFacts(doc *Design) (*model.MigrationDoc, bool) {
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
		OldRouting: old.Sizing.Keys.Routing, NewRouting: doc.Sizing.Keys.Routing, Changed: []string{}}
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
	return a.traffic.Traffic.ItemCount
}

// entityDoc is the entity model's entity of that name; nil for a table without entities.
func (a *layout) entityDoc(name string) *model.EntityDoc {
	if i := a.m.EntityIndex(name); i >= 0 {
		return &a.entityFacts.Items[i]
	}
	return nil
}

// migrationPatterns pairs each access pattern's facts in both layouts.
func (a *layout) migrationPatterns(doc, old *Design, md *model.MigrationDoc) []model.MigrationPattern {
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
	oldChars, newChars := a.old.m.IDChars(), a.m.IDChars()
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
