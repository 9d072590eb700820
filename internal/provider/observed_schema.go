package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// The measured traffic object: the output `observed` of dynamokeys_observed_traffic, and the input
// `observed` (and `observed_indexes`) of the keydesign data source and the resource, which take it as the
// data source returns it. It is written once here as optional attributes; the data source's output is the
// same shape computed (observedOutputAttribute).

func observedAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"table_name": optionalString("Table the figures are of."),
		"index_name": optionalString("Global secondary index the figures are of; null for the table."),
		"traffic": rschema.SingleNestedAttribute{Optional: true,
			Description: "Peak traffic with the field names of the traffic input. The rates are consumed capacity units per second at the busiest minute " +
				"(the largest one-minute Sum / 60): for items up to 1 KB written and 4 KB read strongly consistent, requests per second.",
			Attributes: map[string]rschema.Attribute{
				"writes_per_second":         optionalFloat("Peak consumed write capacity units per second (ConsumedWriteCapacityUnits)."),
				"reads_per_second":          optionalFloat("Peak consumed read capacity units per second (ConsumedReadCapacityUnits)."),
				"average_writes_per_second": optionalFloat("Consumed write capacity units of the window over its length: the rate `cost` scales to a month."),
				"average_reads_per_second":  optionalFloat("Consumed read capacity units of the window over its length: the rate `cost` scales to a month."),
				"hot_key_share":             optionalFloat("The busiest partition-key value's share of requests at the busiest time of the Contributor Insights report; null without Contributor Insights."),
			}},
		"top_keys": rschema.ListNestedAttribute{Optional: true,
			Description: "The busiest partition-key values, busiest first, then keys that were only throttled; null without Contributor Insights.",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"key":             optionalString("The partition-key value."),
				"share":           optionalFloat("Its share of all requests in the window; null for a key seen only as throttled."),
				"throttle_events": optionalFloat("Its throttled requests in the window."),
			}}},
		"throttle_events": rschema.SingleNestedAttribute{Optional: true, Description: "Throttle events in the window (ReadThrottleEvents, WriteThrottleEvents); null when not exported.",
			Attributes: map[string]rschema.Attribute{
				"read":  optionalFloat("Read throttle events."),
				"write": optionalFloat("Write throttle events."),
			}},
		"window": rschema.SingleNestedAttribute{Optional: true, Description: "The time the figures cover.",
			Attributes: map[string]rschema.Attribute{
				"start":      optionalString("First minute, RFC 3339."),
				"end":        optionalString("End of the last minute, RFC 3339."),
				"datapoints": optionalInt("One-minute datapoints in the window."),
			}},
		"complete": optionalBool("False when CloudWatch reported partial data or minutes of the window have no datapoint."),
	}
}

var observedType = objectType(observedAttributes())

// observedInputAttributes are the `observed` and `observed_indexes` inputs of the keydesign data source and
// the resource: design metadata, like traffic, that never touches the table.
func observedInputAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"observed": rschema.SingleNestedAttribute{Optional: true, Attributes: observedAttributes(),
			Description: "Measured traffic of the table, as dynamokeys_observed_traffic returns it (its observed attribute): rules DK701–DK704 " +
				"compare it with the design. An observation whose index_name is set is of that index."},
		"observed_indexes": rschema.MapNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: observedAttributes()},
			Description: "Measured traffic of global secondary indexes, keyed by index name, each as dynamokeys_observed_traffic returns it: " +
				"rules DK701–DK704 and DK601–DK603 check each index with its own figures."},
	}
}

// observedOutputAttribute is the data source's computed `observed`.
func observedOutputAttribute() dschema.Attribute {
	return computedDataSourceAttribute(rschema.SingleNestedAttribute{Attributes: observedAttributes(),
		Description: "The measured traffic, to give as observed (or an element of observed_indexes) to dynamokeys_keydesign or dynamokeys_sharded_table."})
}

// computedDataSourceAttribute is the computed data source form of an optional resource attribute.
func computedDataSourceAttribute(a rschema.Attribute) dschema.Attribute {
	switch a := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{Computed: true, Description: a.Description}
	case rschema.NumberAttribute:
		return dschema.NumberAttribute{Computed: true, Description: a.Description}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{Computed: true, Description: a.Description}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Computed: true, Description: a.Description, Attributes: computedDataSourceAttributes(a.Attributes)}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{Computed: true, Description: a.Description,
			NestedObject: dschema.NestedAttributeObject{Attributes: computedDataSourceAttributes(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("computedDataSourceAttribute: no computed form for %T", a))
}

func computedDataSourceAttributes(attrs map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = computedDataSourceAttribute(a)
	}
	return out
}

// observedModel reads one observation; every nested value has been checked to be known.
type observedModel struct {
	TableName      types.String          `tfsdk:"table_name"`
	IndexName      types.String          `tfsdk:"index_name"`
	Traffic        *observedTrafficModel `tfsdk:"traffic"`
	TopKeys        []observedKeyModel    `tfsdk:"top_keys"`
	ThrottleEvents *throttleEventsModel  `tfsdk:"throttle_events"`
	Window         *observedWindowModel  `tfsdk:"window"`
	Complete       types.Bool            `tfsdk:"complete"`
}

type observedTrafficModel struct {
	WritesPerSecond types.Number `tfsdk:"writes_per_second"`
	ReadsPerSecond  types.Number `tfsdk:"reads_per_second"`
	HotKeyShare     types.Number `tfsdk:"hot_key_share"`
	AverageWrites   types.Number `tfsdk:"average_writes_per_second"`
	AverageReads    types.Number `tfsdk:"average_reads_per_second"`
}

type observedKeyModel struct {
	Key            types.String `tfsdk:"key"`
	Share          types.Number `tfsdk:"share"`
	ThrottleEvents types.Number `tfsdk:"throttle_events"`
}

type throttleEventsModel struct {
	Read  types.Number `tfsdk:"read"`
	Write types.Number `tfsdk:"write"`
}

type observedWindowModel struct {
	Start      types.String `tfsdk:"start"`
	End        types.String `tfsdk:"end"`
	Datapoints types.Number `tfsdk:"datapoints"`
}

// expandObserved reads `observed` and `observed_indexes`. An observation that is not fully known yet (a
// data source read at apply) marks `observed` unknown, so the measured rules stay silent until it is.
func (e *expander) expandObserved(observed types.Object, indexes types.Map) []keydesign.ObservedInput {
	var out []keydesign.ObservedInput
	if !observed.IsNull() {
		if o := e.observation(observed, keydesign.Path{"observed"}); o != nil {
			out = append(out, *o)
		}
	}
	if indexes.IsUnknown() {
		e.unknown = append(e.unknown, keydesign.Path{"observed"})
		return out
	}
	for _, name := range slices.Sorted(maps.Keys(indexes.Elements())) {
		p := keydesign.Path{"observed_indexes", name}
		obj, ok := indexes.Elements()[name].(types.Object)
		if !ok {
			continue
		}
		o := e.observation(obj, p)
		if o == nil {
			continue
		}
		switch o.IndexName {
		case "":
			o.IndexName = name
		case name:
		default:
			addPathDiagnostic(&e.diags, true, append(p, "index_name"), "Invalid measured traffic",
				fmt.Sprintf("%s: is the observation of index %q, but it is given for index %q: give each index its own dynamokeys_observed_traffic", p, o.IndexName, name))
			continue
		}
		out = append(out, *o)
	}
	return out
}

func (e *expander) observation(v types.Object, p keydesign.Path) *keydesign.ObservedInput {
	if holdsUnknownDeep(v) {
		e.unknown = append(e.unknown, keydesign.Path{"observed"})
		return nil
	}
	var m observedModel
	if d := v.As(e.ctx, &m, basetypes.ObjectAsOptions{}); d.HasError() {
		e.diags.Append(d...)
		return nil
	}
	o := &keydesign.ObservedInput{Path: p}
	o.TableName, o.IndexName = m.TableName.ValueString(), m.IndexName.ValueString()
	o.Complete = m.Complete.ValueBool()
	if t := m.Traffic; t != nil {
		o.Traffic = keydesign.ObservedTraffic{
			WritesPerSecond:        e.floatPtr(t.WritesPerSecond, append(slices.Clone(p), "traffic", "writes_per_second")),
			ReadsPerSecond:         e.floatPtr(t.ReadsPerSecond, append(slices.Clone(p), "traffic", "reads_per_second")),
			HotKeyShare:            e.floatPtr(t.HotKeyShare, append(slices.Clone(p), "traffic", "hot_key_share")),
			AverageWritesPerSecond: e.floatPtr(t.AverageWrites, append(slices.Clone(p), "traffic", "average_writes_per_second")),
			AverageReadsPerSecond:  e.floatPtr(t.AverageReads, append(slices.Clone(p), "traffic", "average_reads_per_second")),
		}
	}
	if m.TopKeys != nil {
		o.TopKeys = make([]keydesign.ObservedKey, 0, len(m.TopKeys))
	}
	for i, k := range m.TopKeys {
		kp := append(slices.Clone(p), "top_keys", strconv.Itoa(i))
		key := keydesign.ObservedKey{Key: k.Key.ValueString(), Share: e.floatPtr(k.Share, append(kp, "share"))}
		if n := e.floatPtr(k.ThrottleEvents, append(kp, "throttle_events")); n != nil {
			key.ThrottleEvents = *n
		}
		o.TopKeys = append(o.TopKeys, key)
	}
	if t := m.ThrottleEvents; t != nil {
		o.ThrottleEvents = keydesign.ThrottleTotals{Read: e.floatPtr(t.Read, append(slices.Clone(p), "throttle_events", "read")),
			Write: e.floatPtr(t.Write, append(slices.Clone(p), "throttle_events", "write"))}
	}
	if w := m.Window; w != nil {
		o.Window = keydesign.ObservedWindow{Start: w.Start.ValueString(), End: w.End.ValueString()}
		if n := e.int64Ptr(w.Datapoints, append(slices.Clone(p), "window", "datapoints")); n != nil {
			o.Window.Datapoints = *n
		}
	}
	return o
}

// holdsUnknownDeep reports whether v or any value in it, through objects, lists and maps, is unknown.
func holdsUnknownDeep(v attr.Value) bool {
	if v.IsUnknown() {
		return true
	}
	if v.IsNull() {
		return false
	}
	switch v := v.(type) {
	case types.Object:
		for _, a := range v.Attributes() {
			if holdsUnknownDeep(a) {
				return true
			}
		}
	case types.List:
		for _, a := range v.Elements() {
			if holdsUnknownDeep(a) {
				return true
			}
		}
	case types.Map:
		for _, a := range v.Elements() {
			if holdsUnknownDeep(a) {
				return true
			}
		}
	}
	return false
}

// flattenObserved is an observation as the data source's observed attribute.
func flattenObserved(ctx context.Context, o *keydesign.Observation) (types.Object, diag.Diagnostics) {
	number := func(f *float64) types.Number {
		if f == nil {
			return types.NumberNull()
		}
		return types.NumberValue(big.NewFloat(*f))
	}
	m := observedModel{
		TableName: stringOrNull(o.TableName), IndexName: stringOrNull(o.IndexName), Complete: types.BoolValue(o.Complete),
		Traffic: &observedTrafficModel{WritesPerSecond: number(o.Traffic.WritesPerSecond), ReadsPerSecond: number(o.Traffic.ReadsPerSecond),
			HotKeyShare: number(o.Traffic.HotKeyShare), AverageWrites: number(o.Traffic.AverageWritesPerSecond),
			AverageReads: number(o.Traffic.AverageReadsPerSecond)},
		ThrottleEvents: &throttleEventsModel{Read: number(o.ThrottleEvents.Read), Write: number(o.ThrottleEvents.Write)},
		Window: &observedWindowModel{Start: types.StringValue(o.Window.Start), End: types.StringValue(o.Window.End),
			Datapoints: types.NumberValue(new(big.Float).SetInt64(o.Window.Datapoints))},
	}
	for _, k := range o.TopKeys {
		events := k.ThrottleEvents
		m.TopKeys = append(m.TopKeys, observedKeyModel{Key: types.StringValue(k.Key), Share: number(k.Share), ThrottleEvents: number(&events)})
	}
	if o.TopKeys != nil && m.TopKeys == nil {
		m.TopKeys = []observedKeyModel{}
	}
	return types.ObjectValueFrom(ctx, observedType.AttrTypes, m)
}

// indexThroughput adds an index's on-demand caps, warm throughput and autoscaling range, which DK601–DK603
// compare with its demand. A setting not known yet leaves every index's demand rules silent.
func (e *expander) indexThroughput(g *keydesign.GlobalSecondaryIndex, gm gsiModel) {
	for _, v := range []types.Object{gm.OnDemandThroughput, gm.WarmThroughput, gm.Autoscaling} {
		if holdsUnknownDeep(v) {
			e.unknown = append(e.unknown, keydesign.Path{"global_secondary_indexes"})
			return
		}
	}
	g.OnDemand, g.Warm, g.Autoscaling = throughputFactsOf(e.ctx, gm.OnDemandThroughput, gm.WarmThroughput, gm.Autoscaling, &e.diags)
}
