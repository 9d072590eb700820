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
)

// Table settings beyond keys and indexes: stream, server-side encryption, on-demand and warm throughput.
// Each is a nested object; null means "not configured" and is read back as null while the table has the
// default (no stream, the AWS owned key, no cap), so that a table without them shows no diff.

// The recovery period's bounds: the default is also the longest period.
const (
	minRecoveryDays = dynamo.MinRecoveryPeriodDays
	maxRecoveryDays = dynamo.DefaultRecoveryPeriodDays
)

// streamViewTypes are the stream record contents DynamoDB offers.
var streamViewTypes = []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}

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

type warmModel struct {
	Read  types.Number `tfsdk:"read_units_per_second"`
	Write types.Number `tfsdk:"write_units_per_second"`
}

var (
	pitrAttrTypes       = map[string]attr.Type{"enabled": types.BoolType, "recovery_period_in_days": types.NumberType}
	streamAttrTypes     = map[string]attr.Type{"enabled": types.BoolType, "view_type": types.StringType}
	encryptionAttrTypes = map[string]attr.Type{"enabled": types.BoolType, "kms_key_arn": types.StringType}
	onDemandAttrTypes   = map[string]attr.Type{"max_read_request_units": types.NumberType, "max_write_request_units": types.NumberType}
	warmAttrTypes       = map[string]attr.Type{"read_units_per_second": types.NumberType, "write_units_per_second": types.NumberType}
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
		"on_demand_throughput": rschema.SingleNestedAttribute{Optional: true,
			Description: "Caps of an on-demand table's request units per second (PAY_PER_REQUEST only), a guard against runaway cost. " +
				"Omit a side to leave it uncapped. Traffic above a cap is throttled: rule DK601 compares the design's peak with it.",
			Attributes: map[string]rschema.Attribute{
				"max_read_request_units":  unitsAttribute("Most read request units per second."),
				"max_write_request_units": unitsAttribute("Most write request units per second."),
			}},
		"warm_throughput": rschema.SingleNestedAttribute{Optional: true,
			Description: "Throughput the table is pre-warmed to serve at once, e.g. before a launch. It can only grow: a table that is " +
				"already warmer than configured shows no change. Rule DK602 counts it against the design's peak.",
			Attributes: map[string]rschema.Attribute{
				"read_units_per_second":  unitsAttribute("Read units per second the table serves at once."),
				"write_units_per_second": unitsAttribute("Write units per second the table serves at once."),
			}},
	}
}

// validateTableSettings reports settings that contradict each other.
func validateTableSettings(ctx context.Context, m shardedTableModel, provisioned bool, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) && !p.RecoveryPeriodInDays.IsNull() && !p.RecoveryPeriodInDays.IsUnknown() {
		days := p.RecoveryPeriodInDays.ValueBigFloat()
		if days.Cmp(big.NewFloat(minRecoveryDays)) < 0 || days.Cmp(big.NewFloat(maxRecoveryDays)) > 0 {
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
	if provisioned && !m.OnDemandThroughput.IsNull() && !m.OnDemandThroughput.IsUnknown() {
		diags.AddAttributeError(path.Root("on_demand_throughput"), "On-demand caps on a provisioned table",
			"on_demand_throughput applies only to billing_mode = \"PAY_PER_REQUEST\"; a provisioned table is capped by its capacity.")
	}
	for _, obj := range []struct {
		name string
		v    types.Object
	}{{"on_demand_throughput", m.OnDemandThroughput}, {"warm_throughput", m.WarmThroughput}} {
		if obj.v.IsNull() || obj.v.IsUnknown() {
			continue
		}
		for attrName, v := range obj.v.Attributes() {
			n, ok := v.(types.Number)
			if ok && !n.IsNull() && !n.IsUnknown() && n.ValueBigFloat().Cmp(big.NewFloat(1)) < 0 {
				diags.AddAttributeError(path.Root(obj.name).AtName(attrName), "Invalid units",
					fmt.Sprintf("%s.%s must be at least 1 unit; omit it for no figure.", obj.name, attrName))
			}
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
	var o onDemandModel
	if objectAs(ctx, m.OnDemandThroughput, &o, diags) {
		t.OnDemand = &dynamo.Throughput{Read: int64Ptr(o.MaxRead), Write: int64Ptr(o.MaxWrite)}
	}
	var w warmModel
	if objectAs(ctx, m.WarmThroughput, &w, diags) {
		t.Warm = &dynamo.Throughput{Read: int64Ptr(w.Read), Write: int64Ptr(w.Write)}
	}
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
		m.OnDemandThroughput, dg = types.ObjectValue(onDemandAttrTypes, map[string]attr.Value{
			"max_read_request_units": int64Value(t.OnDemand.Read), "max_write_request_units": int64Value(t.OnDemand.Write)})
		diags.Append(dg...)
	case !m.OnDemandThroughput.IsNull() && !m.OnDemandThroughput.IsUnknown():
		// Configured, but the table has no cap: show the caps as gone, so the plan sets them again.
		m.OnDemandThroughput, dg = types.ObjectValue(onDemandAttrTypes, map[string]attr.Value{
			"max_read_request_units": types.NumberNull(), "max_write_request_units": types.NumberNull()})
		diags.Append(dg...)
	}

	var w warmModel
	if objectAs(ctx, m.WarmThroughput, &w, diags) {
		have := dynamo.Throughput{}
		if t.Warm != nil {
			have = *t.Warm
		}
		atLeast := func(want types.Number, got *int64) types.Number {
			n := int64Ptr(want)
			if n == nil || (got != nil && *got >= *n) {
				return want // satisfied: warm throughput only grows
			}
			return int64Value(got)
		}
		m.WarmThroughput, dg = types.ObjectValue(warmAttrTypes, map[string]attr.Value{
			"read_units_per_second": atLeast(w.Read, have.Read), "write_units_per_second": atLeast(w.Write, have.Write)})
		diags.Append(dg...)
	}
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
