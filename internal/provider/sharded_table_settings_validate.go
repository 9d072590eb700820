package provider

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

// validateTableSettings reports settings that contradict each other.
func validateTableSettings(ctx context.Context, m shardedTableModel, provisioned bool, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) && !p.RecoveryPeriodInDays.IsNull() && !p.RecoveryPeriodInDays.IsUnknown() {
		days := p.RecoveryPeriodInDays.ValueBigFloat()
		if days.Cmp(big.NewFloat(float64(dynamo.MinRecoveryPeriodDays))) < 0 || days.Cmp(big.NewFloat(float64(dynamo.MaxRecoveryPeriodDays))) > 0 {
			diags.AddAttributeError(path.Root("point_in_time_recovery").AtName("recovery_period_in_days"), "Invalid recovery period",
				fmt.Sprintf("point_in_time_recovery.recovery_period_in_days must be from %d to %d days, got %s.", dynamo.MinRecoveryPeriodDays, dynamo.MaxRecoveryPeriodDays, days.Text('g', 10)))
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
