package migration

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// Key-scheme migrations. DynamoDB cannot change a table's key schema, and a change of the values written
// under it (a shard suffix added to a hot key, another shard count, an entity re-keyed) leaves every
// existing item under its old key. A migration names the layout being left (`from`: key templates and
// sharding) and the phase the application is in:
//
//	dual_write  writers write both layouts; readers read the old one, which still holds every item
//	backfill    old items are rewritten under the new keys; readers still read the old layout
//	read_new    readers read the new layout, complete once the backfill is done; writers still write both
//	done        only the new layout is written, and the old items are deleted
//
// The old layout is analysed as a design of its own (the design with `from` applied), so that each access
// pattern's old and new keys, queries and demand come from the same pipeline. This file derives what the
// rules DK406–DK408 and the report read: per entity and pattern the old and new keys, what readers and
// writers do in each phase, both routings, and the backfill (items, read and write units, cost, hours,
// throttling). Comparing with the prior state is the rules' part: a fact about the prior in the document
// would change once the state moves on.

// Analysis is one layout's analysis as this stage reads it: its model, the table's traffic and its facts.
type Analysis struct {
	Model   *model.Model
	Traffic *capacity.TableTraffic
	Facts   *Design
}

// Design are the facts of one layout that the migration stage reads: the stated table (with each GSI's
// demand), the target utilization, the access patterns, the derived facts below, and the table's sizing.
type Design struct {
	Table             model.TableDoc
	TargetUtilization float64
	AccessPatterns    []model.AccessPatternDoc
	Derived           DerivedFacts
	// Sizing is the stated traffic, the table's key facts with their routing (Sizing.Keys.Routing) and its
	// demand (Sizing.Capacity); it sizes the index entries an item write carries. The Design points at it
	// rather than copying what it holds.
	Sizing *capacity.Sizing
}

// DerivedFacts are the earlier stages' results the migration stage reads: the patterns' figures
// (patterns.Finish), the entities with their demand and keys, a global table's Regions, and the layout
// (Layout, once it is known). The routing and the table's demand are the Sizing's.
type DerivedFacts struct {
	AccessPatterns []model.PatternFacts
	Entities       *model.EntitiesDoc
	Replicas       *model.ReplicasFacts
	Layout         *model.LayoutDoc
}

// layout is the stage's view of one layout's analysis; old is the old layout's, when there is a migration.
type layout struct {
	m        *model.Model
	in       *model.Input
	traffic  *capacity.TableTraffic
	segments map[string]model.ResolvedSegment
	// entityFacts are the entities as the document states them (their demand and keys); nil without entities,
	// and before there is a document (the checks read none).
	entityFacts *model.EntitiesDoc
	doc         *Design
	old         *layout
	errs        model.FieldErrors
}

func newLayout(m *model.Model, traffic *capacity.TableTraffic, doc *Design) *layout {
	a := &layout{m: m, in: m.Input, traffic: traffic, segments: m.Segments, doc: doc}
	if doc != nil {
		a.entityFacts = doc.Derived.Entities
	}
	return a
}

func (a *layout) fail(path model.Path, format string, args ...any) { a.errs.Add(path, format, args...) }

func (a *layout) isUnknown(path string) bool { return a.m.IsUnknown(path) }

// migrationPath is the path of an attribute under migration.
func migrationPath(steps ...string) model.Path { return append(model.Path{"migration"}, steps...) }

// migrationUnknown reports an unknown value under migration: its facts wait for the next plan.
func (a *layout) migrationUnknown() bool {
	return a.isUnknown("migration") || a.m.HasUnknownUnder("migration")
}

// Validate checks the migration block of the design: its phase, its backfill rate and that `from` states
// the old layout the way the design states its own.
func Validate(design *model.Model) model.FieldErrors {
	a := newLayout(design, nil, nil)
	entities := design.Entities
	m := a.in.Migration
	if m == nil || a.migrationUnknown() {
		return nil
	}
	if !slices.Contains(model.MigrationPhases, m.Phase) {
		a.fail(migrationPath("phase"), "unknown phase %q: use one of %s, in that order", m.Phase, strings.Join(model.MigrationPhases, ", "))
	}
	if r := m.BackfillWriteUnitsPerSecond; r != nil && (math.IsNaN(*r) || math.IsInf(*r, 0) || *r <= 0) {
		a.fail(migrationPath("backfill_write_units_per_second"), "must be a write rate above 0, got %v: omit it to use the headroom the design leaves", *r)
	} else if r != nil && *r > model.MaxRequestsPerSecond {
		a.fail(migrationPath("backfill_write_units_per_second"), "must be at most %s write units per second, got %s", textfmt.Thousands(model.MaxRequestsPerSecond), textfmt.Thousands(*r))
	}
	f := m.From
	if entities != nil && (f.PartitionKeyTemplate != nil || f.SortKeyTemplate != nil) {
		a.fail(migrationPath("from"), "a design with entities states its old keys per entity: use migration.from.entities.<name>.keys")
	}
	if entities == nil && len(f.Entities) > 0 {
		a.fail(migrationPath("from", "entities"), "the design has no entities: state the old keys with migration.from.partition_key_template and sort_key_template")
	}
	if f.SortKeyTemplate != nil && a.in.SortKey == nil {
		a.fail(migrationPath("from", "sort_key_template"), "the table has no sort key; a migration cannot add or remove one (that is a new table)")
	}
	for _, name := range slices.Sorted(maps.Keys(f.Entities)) {
		if !slices.ContainsFunc(a.in.Entities, func(e model.Entity) bool { return e.Name == name }) {
			a.fail(migrationPath("from", "entities", name), "no entity %q in entities: name an entity of the design (an entity whose items are gone needs no migration)", name)
		}
	}
	if s := f.Sharding; s != nil {
		p := migrationPath("from", "sharding")
		if s.Strategy != "" && !slices.Contains(model.ShardingStrategies, s.Strategy) {
			a.fail(append(p, "strategy"), "unknown strategy %q: use one of %s", s.Strategy, strings.Join(model.ShardingStrategies, ", "))
		}
		if cmp.Or(s.Strategy, model.StrategyNone) != model.StrategyNone && s.Count == nil {
			a.fail(append(p, "count"), "state the shard count the old items were written with: a count computed from today's traffic may not be theirs")
		}
	}
	return a.errs
}

// OldLayoutErrors are the errors of the old layout's analysis on the migration's attributes that set them;
// an error of the design itself is reported on the design.
func OldLayoutErrors(errs []*model.FieldError, analysed bool) model.FieldErrors {
	var out model.FieldErrors
	for _, e := range errs {
		if p, ok := oldLayoutPath(e.Path); ok {
			out = append(out, &model.FieldError{Path: p, Message: e.Message + " (in the old layout)"})
		}
	}
	if !analysed && len(out) == 0 && len(errs) > 0 {
		out.Add(migrationPath("from"), "the old layout cannot be analysed: %s", errs[0].Message)
	}
	return out
}

// SameLayoutError refuses a migration whose old layout is the design's (layout): nothing moves.
func SameLayoutError(layout, old *model.LayoutDoc) *model.FieldError {
	if old == nil || layout == nil {
		return nil
	}
	if !SameLayout(*old, *layout) {
		return nil
	}
	return &model.FieldError{Path: migrationPath("from"), Message: "the old layout is the design's own: every key template and the sharding " +
		"are the same, so no item moves. State the templates or sharding the existing items were written with, or remove the migration"}
}

// OldInput is the design given with the old layout in place of the new, and without a migration or prior:
// the old layout is analysed as a design of its own.
func OldInput(given *model.Input) *model.Input {
	f := given.Migration.From
	old := *given
	old.Migration, old.Prior = nil, nil
	if f.PartitionKeyTemplate != nil {
		old.PartitionKey.Template = f.PartitionKeyTemplate
	}
	if f.SortKeyTemplate != nil && old.SortKey != nil {
		sk := *old.SortKey
		sk.Template = f.SortKeyTemplate
		old.SortKey = &sk
	}
	if len(f.Entities) > 0 {
		old.Entities = make([]model.Entity, len(given.Entities))
		for i, e := range given.Entities {
			if keys, ok := f.Entities[e.Name]; ok {
				e.Keys = maps.Clone(keys)
			}
			old.Entities[i] = e
		}
	}
	if f.Sharding != nil {
		old.Sharding = *f.Sharding
	}
	// The old layout's unknowns are the design's, less the migration's own.
	old.Unknown = slices.DeleteFunc(slices.Clone(given.Unknown), func(p model.Path) bool { return len(p) > 0 && p[0] == "migration" })
	return &old
}

// oldLayoutPath maps a path of the old layout's analysis to the migration attribute that set it; false
// for a path the design itself has (its error is reported on the design).
func oldLayoutPath(p model.Path) (model.Path, bool) {
	switch {
	case len(p) >= 2 && p[0] == "partition_key" && p[1] == "template":
		return migrationPath("from", "partition_key_template"), true
	case len(p) >= 2 && p[0] == "sort_key" && p[1] == "template":
		return migrationPath("from", "sort_key_template"), true
	case len(p) >= 3 && p[0] == "entities" && p[2] == "keys":
		return append(migrationPath("from"), p...), true
	case len(p) >= 1 && p[0] == "sharding":
		return append(migrationPath("from"), p...), true
	}
	return nil, false
}

// Layout is derived.layout: the layout this design writes, nil while its keys or sharding are unknown. doc
// holds the design's routing and access patterns with their figures.
func Layout(design *model.Model, traffic *capacity.TableTraffic, doc *Design) *model.LayoutDoc {
	return newLayout(design, traffic, doc).layout(doc)
}

func (a *layout) layout(doc *Design) *model.LayoutDoc {
	if a.isUnknown("partition_key") || a.isUnknown("sort_key") || a.isUnknown("partition_key.template") ||
		a.isUnknown("sort_key.template") || a.isUnknown("entities") || a.m.HasUnknownUnder("entities") ||
		a.isUnknown("sharding") || a.m.HasUnknownUnder("sharding") {
		return nil
	}
	l := &model.LayoutDoc{Keys: a.entityKeys(), Sharding: doc.Sizing.Keys.Routing, Patterns: map[string][]string{}}
	for i, f := range doc.Derived.AccessPatterns {
		l.Patterns[f.Name] = a.patternReads(doc, doc.AccessPatterns[i], f, l)
	}
	skName := ""
	if a.in.SortKey != nil {
		skName = a.in.SortKey.Name
	}
	l.From = layoutHCL(l, a.in.PartitionKey.Name, skName)
	return l
}

// entityKeys are the templates each entity writes: each scope's ("" the implicit entity of a table without
// entities, whose templates are the table's own). The maps are the model's, as derived.entities' keys are;
// nothing changes them.
func (a *layout) entityKeys() map[string]map[string]string {
	out := make(map[string]map[string]string, len(a.m.Scopes))
	for _, s := range a.m.Scopes {
		out[s.Name] = s.Keys
	}
	return out
}

// indexAttributes are the key attributes a read of index reads: the table's keys, an LSI's partition key
// and sort key, a GSI's attributes.
func (a *layout) indexAttributes(doc *Design, index string) []string {
	t := doc.Table
	tableKeys := []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		tableKeys = append(tableKeys, t.SortKey.Name)
	}
	if index == "" || index == model.TableKeyIndex {
		return tableKeys
	}
	for _, l := range t.LSIs {
		if l.Name == index {
			return []string{t.PartitionKey.Name, l.SortKey.Name}
		}
	}
	for _, g := range t.GSIs {
		if g.Name == index {
			var out []string
			for _, k := range slices.Concat(g.PartitionKey, g.SortKey) {
				out = append(out, k.Name)
			}
			return out
		}
	}
	return tableKeys
}

// patternEntities are the entities a pattern reads: those it names, else every scope its index holds (the
// implicit entity, "", of a table without entities).
func (a *layout) patternEntities(ap model.AccessPatternDoc, index string) []string {
	if len(ap.Entities) > 0 {
		return ap.Entities
	}
	var out []string
	for _, s := range a.m.Scopes {
		if index == "" || index == model.TableKeyIndex || s.Carries(index) {
			out = append(out, s.Name)
		}
	}
	return out
}

// patternReads are the templates a pattern's key reads, entity by entity, with the sharding of a sharded
// table partition key.
func (a *layout) patternReads(doc *Design, ap model.AccessPatternDoc, f model.PatternFacts, l *model.LayoutDoc) []string {
	reads := []string{}
	attrs := a.indexAttributes(doc, f.Index)
	sharded := false
	for _, e := range a.patternEntities(ap, f.Index) {
		for _, attr := range attrs {
			t, ok := l.Keys[e][attr]
			if !ok {
				continue
			}
			reads = append(reads, strings.TrimPrefix(e+" ", " ")+attr+"="+t)
			if attr == doc.Table.PartitionKey.Name && strings.Contains(t, "{"+model.ShardPlaceholder+"}") {
				sharded = true
			}
		}
	}
	if sharded {
		r := l.Sharding
		reads = append(reads, "{shard}="+r.Algorithm+"/"+strconv.FormatInt(r.Count, 10)+"/"+r.Source)
	}
	slices.Sort(reads)
	return reads
}

// layoutHCL is a layout as the `from` of a migration block: the implicit entity's templates ("", a table
// without entities) as the table's, each entity's under entities. It is written into one buffer: the parts
// and their separators as strings.Join would place them.
func layoutHCL(l *model.LayoutDoc, pkName, skName string) string {
	var b strings.Builder
	b.Grow(160)
	b.WriteString("{ ")
	if keys, implicit := l.Keys[""]; implicit {
		if t, ok := keys[pkName]; ok {
			b.WriteString("partition_key_template = ")
			writeHCLString(&b, t)
			b.WriteString(", ")
		}
		if t, ok := keys[skName]; ok && skName != "" {
			b.WriteString("sort_key_template = ")
			writeHCLString(&b, t)
			b.WriteString(", ")
		}
	} else {
		b.WriteString("entities = { ")
		for i, name := range slices.Sorted(maps.Keys(l.Keys)) {
			if i > 0 {
				b.WriteString(", ")
			}
			writeHCLKey(&b, name)
			b.WriteString(" = { keys = { ")
			for j, attr := range slices.Sorted(maps.Keys(l.Keys[name])) {
				if j > 0 {
					b.WriteString(", ")
				}
				writeHCLKey(&b, attr)
				b.WriteString(" = ")
				writeHCLString(&b, l.Keys[name][attr])
			}
			b.WriteString(" } }")
		}
		b.WriteString(" }, ")
	}
	s, num := l.Sharding, [20]byte{}
	b.WriteString("sharding = { strategy = ")
	writeHCLString(&b, strategyOf(s.Algorithm))
	if s.Algorithm != "none" {
		if s.Source != "" {
			b.WriteString(", source = ")
			writeHCLString(&b, s.Source)
		}
		b.WriteString(", count = ")
		b.Write(strconv.AppendInt(num[:0], s.Count, 10))
	}
	b.WriteString(", scheme_version = ")
	b.Write(strconv.AppendInt(num[:0], s.SchemeVersion, 10))
	b.WriteString(" } }")
	return b.String()
}

func strategyOf(algorithm string) string {
	switch algorithm {
	case model.RoutingAlgorithm:
		return model.StrategyCalculated
	case "random":
		return model.StrategyRandom
	}
	return model.StrategyNone
}

// hclString quotes s as an HCL string literal: JSON escapes, and ${ and %{ doubled so that they stay text.
func hclString(s string) string {
	q := strconv.Quote(s)
	if strings.Contains(q, "{") {
		q = strings.ReplaceAll(strings.ReplaceAll(q, "${", "$${"), "%{", "%%{")
	}
	return q
}

// writeHCLString writes hclString(s) to b.
func writeHCLString(b *strings.Builder, s string) {
	var buf [64]byte
	q := strconv.AppendQuote(buf[:0], s)
	for i, c := range q {
		if (c == '$' || c == '%') && i+1 < len(q) && q[i+1] == '{' {
			b.WriteByte(c)
		}
		b.WriteByte(c)
	}
}

// writeHCLKey writes hclKey(k) to b.
func writeHCLKey(b *strings.Builder, k string) {
	if q := hclKey(k); q != k {
		b.WriteString(q)
		return
	}
	b.WriteString(k)
}

// hclKey is a map key: bare when it is an identifier, quoted otherwise.
func hclKey(k string) string {
	identifier := func(r rune) bool {
		return r == '_' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	if k != "" && strings.IndexFunc(k, func(r rune) bool { return !identifier(r) }) < 0 && (k[0] < '0' || k[0] > '9') {
		return k
	}
	return hclString(k)
}

// Stated reports whether the design states a migration known at plan time: its old layout is then
// analysed, as a design of its own (OldInput).
func Stated(design *model.Model) bool {
	return design.Input.Migration != nil && !newLayout(design, nil, nil).migrationUnknown()
}
