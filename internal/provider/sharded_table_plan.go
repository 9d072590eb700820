package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
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

// throughputFacts are the table's on-demand caps, warm throughput and autoscaling range as the capacity
// rules read them.
func throughputFacts(ctx context.Context, m shardedTableModel, diags *diag.Diagnostics) (*model.UnitPair, *model.UnitPair, *model.Autoscaling) {
	return throughputFactsOf(ctx, m.OnDemandThroughput, m.WarmThroughput, m.Autoscaling, diags)
}

// throughputFactsOf reads the on-demand caps, warm throughput and autoscaling range of a table or an index.
func throughputFactsOf(ctx context.Context, onDemandV, warmV, autoscalingV types.Object, diags *diag.Diagnostics) (*model.UnitPair, *model.UnitPair, *model.Autoscaling) {
	caps, warmth := expandThroughputs(ctx, onDemandV, warmV, diags)
	pair := func(t *dynamo.Throughput) *model.UnitPair {
		if t == nil {
			return nil
		}
		return &model.UnitPair{Read: t.Read, Write: t.Write}
	}
	onDemand, warm := pair(caps), pair(warmth)
	var a autoscalingModel
	if !objectAs(ctx, autoscalingV, &a, diags) {
		return onDemand, warm, nil
	}
	rangeOf := func(v types.Object) *model.CapacityRange {
		var r capacityRangeModel
		if !objectAs(ctx, v, &r, diags) {
			return nil
		}
		lo, hi := int64Ptr(r.Min), int64Ptr(r.Max)
		if lo == nil || hi == nil {
			return nil
		}
		return &model.CapacityRange{Min: *lo, Max: *hi}
	}
	return onDemand, warm, &model.Autoscaling{Read: rangeOf(a.Read), Write: rangeOf(a.Write)}
}
