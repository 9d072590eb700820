package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// planStreamIdentity plans stream_arn and stream_label: kept while the stream stays on with the same view
// type, null while it is off, and unknown when this apply enables it (a new stream has a new ARN).
func planStreamIdentity(ctx context.Context, state *shardedTableModel, plan *shardedTableModel, diags *diag.Diagnostics) {
	if plan.Stream.IsUnknown() {
		plan.StreamARN, plan.StreamLabel = types.StringUnknown(), types.StringUnknown()
		return
	}
	var want streamModel
	if !objectAs(ctx, plan.Stream, &want, diags) || !want.Enabled.ValueBool() {
		if !want.Enabled.IsUnknown() {
			plan.StreamARN, plan.StreamLabel = types.StringNull(), types.StringNull()
			return
		}
	}
	var had streamModel
	if state != nil && objectAs(ctx, state.Stream, &had, diags) && had.Enabled.ValueBool() && want.Enabled.ValueBool() &&
		had.ViewType.Equal(want.ViewType) && !state.StreamARN.IsNull() {
		plan.StreamARN, plan.StreamLabel = state.StreamARN, state.StreamLabel
		return
	}
	plan.StreamARN, plan.StreamLabel = types.StringUnknown(), types.StringUnknown()
}
