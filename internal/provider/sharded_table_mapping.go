package provider

import (
	"context"
	"maps"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
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
	ItemCount            types.Int64  `tfsdk:"item_count"`
	TableSizeBytes       types.Int64  `tfsdk:"table_size_bytes"`
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
	var pk, sk keyModel
	objectAs(ctx, m.PartitionKey, &pk, &diags)
	t.PartitionKey = dynamo.KeyAttribute{Name: pk.Name.ValueString(), Type: pk.Type.ValueString()}
	if objectAs(ctx, m.SortKey, &sk, &diags) {
		t.SortKey = &dynamo.KeyAttribute{Name: sk.Name.ValueString(), Type: sk.Type.ValueString()}
	}
	var lsis map[string]lsiModel
	diags.Append(m.LocalSecondaryIndexes.ElementsAs(ctx, &lsis, false)...)
	for _, name := range slices.Sorted(maps.Keys(lsis)) {
		l := lsis[name]
		var sk indexKeyModel
		objectAs(ctx, l.SortKey, &sk, &diags)
		idx := dynamo.Index{Name: name, SortKey: keyAttributes(sk), ProjectionType: l.ProjectionType.ValueString()}
		diags.Append(l.NonKeyAttributes.ElementsAs(ctx, &idx.NonKeyAttributes, false)...)
		t.LSIs = append(t.LSIs, idx)
	}
	var gsis map[string]gsiModel
	diags.Append(m.GlobalSecondaryIndexes.ElementsAs(ctx, &gsis, false)...)
	for _, name := range slices.Sorted(maps.Keys(gsis)) {
		g := gsis[name]
		idx := dynamo.Index{Name: name, ProjectionType: g.ProjectionType.ValueString(),
			ReadCapacity: int64Ptr(g.ReadCapacity), WriteCapacity: int64Ptr(g.WriteCapacity)}
		var pk []gsiKeyModel
		var sk []indexKeyModel
		diags.Append(g.NonKeyAttributes.ElementsAs(ctx, &idx.NonKeyAttributes, false)...)
		diags.Append(g.PartitionKey.ElementsAs(ctx, &pk, false)...)
		diags.Append(g.SortKey.ElementsAs(ctx, &sk, false)...)
		for _, k := range pk {
			idx.PartitionKey = append(idx.PartitionKey, dynamo.KeyAttribute{Name: k.Name.ValueString(), Type: k.Type.ValueString()})
		}
		idx.SortKey = keyAttributes(sk...)
		expandIndexSettings(ctx, g, &idx, &diags)
		t.GSIs = append(t.GSIs, idx)
	}
	t.VectorIndexes = expandVectorIndexes(ctx, m.VectorIndexes, &diags)
	var ttl ttlModel
	if objectAs(ctx, m.TTL, &ttl, &diags) {
		t.TTL = &dynamo.TTL{AttributeName: ttl.AttributeName.ValueString(), Enabled: ttl.Enabled.ValueBool()}
	}
	if tags := tagsToApply(m); !tags.IsNull() && !tags.IsUnknown() {
		t.Tags = map[string]string{}
		diags.Append(tags.ElementsAs(ctx, &t.Tags, false)...)
	}
	expandTableSettings(ctx, m, &t, &diags)
	return t, diags
}

// keyAttributes are the name and type of each index key attribute.
func keyAttributes(keys ...indexKeyModel) []dynamo.KeyAttribute {
	out := make([]dynamo.KeyAttribute, 0, len(keys))
	for _, k := range keys {
		out = append(out, dynamo.KeyAttribute{Name: k.Name.ValueString(), Type: k.Type.ValueString()})
	}
	return out
}

// flattenTable writes what DynamoDB reports into the model, vector indexes included. Design metadata
// (templates, segments, sharding, traffic, GSI cardinalities) is config-only and kept from the prior model;
// so are settings the endpoint does not report.
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
	m.VectorIndexes, dg = flattenVectorIndexes(ctx, t.VectorIndexes, m.VectorIndexes)
	diags.Append(dg...)

	var ttl ttlModel
	switch hadTTL := objectAs(ctx, m.TTL, &ttl, &diags); {
	case t.TTL == nil: // the endpoint does not report it: keep what the state says
	case t.TTL.Enabled:
		m.TTL = objectFrom(ctx, ttlAttrTypes, ttlModel{AttributeName: types.StringValue(t.TTL.AttributeName), Enabled: types.BoolValue(true)}, &diags)
	case hadTTL: // disabled: keep the configured attribute name with enabled = false
		m.TTL = objectFrom(ctx, ttlAttrTypes, ttlModel{AttributeName: ttl.AttributeName, Enabled: types.BoolValue(false)}, &diags)
	default:
		m.TTL = types.ObjectNull(ttlAttrTypes)
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
	var diags diag.Diagnostics
	var key keyModel
	objectAs(ctx, prior, &key, &diags)
	key.Name, key.Type = types.StringValue(k.Name), types.StringValue(k.Type)
	if key.Template.IsUnknown() {
		key.Template = types.StringNull()
	}
	return objectFrom(ctx, tableKeyAttrTypes(), key, &diags), diags
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
	if len(lsis) == 0 {
		return types.MapNull(lsiType), diags
	}
	priorByName := map[string]lsiModel{}
	if !prior.IsNull() && !prior.IsUnknown() {
		diags.Append(prior.ElementsAs(ctx, &priorByName, false)...)
	}
	out := make(map[string]lsiModel, len(lsis))
	for _, idx := range lsis {
		k := idx.SortKey[0]
		l := lsiModel{ProjectionType: types.StringValue(idx.ProjectionType),
			SortKey: objectFrom(ctx, lsiSortKeyType.AttrTypes, indexKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)}, &diags)}
		var dg diag.Diagnostics
		l.NonKeyAttributes, dg = nonKeyList(ctx, idx.NonKeyAttributes, priorByName[idx.Name].NonKeyAttributes)
		diags.Append(dg...)
		out[idx.Name] = l
	}
	m, dg := types.MapValueFrom(ctx, lsiType, out)
	diags.Append(dg...)
	return m, diags
}

// emptyIndexMap is an index map of which DynamoDB reports no index: the prior empty map when the
// configuration writes one (so that it shows no change), null otherwise.
func emptyIndexMap(prior types.Map, typ types.ObjectType) types.Map {
	if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
		return prior
	}
	return types.MapNull(typ)
}

// priorEntries are the entries of a prior index map by name; none when it is null or unknown.
func priorEntries[T any](ctx context.Context, prior types.Map, diags *diag.Diagnostics) map[string]T {
	out := map[string]T{}
	if !prior.IsNull() && !prior.IsUnknown() {
		diags.Append(prior.ElementsAs(ctx, &out, false)...)
	}
	return out
}

func flattenGSIs(ctx context.Context, gsis []dynamo.Index, prior types.Map, provisioned bool) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	if len(gsis) == 0 {
		return emptyIndexMap(prior, gsiType), diags
	}
	priorByName := priorEntries[gsiModel](ctx, prior, &diags)
	out := make(map[string]gsiModel, len(gsis))
	for _, idx := range gsis {
		before := priorByName[idx.Name]
		// Cardinality is design metadata: keep the prior value of the attribute with the same name.
		var priorKeys []gsiKeyModel
		if !before.PartitionKey.IsNull() && !before.PartitionKey.IsUnknown() {
			diags.Append(before.PartitionKey.ElementsAs(ctx, &priorKeys, false)...)
		}
		pk := make([]gsiKeyModel, 0, len(idx.PartitionKey))
		for _, k := range idx.PartitionKey {
			key := gsiKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type), Cardinality: types.NumberNull()}
			if i := slices.IndexFunc(priorKeys, func(p gsiKeyModel) bool { return p.Name.ValueString() == k.Name }); i >= 0 {
				key.Cardinality = priorKeys[i].Cardinality
			}
			pk = append(pk, key)
		}
		g := gsiModel{ProjectionType: types.StringValue(idx.ProjectionType), SortKey: types.ListNull(gsiSortKeyType)}
		var dg diag.Diagnostics
		g.PartitionKey, dg = types.ListValueFrom(ctx, gsiPartKeyType, pk)
		diags.Append(dg...)
		if len(idx.SortKey) > 0 || (!before.SortKey.IsNull() && !before.SortKey.IsUnknown()) {
			sk := make([]indexKeyModel, 0, len(idx.SortKey))
			for _, k := range idx.SortKey {
				sk = append(sk, indexKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)})
			}
			g.SortKey, dg = types.ListValueFrom(ctx, gsiSortKeyType, sk)
			diags.Append(dg...)
		}
		g.NonKeyAttributes, dg = nonKeyList(ctx, idx.NonKeyAttributes, before.NonKeyAttributes)
		diags.Append(dg...)
		if !provisioned {
			before.ReadCapacity, before.WriteCapacity = types.NumberNull(), types.NumberNull()
		}
		read, write := autoscaledSides(ctx, before.Autoscaling)
		g.ReadCapacity, g.WriteCapacity = keepIfAutoscaled(idx.ReadCapacity, before.ReadCapacity, read), keepIfAutoscaled(idx.WriteCapacity, before.WriteCapacity, write)
		flattenIndexSettings(ctx, idx, before, &g, &diags)
		out[idx.Name] = g
	}
	m, dg := types.MapValueFrom(ctx, gsiType, out)
	diags.Append(dg...)
	return m, diags
}
