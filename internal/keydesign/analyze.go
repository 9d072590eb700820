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

// analyzeDesign validates the design given and runs the stages: it returns the design's analysis (its model, its
// table-level design and its document), which is what a migration reads of its old layout too.
func analyzeDesign(given *model.Input) (*migration.Analysis, []*model.FieldError) {
	// The model stage, then each later stage's checks of its own inputs.
	in, summed := replicas.WithRegionWrites(given)
	m, errs := model.Build(in)
	errs = append(errs, measured.Validate(m)...)
	errs = append(errs, cost.Validate(m)...)
	errs = append(errs, replicas.Validate(m, summed)...)
	view := tableDesign{input: m.Input}
	if m.Entities != nil && len(errs) == 0 {
		// The entities' demand, then the entity model's view of the table for the table-level stages.
		view.entities = capacity.EntityDemand(m)
		view.input, view.lead = tableView(m, view.entities)
	}
	table, pk, sk := view.input, m.PartitionKey, m.SortKey
	errs = append(errs, patterns.Validate(m, table, sk)...)
	if len(errs) == 0 {
		errs = append(errs, migration.Validate(m, table)...)
	}
	var old *migration.Analysis
	if len(errs) == 0 && migration.Stated(m) {
		var oldErrs []*model.FieldError
		old, oldErrs = analyzeDesign(migration.OldInput(given))
		errs = append(errs, migration.OldLayoutErrors(oldErrs, old != nil)...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	doc := document(m, view, pk, sk, old)
	if old != nil {
		if err := migration.SameLayoutError(doc, old.Doc); err != nil {
			return nil, []*model.FieldError{err}
		}
	}
	if errs := checkFinite(doc); len(errs) > 0 {
		return nil, errs
	}
	return &migration.Analysis{Model: m, Table: table, Doc: doc}, nil
}

// tableDesign is the design as the table-level stages read it: the input, or with entities the entity
// model's view of the table (tableView) with the entities' demand and the lead entity.
type tableDesign struct {
	input    *model.Input
	entities *model.EntitiesDoc
	lead     string
}

// document runs the stages on a validated design and assembles its Document. Each stage is a function of
// the model and of the facts of the stages before it, which it reads from the document so far, and returns
// its own facts, which are written into the document here: so the order below is the order of what each
// reads. pk and sk are the table's key templates; old is a migration's old layout.
func document(m *model.Model, view tableDesign, pk, sk *model.Template, old *migration.Analysis) *model.Document {
	table := view.input
	// The inputs as the document states them, defaults applied.
	doc := stated(m, view)
	d := &doc.Derived
	// Access patterns matched with the keys: their reads on the table key feed the capacity.
	matched := patterns.Match(m, table, doc, pk, sk)
	doc.AccessPatterns, d.AccessPatterns = matched.Patterns, matched.Facts
	doc.Unknown = append(doc.Unknown, matched.Unknown...)
	// The global table's Regions and their writes: every replica performs every Region's writes, so the
	// capacity sizes each Region's partitions by the global figure.
	var unknown []string
	d.Replicas, unknown = replicas.Facts(m, doc.Traffic.WritesPerSecond)
	doc.Unknown = append(doc.Unknown, unknown...)
	// Units per request, the busiest key's demand and the shard count.
	demand := capacity.Table(m, table, doc, pk, patterns.HotReads(m, table, doc))
	d.Capacity, d.RequiredShards, d.ShardCount = demand.Capacity, demand.RequiredShards, demand.ShardCount
	doc.Unknown = append(doc.Unknown, demand.Unknown...)
	if d.Replicas != nil {
		d.Replicas.HotKeyWriteUnits = d.Capacity.HotKeyWriteUnits
	}
	// The patterns' figures that depend on the shard count.
	d.AccessPatterns, d.Capacity.PeakReadUnits = patterns.Finish(m, table, doc)
	// Routing and the facts of the key templates, sized by the shard count.
	keys := capacity.Keys(m, table, doc.Sharding, d.ShardCount, pk, sk)
	d.Routing, d.ShardWidth, d.PartitionKey, d.SortKey, d.UndeclaredPlaceholders = keys.Routing, keys.Routing.Width, keys.PartitionKey, keys.SortKey, keys.Undeclared
	d.HasTimeBucket, d.PartitionKeyMaxBytes, d.PartitionKeySegments = keys.PartitionKey.HasTimeBucket, keys.PartitionKey.MaxBytes, keys.PartitionKey.Segments
	if m.Entities != nil {
		// Each entity's key facts and own demand, each collection's summed demand per shard.
		d.Entities = capacity.EntityKeys(m, d.Entities, d.ShardCount, doc.TargetUtilization, table.ReplicatedTTLDeletes())
		// The table's busiest key is the busiest collection's: its demand per shard sums each entity's busiest
		// value over that entity's own shards.
		d.Capacity.PerShardWriteUnits, d.Capacity.PerShardReadUnits = capacity.BusiestPerShard(d.Entities, d.Capacity)
	}
	// Each GSI's partitions and demand, from the entities it holds.
	doc.Table.GSIs, d.ProjectedNonKeyAttributes = capacity.Indexes(m, doc)
	// Measured traffic against the design, and each GSI's measured demand.
	doc.Observed, doc.Table.GSIs = measured.Facts(m, doc, pk)
	// The patterns' reads on each GSI.
	doc.Table.GSIs = patterns.IndexReads(m, table, doc)
	// The item collection the LSI limit caps.
	d.Collection = capacity.Collection(m, table, doc, sk)
	// The layout the items are written in: templates, sharding, what each pattern reads.
	d.Layout = migration.Layout(m, table, doc)
	// The monthly price.
	if d.Cost = cost.Estimate(m, table, doc); d.Cost == nil {
		doc.Unknown = append(doc.Unknown, "derived.cost")
	}
	// A key-scheme migration from the old layout.
	var migrationUnknown bool
	d.Migration, migrationUnknown = migration.Facts(migration.Analysis{Model: m, Table: table, Doc: doc}, old)
	if migrationUnknown {
		doc.Unknown = append(doc.Unknown, "derived.migration")
	}
	// The key attributes and conventions the name rules read.
	d.KeyAttributes, d.Conventions = capacity.Names(m, doc.Table, pk, sk)
	return doc
}

// stated is the document of the inputs with their defaults: kind, segments, sharding, traffic, the table
// and the entities' demand. view is the table-level design.
func stated(m *model.Model, view tableDesign) *model.Document {
	in := view.input
	doc := &model.Document{
		Kind:     in.Kind,
		Address:  in.Address,
		Segments: m.Segments,
		Prior:    in.Prior,
		Unknown:  make([]string, 0, len(m.Unknown)),
	}
	doc.SchemaVersion = model.DocumentSchemaVersion
	for p := range m.Unknown {
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
	doc.Table = tableDoc(in)
	if view.entities != nil {
		entities := *view.entities
		entities.Lead = view.lead
		doc.Derived.Entities = &entities
	}
	return doc
}

func tableDoc(in *model.Input) model.TableDoc {
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
			ProjectionType: cmp.Or(l.ProjectionType, model.ProjectionAll), NonKeyAttributes: model.OrEmpty(l.NonKeyAttributes)})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		gd := model.GSIDoc{Name: g.Name, ProjectionType: cmp.Or(g.ProjectionType, model.ProjectionAll),
			NonKeyAttributes: model.OrEmpty(g.NonKeyAttributes), ReadCapacity: g.ReadCapacity, WriteCapacity: g.WriteCapacity,
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
