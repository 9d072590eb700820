package provider

import (
	"context"
	"fmt"
	"math/big"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

// Table settings beyond keys and indexes: point-in-time recovery, stream, server-side encryption, on-demand
// caps, warm throughput, Contributor Insights and the autoscaling range (the last four per GSI too). Each is
// a nested object. Null means the default (off, the AWS owned key, no cap) and reads back as null while the
// table has it, so a table without them shows no diff; on-demand caps that are configured but gone read back
// as a block of nulls, so the plan sets them again. Warm throughput and the autoscaling range are not
// managed when null.

// The recovery period's bounds: the default is also the longest period.
var (
	minRecoveryDays = dynamo.MinRecoveryPeriodDays
	maxRecoveryDays = dynamo.DefaultRecoveryPeriodDays
)

// streamViewTypes are the stream record contents DynamoDB offers.
var streamViewTypes = []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}

// contributorInsightsModes are the modes of CloudWatch Contributor Insights for DynamoDB.
var contributorInsightsModes = []string{"ACCESSED_AND_THROTTLED_KEYS", "THROTTLED_KEYS"}

// kmsKeyARN matches a KMS key ARN. Aliases and key ids are refused: DynamoDB reports the key's ARN, so any
// other form would show a change on every plan.
var kmsKeyARN = regexp.MustCompile(`^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[A-Za-z0-9-]+$`)

type pitrModel struct {
	Enabled              types.Bool   `tfsdk:"enabled"`
	RecoveryPeriodInDays types.Number `tfsdk:"recovery_period_in_days"`
}

type streamModel struct {
	Enabled  types.Bool   `tfsdk:"enabled"`
	ViewType types.String `tfsdk:"view_type"`
}

type encryptionModel struct {
	Enabled   types.Bool   `tfsdk:"enabled"`
	KMSKeyARN types.String `tfsdk:"kms_key_arn"`
}

type onDemandModel struct {
	MaxRead  types.Number `tfsdk:"max_read_request_units"`
	MaxWrite types.Number `tfsdk:"max_write_request_units"`
}

type insightsModel struct {
	Mode types.String `tfsdk:"mode"`
}

type autoscalingModel struct {
	Read  types.Object `tfsdk:"read"`
	Write types.Object `tfsdk:"write"`
}

type capacityRangeModel struct {
	Min types.Number `tfsdk:"min"`
	Max types.Number `tfsdk:"max"`
}

type warmModel struct {
	Read  types.Number `tfsdk:"read_units_per_second"`
	Write types.Number `tfsdk:"write_units_per_second"`
}

var (
	// The attribute types of the settings, read from their schema so that the two cannot drift apart.
	pitrAttrTypes       = settingAttrTypes("point_in_time_recovery")
	streamAttrTypes     = settingAttrTypes("stream")
	encryptionAttrTypes = settingAttrTypes("server_side_encryption")
	onDemandAttrTypes   = settingAttrTypes("on_demand_throughput")
	warmAttrTypes       = settingAttrTypes("warm_throughput")
	insightsAttrTypes   = settingAttrTypes("contributor_insights")
)

func unitsAttribute(desc string) rschema.NumberAttribute {
	return rschema.NumberAttribute{Optional: true, Description: desc, Validators: []validator.Number{wholeNumberValidator()}}
}

// tableSettingsAttributes are the schema of the settings in this file.
func tableSettingsAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"point_in_time_recovery": rschema.SingleNestedAttribute{Optional: true,
			Description: "Continuous backups that restore the table to any second of the recovery period. Omitted: off.",
			Attributes: map[string]rschema.Attribute{
				"enabled": rschema.BoolAttribute{Required: true, Description: "Whether point-in-time recovery is on."},
				"recovery_period_in_days": rschema.NumberAttribute{Optional: true,
					Description: fmt.Sprintf("Days of recovery, %d to %d. Omit it for DynamoDB's default of %d days.", minRecoveryDays, maxRecoveryDays, maxRecoveryDays),
					Validators:  []validator.Number{wholeNumberValidator()}},
			}},
		"stream": rschema.SingleNestedAttribute{Optional: true,
			Description: "DynamoDB Streams: a time-ordered log of item changes, for Lambda triggers and change data capture. Changing " +
				"view_type disables the stream and enables it again in the same apply, which gives it a new stream_arn.",
			Attributes: map[string]rschema.Attribute{
				"enabled": rschema.BoolAttribute{Required: true, Description: "Whether the stream is on."},
				"view_type": rschema.StringAttribute{Optional: true,
					Description: "What each stream record holds: KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES. Required when enabled.",
					Validators:  []validator.String{stringvalidator.OneOf(streamViewTypes...)}},
			}},
		"stream_arn": rschema.StringAttribute{Computed: true,
			Description: "ARN of the enabled stream, e.g. for an aws_lambda_event_source_mapping; null while the stream is off. A stream " +
				"enabled again, or with a new view_type, has a new ARN."},
		"stream_label": rschema.StringAttribute{Computed: true, Description: "Timestamp label of the enabled stream; null while the stream is off."},
		"server_side_encryption": rschema.SingleNestedAttribute{Optional: true,
			Description: "Encryption at rest. Omitted or enabled = false: the AWS owned key (the default, no charge). enabled = true " +
				"without kms_key_arn: the AWS managed key aws/dynamodb. With kms_key_arn: that customer managed key. Switching keys " +
				"is an in-place update.",
			Attributes: map[string]rschema.Attribute{
				"enabled": rschema.BoolAttribute{Required: true, Description: "Whether a KMS key (AWS managed or customer managed) encrypts the table."},
				"kms_key_arn": rschema.StringAttribute{Optional: true,
					Description: "ARN of a customer managed KMS key (arn:aws:kms:REGION:ACCOUNT:key/ID). Aliases and key ids are refused: " +
						"DynamoDB reports the key ARN, so another form would show a change on every plan; use e.g. aws_kms_key.x.arn.",
					Validators: []validator.String{stringvalidator.RegexMatches(kmsKeyARN,
						"must be a KMS key ARN such as arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab (not an alias or key id)")}},
			}},
		"on_demand_throughput": onDemandAttribute("an on-demand table"),
		"warm_throughput":      warmAttribute("table"),
		"contributor_insights": contributorInsightsAttribute("table"),
		"autoscaling":          autoscalingAttribute("table"),
	}
}

// settingAttrTypes are the attribute types of one nested setting of tableSettingsAttributes.
func settingAttrTypes(name string) map[string]attr.Type {
	a, ok := tableSettingsAttributes()[name].(rschema.SingleNestedAttribute)
	if !ok {
		panic("settingAttrTypes: " + name + " is not a nested setting") // a programming error, caught by every test
	}
	return objectType(a.Attributes).AttrTypes
}

// onDemandAttribute, warmAttribute, contributorInsightsAttribute and autoscalingAttribute are shared by the
// table and each GSI.
func onDemandAttribute(what string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "Caps of " + what + "'s request units per second (PAY_PER_REQUEST only), a guard against runaway cost. " +
			"Omit a side to leave it uncapped. Traffic above a cap is throttled: rule DK601 compares the design's peak with it.",
		Attributes: map[string]rschema.Attribute{
			"max_read_request_units":  unitsAttribute("Most read request units per second."),
			"max_write_request_units": unitsAttribute("Most write request units per second."),
		}}
}

func warmAttribute(what string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "Throughput the " + what + " is pre-warmed to serve at once, e.g. before a launch. It can only grow: a " + what +
			" that is already warmer than configured shows no change. Rule DK602 counts it against the design's peak.",
		Attributes: map[string]rschema.Attribute{
			"read_units_per_second":  unitsAttribute("Read units per second served at once."),
			"write_units_per_second": unitsAttribute("Write units per second served at once."),
		}}
}

func contributorInsightsAttribute(what string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "CloudWatch Contributor Insights on the " + what + ": the most accessed and most throttled partition keys, which is " +
			"how to find the hot keys that rules DK301, DK303 and DK501 warn about. Omitted: off.",
		Attributes: map[string]rschema.Attribute{
			"mode": rschema.StringAttribute{Required: true,
				Description: "ACCESSED_AND_THROTTLED_KEYS (every key's traffic) or THROTTLED_KEYS (only keys that were throttled, cheaper).",
				Validators:  []validator.String{stringvalidator.OneOf(contributorInsightsModes...)}},
		}}
}

func autoscalingAttribute(what string) rschema.SingleNestedAttribute {
	rangeOf := func(side string) rschema.SingleNestedAttribute {
		return rschema.SingleNestedAttribute{Optional: true,
			Description: "Range an application autoscaling target gives the " + side + " capacity.",
			Attributes: map[string]rschema.Attribute{
				"min": rschema.NumberAttribute{Required: true, Description: "The target's min_capacity.", Validators: []validator.Number{wholeNumberValidator()}},
				"max": rschema.NumberAttribute{Required: true, Description: "The target's max_capacity.", Validators: []validator.Number{wholeNumberValidator()}},
			}}
	}
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "The autoscaling range of the " + what + "'s provisioned capacity, when an aws_appautoscaling_target manages it " +
			"(PROVISIONED only). A side with a range belongs to the autoscaler: the capacity it sets is not reverted and shows no diff, " +
			"and rule DK603 compares peak demand with max instead of the configured capacity, which is used only when the " + what + " is created.",
		Attributes: map[string]rschema.Attribute{"read": rangeOf("read"), "write": rangeOf("write")},
	}
}

// validateTableSettings reports settings that contradict each other.
func validateTableSettings(ctx context.Context, m shardedTableModel, provisioned bool, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) && !p.RecoveryPeriodInDays.IsNull() && !p.RecoveryPeriodInDays.IsUnknown() {
		days := p.RecoveryPeriodInDays.ValueBigFloat()
		if days.Cmp(big.NewFloat(float64(minRecoveryDays))) < 0 || days.Cmp(big.NewFloat(float64(maxRecoveryDays))) > 0 {
			diags.AddAttributeError(path.Root("point_in_time_recovery").AtName("recovery_period_in_days"), "Invalid recovery period",
				fmt.Sprintf("point_in_time_recovery.recovery_period_in_days must be from %d to %d days, got %s.", minRecoveryDays, maxRecoveryDays, days.Text('g', 10)))
		}
	}
	var s streamModel
	if objectAs(ctx, m.Stream, &s, diags) && s.Enabled.ValueBool() && s.ViewType.IsNull() {
		diags.AddAttributeError(path.Root("stream").AtName("view_type"), "Missing stream view type",
			"stream.view_type is required when stream.enabled = true: one of KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES.")
	}
	var e encryptionModel
	if objectAs(ctx, m.ServerSideEncryption, &e, diags) && !e.Enabled.IsUnknown() && !e.Enabled.ValueBool() && !e.KMSKeyARN.IsNull() {
		diags.AddAttributeError(path.Root("server_side_encryption").AtName("kms_key_arn"), "KMS key without encryption",
			"server_side_encryption.kms_key_arn applies only with enabled = true; set enabled = true or remove the key.")
	}
	validateThroughputSettings(ctx, path.Empty(), "the table", m.OnDemandThroughput, m.Autoscaling, m.ReadCapacity, m.WriteCapacity, provisioned, diags)
	validateUnits(path.Empty(), "the table", map[string]types.Object{"on_demand_throughput": m.OnDemandThroughput, "warm_throughput": m.WarmThroughput}, diags)
}

// validateUnits checks that every figure of the on-demand caps and warm throughput of the table (at the
// root) or of a GSI (at its path) is at least 1.
func validateUnits(at path.Path, what string, settings map[string]types.Object, diags *diag.Diagnostics) {
	for name, v := range settings {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		for attrName, a := range v.Attributes() {
			n, ok := a.(types.Number)
			if !ok || n.IsNull() || n.IsUnknown() || n.ValueBigFloat().Cmp(big.NewFloat(1)) >= 0 {
				continue
			}
			p := path.Root(name).AtName(attrName)
			if len(at.Steps()) > 0 {
				p = at.AtName(name).AtName(attrName)
			}
			diags.AddAttributeError(p, "Invalid units",
				fmt.Sprintf("%s.%s of %s must be at least 1 unit; omit it for no figure.", name, attrName, what))
		}
	}
}

// validateThroughputSettings checks the on-demand caps and the autoscaling range of the table (at the root)
// or of a GSI (at its path) against its billing mode and capacity.
func validateThroughputSettings(ctx context.Context, at path.Path, what string, onDemand, autoscaling types.Object, read, write types.Number, provisioned bool, diags *diag.Diagnostics) {
	attrPath := func(name string) path.Path {
		if len(at.Steps()) == 0 {
			return path.Root(name)
		}
		return at.AtName(name)
	}
	if provisioned && !onDemand.IsNull() && !onDemand.IsUnknown() {
		diags.AddAttributeError(attrPath("on_demand_throughput"), "On-demand caps on a provisioned table",
			fmt.Sprintf("on_demand_throughput of %s applies only to billing_mode = \"PAY_PER_REQUEST\"; provisioned capacity is capped by itself.", what))
	}
	var a autoscalingModel
	if !objectAs(ctx, autoscaling, &a, diags) {
		return
	}
	if !provisioned {
		diags.AddAttributeError(attrPath("autoscaling"), "Autoscaling on an on-demand table",
			fmt.Sprintf("autoscaling of %s describes an application autoscaling target of provisioned capacity; remove it or set billing_mode = \"PROVISIONED\".", what))
		return
	}
	for side, capacity := range map[string]types.Number{"read": read, "write": write} {
		rangeObj := a.Read
		if side == "write" {
			rangeObj = a.Write
		}
		var r capacityRangeModel
		if !objectAs(ctx, rangeObj, &r, diags) {
			continue
		}
		lo, hi, c := int64Ptr(r.Min), int64Ptr(r.Max), int64Ptr(capacity)
		switch {
		case lo != nil && hi != nil && (*lo < 1 || *lo > *hi):
			diags.AddAttributeError(attrPath("autoscaling").AtName(side), "Invalid autoscaling range",
				fmt.Sprintf("autoscaling.%s of %s needs 1 <= min <= max, got min %d and max %d.", side, what, *lo, *hi))
		case lo != nil && hi != nil && c != nil && (*c < *lo || *c > *hi):
			diags.AddAttributeError(attrPath(side+"_capacity"), "Capacity outside the autoscaling range",
				fmt.Sprintf("%s_capacity of %s is %d, outside its autoscaling range %d to %d: the autoscaler would move it at once. Set it within the range (it is the capacity at creation).",
					side, what, *c, *lo, *hi))
		}
	}
}

// objectAs decodes a known, non-null object; false otherwise.
func objectAs(ctx context.Context, v types.Object, target any, diags *diag.Diagnostics) bool {
	if v.IsNull() || v.IsUnknown() {
		return false
	}
	d := v.As(ctx, target, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})
	diags.Append(d...)
	return !d.HasError()
}

// expandTableSettings sets the settings of a known plan on t. Null settings mean the defaults: no stream, the
// AWS owned key, no on-demand cap; a null warm throughput is not managed.
func expandTableSettings(ctx context.Context, m shardedTableModel, t *dynamo.Table, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) {
		t.PointInTimeRecovery = &dynamo.PITR{Enabled: p.Enabled.ValueBool()}
		if days := int64Ptr(p.RecoveryPeriodInDays); days != nil {
			t.PointInTimeRecovery.RecoveryPeriodDays = aws.Int32(int32(*days))
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
			days = int64Value(aws.Int64(int64(*reported))) // the default stays null when the configuration omits it
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
		key := types.StringValue(t.Encryption.KMSKeyARN)
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
func throughputFacts(ctx context.Context, m shardedTableModel, diags *diag.Diagnostics) (*keydesign.UnitPair, *keydesign.UnitPair, *keydesign.Autoscaling) {
	return throughputFactsOf(ctx, m.OnDemandThroughput, m.WarmThroughput, m.Autoscaling, diags)
}

// throughputFactsOf reads the on-demand caps, warm throughput and autoscaling range of a table or an index.
func throughputFactsOf(ctx context.Context, onDemandV, warmV, autoscalingV types.Object, diags *diag.Diagnostics) (*keydesign.UnitPair, *keydesign.UnitPair, *keydesign.Autoscaling) {
	caps, warmth := expandThroughputs(ctx, onDemandV, warmV, diags)
	pair := func(t *dynamo.Throughput) *keydesign.UnitPair {
		if t == nil {
			return nil
		}
		return &keydesign.UnitPair{Read: t.Read, Write: t.Write}
	}
	onDemand, warm := pair(caps), pair(warmth)
	var a autoscalingModel
	if !objectAs(ctx, autoscalingV, &a, diags) {
		return onDemand, warm, nil
	}
	rangeOf := func(v types.Object) *keydesign.CapacityRange {
		var r capacityRangeModel
		if !objectAs(ctx, v, &r, diags) {
			return nil
		}
		lo, hi := int64Ptr(r.Min), int64Ptr(r.Max)
		if lo == nil || hi == nil {
			return nil
		}
		return &keydesign.CapacityRange{Min: *lo, Max: *hi}
	}
	return onDemand, warm, &keydesign.Autoscaling{Read: rangeOf(a.Read), Write: rangeOf(a.Write)}
}
