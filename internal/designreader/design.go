package designreader

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Defaults the provider's schema records for attributes left out (the resource's plan holds them; the data
// source returns them resolved).
const (
	DefaultBillingMode = "PAY_PER_REQUEST"
	DefaultTableClass  = "STANDARD"
)

// DesignAttributes are the attributes of a design block Design reads, and TableAttributes the resource's
// own settings Table reads besides (a caller that evaluates attributes itself, like TFLint, asks for these).
var (
	DesignAttributes = []string{
		"partition_key", "sort_key", "segments", "sharding", "traffic", "target_utilization", "local_secondary_indexes",
		"global_secondary_indexes", "vector_indexes", "entities", "observed", "observed_indexes", "pricing", "replicas", "access_patterns", "migration",
	}
	TableAttributes = []string{
		"name", "billing_mode", "read_capacity", "write_capacity", "on_demand_throughput", "warm_throughput", "autoscaling",
		"table_class", "point_in_time_recovery",
	}
)

// Design reads a dynamokeys_keydesign block, root being the object of its attributes. Values unknown until
// apply are left unset and listed in Input.Unknown, never errors; the errors are values the provider
// refuses, each on its attribute's path.
func Design(root Value) (*model.Input, []*model.FieldError) {
	r := &reader{}
	in := r.design(r.root(root))
	in.Kind = "keydesign"
	in.Unknown = r.unknown
	return in, r.errs
}

// Table reads a dynamokeys_sharded_table block: the design, and the table settings the rules read (its name,
// billing mode, capacities and throughput settings, and the class and PITR that price it).
func Table(root Value) (*model.Input, []*model.FieldError) {
	r := &reader{}
	f := r.root(root)
	in := r.design(f)
	in.Kind = "sharded_table"
	r.table(f, in)
	in.Unknown = r.unknown
	return in, r.errs
}

// design reads the attributes the data source and the resource share.
func (r *reader) design(f field) *model.Input {
	in := &model.Input{Segments: map[string]model.Segment{}}
	if pk := key(f.at("partition_key")); pk != nil {
		in.PartitionKey = *pk
	}
	in.SortKey = key(f.at("sort_key"))
	for _, s := range f.at("segments").entries() {
		if !s.object() {
			continue
		}
		in.Segments[s.name()] = model.Segment{
			Kind:        model.SegmentKind(s.at("kind").str()),
			Granularity: s.at("granularity").str(),
			Values:      s.at("values").strings(),
			MaxLength:   s.at("max_length").int64Ptr(),
			Cardinality: s.at("cardinality").int64Ptr(),
			Monotonic:   s.at("monotonic").boolPtr(),
			Characters:  s.at("characters").strPtr(),
		}
	}
	if sh := sharding(f.at("sharding")); sh != nil {
		in.Sharding = *sh
	}
	if t := f.at("traffic"); t.object() {
		in.Traffic = model.Traffic{
			WritesPerSecond:            t.at("writes_per_second").floatPtr(),
			ReadsPerSecond:             t.at("reads_per_second").floatPtr(),
			ItemSizeBytes:              t.at("item_size_bytes").int64Ptr(),
			ReadConsistency:            t.at("read_consistency").str(),
			HotKeyShare:                t.at("hot_key_share").floatPtr(),
			HottestItemWritesPerSecond: t.at("hottest_item_writes_per_second").floatPtr(),
			HottestItemReadsPerSecond:  t.at("hottest_item_reads_per_second").floatPtr(),
			MaxItemsPerPartitionKey:    t.at("max_items_per_partition_key").int64Ptr(),
			AverageWritesPerSecond:     t.at("average_writes_per_second").floatPtr(),
			AverageReadsPerSecond:      t.at("average_reads_per_second").floatPtr(),
			ItemCount:                  t.at("item_count").int64Ptr(),
		}
		if b := t.at("transactional_writes").boolPtr(); b != nil {
			in.Traffic.TransactionalWrites = *b
		}
	}
	in.TargetUtilization = f.at("target_utilization").floatPtr()
	for _, l := range f.at("local_secondary_indexes").entries() {
		if !l.object() {
			continue
		}
		lsi := model.LocalSecondaryIndex{Name: l.name(),
			ProjectionType:   l.at("projection_type").defaulted(model.ProjectionAll),
			NonKeyAttributes: l.at("non_key_attributes").strings()}
		if sk := l.at("sort_key"); sk.object() {
			lsi.SortKey = model.IndexKeyAttribute{Name: sk.at("name").str(), Type: sk.at("type").defaulted(model.KeyTypeString)}
		}
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, lsi)
	}
	for _, g := range f.at("global_secondary_indexes").entries() {
		if !g.object() {
			continue
		}
		gsi := model.GlobalSecondaryIndex{Name: g.name(),
			PartitionKey:     indexKey(g.at("partition_key"), true),
			SortKey:          indexKey(g.at("sort_key"), false),
			ProjectionType:   g.at("projection_type").defaulted(model.ProjectionAll),
			NonKeyAttributes: g.at("non_key_attributes").strings(),
			ReadCapacity:     g.at("read_capacity").int64Ptr(),
			WriteCapacity:    g.at("write_capacity").int64Ptr(),
		}
		// An index's throughput settings feed every index's demand rules (DK601–DK603): one not known yet
		// leaves them all silent.
		onDemand, warm, autoscaling := g.at("on_demand_throughput"), g.at("warm_throughput"), g.at("autoscaling")
		if whollyKnown(onDemand.v) && whollyKnown(warm.v) && whollyKnown(autoscaling.v) {
			gsi.OnDemand, gsi.Warm, gsi.Autoscaling = throughput(onDemand, warm, autoscaling)
		} else {
			r.unknown = append(r.unknown, model.Path{"global_secondary_indexes"})
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, gsi)
	}
	in.VectorIndexes = vectorIndexes(f.at("vector_indexes"))
	in.Entities = entities(f.at("entities"))
	in.Observed = r.observations(f.at("observed"), f.at("observed_indexes"))
	in.Pricing = pricing(f.at("pricing"))
	in.Replicas = replicas(f.at("replicas"))
	in.AccessPatterns = accessPatterns(f.at("access_patterns"))
	in.Migration = migration(f.at("migration"))
	return in
}

// table reads the resource's own settings into in.
func (r *reader) table(f field, in *model.Input) {
	in.TableName = f.at("name").str()
	in.BillingMode = f.at("billing_mode").defaulted(DefaultBillingMode)
	in.ReadCapacity = f.at("read_capacity").int64Ptr()
	in.WriteCapacity = f.at("write_capacity").int64Ptr()
	// A throughput setting partly unknown is unknown as a whole (the rules read it as one fact), and its
	// known parts are read all the same.
	var settings [3]field
	for i, name := range []string{"on_demand_throughput", "warm_throughput", "autoscaling"} {
		s := f.at(name)
		if !whollyKnown(s.v) {
			r.unknown = append(r.unknown, s.path)
		}
		// Read by a reader of its own: its unknown parts are the setting's, recorded above; its errors are kept.
		settings[i] = field{r: &reader{}, v: s.v, path: s.path}
	}
	in.OnDemand, in.Warm, in.Autoscaling = throughput(settings[0], settings[1], settings[2])
	for _, s := range settings {
		r.errs = append(r.errs, s.r.errs...)
	}

	// The table's class and point-in-time recovery price it where `pricing` does not say; unknown at plan
	// time, the price is unknown too, not STANDARD without PITR.
	class := f.at("table_class")
	pitr, pitrUnknown := false, false
	switch p := f.at("point_in_time_recovery"); {
	case p.v.IsUnknown():
		pitrUnknown = true
	case p.v.IsNull():
	case p.at("enabled").v.IsUnknown():
		pitrUnknown = true
	default:
		if b := p.at("enabled").boolPtr(); b != nil {
			pitr = *b
		}
	}
	model.WithPricingDefaults(in, "", class.defaultedQuietly(DefaultTableClass), pitr)
	if class.v.IsUnknown() && in.Pricing.TableClass == "" {
		r.unknown = append(r.unknown, model.Path{"table_class"})
	}
	if pitrUnknown && !in.Pricing.PointInTimeRecovery {
		r.unknown = append(r.unknown, model.Path{"point_in_time_recovery"})
	}

	// The resource does not create replicas: the module examples/modules/multi-region-table does.
	if in.Replicas != nil {
		r.fail(model.Path{"replicas"}, "dynamokeys_sharded_table does not create replicas: check the design with dynamokeys_keydesign and create the "+
			"global table with aws_dynamodb_table, as the module examples/modules/multi-region-table does")
		in.Replicas = nil
	}
}

// defaultedQuietly is defaulted without recording an unknown value: the caller decides whether it matters.
func (f field) defaultedQuietly(def string) string {
	if f.v.IsUnknown() {
		return ""
	}
	return f.defaulted(def)
}

func key(f field) *model.Key {
	if !f.object() {
		return nil
	}
	return &model.Key{
		Name:     f.at("name").str(),
		Type:     f.at("type").defaulted(model.KeyTypeString),
		Template: f.at("template").strPtr(),
	}
}

// indexKey reads the attributes of a GSI's partition or sort key; only partition attributes have a cardinality.
func indexKey(f field, withCardinality bool) []model.IndexKeyAttribute {
	var out []model.IndexKeyAttribute
	for _, el := range f.elements() {
		if !el.object() {
			continue
		}
		k := model.IndexKeyAttribute{Name: el.at("name").str(), Type: el.at("type").defaulted(model.KeyTypeString)}
		if withCardinality {
			k.Cardinality = el.at("cardinality").int64Ptr()
		}
		out = append(out, k)
	}
	return out
}

// sharding reads a sharding block (the design's, or a migration's old one); nil when not set.
func sharding(f field) *model.Sharding {
	if !f.object() {
		return nil
	}
	return &model.Sharding{
		Strategy:      f.at("strategy").str(),
		Source:        f.at("source").str(),
		Count:         f.at("count").int64Ptr(),
		SchemeVersion: f.at("scheme_version").int64Ptr(),
	}
}

// throughput reads the on-demand caps, warm throughput and autoscaling range of a table or an index.
func throughput(onDemand, warm, autoscaling field) (*model.UnitPair, *model.UnitPair, *model.Autoscaling) {
	pair := func(f field, read, write string) *model.UnitPair {
		if !f.object() {
			return nil
		}
		return &model.UnitPair{Read: f.at(read).int64Ptr(), Write: f.at(write).int64Ptr()}
	}
	caps := pair(onDemand, "max_read_request_units", "max_write_request_units")
	warmth := pair(warm, "read_units_per_second", "write_units_per_second")
	if !autoscaling.object() {
		return caps, warmth, nil
	}
	rangeOf := func(f field) *model.CapacityRange {
		if !f.object() {
			return nil
		}
		lo, hi := f.at("min").int64Ptr(), f.at("max").int64Ptr()
		if lo == nil || hi == nil {
			return nil
		}
		return &model.CapacityRange{Min: *lo, Max: *hi}
	}
	return caps, warmth, &model.Autoscaling{Read: rangeOf(autoscaling.at("read")), Write: rangeOf(autoscaling.at("write"))}
}

// entities reads the item types of a single-table design, sorted by name. An unknown key template keeps
// its attribute, with no template, so that the entity still writes the index.
func entities(f field) []model.Entity {
	if !f.known() {
		return nil
	}
	all := f.entries()
	out := make([]model.Entity, 0, len(all))
	for _, ef := range all {
		if !ef.object() {
			continue
		}
		e := model.Entity{Name: ef.name(), Keys: map[string]string{}}
		for _, k := range ef.at("keys").entries() {
			switch s := k.strPtr(); {
			case s != nil:
				e.Keys[k.name()] = *s
			case k.v.IsUnknown():
				e.Keys[k.name()] = ""
			}
		}
		if t := ef.at("traffic"); t.object() {
			e.Traffic = model.EntityTraffic{
				WritesPerSecond:         t.at("writes_per_second").floatPtr(),
				AverageWritesPerSecond:  t.at("average_writes_per_second").floatPtr(),
				ReadsPerSecond:          t.at("reads_per_second").floatPtr(),
				ItemSizeBytes:           t.at("item_size_bytes").int64Ptr(),
				ItemCount:               t.at("item_count").int64Ptr(),
				MaxItemsPerPartitionKey: t.at("max_items_per_partition_key").int64Ptr(),
				TransactionalWrites:     t.at("transactional_writes").boolPtr(),
			}
		}
		e.VectorAttributes = ef.at("vector_attributes").strings()
		out = append(out, e)
	}
	return out
}

// accessPatterns reads the application's queries, sorted by name.
func accessPatterns(f field) []model.AccessPattern {
	var out []model.AccessPattern
	for _, m := range f.entries() {
		if !m.object() {
			continue
		}
		ap := model.AccessPattern{Name: m.name(),
			Index:          m.at("index").strPtr(),
			Equals:         m.at("equals").strings(),
			ReadsPerSecond: m.at("reads_per_second").floatPtr(),
			Items:          m.at("items").int64Ptr(),
			ItemSizeBytes:  m.at("item_size_bytes").int64Ptr(),
			Consistency:    m.at("consistency").str(),
			Attributes:     m.at("attributes").strings(),
			HotKeyShare:    m.at("hot_key_share").floatPtr(),
			Entities:       m.at("entities").strings(),
		}
		if s := m.at("sort"); s.object() {
			ap.Sort = &model.SortCondition{On: s.at("on").str(), Condition: s.at("condition").str()}
		}
		if v := m.at("vector_search"); v.object() {
			ap.VectorSearch = &model.VectorSearch{Index: v.at("index").str(), TopK: v.at("top_k").int64Ptr()}
		}
		out = append(out, ap)
	}
	return out
}

// pricing reads where and how the design is priced; nil when not set.
func pricing(f field) *model.PricingInput {
	if !f.object() {
		return nil
	}
	out := &model.PricingInput{Region: f.at("region").str(), TableClass: f.at("table_class").str()}
	if out.Region != "" {
		out.RegionSource = "pricing"
	}
	if b := f.at("point_in_time_recovery").boolPtr(); b != nil {
		out.PointInTimeRecovery = *b
	}
	out.Prices = prices(f.at("prices"))
	if v := f.at("vector_prices"); v.object() {
		out.VectorPrices = model.VectorPriceOverrides{
			WriteGB:        v.at("write_gb").floatPtr(),
			SearchGB:       v.at("search_gb").floatPtr(),
			StorageGBMonth: v.at("storage_gb_month").floatPtr(),
		}
	}
	return out
}

// vectorIndexes reads the table's vector indexes, sorted by name; the projection defaults to ALL and the
// attribute types to S, as the schema's do.
func vectorIndexes(f field) []model.VectorIndex {
	var out []model.VectorIndex
	for _, v := range f.entries() {
		if !v.object() {
			continue
		}
		vi := model.VectorIndex{Name: v.name(),
			VectorAttribute:  v.at("vector_attribute").str(),
			Dimensions:       v.at("dimensions").int64Ptr(),
			DistanceFunction: v.at("distance_function").str(),
			ProjectionType:   v.at("projection_type").defaulted(model.ProjectionAll),
			NonKeyAttributes: v.at("non_key_attributes").strings(),
		}
		if pk := v.at("partition_key"); pk.object() {
			vi.PartitionKey = &model.IndexKeyAttribute{Name: pk.at("name").str(), Type: pk.at("type").defaulted(model.KeyTypeString)}
		}
		for _, el := range v.at("inline_filters").elements() {
			if el.object() {
				vi.InlineFilters = append(vi.InlineFilters, model.IndexKeyAttribute{Name: el.at("name").str(), Type: el.at("type").defaulted(model.KeyTypeString)})
			}
		}
		out = append(out, vi)
	}
	return out
}

// prices reads explicit prices; none when not set.
func prices(f field) model.PriceOverrides {
	if !f.object() {
		return model.PriceOverrides{}
	}
	return model.PriceOverrides{
		WriteRequestUnitsPerMillion: f.at("write_request_units_per_million").floatPtr(),
		ReadRequestUnitsPerMillion:  f.at("read_request_units_per_million").floatPtr(),
		WriteCapacityUnitHour:       f.at("write_capacity_unit_hour").floatPtr(),
		ReadCapacityUnitHour:        f.at("read_capacity_unit_hour").floatPtr(),
		StorageGBMonth:              f.at("storage_gb_month").floatPtr(),
		PITRGBMonth:                 f.at("pitr_gb_month").floatPtr(),
	}
}

// replicas reads the Regions of a global table; nil when not set.
func replicas(f field) *model.Replicas {
	if !f.object() {
		return nil
	}
	out := &model.Replicas{
		Consistency:         f.at("consistency").str(),
		Witness:             f.at("witness").strPtr(),
		TTLDeletesPerSecond: f.at("ttl_deletes_per_second").floatPtr(),
		Regions:             map[string]model.ReplicaRegion{},
	}
	for _, region := range f.at("regions").entries() {
		if !region.object() {
			continue
		}
		out.Regions[region.name()] = model.ReplicaRegion{
			WriteShare:      region.at("write_share").floatPtr(),
			WritesPerSecond: region.at("writes_per_second").floatPtr(),
			Prices:          prices(region.at("prices")),
		}
	}
	return out
}

// migration reads a key-scheme migration; nil when not set.
func migration(f field) *model.MigrationInput {
	if !f.object() {
		return nil
	}
	m := &model.MigrationInput{
		Phase:                       f.at("phase").str(),
		BackfillWriteUnitsPerSecond: f.at("backfill_write_units_per_second").floatPtr(),
	}
	from := f.at("from")
	if !from.object() {
		return m
	}
	m.From.PartitionKeyTemplate = from.at("partition_key_template").strPtr()
	m.From.SortKeyTemplate = from.at("sort_key_template").strPtr()
	if es := from.at("entities"); es.known() {
		m.From.Entities = map[string]map[string]string{}
		for _, e := range es.entries() {
			keys := e.at("keys")
			if !e.object() || !keys.known() {
				continue
			}
			m.From.Entities[e.name()] = map[string]string{}
			for _, k := range keys.entries() {
				if s := k.strPtr(); s != nil {
					m.From.Entities[e.name()][k.name()] = *s
				}
			}
		}
	}
	m.From.Sharding = sharding(from.at("sharding"))
	return m
}
