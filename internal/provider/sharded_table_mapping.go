package provider

import (
	"context"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// shardedTableModel is the dynamokeys_sharded_table resource: the design shapes, the computed design
// outputs and the table settings.
type shardedTableModel struct {
	designInputModel
	designOutputModel
	ID                  types.String   `tfsdk:"id"`
	Name                types.String   `tfsdk:"name"`
	ARN                 types.String   `tfsdk:"arn"`
	Status              types.String   `tfsdk:"status"`
	BillingMode         types.String   `tfsdk:"billing_mode"`
	ReadCapacity        types.Number   `tfsdk:"read_capacity"`
	WriteCapacity       types.Number   `tfsdk:"write_capacity"`
	TTL                 types.Object   `tfsdk:"ttl"`
	PointInTimeRecovery types.Object   `tfsdk:"point_in_time_recovery"`
	DeletionProtection  types.Bool     `tfsdk:"deletion_protection"`
	TableClass          types.String   `tfsdk:"table_class"`
	Tags                types.Map      `tfsdk:"tags"`
	TagsAll             types.Map      `tfsdk:"tags_all"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`

	Stream               types.Object `tfsdk:"stream"`
	StreamARN            types.String `tfsdk:"stream_arn"`
	StreamLabel          types.String `tfsdk:"stream_label"`
	ServerSideEncryption types.Object `tfsdk:"server_side_encryption"`
	OnDemandThroughput   types.Object `tfsdk:"on_demand_throughput"`
	WarmThroughput       types.Object `tfsdk:"warm_throughput"`
	ContributorInsights  types.Object `tfsdk:"contributor_insights"`
	Autoscaling          types.Object `tfsdk:"autoscaling"`
}

type ttlModel struct {
	AttributeName types.String `tfsdk:"attribute_name"`
	Enabled       types.Bool   `tfsdk:"enabled"`
}

var ttlAttrTypes = map[string]attr.Type{"attribute_name": types.StringType, "enabled": types.BoolType}

// int64Ptr reads a whole number of a known plan; validation has rejected anything else.
func int64Ptr(v types.Number) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n, err := wholeNumber(v)
	if err != nil {
		return nil
	}
	return &n
}

// reportedOr is the reported value, or the prior one when the endpoint did not report it.
func reportedOr(reported *int64, prior types.Number) types.Number {
	if reported == nil && !prior.IsUnknown() {
		return prior
	}
	return int64Value(reported)
}

func int64Value(p *int64) types.Number {
	if p == nil {
		return types.NumberNull()
	}
	return types.NumberValue(new(big.Float).SetInt64(*p))
}

// expandTable maps a known plan to the table dynamo manages.
func expandTable(ctx context.Context, m shardedTableModel) (dynamo.Table, diag.Diagnostics) {
	var diags diag.Diagnostics
	t := dynamo.Table{
		Name:               m.Name.ValueString(),
		BillingMode:        m.BillingMode.ValueString(),
		TableClass:         m.TableClass.ValueString(),
		ReadCapacity:       int64Ptr(m.ReadCapacity),
		WriteCapacity:      int64Ptr(m.WriteCapacity),
		DeletionProtection: m.DeletionProtection.ValueBoolPointer(),
	}
	var pk keyModel
	diags.Append(m.PartitionKey.As(ctx, &pk, basetypes.ObjectAsOptions{})...)
	t.PartitionKey = dynamo.KeyAttribute{Name: pk.Name.ValueString(), Type: pk.Type.ValueString()}
	if !m.SortKey.IsNull() {
		var sk keyModel
		diags.Append(m.SortKey.As(ctx, &sk, basetypes.ObjectAsOptions{})...)
		t.SortKey = &dynamo.KeyAttribute{Name: sk.Name.ValueString(), Type: sk.Type.ValueString()}
	}
	if !m.LocalSecondaryIndexes.IsNull() {
		var lsis map[string]lsiModel
		diags.Append(m.LocalSecondaryIndexes.ElementsAs(ctx, &lsis, false)...)
		for _, name := range sortedMapKeys(lsis) {
			l := lsis[name]
			var sk indexKeyModel
			diags.Append(l.SortKey.As(ctx, &sk, basetypes.ObjectAsOptions{})...)
			idx := dynamo.Index{Name: name, SortKey: []dynamo.KeyAttribute{{Name: sk.Name.ValueString(), Type: sk.Type.ValueString()}},
				ProjectionType: l.ProjectionType.ValueString()}
			diags.Append(l.NonKeyAttributes.ElementsAs(ctx, &idx.NonKeyAttributes, false)...)
			t.LSIs = append(t.LSIs, idx)
		}
	}
	if !m.GlobalSecondaryIndexes.IsNull() {
		var gsis map[string]gsiModel
		diags.Append(m.GlobalSecondaryIndexes.ElementsAs(ctx, &gsis, false)...)
		for _, name := range sortedMapKeys(gsis) {
			g := gsis[name]
			idx := dynamo.Index{Name: name, ProjectionType: g.ProjectionType.ValueString(),
				ReadCapacity: int64Ptr(g.ReadCapacity), WriteCapacity: int64Ptr(g.WriteCapacity)}
			diags.Append(g.NonKeyAttributes.ElementsAs(ctx, &idx.NonKeyAttributes, false)...)
			idx.PartitionKey = keyAttributes(g.PartitionKey)
			idx.SortKey = keyAttributes(g.SortKey)
			expandIndexSettings(ctx, g, &idx, &diags)
			t.GSIs = append(t.GSIs, idx)
		}
	}
	if !m.TTL.IsNull() {
		var ttl ttlModel
		diags.Append(m.TTL.As(ctx, &ttl, basetypes.ObjectAsOptions{})...)
		t.TTL = &dynamo.TTL{AttributeName: ttl.AttributeName.ValueString(), Enabled: ttl.Enabled.ValueBool()}
	}
	if tags := tagsToApply(m); !tags.IsNull() && !tags.IsUnknown() {
		t.Tags = map[string]string{}
		diags.Append(tags.ElementsAs(ctx, &t.Tags, false)...)
	}
	expandTableSettings(ctx, m, &t, &diags)
	return t, diags
}

// keyAttributes reads name and type of each key attribute object of a list.
func keyAttributes(list types.List) []dynamo.KeyAttribute {
	var out []dynamo.KeyAttribute
	for _, el := range list.Elements() {
		obj, ok := el.(types.Object)
		if !ok {
			continue
		}
		attrs := obj.Attributes()
		name, _ := attrs["name"].(types.String)
		typ, _ := attrs["type"].(types.String)
		out = append(out, dynamo.KeyAttribute{Name: name.ValueString(), Type: typ.ValueString()})
	}
	return out
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// flattenTable writes what DynamoDB reports into the model. Design metadata (templates, segments,
// sharding, traffic, GSI cardinalities) is config-only and kept from the prior model; so are settings the
// endpoint does not report.
// Tags are read by readTags, which needs the provider's default tags.
func flattenTable(ctx context.Context, t *dynamo.Table, m *shardedTableModel) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID, m.Name, m.ARN, m.Status = types.StringValue(t.Name), types.StringValue(t.Name), types.StringValue(t.ARN), stringOrNull(t.Status)
	m.BillingMode = types.StringValue(t.BillingMode)
	read, write := autoscaledSides(ctx, m.Autoscaling)
	m.ReadCapacity, m.WriteCapacity = keepIfAutoscaled(t.ReadCapacity, m.ReadCapacity, read), keepIfAutoscaled(t.WriteCapacity, m.WriteCapacity, write)
	m.TableClass = types.StringValue(t.TableClass)
	if t.DeletionProtection != nil {
		m.DeletionProtection = types.BoolValue(*t.DeletionProtection)
	} else if m.DeletionProtection.IsNull() {
		m.DeletionProtection = types.BoolValue(false)
	}

	var dg diag.Diagnostics
	m.PartitionKey, dg = flattenTableKey(ctx, t.PartitionKey, m.PartitionKey)
	diags.Append(dg...)
	if t.SortKey != nil {
		m.SortKey, dg = flattenTableKey(ctx, *t.SortKey, m.SortKey)
		diags.Append(dg...)
	} else {
		m.SortKey = types.ObjectNull(tableKeyAttrTypes())
	}
	m.LocalSecondaryIndexes, dg = flattenLSIs(ctx, t.LSIs, m.LocalSecondaryIndexes)
	diags.Append(dg...)
	m.GlobalSecondaryIndexes, dg = flattenGSIs(ctx, t.GSIs, m.GlobalSecondaryIndexes, t.BillingMode == dynamo.BillingProvisioned)
	diags.Append(dg...)

	if t.TTL != nil {
		var prior ttlModel
		if !m.TTL.IsNull() && !m.TTL.IsUnknown() {
			diags.Append(m.TTL.As(ctx, &prior, basetypes.ObjectAsOptions{})...)
		}
		switch {
		case t.TTL.Enabled:
			m.TTL, dg = types.ObjectValue(ttlAttrTypes, map[string]attr.Value{"attribute_name": types.StringValue(t.TTL.AttributeName), "enabled": types.BoolValue(true)})
			diags.Append(dg...)
		case m.TTL.IsNull() || m.TTL.IsUnknown():
			m.TTL = types.ObjectNull(ttlAttrTypes)
		default: // disabled: keep the configured attribute name with enabled = false
			m.TTL, dg = types.ObjectValue(ttlAttrTypes, map[string]attr.Value{"attribute_name": prior.AttributeName, "enabled": types.BoolValue(false)})
			diags.Append(dg...)
		}
	}
	flattenTableSettings(ctx, t, m, &diags)
	return diags
}

// stringOrNull is null for "": a status or a key ARN a table moved from another resource does not carry.
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func tableKeyAttrTypes() map[string]attr.Type {
	return tableKeyType.AttrTypes
}

// flattenTableKey sets name and type from DynamoDB and keeps the template from the prior value.
func flattenTableKey(ctx context.Context, k dynamo.KeyAttribute, prior types.Object) (types.Object, diag.Diagnostics) {
	template := types.StringNull()
	if !prior.IsNull() && !prior.IsUnknown() {
		var pm keyModel
		if d := prior.As(ctx, &pm, basetypes.ObjectAsOptions{}); !d.HasError() {
			template = pm.Template
		}
	}
	return types.ObjectValue(tableKeyAttrTypes(), map[string]attr.Value{
		"name": types.StringValue(k.Name), "type": types.StringValue(k.Type), "template": template,
	})
}

// nonKeyList keeps the prior order of INCLUDE attributes when DynamoDB reports the same set.
func nonKeyList(ctx context.Context, got []string, prior types.List) (types.List, diag.Diagnostics) {
	if len(got) == 0 {
		if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
			return prior, nil
		}
		return types.ListNull(types.StringType), nil
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		var before []string
		if d := prior.ElementsAs(ctx, &before, false); !d.HasError() && slices.Equal(slices.Sorted(slices.Values(before)), slices.Sorted(slices.Values(got))) {
			return prior, nil
		}
	}
	return types.ListValueFrom(ctx, types.StringType, got)
}

func flattenLSIs(ctx context.Context, lsis []dynamo.Index, prior types.Map) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elemType := lsiType
	if len(lsis) == 0 {
		return types.MapNull(elemType), diags
	}
	priorByName := map[string]lsiModel{}
	if !prior.IsNull() && !prior.IsUnknown() {
		diags.Append(prior.ElementsAs(ctx, &priorByName, false)...)
	}
	elems := map[string]attr.Value{}
	for _, idx := range lsis {
		sortKey, dg := types.ObjectValue(lsiSortKeyType.AttrTypes, map[string]attr.Value{
			"name": types.StringValue(idx.SortKey[0].Name), "type": types.StringValue(idx.SortKey[0].Type)})
		diags.Append(dg...)
		nonKey, dg := nonKeyList(ctx, idx.NonKeyAttributes, priorByName[idx.Name].NonKeyAttributes)
		diags.Append(dg...)
		obj, dg := types.ObjectValue(elemType.AttrTypes, map[string]attr.Value{
			"sort_key": sortKey, "projection_type": types.StringValue(idx.ProjectionType), "non_key_attributes": nonKey})
		diags.Append(dg...)
		elems[idx.Name] = obj
	}
	m, dg := types.MapValue(elemType, elems)
	diags.Append(dg...)
	return m, diags
}

func flattenGSIs(ctx context.Context, gsis []dynamo.Index, prior types.Map, provisioned bool) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elemType := gsiType
	if len(gsis) == 0 {
		if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
			return prior, diags
		}
		return types.MapNull(elemType), diags
	}
	priorByName := map[string]gsiModel{}
	if !prior.IsNull() && !prior.IsUnknown() {
		diags.Append(prior.ElementsAs(ctx, &priorByName, false)...)
	}
	pkType := gsiPartKeyType
	skType := gsiSortKeyType
	elems := map[string]attr.Value{}
	for _, idx := range gsis {
		before := priorByName[idx.Name]
		// Cardinality is design metadata: keep the prior value of the attribute with the same name.
		cardinality := map[string]types.Number{}
		if !before.PartitionKey.IsNull() && !before.PartitionKey.IsUnknown() {
			var keys []gsiKeyModel
			diags.Append(before.PartitionKey.ElementsAs(ctx, &keys, false)...)
			for _, k := range keys {
				cardinality[k.Name.ValueString()] = k.Cardinality
			}
		}
		pkElems := make([]attr.Value, 0, len(idx.PartitionKey))
		for _, k := range idx.PartitionKey {
			card, ok := cardinality[k.Name]
			if !ok {
				card = types.NumberNull()
			}
			obj, dg := types.ObjectValue(pkType.AttrTypes, map[string]attr.Value{"name": types.StringValue(k.Name), "type": types.StringValue(k.Type), "cardinality": card})
			diags.Append(dg...)
			pkElems = append(pkElems, obj)
		}
		pk, dg := types.ListValue(pkType, pkElems)
		diags.Append(dg...)
		sk := types.ListNull(skType)
		if len(idx.SortKey) > 0 || (!before.SortKey.IsNull() && !before.SortKey.IsUnknown()) {
			skElems := make([]attr.Value, 0, len(idx.SortKey))
			for _, k := range idx.SortKey {
				obj, dg := types.ObjectValue(skType.AttrTypes, map[string]attr.Value{"name": types.StringValue(k.Name), "type": types.StringValue(k.Type)})
				diags.Append(dg...)
				skElems = append(skElems, obj)
			}
			sk, dg = types.ListValue(skType, skElems)
			diags.Append(dg...)
		}
		nonKey, dg := nonKeyList(ctx, idx.NonKeyAttributes, before.NonKeyAttributes)
		diags.Append(dg...)
		if !provisioned {
			before.ReadCapacity, before.WriteCapacity = types.NumberNull(), types.NumberNull()
		}
		read, write := autoscaledSides(ctx, before.Autoscaling)
		values := map[string]attr.Value{
			"partition_key": pk, "sort_key": sk, "projection_type": types.StringValue(idx.ProjectionType),
			"non_key_attributes": nonKey,
			"read_capacity":      keepIfAutoscaled(idx.ReadCapacity, before.ReadCapacity, read),
			"write_capacity":     keepIfAutoscaled(idx.WriteCapacity, before.WriteCapacity, write),
		}
		flattenIndexSettings(ctx, idx, before, values, &diags)
		obj, dg := types.ObjectValue(elemType.AttrTypes, values)
		diags.Append(dg...)
		elems[idx.Name] = obj
	}
	m, dg := types.MapValue(elemType, elems)
	diags.Append(dg...)
	return m, diags
}

// designInput builds the policy input of a resource model: the design attributes plus the table's name,
// billing mode and capacities.
func designInput(ctx context.Context, m shardedTableModel) (*keydesign.Input, diag.Diagnostics) {
	in, diags := expandDesign(ctx, m.designInputModel)
	in.Kind = "sharded_table"
	in.TableName = m.Name.ValueString()
	in.BillingMode = m.BillingMode.ValueString()
	in.ReadCapacity, in.WriteCapacity = int64Ptr(m.ReadCapacity), int64Ptr(m.WriteCapacity)
	in.OnDemand, in.Warm, in.Autoscaling = throughputFacts(ctx, m, &diags)
	for attrName, v := range map[string]attr.Value{"name": m.Name, "billing_mode": m.BillingMode, "read_capacity": m.ReadCapacity,
		"write_capacity": m.WriteCapacity, "on_demand_throughput": m.OnDemandThroughput, "warm_throughput": m.WarmThroughput, "autoscaling": m.Autoscaling} {
		if holdsUnknown(v) { // a setting partly unknown is unknown as a whole: the rules read it as one fact
			in.Unknown = append(in.Unknown, keydesign.Path{attrName})
		}
	}
	return in, diags
}

// holdsUnknown reports whether v or any value nested in it is unknown.
func holdsUnknown(v attr.Value) bool {
	if v.IsUnknown() {
		return true
	}
	if obj, ok := v.(types.Object); ok && !obj.IsNull() {
		for _, a := range obj.Attributes() {
			if holdsUnknown(a) {
				return true
			}
		}
	}
	return false
}
