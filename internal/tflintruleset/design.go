package tflintruleset

import (
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// designAttributes are the attributes of dynamokeys_keydesign and dynamokeys_sharded_table the design reads
// (the provider's design_schema.go); tableAttributes are the resource's table settings the rules read too.
var (
	designAttributes = []string{
		"partition_key", "sort_key", "segments", "sharding", "traffic", "target_utilization",
		"local_secondary_indexes", "global_secondary_indexes", "enforce", "observed", "observed_indexes",
		"access_patterns", "pricing", "entities", "migration", "replicas",
	}
	tableAttributes = []string{"name", "billing_mode", "read_capacity", "write_capacity", "on_demand_throughput", "warm_throughput", "autoscaling",
		"table_class", "point_in_time_recovery"}
)

// designInput builds the domain input of a dynamokeys block from its statically evaluated attributes, the way
// the provider's expandDesign does from a plan: unknown values are nil and listed in Input.Unknown, so the
// rules that need them stay silent. withTable adds the sharded table's name, billing mode and capacities.
// invalid are the values the provider refuses that keydesign.Analyze does not check.
func designInput(values map[string]cty.Value, withTable bool) (*model.Input, []*model.FieldError) {
	r := &reader{}
	get := func(name string) cty.Value {
		if v, ok := values[name]; ok {
			return v
		}
		return cty.NullVal(cty.DynamicPseudoType)
	}
	in := &model.Input{Kind: "keydesign", Segments: map[string]model.Segment{}}
	if pk := r.key(get("partition_key"), "partition_key"); pk != nil {
		in.PartitionKey = *pk
	}
	in.SortKey = r.key(get("sort_key"), "sort_key")

	if segments := get("segments"); r.known(segments, model.Path{"segments"}) {
		names, vals := entries(segments)
		for i, name := range names {
			p := model.Path{"segments", name}
			v := vals[i]
			if !r.known(v, p) {
				continue
			}
			in.Segments[name] = model.Segment{
				Kind:        model.SegmentKind(r.str(attr(v, "kind"), extend(p, "kind"))),
				Granularity: r.str(attr(v, "granularity"), extend(p, "granularity")),
				Values:      r.strings(attr(v, "values"), extend(p, "values")),
				MaxLength:   r.int64Ptr(attr(v, "max_length"), extend(p, "max_length")),
				Cardinality: r.int64Ptr(attr(v, "cardinality"), extend(p, "cardinality")),
				Monotonic:   r.boolPtr(attr(v, "monotonic"), extend(p, "monotonic")),
				Characters:  r.strPtr(attr(v, "characters"), extend(p, "characters")),
			}
		}
	}

	if sh := r.sharding(get("sharding"), model.Path{"sharding"}); sh != nil {
		in.Sharding = *sh
	}

	if t := get("traffic"); r.known(t, model.Path{"traffic"}) {
		p := func(a string) model.Path { return model.Path{"traffic", a} }
		in.Traffic = model.Traffic{
			WritesPerSecond:            r.floatPtr(attr(t, "writes_per_second"), p("writes_per_second")),
			ReadsPerSecond:             r.floatPtr(attr(t, "reads_per_second"), p("reads_per_second")),
			ItemSizeBytes:              r.int64Ptr(attr(t, "item_size_bytes"), p("item_size_bytes")),
			ReadConsistency:            r.str(attr(t, "read_consistency"), p("read_consistency")),
			HotKeyShare:                r.floatPtr(attr(t, "hot_key_share"), p("hot_key_share")),
			HottestItemWritesPerSecond: r.floatPtr(attr(t, "hottest_item_writes_per_second"), p("hottest_item_writes_per_second")),
			HottestItemReadsPerSecond:  r.floatPtr(attr(t, "hottest_item_reads_per_second"), p("hottest_item_reads_per_second")),
			MaxItemsPerPartitionKey:    r.int64Ptr(attr(t, "max_items_per_partition_key"), p("max_items_per_partition_key")),
			AverageWritesPerSecond:     r.floatPtr(attr(t, "average_writes_per_second"), p("average_writes_per_second")),
			AverageReadsPerSecond:      r.floatPtr(attr(t, "average_reads_per_second"), p("average_reads_per_second")),
			ItemCount:                  r.int64Ptr(attr(t, "item_count"), p("item_count")),
		}
		if b := r.boolPtr(attr(t, "transactional_writes"), p("transactional_writes")); b != nil {
			in.Traffic.TransactionalWrites = *b
		}
	}
	in.TargetUtilization = r.floatPtr(get("target_utilization"), model.Path{"target_utilization"})

	if lsis := get("local_secondary_indexes"); r.known(lsis, model.Path{"local_secondary_indexes"}) {
		names, vals := entries(lsis)
		for i, name := range names {
			p := model.Path{"local_secondary_indexes", name}
			v := vals[i]
			if !r.known(v, p) {
				continue
			}
			lsi := model.LocalSecondaryIndex{Name: name,
				ProjectionType:   r.defaulted(attr(v, "projection_type"), extend(p, "projection_type"), model.ProjectionAll),
				NonKeyAttributes: r.strings(attr(v, "non_key_attributes"), extend(p, "non_key_attributes"))}
			if sk := attr(v, "sort_key"); r.known(sk, extend(p, "sort_key")) {
				lsi.SortKey = model.IndexKeyAttribute{
					Name: r.str(attr(sk, "name"), extend(p, "sort_key", "name")),
					Type: r.defaulted(attr(sk, "type"), extend(p, "sort_key", "type"), model.KeyTypeString),
				}
			}
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, lsi)
		}
	}
	if gsis := get("global_secondary_indexes"); r.known(gsis, model.Path{"global_secondary_indexes"}) {
		names, vals := entries(gsis)
		for i, name := range names {
			p := model.Path{"global_secondary_indexes", name}
			v := vals[i]
			if !r.known(v, p) {
				continue
			}
			g := model.GlobalSecondaryIndex{Name: name,
				PartitionKey:     r.gsiKeys(attr(v, "partition_key"), extend(p, "partition_key"), true),
				SortKey:          r.gsiKeys(attr(v, "sort_key"), extend(p, "sort_key"), false),
				ProjectionType:   r.defaulted(attr(v, "projection_type"), extend(p, "projection_type"), model.ProjectionAll),
				NonKeyAttributes: r.strings(attr(v, "non_key_attributes"), extend(p, "non_key_attributes")),
				ReadCapacity:     r.int64Ptr(attr(v, "read_capacity"), extend(p, "read_capacity")),
				WriteCapacity:    r.int64Ptr(attr(v, "write_capacity"), extend(p, "write_capacity")),
			}
			// An index's throughput settings partly unknown are unknown as a whole, as in the provider.
			known := true
			for _, a := range []string{"on_demand_throughput", "warm_throughput", "autoscaling"} {
				known = known && attr(v, a).IsWhollyKnown()
			}
			if known {
				g.OnDemand, g.Warm, g.Autoscaling = r.throughput(attr(v, "on_demand_throughput"), attr(v, "warm_throughput"), attr(v, "autoscaling"))
			} else {
				r.unknown = append(r.unknown, model.Path{"global_secondary_indexes"})
			}
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
		}
	}
	in.AccessPatterns = r.accessPatterns(get("access_patterns"))
	in.Entities = r.entities(get("entities"))
	in.Migration = r.migration(get("migration"))
	in.Pricing = r.pricing(get("pricing"))
	in.Replicas = r.replicas(get("replicas"))
	// Measured traffic usually comes from the dynamokeys_observed_traffic data source, which only a plan
	// reads (unknown here: the measured-traffic rules stay the plan's); an observation written out in the
	// configuration is read as the provider reads it.
	in.Observed = r.observations(get("observed"), get("observed_indexes"))

	if withTable {
		in.Kind = "sharded_table"
		// The provider's defaults: billing_mode PAY_PER_REQUEST.
		in.TableName = r.str(get("name"), model.Path{"name"})
		in.BillingMode = r.defaulted(get("billing_mode"), model.Path{"billing_mode"}, "PAY_PER_REQUEST")
		in.ReadCapacity = r.int64Ptr(get("read_capacity"), model.Path{"read_capacity"})
		in.WriteCapacity = r.int64Ptr(get("write_capacity"), model.Path{"write_capacity"})
		// A setting partly unknown is unknown as a whole: the rules read it as one fact.
		settings := map[string]cty.Value{}
		for _, a := range []string{"on_demand_throughput", "warm_throughput", "autoscaling"} {
			settings[a] = cty.NullVal(cty.DynamicPseudoType)
			if r.whollyKnown(get(a), model.Path{a}) {
				settings[a] = get(a)
			}
		}
		in.OnDemand, in.Warm, in.Autoscaling = r.throughput(settings["on_demand_throughput"], settings["warm_throughput"], settings["autoscaling"])
		// The provider prices the table's own class (default STANDARD) and PITR where `pricing` does not say.
		pitr := false
		if v := get("point_in_time_recovery"); r.known(v, model.Path{"point_in_time_recovery"}) {
			if b := r.boolPtr(attr(v, "enabled"), model.Path{"point_in_time_recovery", "enabled"}); b != nil {
				pitr = *b
			}
		}
		model.WithPricingDefaults(in, "", r.defaulted(get("table_class"), model.Path{"table_class"}, "STANDARD"), pitr)
		// The resource does not create replicas: the provider refuses them (validateNoReplicas).
		if in.Replicas != nil {
			r.invalid = append(r.invalid, &model.FieldError{Path: model.Path{"replicas"},
				Message: "dynamokeys_sharded_table does not create replicas: check the design with dynamokeys_keydesign and create the " +
					"global table with aws_dynamodb_table, as the module examples/modules/multi-region-table does"})
			in.Replicas = nil
		}
	}
	in.Unknown = r.unknown
	return in, r.invalid
}

// defaulted is a string attribute with the provider's default where it is not set.
func (r *reader) defaulted(v cty.Value, p model.Path, def string) string {
	if s := r.strPtr(v, p); s != nil {
		return *s
	}
	if !v.IsKnown() {
		return ""
	}
	return def
}

func (r *reader) key(v cty.Value, name string) *model.Key {
	if !r.known(v, model.Path{name}) {
		return nil
	}
	return &model.Key{
		Name:     r.str(attr(v, "name"), model.Path{name, "name"}),
		Type:     r.defaulted(attr(v, "type"), model.Path{name, "type"}, model.KeyTypeString),
		Template: r.strPtr(attr(v, "template"), model.Path{name, "template"}),
	}
}

func (r *reader) gsiKeys(v cty.Value, p model.Path, withCardinality bool) []model.IndexKeyAttribute {
	if !r.known(v, p) {
		return nil
	}
	var out []model.IndexKeyAttribute
	for i, el := range elements(v) {
		ip := extend(p, strconv.Itoa(i))
		if !r.known(el, ip) {
			continue
		}
		k := model.IndexKeyAttribute{
			Name: r.str(attr(el, "name"), extend(ip, "name")),
			Type: r.defaulted(attr(el, "type"), extend(ip, "type"), model.KeyTypeString),
		}
		if withCardinality {
			k.Cardinality = r.int64Ptr(attr(el, "cardinality"), extend(ip, "cardinality"))
		}
		out = append(out, k)
	}
	return out
}

// throughput reads the on-demand caps, warm throughput and autoscaling range of a table or an index (the
// provider's throughputFactsOf); the values are wholly known here.
func (r *reader) throughput(onDemand, warm, autoscaling cty.Value) (*model.UnitPair, *model.UnitPair, *model.Autoscaling) {
	pair := func(v cty.Value, read, write string) *model.UnitPair {
		if v.IsNull() {
			return nil
		}
		return &model.UnitPair{Read: r.int64Ptr(attr(v, read), nil), Write: r.int64Ptr(attr(v, write), nil)}
	}
	caps := pair(onDemand, "max_read_request_units", "max_write_request_units")
	warmth := pair(warm, "read_units_per_second", "write_units_per_second")
	if autoscaling.IsNull() {
		return caps, warmth, nil
	}
	rangeOf := func(v cty.Value) *model.CapacityRange {
		lo, hi := r.int64Ptr(attr(v, "min"), nil), r.int64Ptr(attr(v, "max"), nil)
		if lo == nil || hi == nil {
			return nil
		}
		return &model.CapacityRange{Min: *lo, Max: *hi}
	}
	return caps, warmth, &model.Autoscaling{Read: rangeOf(attr(autoscaling, "read")), Write: rangeOf(attr(autoscaling, "write"))}
}

// accessPatterns reads access_patterns as the provider's expandAccessPatterns does, sorted by name.
func (r *reader) accessPatterns(v cty.Value) []model.AccessPattern {
	if !r.known(v, model.Path{"access_patterns"}) {
		return nil
	}
	names, vals := entries(v)
	var out []model.AccessPattern
	for i, name := range names {
		p := model.Path{"access_patterns", name}
		m := vals[i]
		if !r.known(m, p) {
			continue
		}
		ap := model.AccessPattern{Name: name,
			Index:          r.strPtr(attr(m, "index"), extend(p, "index")),
			Equals:         r.strings(attr(m, "equals"), extend(p, "equals")),
			ReadsPerSecond: r.floatPtr(attr(m, "reads_per_second"), extend(p, "reads_per_second")),
			Items:          r.int64Ptr(attr(m, "items"), extend(p, "items")),
			ItemSizeBytes:  r.int64Ptr(attr(m, "item_size_bytes"), extend(p, "item_size_bytes")),
			Consistency:    r.str(attr(m, "consistency"), extend(p, "consistency")),
			Attributes:     r.strings(attr(m, "attributes"), extend(p, "attributes")),
			HotKeyShare:    r.floatPtr(attr(m, "hot_key_share"), extend(p, "hot_key_share")),
			Entities:       r.strings(attr(m, "entities"), extend(p, "entities")),
		}
		if sc := attr(m, "sort"); r.known(sc, extend(p, "sort")) && !sc.IsNull() {
			ap.Sort = &model.SortCondition{On: r.str(attr(sc, "on"), extend(p, "sort", "on")), Condition: r.str(attr(sc, "condition"), extend(p, "sort", "condition"))}
		}
		out = append(out, ap)
	}
	return out
}

// pricing reads the design's pricing as the provider's expandPricing does; nil when it is not set.
func (r *reader) pricing(v cty.Value) *model.PricingInput {
	if !r.known(v, model.Path{"pricing"}) || v.IsNull() {
		return nil
	}
	p := func(a string) model.Path { return model.Path{"pricing", a} }
	out := &model.PricingInput{Region: r.str(attr(v, "region"), p("region")), TableClass: r.str(attr(v, "table_class"), p("table_class"))}
	if out.Region != "" {
		out.RegionSource = "pricing"
	}
	if b := r.boolPtr(attr(v, "point_in_time_recovery"), p("point_in_time_recovery")); b != nil {
		out.PointInTimeRecovery = *b
	}
	out.Prices = r.prices(attr(v, "prices"), p("prices"))
	return out
}

// prices reads explicit prices at p, as the provider's expandPrices does.
func (r *reader) prices(pr cty.Value, p model.Path) model.PriceOverrides {
	if !r.known(pr, p) || pr.IsNull() {
		return model.PriceOverrides{}
	}
	pp := func(a string) model.Path { return extend(p, a) }
	return model.PriceOverrides{
		WriteRequestUnitsPerMillion: r.floatPtr(attr(pr, "write_request_units_per_million"), pp("write_request_units_per_million")),
		ReadRequestUnitsPerMillion:  r.floatPtr(attr(pr, "read_request_units_per_million"), pp("read_request_units_per_million")),
		WriteCapacityUnitHour:       r.floatPtr(attr(pr, "write_capacity_unit_hour"), pp("write_capacity_unit_hour")),
		ReadCapacityUnitHour:        r.floatPtr(attr(pr, "read_capacity_unit_hour"), pp("read_capacity_unit_hour")),
		StorageGBMonth:              r.floatPtr(attr(pr, "storage_gb_month"), pp("storage_gb_month")),
		PITRGBMonth:                 r.floatPtr(attr(pr, "pitr_gb_month"), pp("pitr_gb_month")),
	}
}

// replicas reads the design's replicas as the provider's expandReplicas does; nil when it is not set.
func (r *reader) replicas(v cty.Value) *model.Replicas {
	if !r.known(v, model.Path{"replicas"}) || v.IsNull() {
		return nil
	}
	p := func(a ...string) model.Path { return append(model.Path{"replicas"}, a...) }
	out := &model.Replicas{
		Consistency:         r.str(attr(v, "consistency"), p("consistency")),
		Witness:             r.strPtr(attr(v, "witness"), p("witness")),
		TTLDeletesPerSecond: r.floatPtr(attr(v, "ttl_deletes_per_second"), p("ttl_deletes_per_second")),
		Regions:             map[string]model.ReplicaRegion{},
	}
	regions := attr(v, "regions")
	if !r.known(regions, p("regions")) {
		return out
	}
	names, vals := entries(regions)
	for i, name := range names {
		rp := p("regions", name)
		if !r.known(vals[i], rp) || vals[i].IsNull() {
			continue
		}
		out.Regions[name] = model.ReplicaRegion{
			WriteShare:      r.floatPtr(attr(vals[i], "write_share"), extend(rp, "write_share")),
			WritesPerSecond: r.floatPtr(attr(vals[i], "writes_per_second"), extend(rp, "writes_per_second")),
			Prices:          r.prices(attr(vals[i], "prices"), extend(rp, "prices")),
		}
	}
	return out
}

// entities reads the entities of a single-table design, sorted by name, as the provider's expandEntities.
func (r *reader) entities(v cty.Value) []model.Entity {
	if !r.known(v, model.Path{"entities"}) {
		return nil
	}
	names, vals := entries(v)
	out := make([]model.Entity, 0, len(names))
	for i, name := range names {
		p := model.Path{"entities", name}
		if !r.known(vals[i], p) {
			continue
		}
		e := model.Entity{Name: name, Keys: map[string]string{}}
		if keys := attr(vals[i], "keys"); r.known(keys, extend(p, "keys")) {
			attrs, templates := entries(keys)
			for j, a := range attrs {
				kp := extend(p, "keys", a)
				if !templates[j].IsKnown() {
					r.unknown = append(r.unknown, kp)
					e.Keys[a] = ""
					continue
				}
				if s := r.strPtr(templates[j], kp); s != nil {
					e.Keys[a] = *s
				}
			}
		}
		if t := attr(vals[i], "traffic"); r.known(t, extend(p, "traffic")) {
			tp := func(a string) model.Path { return extend(p, "traffic", a) }
			e.Traffic = model.EntityTraffic{
				WritesPerSecond:         r.floatPtr(attr(t, "writes_per_second"), tp("writes_per_second")),
				AverageWritesPerSecond:  r.floatPtr(attr(t, "average_writes_per_second"), tp("average_writes_per_second")),
				ReadsPerSecond:          r.floatPtr(attr(t, "reads_per_second"), tp("reads_per_second")),
				ItemSizeBytes:           r.int64Ptr(attr(t, "item_size_bytes"), tp("item_size_bytes")),
				ItemCount:               r.int64Ptr(attr(t, "item_count"), tp("item_count")),
				MaxItemsPerPartitionKey: r.int64Ptr(attr(t, "max_items_per_partition_key"), tp("max_items_per_partition_key")),
				TransactionalWrites:     r.boolPtr(attr(t, "transactional_writes"), tp("transactional_writes")),
			}
		}
		out = append(out, e)
	}
	return out
}

// migration reads a key-scheme migration, as the provider's expandMigration.
func (r *reader) migration(v cty.Value) *model.MigrationInput {
	p := model.Path{"migration"}
	if !r.known(v, p) {
		return nil
	}
	m := &model.MigrationInput{
		Phase:                       r.str(attr(v, "phase"), extend(p, "phase")),
		BackfillWriteUnitsPerSecond: r.floatPtr(attr(v, "backfill_write_units_per_second"), extend(p, "backfill_write_units_per_second")),
	}
	fp := extend(p, "from")
	from := attr(v, "from")
	if !r.known(from, fp) {
		return m
	}
	m.From.PartitionKeyTemplate = r.strPtr(attr(from, "partition_key_template"), extend(fp, "partition_key_template"))
	m.From.SortKeyTemplate = r.strPtr(attr(from, "sort_key_template"), extend(fp, "sort_key_template"))
	if es := attr(from, "entities"); r.known(es, extend(fp, "entities")) {
		m.From.Entities = map[string]map[string]string{}
		names, vals := entries(es)
		for i, name := range names {
			ep := extend(fp, "entities", name)
			keys := attr(vals[i], "keys")
			if !r.known(vals[i], ep) || !r.known(keys, extend(ep, "keys")) {
				continue
			}
			m.From.Entities[name] = map[string]string{}
			attrs, templates := entries(keys)
			for j, a := range attrs {
				if s := r.strPtr(templates[j], extend(ep, "keys", a)); s != nil {
					m.From.Entities[name][a] = *s
				}
			}
		}
	}
	m.From.Sharding = r.sharding(attr(from, "sharding"), extend(fp, "sharding"))
	return m
}

// sharding reads a sharding block at p (the design's, or a migration's old one); nil when not set.
func (r *reader) sharding(v cty.Value, p model.Path) *model.Sharding {
	if !r.known(v, p) {
		return nil
	}
	return &model.Sharding{
		Strategy:      r.str(attr(v, "strategy"), extend(p, "strategy")),
		Source:        r.str(attr(v, "source"), extend(p, "source")),
		Count:         r.int64Ptr(attr(v, "count"), extend(p, "count")),
		SchemeVersion: r.int64Ptr(attr(v, "scheme_version"), extend(p, "scheme_version")),
	}
}
