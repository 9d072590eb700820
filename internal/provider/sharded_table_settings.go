package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

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
	if v.IsNull() || v.IsUnknown() || v.As(ctx, &a, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}).HasError() {
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

// flattenIndexSettings fills an index's settings into values, the attributes of the index being built from
// the table as read: caps and Contributor Insights as reported (the prior ones when not reported), warm
// throughput as in flattenTableSettings, the autoscaling range as configured (it is design metadata).
func flattenIndexSettings(ctx context.Context, idx dynamo.Index, before gsiModel, values map[string]attr.Value, diags *diag.Diagnostics) {
	values["autoscaling"] = objectOrNull(before.Autoscaling, autoscalingType)
	values["on_demand_throughput"] = objectOrNull(before.OnDemandThroughput, types.ObjectType{AttrTypes: onDemandAttrTypes})
	if idx.OnDemand != nil {
		values["on_demand_throughput"] = onDemandValue(*idx.OnDemand, diags)
	}
	values["warm_throughput"] = warmValue(ctx, before.WarmThroughput, idx.Warm, diags)
	values["contributor_insights"] = insightsValue(idx.ContributorInsights, before.ContributorInsights, diags)
}

var autoscalingType = objectType(autoscalingAttribute("").Attributes)

func objectOrNull(v types.Object, typ types.ObjectType) types.Object {
	if v.IsNull() || v.IsUnknown() {
		return types.ObjectNull(typ.AttrTypes)
	}
	return v
}

func onDemandValue(t dynamo.Throughput, diags *diag.Diagnostics) types.Object {
	v, dg := types.ObjectValue(onDemandAttrTypes, map[string]attr.Value{
		"max_read_request_units": int64Value(t.Read), "max_write_request_units": int64Value(t.Write)})
	diags.Append(dg...)
	return v
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
	v, dg := types.ObjectValue(warmAttrTypes, map[string]attr.Value{
		"read_units_per_second": atLeast(w.Read, reported.Read), "write_units_per_second": atLeast(w.Write, reported.Write)})
	diags.Append(dg...)
	return v
}

// insightsValue is the Contributor Insights mode as reported: null when off, the prior value when the
// endpoint does not report it.
func insightsValue(reported *string, prior types.Object, diags *diag.Diagnostics) types.Object {
	switch {
	case reported == nil:
		return objectOrNull(prior, types.ObjectType{AttrTypes: insightsAttrTypes})
	case *reported == "":
		return types.ObjectNull(insightsAttrTypes)
	}
	v, dg := types.ObjectValue(insightsAttrTypes, map[string]attr.Value{"mode": types.StringValue(*reported)})
	diags.Append(dg...)
	return v
}

// flattenTableSettings writes what DynamoDB reports, keeping null for defaults the configuration does not
// mention, and the configured form where the report cannot tell (the AWS managed key's ARN, a table warmer
// than configured).
func flattenTableSettings(ctx context.Context, t *dynamo.Table, m *shardedTableModel, diags *diag.Diagnostics) {
	var dg diag.Diagnostics
	var priorPITR pitrModel
	hadPITR := objectAs(ctx, m.PointInTimeRecovery, &priorPITR, diags)
	switch p := t.PointInTimeRecovery; {
	case p == nil: // the endpoint does not report it: keep what the state says
	case p.Enabled:
		days := priorPITR.RecoveryPeriodInDays
		if reported := p.RecoveryPeriodDays; reported != nil && (!days.IsNull() || *reported != maxRecoveryDays) {
			days = int64Value(new(int64(*reported))) // the default stays null when the configuration omits it
		}
		if days.IsUnknown() {
			days = types.NumberNull()
		}
		m.PointInTimeRecovery, dg = types.ObjectValue(pitrAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "recovery_period_in_days": days})
	case hadPITR:
		m.PointInTimeRecovery, dg = types.ObjectValue(pitrAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(false), "recovery_period_in_days": priorPITR.RecoveryPeriodInDays})
	default:
		m.PointInTimeRecovery = types.ObjectNull(pitrAttrTypes)
	}
	diags.Append(dg...)
	stream := dynamo.Stream{}
	if t.Stream != nil {
		stream = *t.Stream
	}
	m.StreamARN, m.StreamLabel = types.StringNull(), types.StringNull()
	var prior streamModel
	switch {
	case stream.Enabled:
		m.Stream, dg = types.ObjectValue(streamAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "view_type": types.StringValue(stream.ViewType)})
		m.StreamARN, m.StreamLabel = types.StringValue(t.StreamARN), types.StringValue(t.StreamLabel)
	case objectAs(ctx, m.Stream, &prior, diags):
		m.Stream, dg = types.ObjectValue(streamAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(false), "view_type": prior.ViewType})
	default:
		m.Stream = types.ObjectNull(streamAttrTypes)
	}
	diags.Append(dg...)

	var priorEnc encryptionModel
	hadEnc := objectAs(ctx, m.ServerSideEncryption, &priorEnc, diags)
	switch {
	case t.Encryption != nil && t.Encryption.Enabled:
		key := stringOrNull(t.Encryption.KMSKeyARN)
		if hadEnc && priorEnc.KMSKeyARN.IsNull() {
			key = types.StringNull() // the AWS managed key, which the configuration does not name
		}
		m.ServerSideEncryption, dg = types.ObjectValue(encryptionAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "kms_key_arn": key})
	case hadEnc:
		m.ServerSideEncryption, dg = types.ObjectValue(encryptionAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(false), "kms_key_arn": types.StringNull()})
	default:
		m.ServerSideEncryption = types.ObjectNull(encryptionAttrTypes)
	}
	diags.Append(dg...)

	switch {
	case t.OnDemand != nil:
		m.OnDemandThroughput = onDemandValue(*t.OnDemand, diags)
	case !m.OnDemandThroughput.IsNull() && !m.OnDemandThroughput.IsUnknown():
		// Configured, but the table has no cap: show the caps as gone, so the plan sets them again.
		m.OnDemandThroughput = onDemandValue(dynamo.Throughput{}, diags)
	}
	m.WarmThroughput = warmValue(ctx, m.WarmThroughput, t.Warm, diags)
	m.ContributorInsights = insightsValue(t.ContributorInsights, m.ContributorInsights, diags)
	m.Autoscaling = objectOrNull(m.Autoscaling, autoscalingType)
}
