package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The plan modifiers that replace the table (a new name, a table key's name or type, the sort key added or
// removed, any LSI change) are the one statement of what replaces it. Each is wrapped so that a replacement
// of a table with deletion protection on fails the plan at once, naming the attribute, instead of at apply,
// where DynamoDB would refuse to delete the table.

type protectedString struct{ planmodifier.String }

func (m protectedString) wrapped() any { return m.String }

func (m protectedString) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	m.String.PlanModifyString(ctx, req, resp)
	refuseProtectedReplacement(ctx, req.State, req.Path, resp.RequiresReplace, &resp.Diagnostics)
}

type protectedObject struct{ planmodifier.Object }

func (m protectedObject) wrapped() any { return m.Object }

func (m protectedObject) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	m.Object.PlanModifyObject(ctx, req, resp)
	refuseProtectedReplacement(ctx, req.State, req.Path, resp.RequiresReplace, &resp.Diagnostics)
}

type protectedMap struct{ planmodifier.Map }

func (m protectedMap) wrapped() any { return m.Map }

func (m protectedMap) PlanModifyMap(ctx context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	m.Map.PlanModifyMap(ctx, req, resp)
	refuseProtectedReplacement(ctx, req.State, req.Path, resp.RequiresReplace, &resp.Diagnostics)
}

// refuseProtectedReplacement fails the plan when it replaces a table whose state has deletion protection on.
// A data source has no state and no deletion protection: nothing to refuse.
func refuseProtectedReplacement(ctx context.Context, state tfsdk.State, at path.Path, replaces bool, diags *diag.Diagnostics) {
	if !replaces || state.Raw.IsNull() {
		return
	}
	var protected types.Bool
	var name types.String
	diags.Append(state.GetAttribute(ctx, path.Root("deletion_protection"), &protected)...)
	if !protected.ValueBool() {
		return
	}
	diags.Append(state.GetAttribute(ctx, path.Root("name"), &name)...)
	diags.AddAttributeError(at, "Replacement blocked by deletion protection",
		fmt.Sprintf("This change of %s replaces table %s, but the table has deletion_protection = true. "+
			"Set deletion_protection = false and apply first, then apply the change.", at, name.ValueString()))
}
