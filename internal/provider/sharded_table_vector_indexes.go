package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The resource's vector indexes: the vector_indexes map of the plan as the dynamo.VectorIndex list that
// CreateTable and UpdateTable send, and DescribeTable's indexes back into the map. Every attribute of an index
// is something DynamoDB reports, so a read brings the whole index back (an import or a query too), and an index
// deleted outside Terraform leaves the map: the next plan creates it again.

// vectorIndexModel is one entry of vector_indexes.
type vectorIndexModel struct {
	VectorAttribute  types.String `tfsdk:"vector_attribute"`
	Dimensions       types.Number `tfsdk:"dimensions"`
	DistanceFunction types.String `tfsdk:"distance_function"`
	PartitionKey     types.Object `tfsdk:"partition_key"`
	InlineFilters    types.List   `tfsdk:"inline_filters"`
	ProjectionType   types.String `tfsdk:"projection_type"`
	NonKeyAttributes types.List   `tfsdk:"non_key_attributes"`
}

var (
	vectorIndexType  = objectType(vectorIndexAttributes())
	searchSchemaType = objectType(indexKeyAttributes(false))
)

// expandVectorIndexes maps a known plan's vector_indexes to the indexes dynamo creates, in name order.
func expandVectorIndexes(ctx context.Context, m types.Map, diags *diag.Diagnostics) []dynamo.VectorIndex {
	var byName map[string]vectorIndexModel
	if m.IsNull() || m.IsUnknown() {
		return nil
	}
	diags.Append(m.ElementsAs(ctx, &byName, false)...)
	out := make([]dynamo.VectorIndex, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		v := byName[name]
		idx := dynamo.VectorIndex{Name: name, VectorAttribute: v.VectorAttribute.ValueString(), DistanceFunction: v.DistanceFunction.ValueString(),
			ProjectionType: v.ProjectionType.ValueString()}
		if n := int64Ptr(v.Dimensions); n != nil {
			idx.Dimensions = *n
		}
		var hash indexKeyModel
		if objectAs(ctx, v.PartitionKey, &hash, diags) {
			idx.PartitionKey = &keyAttributes(hash)[0]
		}
		var filters []indexKeyModel
		diags.Append(v.InlineFilters.ElementsAs(ctx, &filters, false)...)
		idx.InlineFilters = keyAttributes(filters...)
		diags.Append(v.NonKeyAttributes.ElementsAs(ctx, &idx.NonKeyAttributes, false)...)
		out = append(out, idx)
	}
	return out
}

// flattenVectorIndexes writes DescribeTable's vector indexes into the map. Where DynamoDB reports what the
// prior value says in another form (the same inline filters or projected attributes in another order, an
// empty list for none), the prior form is kept, so that a refresh shows no change.
func flattenVectorIndexes(ctx context.Context, got []dynamo.VectorIndex, prior types.Map) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	if len(got) == 0 {
		return emptyIndexMap(prior, vectorIndexType), diags
	}
	priorByName := priorEntries[vectorIndexModel](ctx, prior, &diags)
	out := make(map[string]vectorIndexModel, len(got))
	for _, idx := range got {
		before := priorByName[idx.Name]
		v := vectorIndexModel{VectorAttribute: types.StringValue(idx.VectorAttribute), Dimensions: int64Value(&idx.Dimensions),
			DistanceFunction: types.StringValue(idx.DistanceFunction), ProjectionType: types.StringValue(idx.ProjectionType),
			PartitionKey: types.ObjectNull(searchSchemaType.AttrTypes)}
		if k := idx.PartitionKey; k != nil {
			v.PartitionKey = objectFrom(ctx, searchSchemaType.AttrTypes, indexKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)}, &diags)
		}
		v.InlineFilters = inlineFiltersList(ctx, idx.InlineFilters, before.InlineFilters, &diags)
		var dg diag.Diagnostics
		v.NonKeyAttributes, dg = nonKeyList(ctx, idx.NonKeyAttributes, before.NonKeyAttributes)
		diags.Append(dg...)
		out[idx.Name] = v
	}
	m, dg := types.MapValueFrom(ctx, vectorIndexType, out)
	diags.Append(dg...)
	return m, diags
}

// inlineFiltersList is the reported inline filters, in the prior order when they are the same set: the order
// means nothing to DynamoDB, which reports them as created.
func inlineFiltersList(ctx context.Context, got []dynamo.KeyAttribute, prior types.List, diags *diag.Diagnostics) types.List {
	if !prior.IsNull() && !prior.IsUnknown() {
		var before []indexKeyModel
		if d := prior.ElementsAs(ctx, &before, false); !d.HasError() && len(before) == len(got) &&
			!slices.ContainsFunc(keyAttributes(before...), func(k dynamo.KeyAttribute) bool { return !slices.Contains(got, k) }) {
			return prior
		}
	}
	if len(got) == 0 {
		return types.ListNull(searchSchemaType)
	}
	filters := make([]indexKeyModel, 0, len(got))
	for _, k := range got {
		filters = append(filters, indexKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)})
	}
	list, d := types.ListValueFrom(ctx, searchSchemaType, filters)
	diags.Append(d...)
	return list
}

// refuseVectorIndexes reports, on their attributes, the vector indexes DynamoDB would refuse: on a
// PROVISIONED table, more than the table holds, dimensions out of range, and indexes that share a vector
// attribute with other dimensions. Rules DK504–DK506 fail the plan for each of these while they are enforced;
// with enforce = false (or the rule disabled) they are warnings, and this check stops the apply before any
// API call instead, so that no table is created or changed half-way.
func refuseVectorIndexes(t dynamo.Table) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(t.VectorIndexes) == 0 {
		return diags
	}
	at := path.Root("vector_indexes")
	if t.BillingMode == dynamo.BillingProvisioned {
		diags.AddAttributeError(path.Root("billing_mode"), "Vector indexes need an on-demand table",
			"DynamoDB creates vector indexes on PAY_PER_REQUEST tables only (rule DK504), and this table is PROVISIONED. Set billing_mode = "+
				"\"PAY_PER_REQUEST\", or remove vector_indexes. Nothing was changed.")
	}
	if n := len(t.VectorIndexes); int64(n) > model.MaxVectorIndexes {
		diags.AddAttributeError(at, "Too many vector indexes",
			fmt.Sprintf("vector_indexes has %d indexes; a DynamoDB table holds at most %s (rule DK505). Nothing was changed.", n, limitText(model.MaxVectorIndexes)))
	}
	first := map[string]dynamo.VectorIndex{}
	for _, v := range t.VectorIndexes {
		dims := at.AtMapKey(v.Name).AtName("dimensions")
		if v.Dimensions < model.MinVectorDimensions || v.Dimensions > model.MaxVectorDimensions {
			diags.AddAttributeError(dims, "Vector dimensions out of range",
				fmt.Sprintf("vector index %s has %d dimensions; DynamoDB takes %s to %s (rule DK506). Nothing was changed.",
					v.Name, v.Dimensions, limitText(model.MinVectorDimensions), limitText(model.MaxVectorDimensions)))
		}
		if other, ok := first[v.VectorAttribute]; ok && other.Dimensions != v.Dimensions {
			diags.AddAttributeError(dims, "Vector indexes on one attribute with other dimensions",
				fmt.Sprintf("vector indexes %s and %s both read %q but have %d and %d dimensions; DynamoDB requires the same (rule DK506). "+
					"Nothing was changed.", other.Name, v.Name, v.VectorAttribute, other.Dimensions, v.Dimensions))
		} else if !ok {
			first[v.VectorAttribute] = v
		}
	}
	return diags
}
