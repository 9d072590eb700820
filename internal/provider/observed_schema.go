package provider

import (
	"context"
	"fmt"
	"math/big"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// The measured traffic object: the output `observed` of dynamokeys_observed_traffic, and the input
// `observed` (and `observed_indexes`) of the keydesign data source and the resource, which take it as the
// data source returns it. It is written once here as optional attributes; the data source's output is the
// same shape computed (observedOutputAttribute).

func observedAttributes() map[string]rschema.Attribute {
	throttles := map[string]rschema.Attribute{
		"read":  optionalFloat("Read throttle events (ReadThrottleEvents)."),
		"write": optionalFloat("Write throttle events (WriteThrottleEvents)."),
	}
	for _, c := range []struct{ name, metric, what string }{
		{"key_range", "KeyRangeThroughputThrottleEvents", "a partition's key range over its throughput (a hot key)"},
		{"provisioned", "ProvisionedThroughputThrottleEvents", "the table or index over its provisioned capacity"},
		{"max_on_demand", "MaxOnDemandThroughputThrottleEvents", "the table or index over its on-demand maximum"},
		{"account_limit", "AccountLimitThrottleEvents", "the account's throughput quota"},
	} {
		throttles["read_"+c.name] = optionalFloat(fmt.Sprintf("Read throttle events caused by %s (Read%s).", c.what, c.metric))
		throttles["write_"+c.name] = optionalFloat(fmt.Sprintf("Write throttle events caused by %s (Write%s).", c.what, c.metric))
	}
	return map[string]rschema.Attribute{
		"table_name": optionalString("Table the figures are of."),
		"index_name": optionalString("Global secondary index the figures are of; null for the table."),
		"traffic": rschema.SingleNestedAttribute{Optional: true,
			Description: "Peak traffic. writes_per_second and reads_per_second have the field names of the traffic input: consumed capacity units " +
				"per second at the busiest minute (the largest one-minute Sum / 60). The busiest key's figures are in Contributor Insights' units, " +
				"ConsumedThroughputUnits = 3 × write units + read units (a partition serves 3,000 units/s: 1,000 WCU = 3,000 RCU).",
			Attributes: map[string]rschema.Attribute{
				"writes_per_second": optionalFloat("Peak consumed write capacity units per second (ConsumedWriteCapacityUnits)."),
				"reads_per_second":  optionalFloat("Peak consumed read capacity units per second (ConsumedReadCapacityUnits)."),
				"average_writes_per_second": optionalFloat("Consumed write capacity units of the window over its length, idle minutes included: the rate `cost` scales to a month. " +
					"Live, the window is the one read (lookback and end); offline, the span of the datapoints, since the CLI's output does not say the window it was asked for."),
				"average_reads_per_second": optionalFloat("Consumed read capacity units of the window over its length, idle minutes included: the rate `cost` scales to a month. " +
					"Live, the window is the one read (lookback and end); offline, the span of the datapoints, since the CLI's output does not say the window it was asked for."),
				"hot_key_units_per_second": optionalFloat("The busiest partition-key value's units per second (3 × WCU + RCU) at its busiest minute: " +
					"the most accessed keys rule's MaxContributorValue / period. Null without that rule's report."),
				"hot_key_unit_share": optionalFloat("The busiest key's share (0 to 1) of the table's (or index's) units, 3 × WCU + RCU, in that same minute; " +
					"null when the metrics have no datapoint for it."),
			}},
		"top_keys": rschema.ListNestedAttribute{Optional: true,
			Description: "The busiest partition-key values (at most 25), busiest first, then keys that were only throttled; null without Contributor Insights.",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"key":              optionalString("The partition-key value; a multi-attribute index key lists its values joined with \", \"."),
				"units_per_second": optionalFloat("Its units per second (3 × WCU + RCU) at its busiest minute; null for a key seen only as throttled."),
				"throttle_events":  optionalFloat("Its throttled requests in the window."),
			}}},
		"key_attributes": optionalInt("How many key values each Contributor Insights contributor lists (the reports' KeyLabels): 1 for a table, " +
			"the number of partition-key attributes of a multi-attribute index key; null without Contributor Insights."),
		"throttle_events": rschema.SingleNestedAttribute{Optional: true, Description: "Throttle events in the window, in total and by cause; " +
			"null when not exported.", Attributes: throttles},
		"window": rschema.SingleNestedAttribute{Optional: true, Description: "The time the figures cover.",
			Attributes: map[string]rschema.Attribute{
				"start":      optionalString("Start, RFC 3339: live, the start of the window read; offline, the first datapoint's minute."),
				"end":        optionalString("End, RFC 3339: live, the end of the window read; offline, the end of the last datapoint's minute."),
				"datapoints": optionalInt("One-minute datapoints in the window."),
			}},
		"complete": optionalBool("False when CloudWatch did not answer StatusCode Complete (PartialData), pages are missing, or an export " +
			"without StatusCode has minutes without a datapoint. A minute without a datapoint is not a gap when CloudWatch answered Complete: " +
			"it publishes none for a minute without traffic."),
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
	KeyAttributes  types.Number          `tfsdk:"key_attributes"`
	ThrottleEvents *throttleEventsModel  `tfsdk:"throttle_events"`
	Window         *observedWindowModel  `tfsdk:"window"`
	Complete       types.Bool            `tfsdk:"complete"`
}

type observedTrafficModel struct {
	WritesPerSecond      types.Number `tfsdk:"writes_per_second"`
	ReadsPerSecond       types.Number `tfsdk:"reads_per_second"`
	AverageWrites        types.Number `tfsdk:"average_writes_per_second"`
	AverageReads         types.Number `tfsdk:"average_reads_per_second"`
	HotKeyUnitsPerSecond types.Number `tfsdk:"hot_key_units_per_second"`
	HotKeyUnitShare      types.Number `tfsdk:"hot_key_unit_share"`
}

type observedKeyModel struct {
	Key            types.String `tfsdk:"key"`
	UnitsPerSecond types.Number `tfsdk:"units_per_second"`
	ThrottleEvents types.Number `tfsdk:"throttle_events"`
}

type throttleEventsModel struct {
	Read              types.Number `tfsdk:"read"`
	Write             types.Number `tfsdk:"write"`
	ReadKeyRange      types.Number `tfsdk:"read_key_range"`
	WriteKeyRange     types.Number `tfsdk:"write_key_range"`
	ReadProvisioned   types.Number `tfsdk:"read_provisioned"`
	WriteProvisioned  types.Number `tfsdk:"write_provisioned"`
	ReadMaxOnDemand   types.Number `tfsdk:"read_max_on_demand"`
	WriteMaxOnDemand  types.Number `tfsdk:"write_max_on_demand"`
	ReadAccountLimit  types.Number `tfsdk:"read_account_limit"`
	WriteAccountLimit types.Number `tfsdk:"write_account_limit"`
}

// throttleFields pairs each throttle attribute with its field of observed.Throttles.
func throttleFields(m *throttleEventsModel, t *observed.Throttles) []struct {
	name  string
	model *types.Number
	value **float64
} {
	return []struct {
		name  string
		model *types.Number
		value **float64
	}{
		{"read", &m.Read, &t.Read}, {"write", &m.Write, &t.Write},
		{"read_key_range", &m.ReadKeyRange, &t.ReadKeyRange}, {"write_key_range", &m.WriteKeyRange, &t.WriteKeyRange},
		{"read_provisioned", &m.ReadProvisioned, &t.ReadProvisioned}, {"write_provisioned", &m.WriteProvisioned, &t.WriteProvisioned},
		{"read_max_on_demand", &m.ReadMaxOnDemand, &t.ReadMaxOnDemand}, {"write_max_on_demand", &m.WriteMaxOnDemand, &t.WriteMaxOnDemand},
		{"read_account_limit", &m.ReadAccountLimit, &t.ReadAccountLimit}, {"write_account_limit", &m.WriteAccountLimit, &t.WriteAccountLimit},
	}
}

type observedWindowModel struct {
	Start      types.String `tfsdk:"start"`
	End        types.String `tfsdk:"end"`
	Datapoints types.Number `tfsdk:"datapoints"`
}

// flattenObserved is an observation as the data source's observed attribute.
func flattenObserved(ctx context.Context, o *observed.Observation) (types.Object, diag.Diagnostics) {
	number := func(f *float64) types.Number {
		if f == nil {
			return types.NumberNull()
		}
		return types.NumberValue(big.NewFloat(*f))
	}
	m := observedModel{
		TableName: stringOrNull(o.TableName), IndexName: stringOrNull(o.IndexName), Complete: types.BoolValue(o.Complete),
		Traffic: &observedTrafficModel{WritesPerSecond: number(o.Traffic.WritesPerSecond), ReadsPerSecond: number(o.Traffic.ReadsPerSecond),
			AverageWrites: number(o.Traffic.AverageWritesPerSecond), AverageReads: number(o.Traffic.AverageReadsPerSecond),
			HotKeyUnitsPerSecond: number(o.Traffic.HotKeyUnitsPerSecond), HotKeyUnitShare: number(o.Traffic.HotKeyUnitShare)},
		KeyAttributes:  types.NumberNull(),
		ThrottleEvents: &throttleEventsModel{},
		Window: &observedWindowModel{Start: types.StringValue(o.Window.Start), End: types.StringValue(o.Window.End),
			Datapoints: types.NumberValue(new(big.Float).SetInt64(o.Window.Datapoints))},
	}
	if o.KeyAttributes != nil {
		m.KeyAttributes = types.NumberValue(new(big.Float).SetInt64(*o.KeyAttributes))
	}
	throttles := o.ThrottleEvents
	for _, f := range throttleFields(m.ThrottleEvents, &throttles) {
		*f.model = number(*f.value)
	}
	for _, k := range o.TopKeys {
		events := k.ThrottleEvents
		m.TopKeys = append(m.TopKeys, observedKeyModel{Key: types.StringValue(k.Key), UnitsPerSecond: number(k.UnitsPerSecond), ThrottleEvents: number(&events)})
	}
	if o.TopKeys != nil && m.TopKeys == nil {
		m.TopKeys = []observedKeyModel{}
	}
	return types.ObjectValueFrom(ctx, observedType.AttrTypes, m)
}
