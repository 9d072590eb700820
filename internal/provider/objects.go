package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Nested objects are read into and written from model structs (tfsdk tags, framework value fields), never
// built from attribute-name strings: objectAs reads one, objectFrom writes one.

// objectAs decodes a known, non-null object into the model target points to; false when v is null or
// unknown or does not decode (its diagnostics appended). Values unknown inside v stay unknown in the model.
func objectAs[T any](ctx context.Context, v types.Object, target *T, diags *diag.Diagnostics) bool {
	if v.IsNull() || v.IsUnknown() {
		return false
	}
	d := v.As(ctx, target, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})
	diags.Append(d...)
	return !d.HasError()
}

// objectFrom is the known object of the given attribute types that holds model (a struct with tfsdk tags).
func objectFrom(ctx context.Context, attrTypes map[string]attr.Type, model any, diags *diag.Diagnostics) types.Object {
	v, d := types.ObjectValueFrom(ctx, attrTypes, model)
	diags.Append(d...)
	return v
}

// objectOrNull is v, or a null object of typ when v is null or unknown.
func objectOrNull(v types.Object, typ types.ObjectType) types.Object {
	if v.IsNull() || v.IsUnknown() {
		return types.ObjectNull(typ.AttrTypes)
	}
	return v
}
