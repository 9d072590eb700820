// Package keydesign is the facade of dynamokeys' key-design analysis: Analyze turns a design's model.Input into
// the model.Document the policies evaluate, through the model stage (internal/keydesign/model: input and
// document types, templates, segments, routing, the entity model) and the later stages, each a package of its
// own (capacity, replicas, patterns, measured, cost, migration; the report in internal/keydesign/report).
// Callers import the stage packages whose types they use; this package holds only what is its own. It imports
// nothing from Terraform, AWS or OPA.
package keydesign

import (
	"cmp"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/cost"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/measured"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/migration"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/patterns"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/replicas"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/vectors"
)

// Analyze validates an input and builds its Document. Bad input (malformed templates, unknown kinds,
// out-of-range numbers) comes back as FieldErrors with the attribute path; design problems are left to
// the policy rules, which read the derived facts.
func Analyze(in *model.Input) (*model.Document, []*model.FieldError) {
	a, errs := analyzeDesign(in)
	var doc *model.Document
	if a != nil {
		doc = a.Doc
	}
	return doc, errs
}

// analysis is one design's analysis: what a migration reads of a layout (its model, the table's traffic and
// facts) and the design's Document.
type analysis struct {
	migration.Analysis
	Doc *model.Document
}

// analyzeDesign validates the design given and runs the stages: it returns the design's analysis, which is
// what a migration reads of its old layout too.
func analyzeDesign(given *model.Input) (*analysis, []*model.FieldError) {
	// The model stage, then each later stage's checks of its own inputs.
	in, summed := replicas.WithRegionWrites(given)
	// A vector search is no Query of the table's keys: the vectors stage reads it, the patterns stage never.
	in, searches := vectors.WithoutSearches(in)
	m, errs := model.Build(in)
	errs = append(errs, measured.Validate(m)...)
	errs = append(errs, cost.Validate(m)...)
	errs = append(errs, replicas.Validate(m, summed)...)
	errs = append(errs, patterns.Validate(m, m.SortKey)...)
	errs = append(errs, vectors.Validate(m, searches)...)
	if len(errs) == 0 {
		errs = append(errs, migration.Validate(m)...)
	}
	var old *analysis
	if len(errs) == 0 && migration.Stated(m) {
		var oldErrs []*model.FieldError
		old, oldErrs = analyzeDesign(migration.OldInput(given))
		errs = append(errs, migration.OldLayoutErrors(oldErrs, old != nil)...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	var oldAnalysis *migration.Analysis
	if old != nil {
		oldAnalysis = &old.Analysis
	}
	r := run(m, oldAnalysis, searches)
	if old != nil {
		if err := migration.SameLayoutError(r.layout, old.Facts.Derived.Layout); err != nil {
			return nil, []*model.FieldError{err}
		}
	}
	doc := r.document()
	if errs := checkFinite(doc); len(errs) > 0 {
		return nil, errs
	}
	return &analysis{Analysis: migration.Analysis{Model: m, Traffic: r.traffic, Facts: r.design}, Doc: doc}, nil
}

// results are the stages' results. Each stage is a function of the model and of the results it names in its
// signature, and returns its own; run calls them in the order of what each reads, and the Document is
// assembled from the results once, at the end (document).
type results struct {
	// entities are a single-table design's entities with their demand (capacity.EntityDemand), traffic the
	// table's (capacity.Traffic).
	entities *model.EntitiesDoc
	traffic  *capacity.TableTraffic
	stated   *model.Stated
	// entityKeys are the entities' demand with their key facts (capacity.EntityKeys); nil without entities.
	entityKeys      *model.EntitiesDoc
	matched         patterns.Matched
	replicas        *model.ReplicasFacts
	replicasUnknown []string
	demand          capacity.TableDemand
	figures         patterns.Figures
	keys            capacity.TableKeys
	// sizing is the stated table, its key facts and its demand: the peak reads raised to the patterns' and
	// the per-shard demand of a single-table design's busiest collection.
	sizing          *capacity.Sizing
	projectedNonKey int
	observed        []model.ObservedDoc
	// gsis are the GSIs with their partitions, their measured or declared demand and the patterns' reads.
	gsis       []model.GSIDoc
	collection model.CollectionEstimate
	layout     *model.LayoutDoc
	// design is what the migration stage reads of this layout, the layout included.
	design           *migration.Design
	cost             *model.CostEstimate
	migration        *model.MigrationDoc
	migrationUnknown bool
	keyAttributes    []model.KeyAttributeRef
	conventions      model.Conventions
	// vectors are the vector indexes with their facts.
	vectors []model.VectorIndexDoc
}

// run runs the stages on a validated design, in the order of what each reads. Each result is a local
// variable that only its stage assigns, and each stage's signature names the results it reads: a stage
// called before what it reads exists does not compile. old is a migration's old layout (nil without one),
// searches the access patterns that search a vector index.
func run(m *model.Model, old *migration.Analysis, searches []model.AccessPattern) results {
	pk, sk := m.PartitionKey, m.SortKey
	// Each entity's demand (a single-table design's), and the traffic of the table as a whole.
	entities := capacity.EntityDemand(m)
	traffic := capacity.Traffic(m, entities)
	// The design as written, with its defaults.
	stated := model.State(m, traffic.Traffic)
	// Access patterns matched with the keys: their reads on the table key feed the capacity.
	matched := patterns.Match(m, stated, pk, sk)
	// The global table's Regions and their writes: every replica performs every Region's writes, so the
	// capacity sizes each Region's partitions by the global figure.
	global, replicasUnknown := replicas.Facts(m, stated.Traffic.WritesPerSecond)
	// Units per request, the busiest key's demand and the shard count.
	demand := capacity.Table(m, traffic, stated, entities, pk, patterns.HotReads(m, matched))
	if global != nil {
		global.HotKeyWriteUnits = demand.Capacity.HotKeyWriteUnits
	}
	shards := demand.ShardCount
	// The patterns' figures that depend on the shard count.
	figures := patterns.Finish(m, stated, matched, demand)
	// Routing and the facts of the key templates, sized by the shard count.
	keys := capacity.Keys(m, stated.Sharding, shards, pk, sk)
	// The table's demand as the later stages read it: the peak reads raised to the patterns', and for a
	// single-table design each entity's key facts and own demand, each collection's demand per shard, and the
	// busiest collection's per shard (each entity's busiest value over its own shards).
	c := demand.Capacity
	c.PeakReadUnits = figures.PeakReadUnits
	var entityKeys *model.EntitiesDoc
	if entities != nil {
		entityKeys = capacity.EntityKeys(m, entities, shards, stated.TargetUtilization, m.Input.ReplicatedTTLDeletes())
		c.PerShardWriteUnits, c.PerShardReadUnits = capacity.BusiestPerShard(entityKeys, c)
	}
	sizing := &capacity.Sizing{Table: stated.Table, Traffic: stated.Traffic, Keys: keys, Capacity: c}
	// Each GSI's partitions and demand, from the entities it holds.
	indexes, projectedNonKey := capacity.Indexes(m, sizing, shards)
	// Measured traffic against the design, and each GSI's measured demand.
	observed, measuredGSIs := measured.Facts(m, stated, sizing, shards, indexes)
	r := results{entities: entities, traffic: traffic, stated: stated, entityKeys: entityKeys, matched: matched, replicas: global, replicasUnknown: replicasUnknown,
		demand: demand, figures: figures, keys: keys, sizing: sizing, projectedNonKey: projectedNonKey, observed: observed}
	// The patterns' reads on each GSI.
	r.gsis = patterns.IndexReads(m, figures, measuredGSIs)
	// The item collection the LSI limit caps.
	r.collection = capacity.Collection(m, sizing, shards, entityKeys, sk)
	// The layout the items are written in: templates, sharding, what each pattern reads.
	r.design = r.migrationFacts()
	r.layout = migration.Layout(m, traffic, r.design)
	r.design.Derived.Layout = r.layout
	// The monthly price.
	r.cost = cost.Estimate(m, traffic, &cost.Facts{Stated: stated, Sizing: sizing, GSIs: r.gsis, Patterns: matched.Patterns,
		Figures: figures.Facts, Replicas: global})
	// A key-scheme migration from the old layout.
	r.migration, r.migrationUnknown = migration.Facts(migration.Analysis{Model: m, Traffic: traffic, Facts: r.design}, old)
	// The key attributes and conventions the name rules read.
	r.keyAttributes, r.conventions = capacity.Names(m, r.table(), pk, sk)
	// The vector indexes: their members, their HASH's busiest value, their searches and cost.
	t := m.Input.Traffic
	r.vectors = vectors.Facts(m, vectors.Traffic{WritesPerSecond: t.WritesPerSecond, AverageWritesPerSecond: t.AverageWritesPerSecond,
		ItemSizeBytes: cmp.Or(model.Deref(t.ItemSizeBytes), model.DefaultItemSizeBytes), ItemCount: t.ItemCount}, searches, shards, stated.TargetUtilization)
	return r
}

// table is the stated table with each GSI's facts.
func (r *results) table() model.TableDoc {
	t := r.stated.Table
	t.GSIs = r.gsis
	return t
}

// entitiesDoc is the entities as the Document states them: with their key facts once known.
func (r *results) entitiesDoc() *model.EntitiesDoc {
	if r.entityKeys != nil {
		return r.entityKeys
	}
	return r.entities
}

// migrationFacts are the results the migration stage reads of this layout, but its layout.
func (r *results) migrationFacts() *migration.Design {
	return &migration.Design{Table: r.table(), TargetUtilization: r.stated.TargetUtilization,
		AccessPatterns: r.matched.Patterns, Sizing: r.sizing,
		Derived: migration.DerivedFacts{AccessPatterns: r.figures.Facts, Entities: r.entitiesDoc(), Replicas: r.replicas}}
}

// document assembles the Document from the stages' results.
func (r *results) document() *model.Document {
	st := r.stated
	doc := &model.Document{
		SchemaVersion: model.DocumentSchemaVersion, Kind: st.Kind, Address: st.Address, Table: r.table(),
		Segments: st.Segments, Sharding: st.Sharding, Traffic: st.Traffic, TargetUtilization: st.TargetUtilization,
		Prior: st.Prior, Change: st.Change, Observed: r.observed, AccessPatterns: r.matched.Patterns,
	}
	doc.Unknown = append(slices.Clone(st.Unknown), slices.Concat(r.matched.Unknown, r.replicasUnknown, r.demand.Unknown)...)
	if r.cost == nil {
		doc.Unknown = append(doc.Unknown, "derived.cost")
	}
	if r.migrationUnknown {
		doc.Unknown = append(doc.Unknown, "derived.migration")
	}
	k := r.keys
	doc.Derived = model.Derived{
		Capacity: r.sizing.Capacity, RequiredShards: r.demand.RequiredShards, ShardCount: r.demand.ShardCount,
		ShardWidth: k.Routing.Width, Routing: k.Routing, PartitionKey: k.PartitionKey, SortKey: k.SortKey,
		PartitionKeyMaxBytes: k.PartitionKey.MaxBytes, PartitionKeySegments: k.PartitionKey.Segments, HasTimeBucket: k.PartitionKey.HasTimeBucket,
		Entities: r.entitiesDoc(), UndeclaredPlaceholders: k.Undeclared, KeyAttributes: r.keyAttributes, Conventions: r.conventions,
		Collection: r.collection, ProjectedNonKeyAttributes: r.projectedNonKey, Replicas: r.replicas, Cost: r.cost,
		AccessPatterns: r.figures.Facts, Layout: r.layout, Migration: r.migration, VectorIndexes: r.vectors,
	}
	return doc
}
