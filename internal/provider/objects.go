package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// objectAs decodes a known, non-null object; false otherwise.
func objectAs(ctx context.Context, v types.Object, target any, diags *diag.Diagnostics) bool {
	if v.IsNull() || v.IsUnknown() {
		return false
	}
	d := v.As(ctx, target, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})
	diags.Append(d...)
	return !d.HasError()
}
