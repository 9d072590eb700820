package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// Table settings beyond keys and indexes: point-in-time recovery, stream, server-side encryption, on-demand
// caps, warm throughput, Contributor Insights and the autoscaling range (the last four per GSI too). Each is
// a nested object. Null means the default (off, the AWS owned key, no cap) and reads back as null while the
// table has it, so a table without them shows no diff; on-demand caps that are configured but gone read back
// as a block of nulls, so the plan sets them again. Warm throughput and the autoscaling range are not
// managed when null.

// kmsKeyARN matches a KMS key ARN. Aliases and key ids are refused: DynamoDB reports the key's ARN, so any
// other form would show a change on every plan.
var kmsKeyARN = lazyregexp.New(`^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[A-Za-z0-9-]+$`)

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
	pitrAttrTypes       = objectType(pitrAttribute().Attributes).AttrTypes
	streamAttrTypes     = objectType(streamAttribute().Attributes).AttrTypes
	encryptionAttrTypes = objectType(encryptionAttribute().Attributes).AttrTypes
	onDemandAttrTypes   = objectType(onDemandAttribute("").Attributes).AttrTypes
	warmAttrTypes       = objectType(warmAttribute("").Attributes).AttrTypes
	insightsAttrTypes   = objectType(contributorInsightsAttribute("").Attributes).AttrTypes
	ttlAttrTypes        = objectType(ttlAttribute().Attributes).AttrTypes
	autoscalingType     = objectType(autoscalingAttribute("").Attributes)
)

func unitsAttribute(desc string) rschema.NumberAttribute {
	return rschema.NumberAttribute{Optional: true, Description: desc, Validators: []validator.Number{wholeNumberValidator()}}
}

// tableSettingsAttributes are the schema of the table settings.
func tableSettingsAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"point_in_time_recovery": pitrAttribute(),
		"stream":                 streamAttribute(),
		"stream_arn": rschema.StringAttribute{Computed: true,
			Description: "ARN of the enabled stream, e.g. for an aws_lambda_event_source_mapping; null while the stream is off. A stream " +
				"enabled again, or with a new view_type, has a new ARN."},
		"stream_label": rschema.StringAttribute{Computed: true, Description: "Timestamp label of the enabled stream; null while the stream is off."},
		"item_count": rschema.Int64Attribute{Computed: true,
			Description: "Items in the table, as DescribeTable last reported them (DynamoDB updates the figure about every six hours), read " +
				"at each refresh. A plan that rebuilds a GSI sizes its backfill with it; without it, with traffic.item_count."},
		"table_size_bytes": rschema.Int64Attribute{Computed: true,
			Description: "Bytes in the table (DescribeTable's TableSizeBytes, updated about every six hours), read at each refresh."},
		"server_side_encryption": encryptionAttribute(),
		"on_demand_throughput":   onDemandAttribute("an on-demand table"),
		"warm_throughput":        warmAttribute("table"),
		"contributor_insights":   contributorInsightsAttribute("table"),
		"autoscaling":            autoscalingAttribute("table"),
	}
}

func ttlAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true, Description: "Time to live: DynamoDB deletes items after the epoch-seconds time in attribute_name.",
		Attributes: map[string]rschema.Attribute{
			"attribute_name": rschema.StringAttribute{Optional: true, Description: "Attribute holding the expiry time in epoch seconds."},
			"enabled":        rschema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true), Description: "Whether TTL is on. Defaults to true."},
		}}
}

func pitrAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "Continuous backups that restore the table to any second of the recovery period. Omitted: off.",
		Attributes: map[string]rschema.Attribute{
			"enabled": rschema.BoolAttribute{Required: true, Description: "Whether point-in-time recovery is on."},
			"recovery_period_in_days": rschema.NumberAttribute{Optional: true,
				Description: fmt.Sprintf("Days of recovery, %d to %d. Omit it for DynamoDB's default of %d days.", dynamo.MinRecoveryPeriodDays, dynamo.MaxRecoveryPeriodDays, dynamo.MaxRecoveryPeriodDays),
				Validators:  []validator.Number{wholeNumberValidator()}},
		}}
}

func streamAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "DynamoDB Streams: a time-ordered log of item changes, for Lambda triggers and change data capture. Changing " +
			"view_type disables the stream and enables it again in the same apply, which gives it a new stream_arn.",
		Attributes: map[string]rschema.Attribute{
			"enabled": rschema.BoolAttribute{Required: true, Description: "Whether the stream is on."},
			"view_type": rschema.StringAttribute{Optional: true,
				Description: "What each stream record holds: KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES. Required when enabled.",
				Validators:  []validator.String{stringvalidator.OneOf(dynamo.StreamViewTypes()...)}},
		}}
}

func encryptionAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "Encryption at rest. Omitted or enabled = false: the AWS owned key (the default, no charge). enabled = true " +
			"without kms_key_arn: the AWS managed key aws/dynamodb. With kms_key_arn: that customer managed key. Switching keys " +
			"is an in-place update.",
		Attributes: map[string]rschema.Attribute{
			"enabled": rschema.BoolAttribute{Required: true, Description: "Whether a KMS key (AWS managed or customer managed) encrypts the table."},
			"kms_key_arn": rschema.StringAttribute{Optional: true,
				Description: "ARN of a customer managed KMS key (arn:aws:kms:REGION:ACCOUNT:key/ID). Aliases and key ids are refused: " +
					"DynamoDB reports the key ARN, so another form would show a change on every plan; use e.g. aws_kms_key.x.arn.",
				Validators: []validator.String{stringvalidator.RegexMatches(kmsKeyARN.Regexp(),
					"must be a KMS key ARN such as arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab (not an alias or key id)")}},
		}}
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
				Validators:  []validator.String{stringvalidator.OneOf(dynamo.ContributorInsightsModes()...)}},
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
