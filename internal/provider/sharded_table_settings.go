package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

// expandTableSettings sets the settings of a known plan on t. Null settings mean the defaults: no stream, the
// AWS owned key, no on-demand cap; a null warm throughput is not managed.
func expandTableSettings(ctx context.Context, m shardedTableModel, t *dynamo.Table, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) {
		t.PointInTimeRecovery = &dynamo.PITR{Enabled: p.Enabled.ValueBool()}
		if days := int64Ptr(p.RecoveryPeriodInDays); days != nil {
			t.PointInTimeRecovery.RecoveryPeriodDays = new(int32(*days))
		}
	} else if m.PointInTimeRecovery.IsNull() {
		t.PointInTimeRecovery = &dynamo.PITR{} // omitted: off
	}
	var s streamModel
	if objectAs(ctx, m.Stream, &s, diags) {
		t.Stream = &dynamo.Stream{Enabled: s.Enabled.ValueBool(), ViewType: s.ViewType.ValueString()}
	}
	var e encryptionModel
	if objectAs(ctx, m.ServerSideEncryption, &e, diags) {
		t.Encryption = &dynamo.Encryption{Enabled: e.Enabled.ValueBool(), KMSKeyARN: e.KMSKeyARN.ValueString()}
	}
	t.OnDemand, t.Warm = expandThroughputs(ctx, m.OnDemandThroughput, m.WarmThroughput, diags)
	t.ContributorInsights = expandInsights(ctx, m.ContributorInsights, diags)
	read, write := autoscaledSides(ctx, m.Autoscaling)
	t.Autoscaled = dynamo.Autoscaled{Read: read, Write: write}
}

// expandIndexSettings sets an index's on-demand caps, warm throughput, Contributor Insights and autoscaled
// sides.
func expandIndexSettings(ctx context.Context, g gsiModel, idx *dynamo.Index, diags *diag.Diagnostics) {
	idx.OnDemand, idx.Warm = expandThroughputs(ctx, g.OnDemandThroughput, g.WarmThroughput, diags)
	idx.ContributorInsights = expandInsights(ctx, g.ContributorInsights, diags)
	read, write := autoscaledSides(ctx, g.Autoscaling)
	idx.Autoscaled = dynamo.Autoscaled{Read: read, Write: write}
}

func expandThroughputs(ctx context.Context, onDemand, warm types.Object, diags *diag.Diagnostics) (*dynamo.Throughput, *dynamo.Throughput) {
	var o onDemandModel
	var w warmModel
	var caps, warmth *dynamo.Throughput
	if objectAs(ctx, onDemand, &o, diags) {
		caps = &dynamo.Throughput{Read: int64Ptr(o.MaxRead), Write: int64Ptr(o.MaxWrite)}
	}
	if objectAs(ctx, warm, &w, diags) {
		warmth = &dynamo.Throughput{Read: int64Ptr(w.Read), Write: int64Ptr(w.Write)}
	}
	return caps, warmth
}

// expandInsights: omitted is off ("").
func expandInsights(ctx context.Context, v types.Object, diags *diag.Diagnostics) *string {
	var ci insightsModel
	mode := ""
	if objectAs(ctx, v, &ci, diags) {
		mode = ci.Mode.ValueString()
	}
	return &mode
}

// autoscaledSides says which capacity sides have an autoscaling range.
func autoscaledSides(ctx context.Context, v types.Object) (read, write bool) {
	var a autoscalingModel
	var ignored diag.Diagnostics // a range that does not decode is reported by validation
	if !objectAs(ctx, v, &a, &ignored) {
		return false, false
	}
	return !a.Read.IsNull(), !a.Write.IsNull()
}

// keepIfAutoscaled is the capacity to record: the configured one for a side the autoscaler owns (whatever
// it has set now, so there is no diff to revert), else the reported one (the prior one when not reported).
func keepIfAutoscaled(reported *int64, prior types.Number, autoscaled bool) types.Number {
	if autoscaled && !prior.IsNull() && !prior.IsUnknown() {
		return prior
	}
	return reportedOr(reported, prior)
}

// flattenIndexSettings sets an index's settings in g, the index as read: caps and Contributor Insights as
// reported (the prior ones when not reported), warm throughput as in flattenTableSettings, the autoscaling
// range as configured (it is design metadata). before is the index's prior model.
func flattenIndexSettings(ctx context.Context, idx dynamo.Index, before gsiModel, g *gsiModel, diags *diag.Diagnostics) {
	g.Autoscaling = objectOrNull(before.Autoscaling, autoscalingType)
	g.OnDemandThroughput = objectOrNull(before.OnDemandThroughput, types.ObjectType{AttrTypes: onDemandAttrTypes})
	if idx.OnDemand != nil {
		g.OnDemandThroughput = onDemandValue(ctx, *idx.OnDemand, diags)
	}
	g.WarmThroughput = warmValue(ctx, before.WarmThroughput, idx.Warm, diags)
	g.ContributorInsights = insightsValue(ctx, idx.ContributorInsights, before.ContributorInsights, diags)
}

func onDemandValue(ctx context.Context, t dynamo.Throughput, diags *diag.Diagnostics) types.Object {
	return objectFrom(ctx, onDemandAttrTypes, onDemandModel{MaxRead: int64Value(t.Read), MaxWrite: int64Value(t.Write)}, diags)
}

// warmValue keeps a configured warm throughput the object has reached (it only grows) and shows the real
// figure of a side below it; an unconfigured one stays null.
func warmValue(ctx context.Context, prior types.Object, have *dynamo.Throughput, diags *diag.Diagnostics) types.Object {
	var w warmModel
	if !objectAs(ctx, prior, &w, diags) {
		return types.ObjectNull(warmAttrTypes)
	}
	reported := dynamo.Throughput{}
	if have != nil {
		reported = *have
	}
	atLeast := func(want types.Number, got *int64) types.Number {
		n := int64Ptr(want)
		if n == nil || got == nil || *got >= *n {
			return want // satisfied, or not reported
		}
		return int64Value(got)
	}
	return objectFrom(ctx, warmAttrTypes, warmModel{Read: atLeast(w.Read, reported.Read), Write: atLeast(w.Write, reported.Write)}, diags)
}

// insightsValue is the Contributor Insights mode as reported: null when off, the prior value when the
// endpoint does not report it.
func insightsValue(ctx context.Context, reported *string, prior types.Object, diags *diag.Diagnostics) types.Object {
	switch {
	case reported == nil:
		return objectOrNull(prior, types.ObjectType{AttrTypes: insightsAttrTypes})
	case *reported == "":
		return types.ObjectNull(insightsAttrTypes)
	}
	return objectFrom(ctx, insightsAttrTypes, insightsModel{Mode: types.StringValue(*reported)}, diags)
}

// flattenTableSettings writes what DynamoDB reports, keeping null for defaults the configuration does not
// mention, and the configured form where the report cannot tell (the AWS managed key's ARN, a table warmer
// than configured).
func flattenTableSettings(ctx context.Context, t *dynamo.Table, m *shardedTableModel, diags *diag.Diagnostics) {
	var pitr pitrModel
	hadPITR := objectAs(ctx, m.PointInTimeRecovery, &pitr, diags)
	switch p := t.PointInTimeRecovery; {
	case p == nil: // the endpoint does not report it: keep what the state says
	case p.Enabled:
		if reported := p.RecoveryPeriodDays; reported != nil && (!pitr.RecoveryPeriodInDays.IsNull() || *reported != dynamo.MaxRecoveryPeriodDays) {
			pitr.RecoveryPeriodInDays = int64Value(new(int64(*reported))) // the default stays null when the configuration omits it
		}
		if pitr.RecoveryPeriodInDays.IsUnknown() {
			pitr.RecoveryPeriodInDays = types.NumberNull()
		}
		pitr.Enabled = types.BoolValue(true)
		m.PointInTimeRecovery = objectFrom(ctx, pitrAttrTypes, pitr, diags)
	case hadPITR:
		pitr.Enabled = types.BoolValue(false)
		m.PointInTimeRecovery = objectFrom(ctx, pitrAttrTypes, pitr, diags)
	default:
		m.PointInTimeRecovery = types.ObjectNull(pitrAttrTypes)
	}

	stream := dynamo.Stream{}
	if t.Stream != nil {
		stream = *t.Stream
	}
	m.StreamARN, m.StreamLabel = types.StringNull(), types.StringNull()
	var prior streamModel
	switch {
	case stream.Enabled:
		m.Stream = objectFrom(ctx, streamAttrTypes, streamModel{Enabled: types.BoolValue(true), ViewType: types.StringValue(stream.ViewType)}, diags)
		m.StreamARN, m.StreamLabel = types.StringValue(t.StreamARN), types.StringValue(t.StreamLabel)
	case objectAs(ctx, m.Stream, &prior, diags):
		m.Stream = objectFrom(ctx, streamAttrTypes, streamModel{Enabled: types.BoolValue(false), ViewType: prior.ViewType}, diags)
	default:
		m.Stream = types.ObjectNull(streamAttrTypes)
	}

	var enc encryptionModel
	hadEnc := objectAs(ctx, m.ServerSideEncryption, &enc, diags)
	switch {
	case t.Encryption != nil && t.Encryption.Enabled:
		if !hadEnc || !enc.KMSKeyARN.IsNull() { // a null key is the AWS managed key, which the configuration does not name
			enc.KMSKeyARN = stringOrNull(t.Encryption.KMSKeyARN)
		}
		m.ServerSideEncryption = objectFrom(ctx, encryptionAttrTypes, encryptionModel{Enabled: types.BoolValue(true), KMSKeyARN: enc.KMSKeyARN}, diags)
	case hadEnc:
		m.ServerSideEncryption = objectFrom(ctx, encryptionAttrTypes, encryptionModel{Enabled: types.BoolValue(false), KMSKeyARN: types.StringNull()}, diags)
	default:
		m.ServerSideEncryption = types.ObjectNull(encryptionAttrTypes)
	}

	switch {
	case t.OnDemand != nil:
		m.OnDemandThroughput = onDemandValue(ctx, *t.OnDemand, diags)
	case !m.OnDemandThroughput.IsNull() && !m.OnDemandThroughput.IsUnknown():
		// Configured, but the table has no cap: show the caps as gone, so the plan sets them again.
		m.OnDemandThroughput = onDemandValue(ctx, dynamo.Throughput{}, diags)
	}
	m.WarmThroughput = warmValue(ctx, m.WarmThroughput, t.Warm, diags)
	m.ContributorInsights = insightsValue(ctx, t.ContributorInsights, m.ContributorInsights, diags)
	m.Autoscaling = objectOrNull(m.Autoscaling, autoscalingType)
}
