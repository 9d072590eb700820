package keydesign

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/cost"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/measured"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/migration"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/patterns"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/replicas"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Analyze validates an input and builds its Document. Bad input (malformed templates, unknown kinds,
// out-of-range numbers) comes back as FieldErrors with the attribute path; design problems are left to
// the policy rules, which read the derived facts.
func Analyze(in *model.Input) (*model.Document, []*model.FieldError) {
	_, doc, errs := analyzeInput(in)
	return doc, errs
}

// analyzeInput is Analyze, also returning the analyzer (the entity model), which a migration reads of its
// old layout.
func analyzeInput(in *model.Input) (*analyzer, *model.Document, []*model.FieldError) {
	given := in
	in, summed := replicas.WithRegionWrites(in)
	m, errs := model.Build(in)
	a := &analyzer{m: m, in: m.Input, given: given, unknown: m.Unknown, segments: m.Segments, errs: errs}
	a.errs = append(a.errs, measured.Validate(m)...)
	a.errs = append(a.errs, cost.Validate(m)...)
	a.errs = append(a.errs, replicas.Validate(m, summed)...)
	entities := m.Entities
	pk, sk := m.PartitionKey, m.SortKey
	if entities != nil && len(a.errs) == 0 {
		// The entities' demand, then the busiest collection's entity as the table's key to the later stages.
		capacity.EntityDemand(m)
		pk, sk = a.lowerEntities(entities)
	}
	a.errs = append(a.errs, patterns.Validate(m, a.in, sk)...)
	if len(a.errs) == 0 {
		a.errs = append(a.errs, migration.Validate(m, a.in)...)
	}
	if len(a.errs) == 0 && migration.Stated(m) {
		old, oldDoc, oldErrs := analyzeInput(migration.OldInput(given))
		a.errs = append(a.errs, migration.OldLayoutErrors(oldErrs, oldDoc != nil)...)
		if oldDoc != nil {
			a.old = &migration.Analysis{Model: old.m, Table: old.in, Doc: oldDoc}
		}
	}
	if len(a.errs) > 0 {
		return a, nil, a.errs
	}
	doc := a.build(pk, sk)
	var oldDoc *model.Document
	if a.old != nil {
		oldDoc = a.old.Doc
	}
	if err := migration.SameLayoutError(doc, oldDoc); err != nil {
		return a, nil, []*model.FieldError{err}
	}
	if errs := checkFinite(doc); len(errs) > 0 {
		return a, nil, errs
	}
	return a, doc, nil
}

type analyzer struct {
	// m is the model stage's result; in, unknown, segments and entities below are its parts.
	m        *model.Model
	in       *model.Input
	unknown  map[string]bool
	segments map[string]model.ResolvedSegment
	errs     []*model.FieldError
	// entities is the entity model of a single-table design; nil for a table of one entity.
	entities *entityModel
	// pk and sk are the key templates the stages read: the table's, or the busiest entity's.
	pk, sk *model.Template
	// given is the input as the caller gave it: in is replaced by the entity model's lowered copy.
	given *model.Input
	// old is a migration's old layout, analysed as a design of its own (migration.go).
	old *migration.Analysis
}

func (a *analyzer) fail(path model.Path, format string, args ...any) {
	a.errs = append(a.errs, &model.FieldError{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (a *analyzer) isUnknown(path string) bool { return a.unknown[path] }

// stages are the analysis after validation, in order: each reads what the stages before it wrote into the
// document and the analyzer (the entity model, the key templates), and writes its own facts. A new part of the
// model (a key-scheme migration, replicas) is one more stage, placed after the facts it reads.
var stages = []struct {
	name string
	run  func(a *analyzer, doc *model.Document)
}{
	// The inputs as the document states them, defaults applied; the entity model (entities.go) is built
	// before, during validation, since the key templates the rest reads come from it.
	{"inputs", (*analyzer).inputsStage},
	// Access patterns matched with the keys (access_patterns_analysis.go): their reads feed capacity.
	{"patterns", func(a *analyzer, doc *model.Document) {
		p := patterns.Match(a.m, a.in, doc, a.pk, a.sk)
		doc.AccessPatterns, doc.Derived.AccessPatterns = p.Patterns, p.Facts
		doc.Unknown = append(doc.Unknown, p.Unknown...)
	}},
	// The global table's Regions and their writes (replicas.go): every replica performs every Region's
	// writes, so capacity sizes each Region's partitions by the global figure.
	{"replicas", func(a *analyzer, doc *model.Document) {
		var unknown []string
		doc.Derived.Replicas, unknown = replicas.Facts(a.m, doc.Traffic.WritesPerSecond)
		doc.Unknown = append(doc.Unknown, unknown...)
	}},
	// Units per request, the busiest key's demand, the shard count (capacity.go).
	{"capacity", func(a *analyzer, doc *model.Document) {
		t := capacity.Table(a.m, a.in, doc, a.pk, patterns.HotReads(a.m, a.in, doc))
		d := &doc.Derived
		d.Capacity, d.RequiredShards, d.ShardCount = t.Capacity, t.RequiredShards, t.ShardCount
		doc.Unknown = append(doc.Unknown, t.Unknown...)
		if d.Replicas != nil {
			d.Replicas.HotKeyWriteUnits = d.Capacity.HotKeyWriteUnits
		}
	}},
	// The patterns' figures that depend on the shard count.
	{"pattern figures", func(a *analyzer, doc *model.Document) {
		doc.Derived.AccessPatterns, doc.Derived.Capacity.PeakReadUnits = patterns.Finish(a.m, a.in, doc)
	}},
	// Routing and the facts of the key templates, sized by the shard count (key_facts.go).
	{"keys", func(a *analyzer, doc *model.Document) {
		d := &doc.Derived
		k := capacity.Keys(a.m, a.in, doc.Sharding, d.ShardCount, a.pk, a.sk)
		d.Routing, d.ShardWidth, d.PartitionKey, d.SortKey, d.UndeclaredPlaceholders = k.Routing, k.Routing.Width, k.PartitionKey, k.SortKey, k.Undeclared
		d.HasTimeBucket, d.PartitionKeyMaxBytes, d.PartitionKeySegments = k.PartitionKey.HasTimeBucket, k.PartitionKey.MaxBytes, k.PartitionKey.Segments
	}},
	// Each entity's key facts and own demand, each collection's summed demand per shard (entity_analysis.go).
	{"entity keys", func(a *analyzer, doc *model.Document) {
		capacity.EntityKeys(a.m, doc.Derived.ShardCount, doc.TargetUtilization, a.in.ReplicatedTTLDeletes())
	}},
	// Each GSI's demand and hot partition (analyze.go), from the entities it holds (entity_analysis.go).
	{"indexes", func(a *analyzer, doc *model.Document) {
		doc.Table.GSIs, doc.Derived.ProjectedNonKeyAttributes = capacity.Indexes(a.m, doc)
	}},
	// Measured traffic against the design (observed_facts.go).
	{"measured", func(a *analyzer, doc *model.Document) { doc.Observed, doc.Table.GSIs = measured.Facts(a.m, doc, a.pk) }},
	// The patterns' reads on each index.
	{"index reads", func(a *analyzer, doc *model.Document) { doc.Table.GSIs = patterns.IndexReads(a.m, a.in, doc) }},
	// The item collection the LSI limit caps (capacity.go).
	{"collection", func(a *analyzer, doc *model.Document) {
		doc.Derived.Collection = capacity.Collection(a.m, a.in, doc, a.sk)
	}},
	// The layout the items are written in: templates, sharding, what each pattern reads (migration.go).
	{"layout", func(a *analyzer, doc *model.Document) { doc.Derived.Layout = migration.Layout(a.m, a.in, doc) }},
	// The monthly price (cost.go).
	{"cost", func(a *analyzer, doc *model.Document) {
		if doc.Derived.Cost = cost.Estimate(a.m, a.in, doc); doc.Derived.Cost == nil {
			doc.Unknown = append(doc.Unknown, "derived.cost")
		}
	}},
	// A key-scheme migration from the old layout (migration_facts.go).
	{"migration", func(a *analyzer, doc *model.Document) {
		var unknown bool
		doc.Derived.Migration, unknown = migration.Facts(migration.Analysis{Model: a.m, Table: a.in, Doc: doc}, a.old)
		if unknown {
			doc.Unknown = append(doc.Unknown, "derived.migration")
		}
	}},
	// The key attributes and conventions the name and convention rules read (key_facts.go).
	{"names", func(a *analyzer, doc *model.Document) {
		doc.Derived.KeyAttributes, doc.Derived.Conventions = capacity.Names(a.m, doc.Table, a.pk, a.sk)
	}},
}

// build runs the stages on a validated input.
func (a *analyzer) build(pk, sk *model.Template) *model.Document {
	a.pk, a.sk = pk, sk
	doc := &model.Document{}
	for _, s := range stages {
		s.run(a, doc)
	}
	return doc
}

// inputsStage states the inputs with their defaults: kind, segments, sharding, traffic and the table.
func (a *analyzer) inputsStage(doc *model.Document) {
	in := a.in
	*doc = model.Document{
		Kind:     in.Kind,
		Address:  in.Address,
		Segments: a.segments,
		Prior:    in.Prior,
		Unknown:  make([]string, 0, len(a.unknown)),
	}
	doc.SchemaVersion = model.DocumentSchemaVersion
	for p := range a.unknown {
		doc.Unknown = append(doc.Unknown, p)
	}
	slices.Sort(doc.Unknown)
	doc.TargetUtilization = model.DefaultTargetUtilization
	if in.TargetUtilization != nil {
		doc.TargetUtilization = *in.TargetUtilization
	}
	doc.Sharding = model.ShardingDoc{Strategy: cmp.Or(in.Sharding.Strategy, model.StrategyNone), Source: in.Sharding.Source,
		Count: in.Sharding.Count, SchemeVersion: model.DefaultSchemeVersion}
	if in.Sharding.SchemeVersion != nil {
		doc.Sharding.SchemeVersion = *in.Sharding.SchemeVersion
	}
	t := in.Traffic
	doc.Traffic = model.TrafficDoc{
		WritesPerSecond: t.WritesPerSecond, ReadsPerSecond: t.ReadsPerSecond,
		ItemSizeBytes: model.DefaultItemSizeBytes, ReadConsistency: cmp.Or(t.ReadConsistency, string(model.ReadEventual)),
		TransactionalWrites: t.TransactionalWrites, HotKeyShare: t.HotKeyShare,
		HottestItemWritesPerSecond: t.HottestItemWritesPerSecond, HottestItemReadsPerSecond: t.HottestItemReadsPerSecond,
		MaxItemsPerPartitionKey: t.MaxItemsPerPartitionKey,
	}
	if t.ItemSizeBytes != nil {
		doc.Traffic.ItemSizeBytes = *t.ItemSizeBytes
	}
	doc.Table = a.tableDoc()
	if a.entities != nil {
		doc.Derived.Entities = &a.entities.Doc
	}
}

func (a *analyzer) tableDoc() model.TableDoc {
	in := a.in
	td := model.TableDoc{
		Name: in.TableName, BillingMode: in.BillingMode, ReadCapacity: in.ReadCapacity, WriteCapacity: in.WriteCapacity,
		OnDemandThroughput: in.OnDemand, WarmThroughput: in.Warm, Autoscaling: in.Autoscaling,
		PartitionKey: model.KeyDoc{Name: in.PartitionKey.Name, Type: cmp.Or(in.PartitionKey.Type, model.KeyTypeString), Template: in.PartitionKey.Template},
		LSIs:         make([]model.LSIDoc, 0, len(in.LocalSecondaryIndexes)),
		GSIs:         make([]model.GSIDoc, 0, len(in.GlobalSecondaryIndexes)),
	}
	if in.SortKey != nil {
		td.SortKey = &model.KeyDoc{Name: in.SortKey.Name, Type: cmp.Or(in.SortKey.Type, model.KeyTypeString), Template: in.SortKey.Template}
	}
	for _, l := range in.LocalSecondaryIndexes {
		td.LSIs = append(td.LSIs, model.LSIDoc{Name: l.Name, SortKey: indexKeyDoc(l.SortKey),
			ProjectionType: cmp.Or(l.ProjectionType, model.ProjectionAll), NonKeyAttributes: orEmpty(l.NonKeyAttributes)})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		gd := model.GSIDoc{Name: g.Name, ProjectionType: cmp.Or(g.ProjectionType, model.ProjectionAll),
			NonKeyAttributes: orEmpty(g.NonKeyAttributes), ReadCapacity: g.ReadCapacity, WriteCapacity: g.WriteCapacity,
			OnDemandThroughput: g.OnDemand, WarmThroughput: g.Warm, Autoscaling: g.Autoscaling,
			PartitionKey: make([]model.IndexKeyDoc, 0, len(g.PartitionKey)), SortKey: make([]model.IndexKeyDoc, 0, len(g.SortKey))}
		for _, k := range g.PartitionKey {
			gd.PartitionKey = append(gd.PartitionKey, indexKeyDoc(k))
		}
		for _, k := range g.SortKey {
			gd.SortKey = append(gd.SortKey, indexKeyDoc(k))
		}
		td.GSIs = append(td.GSIs, gd)
	}
	slices.SortFunc(td.LSIs, func(x, y model.LSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	slices.SortFunc(td.GSIs, func(x, y model.GSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	return td
}

func indexKeyDoc(k model.IndexKeyAttribute) model.IndexKeyDoc {
	return model.IndexKeyDoc{Name: k.Name, Type: cmp.Or(k.Type, model.KeyTypeString), Cardinality: k.Cardinality}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func ptr[T any](v T) *T { return &v }
