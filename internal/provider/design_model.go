package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// designInputModel holds the design shapes shared by the data source and the resource. Nested values stay framework values so that
// unknowns at plan time can be told apart from nulls.
type designInputModel struct {
	PartitionKey           types.Object `tfsdk:"partition_key"`
	SortKey                types.Object `tfsdk:"sort_key"`
	Segments               types.Map    `tfsdk:"segments"`
	Sharding               types.Object `tfsdk:"sharding"`
	Traffic                types.Object `tfsdk:"traffic"`
	TargetUtilization      types.Number `tfsdk:"target_utilization"`
	LocalSecondaryIndexes  types.Map    `tfsdk:"local_secondary_indexes"`
	GlobalSecondaryIndexes types.Map    `tfsdk:"global_secondary_indexes"`
	Enforce                types.Bool   `tfsdk:"enforce"`
	Observed               types.Object `tfsdk:"observed"`
	ObservedIndexes        types.Map    `tfsdk:"observed_indexes"`
	Pricing                types.Object `tfsdk:"pricing"`
	AccessPatterns         types.Map    `tfsdk:"access_patterns"`
	Entities               types.Map    `tfsdk:"entities"`
	Migration              types.Object `tfsdk:"migration"`
	Replicas               types.Object `tfsdk:"replicas"`
}

type keyModel struct {
	Name     types.String `tfsdk:"name"`
	Type     types.String `tfsdk:"type"`
	Template types.String `tfsdk:"template"`
}

type segmentModel struct {
	Kind        types.String `tfsdk:"kind"`
	Granularity types.String `tfsdk:"granularity"`
	Values      types.List   `tfsdk:"values"`
	MaxLength   types.Number `tfsdk:"max_length"`
	Cardinality types.Number `tfsdk:"cardinality"`
	Monotonic   types.Bool   `tfsdk:"monotonic"`
	Characters  types.String `tfsdk:"characters"`
}

type shardingModel struct {
	Strategy      types.String `tfsdk:"strategy"`
	Source        types.String `tfsdk:"source"`
	Count         types.Number `tfsdk:"count"`
	SchemeVersion types.Number `tfsdk:"scheme_version"`
}

type trafficModel struct {
	WritesPerSecond            types.Number `tfsdk:"writes_per_second"`
	ReadsPerSecond             types.Number `tfsdk:"reads_per_second"`
	ItemSizeBytes              types.Number `tfsdk:"item_size_bytes"`
	ReadConsistency            types.String `tfsdk:"read_consistency"`
	TransactionalWrites        types.Bool   `tfsdk:"transactional_writes"`
	HotKeyShare                types.Number `tfsdk:"hot_key_share"`
	HottestItemWritesPerSecond types.Number `tfsdk:"hottest_item_writes_per_second"`
	HottestItemReadsPerSecond  types.Number `tfsdk:"hottest_item_reads_per_second"`
	MaxItemsPerPartitionKey    types.Number `tfsdk:"max_items_per_partition_key"`
	AverageWritesPerSecond     types.Number `tfsdk:"average_writes_per_second"`
	AverageReadsPerSecond      types.Number `tfsdk:"average_reads_per_second"`
	ItemCount                  types.Number `tfsdk:"item_count"`
}

type indexKeyModel struct {
	Name types.String `tfsdk:"name"`
	Type types.String `tfsdk:"type"`
}

type gsiKeyModel struct {
	Name        types.String `tfsdk:"name"`
	Type        types.String `tfsdk:"type"`
	Cardinality types.Number `tfsdk:"cardinality"`
}

type lsiModel struct {
	SortKey          types.Object `tfsdk:"sort_key"`
	ProjectionType   types.String `tfsdk:"projection_type"`
	NonKeyAttributes types.List   `tfsdk:"non_key_attributes"`
}

type gsiModel struct {
	PartitionKey     types.List   `tfsdk:"partition_key"`
	SortKey          types.List   `tfsdk:"sort_key"`
	ProjectionType   types.String `tfsdk:"projection_type"`
	NonKeyAttributes types.List   `tfsdk:"non_key_attributes"`
	ReadCapacity     types.Number `tfsdk:"read_capacity"`
	WriteCapacity    types.Number `tfsdk:"write_capacity"`

	OnDemandThroughput  types.Object `tfsdk:"on_demand_throughput"`
	WarmThroughput      types.Object `tfsdk:"warm_throughput"`
	ContributorInsights types.Object `tfsdk:"contributor_insights"`
	Autoscaling         types.Object `tfsdk:"autoscaling"`
}

// expander converts models to the domain, recording which paths are unknown.
type expander struct {
	ctx     context.Context
	unknown []model.Path
	diags   diag.Diagnostics
}

// known reports whether v has a value; an unknown v is recorded under p.
func (e *expander) known(v attr.Value, p model.Path) bool {
	if v.IsUnknown() {
		e.unknown = append(e.unknown, append(model.Path(nil), p...))
		return false
	}
	return !v.IsNull()
}

// element reads one element of a map of objects into target. The schema makes every element an object; any
// other value is a provider bug, reported as a diagnostic on the element rather than a panic.
func element[T any](e *expander, v attr.Value, p model.Path, target *T) bool {
	obj, ok := v.(types.Object)
	if !ok {
		e.diags.AddAttributeError(attributePath(p), "Internal error",
			fmt.Sprintf("%s holds a %T where an object was expected. This is a bug in the provider; please report it.", p, v))
		return false
	}
	return e.known(obj, p) && objectAs(e.ctx, obj, target, &e.diags)
}

func (e *expander) str(v types.String, p model.Path) string {
	if e.known(v, p) {
		return v.ValueString()
	}
	return ""
}

func (e *expander) strPtr(v types.String, p model.Path) *string {
	if e.known(v, p) {
		s := v.ValueString()
		return &s
	}
	return nil
}

func (e *expander) int64Ptr(v types.Number, p model.Path) *int64 {
	if !e.known(v, p) {
		return nil
	}
	n, err := wholeNumber(v)
	if err != nil {
		e.diags.AddAttributeError(attributePath(p), "Invalid number", p.String()+": "+err.Error())
		return nil
	}
	return &n
}

func (e *expander) floatPtr(v types.Number, p model.Path) *float64 {
	if !e.known(v, p) {
		return nil
	}
	f, err := finiteNumber(v)
	if err != nil {
		e.diags.AddAttributeError(attributePath(p), "Invalid number", p.String()+": "+err.Error())
		return nil
	}
	return &f
}

func (e *expander) boolPtr(v types.Bool, p model.Path) *bool {
	if e.known(v, p) {
		b := v.ValueBool()
		return &b
	}
	return nil
}

func (e *expander) strings(v types.List, p model.Path) []string {
	if !e.known(v, p) {
		return nil
	}
	var out []string
	for i, el := range v.Elements() {
		s, ok := el.(types.String)
		if ok && e.known(s, append(p, strconv.Itoa(i))) {
			out = append(out, s.ValueString())
		}
	}
	return out
}

// sharding reads a sharding block at p (the design's, or a migration's old one); nil when not set.
func (e *expander) sharding(v types.Object, p model.Path) *model.Sharding {
	var sh shardingModel
	if !e.known(v, p) || !objectAs(e.ctx, v, &sh, &e.diags) {
		return nil
	}
	at := func(attr string) model.Path { return append(append(model.Path(nil), p...), attr) }
	return &model.Sharding{
		Strategy:      e.str(sh.Strategy, at("strategy")),
		Source:        e.str(sh.Source, at("source")),
		Count:         e.int64Ptr(sh.Count, at("count")),
		SchemeVersion: e.int64Ptr(sh.SchemeVersion, at("scheme_version")),
	}
}

func (e *expander) key(v types.Object, name string) *model.Key {
	var m keyModel
	if !e.known(v, model.Path{name}) || !objectAs(e.ctx, v, &m, &e.diags) {
		return nil
	}
	return &model.Key{
		Name:     e.str(m.Name, model.Path{name, "name"}),
		Type:     e.str(m.Type, model.Path{name, "type"}),
		Template: e.strPtr(m.Template, model.Path{name, "template"}),
	}
}

// expandDesign builds the domain input from the design attributes. Unknown values become nil and are
// listed in Input.Unknown, so the policies stay silent on them instead of failing the plan.
func expandDesign(ctx context.Context, m designInputModel) (*model.Input, diag.Diagnostics) {
	e := &expander{ctx: ctx}
	in := &model.Input{Segments: map[string]model.Segment{}}
	if pk := e.key(m.PartitionKey, "partition_key"); pk != nil {
		in.PartitionKey = *pk
	}
	in.SortKey = e.key(m.SortKey, "sort_key")

	if e.known(m.Segments, model.Path{"segments"}) {
		for name, v := range m.Segments.Elements() {
			p := model.Path{"segments", name}
			var sm segmentModel
			if !element(e, v, p, &sm) {
				continue
			}
			seg := model.Segment{
				Kind:        model.SegmentKind(e.str(sm.Kind, append(p, "kind"))),
				Granularity: e.str(sm.Granularity, append(p, "granularity")),
				Values:      e.strings(sm.Values, append(p, "values")),
				MaxLength:   e.int64Ptr(sm.MaxLength, append(p, "max_length")),
				Cardinality: e.int64Ptr(sm.Cardinality, append(p, "cardinality")),
				Monotonic:   e.boolPtr(sm.Monotonic, append(p, "monotonic")),
				Characters:  e.strPtr(sm.Characters, append(p, "characters")),
			}
			in.Segments[name] = seg
		}
	}

	if sh := e.sharding(m.Sharding, model.Path{"sharding"}); sh != nil {
		in.Sharding = *sh
	}

	var tm trafficModel
	if e.known(m.Traffic, model.Path{"traffic"}) && objectAs(ctx, m.Traffic, &tm, &e.diags) {
		tp := func(attr string) model.Path { return model.Path{"traffic", attr} }
		in.Traffic = model.Traffic{
			WritesPerSecond:            e.floatPtr(tm.WritesPerSecond, tp("writes_per_second")),
			ReadsPerSecond:             e.floatPtr(tm.ReadsPerSecond, tp("reads_per_second")),
			ItemSizeBytes:              e.int64Ptr(tm.ItemSizeBytes, tp("item_size_bytes")),
			ReadConsistency:            e.str(tm.ReadConsistency, tp("read_consistency")),
			HotKeyShare:                e.floatPtr(tm.HotKeyShare, tp("hot_key_share")),
			HottestItemWritesPerSecond: e.floatPtr(tm.HottestItemWritesPerSecond, tp("hottest_item_writes_per_second")),
			HottestItemReadsPerSecond:  e.floatPtr(tm.HottestItemReadsPerSecond, tp("hottest_item_reads_per_second")),
			MaxItemsPerPartitionKey:    e.int64Ptr(tm.MaxItemsPerPartitionKey, tp("max_items_per_partition_key")),
			AverageWritesPerSecond:     e.floatPtr(tm.AverageWritesPerSecond, tp("average_writes_per_second")),
			AverageReadsPerSecond:      e.floatPtr(tm.AverageReadsPerSecond, tp("average_reads_per_second")),
			ItemCount:                  e.int64Ptr(tm.ItemCount, tp("item_count")),
		}
		if b := e.boolPtr(tm.TransactionalWrites, tp("transactional_writes")); b != nil {
			in.Traffic.TransactionalWrites = *b
		}
	}
	in.TargetUtilization = e.floatPtr(m.TargetUtilization, model.Path{"target_utilization"})

	if e.known(m.LocalSecondaryIndexes, model.Path{"local_secondary_indexes"}) {
		for name, v := range m.LocalSecondaryIndexes.Elements() {
			p := model.Path{"local_secondary_indexes", name}
			var lm lsiModel
			if !element(e, v, p, &lm) {
				continue
			}
			lsi := model.LocalSecondaryIndex{Name: name,
				ProjectionType:   e.str(lm.ProjectionType, append(p, "projection_type")),
				NonKeyAttributes: e.strings(lm.NonKeyAttributes, append(p, "non_key_attributes"))}
			var km indexKeyModel
			if e.known(lm.SortKey, append(p, "sort_key")) && objectAs(ctx, lm.SortKey, &km, &e.diags) {
				lsi.SortKey = model.IndexKeyAttribute{Name: e.str(km.Name, append(p, "sort_key", "name")), Type: e.str(km.Type, append(p, "sort_key", "type"))}
			}
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, lsi)
		}
	}
	if e.known(m.GlobalSecondaryIndexes, model.Path{"global_secondary_indexes"}) {
		for name, v := range m.GlobalSecondaryIndexes.Elements() {
			p := model.Path{"global_secondary_indexes", name}
			var gm gsiModel
			if !element(e, v, p, &gm) {
				continue
			}
			g := model.GlobalSecondaryIndex{Name: name,
				PartitionKey:     e.gsiKeys(gm.PartitionKey, append(p, "partition_key")),
				SortKey:          e.gsiKeys(gm.SortKey, append(p, "sort_key")),
				ProjectionType:   e.str(gm.ProjectionType, append(p, "projection_type")),
				NonKeyAttributes: e.strings(gm.NonKeyAttributes, append(p, "non_key_attributes")),
				ReadCapacity:     e.int64Ptr(gm.ReadCapacity, append(p, "read_capacity")),
				WriteCapacity:    e.int64Ptr(gm.WriteCapacity, append(p, "write_capacity")),
			}
			e.indexThroughput(&g, gm)
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
		}
	}
	in.Entities = e.expandEntities(ctx, m.Entities)
	in.Observed = e.expandObserved(m.Observed, m.ObservedIndexes)
	in.Pricing = e.expandPricing(m.Pricing)
	in.Replicas = e.expandReplicas(m.Replicas)
	in.AccessPatterns = e.expandAccessPatterns(m.AccessPatterns)
	in.Migration = e.expandMigration(m.Migration)
	in.Unknown = e.unknown
	return in, e.diags
}

func (e *expander) gsiKeys(v types.List, p model.Path) []model.IndexKeyAttribute {
	if !e.known(v, p) {
		return nil
	}
	var out []model.IndexKeyAttribute
	for i, el := range v.Elements() {
		ip := append(append(model.Path(nil), p...), strconv.Itoa(i))
		obj, ok := el.(types.Object)
		if !ok || !e.known(obj, ip) {
			continue
		}
		// Partition attributes carry a cardinality, sort attributes do not: read by attribute name.
		attrs := obj.Attributes()
		k := model.IndexKeyAttribute{}
		if name, ok := attrs["name"].(types.String); ok {
			k.Name = e.str(name, append(ip, "name"))
		}
		if typ, ok := attrs["type"].(types.String); ok {
			k.Type = e.str(typ, append(ip, "type"))
		}
		if card, ok := attrs["cardinality"].(types.Number); ok {
			k.Cardinality = e.int64Ptr(card, append(ip, "cardinality"))
		}
		out = append(out, k)
	}
	return out
}
