package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

// Combinations of table settings, decided once for every nested setting (the table of them is in the
// resource's documentation, templates/resources/sharded_table.md.tmpl). A combination is
//   - contradictory when the configuration states two things that cannot both be true of the table, or
//     something DynamoDB refuses: an error on the attribute, at validate time, before any API call;
//   - meaningless when DynamoDB accepts it but it changes nothing: a warning on the attribute, so that
//     nobody believes it does something;
//   - valid otherwise.
// The single-attribute checks (ranges, enums, ARNs) are schema validators; the billing-mode checks of
// capacity, caps and autoscaling are in ValidateConfig and validateThroughputSettings.

// validateSettingCombinations adds the checks of combinations within and across the nested settings.
func validateSettingCombinations(ctx context.Context, m shardedTableModel, diags *diag.Diagnostics) {
	validateSwitchedOff(ctx, m, diags)
	validateTTLAttribute(ctx, m, diags)
	validateThroughputBlocks(ctx, path.Empty(), "the table", m.OnDemandThroughput, m.WarmThroughput, m.Autoscaling, diags)
	if m.GlobalSecondaryIndexes.IsNull() || m.GlobalSecondaryIndexes.IsUnknown() {
		return
	}
	elems := m.GlobalSecondaryIndexes.Elements()
	for _, name := range slices.Sorted(maps.Keys(elems)) {
		obj, ok := elems[name].(types.Object)
		var g gsiModel
		if !ok || !objectAs(ctx, obj, &g, diags) {
			continue
		}
		validateThroughputBlocks(ctx, path.Root("global_secondary_indexes").AtMapKey(name), "GSI "+name,
			g.OnDemandThroughput, g.WarmThroughput, g.Autoscaling, diags)
	}
}

// validateSwitchedOff refuses a value for a feature its own block switches off: a recovery period of a
// point-in-time recovery that is off, a view type of a stream that is off (DynamoDB refuses a
// StreamSpecification with StreamEnabled false and a StreamViewType). A KMS key of encryption that is off is
// refused in validateTableSettings.
func validateSwitchedOff(ctx context.Context, m shardedTableModel, diags *diag.Diagnostics) {
	var p pitrModel
	if objectAs(ctx, m.PointInTimeRecovery, &p, diags) && isFalse(p.Enabled) && !p.RecoveryPeriodInDays.IsNull() {
		diags.AddAttributeError(path.Root("point_in_time_recovery").AtName("recovery_period_in_days"), "Recovery period without recovery",
			"point_in_time_recovery.recovery_period_in_days applies only with enabled = true: a table without point-in-time recovery "+
				"keeps no recovery period. Set enabled = true, or remove recovery_period_in_days.")
	}
	var s streamModel
	if objectAs(ctx, m.Stream, &s, diags) && isFalse(s.Enabled) && !s.ViewType.IsNull() {
		diags.AddAttributeError(path.Root("stream").AtName("view_type"), "Stream view type without a stream",
			"stream.view_type applies only with enabled = true: a disabled stream has no records, and DynamoDB refuses a view type "+
				"for it. Set enabled = true, or remove view_type.")
	}
}

// isFalse: known and false.
func isFalse(b types.Bool) bool { return !b.IsNull() && !b.IsUnknown() && !b.ValueBool() }

// keyAttributeOfTable is an attribute of the table's or an index's key, with its declared type.
type keyAttributeOfTable struct {
	name, typ string
	at        path.Path // the key attribute, for the message
}

// validateTTLAttribute refuses a TTL on a key attribute that is a string or binary: DynamoDB expires an
// item only when its TTL attribute is a Number of epoch seconds, and a key attribute has its declared type in
// every item, so the TTL could never delete anything.
func validateTTLAttribute(ctx context.Context, m shardedTableModel, diags *diag.Diagnostics) {
	var ttl ttlModel
	if m.TTL.IsNull() || m.TTL.IsUnknown() ||
		m.TTL.As(ctx, &ttl, basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}).HasError() {
		return
	}
	if ttl.AttributeName.IsNull() || ttl.AttributeName.IsUnknown() || isFalse(ttl.Enabled) {
		return
	}
	name := ttl.AttributeName.ValueString()
	for _, k := range keyAttributesOf(ctx, m) {
		if k.name != name || k.typ == model.KeyTypeNumber {
			continue
		}
		diags.AddAttributeError(path.Root("ttl").AtName("attribute_name"), "TTL on an attribute that never holds a number",
			fmt.Sprintf("ttl.attribute_name is %q, the key attribute at %s of type %s. DynamoDB deletes an item only when its TTL attribute "+
				"is a Number (the expiry time in epoch seconds), so this TTL would never delete anything. Name a separate attribute, "+
				"e.g. attribute_name = \"expires_at\".", name, pathText(k.at), k.typ))
		return
	}
}

// keyAttributesOf lists the key attributes whose name and type are known: the table's keys, the LSIs'
// sort keys and the GSIs' key attributes. An omitted type is the schema's default, S.
func keyAttributesOf(ctx context.Context, m shardedTableModel) []keyAttributeOfTable {
	var out []keyAttributeOfTable
	add := func(name, typ types.String, at path.Path) {
		if name.IsNull() || name.IsUnknown() || typ.IsUnknown() {
			return
		}
		t := typ.ValueString()
		if typ.IsNull() {
			t = model.KeyTypeString
		}
		out = append(out, keyAttributeOfTable{name: name.ValueString(), typ: t, at: at})
	}
	var none diag.Diagnostics // conversion problems are reported by the design checks
	for _, root := range []string{"partition_key", "sort_key"} {
		v := m.PartitionKey
		if root == "sort_key" {
			v = m.SortKey
		}
		var k keyModel
		if objectAs(ctx, v, &k, &none) {
			add(k.Name, k.Type, path.Root(root))
		}
	}
	if !m.LocalSecondaryIndexes.IsNull() && !m.LocalSecondaryIndexes.IsUnknown() {
		for name, v := range m.LocalSecondaryIndexes.Elements() {
			var l lsiModel
			var k indexKeyModel
			if obj, ok := v.(types.Object); ok && objectAs(ctx, obj, &l, &none) && objectAs(ctx, l.SortKey, &k, &none) {
				add(k.Name, k.Type, path.Root("local_secondary_indexes").AtMapKey(name).AtName("sort_key"))
			}
		}
	}
	if !m.GlobalSecondaryIndexes.IsNull() && !m.GlobalSecondaryIndexes.IsUnknown() {
		for name, v := range m.GlobalSecondaryIndexes.Elements() {
			var g gsiModel
			if obj, ok := v.(types.Object); !ok || !objectAs(ctx, obj, &g, &none) {
				continue
			}
			for _, part := range []string{"partition_key", "sort_key"} {
				list := g.PartitionKey
				if part == "sort_key" {
					list = g.SortKey
				}
				if list.IsNull() || list.IsUnknown() {
					continue
				}
				for i, el := range list.Elements() {
					obj, ok := el.(types.Object)
					if !ok || obj.IsNull() || obj.IsUnknown() {
						continue
					}
					attrs := obj.Attributes()
					n, _ := attrs["name"].(types.String)
					t, _ := attrs["type"].(types.String)
					add(n, t, path.Root("global_secondary_indexes").AtMapKey(name).AtName(part).AtListIndex(i))
				}
			}
		}
	}
	return out
}

// pathText writes a path as a user reads it: global_secondary_indexes.by_region.partition_key[0].
func pathText(p path.Path) string {
	out := ""
	for _, step := range p.Steps() {
		switch s := step.(type) {
		case path.PathStepAttributeName:
			if out != "" {
				out += "."
			}
			out += string(s)
		case path.PathStepElementKeyString:
			out += "." + string(s)
		case path.PathStepElementKeyInt:
			out += fmt.Sprintf("[%d]", int64(s))
		}
	}
	return out
}

// validateThroughputBlocks warns about the throughput settings of the table (at the root) or of a GSI (at
// its path) that change nothing: a block with no figure, and warm throughput above an on-demand cap (the
// requests above the cap are throttled, so the warmth above it is never used).
func validateThroughputBlocks(ctx context.Context, at path.Path, what string, onDemand, warm, autoscaling types.Object, diags *diag.Diagnostics) {
	attrPath := func(name string) path.Path {
		if len(at.Steps()) == 0 {
			return path.Root(name)
		}
		return at.AtName(name)
	}
	for name, v := range map[string]types.Object{"on_demand_throughput": onDemand, "warm_throughput": warm, "autoscaling": autoscaling} {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		empty := true
		for _, a := range v.Attributes() {
			empty = empty && a.IsNull()
		}
		if empty {
			diags.AddAttributeWarning(attrPath(name), "Setting with no effect",
				fmt.Sprintf("%s of %s sets no figure, so it changes nothing; remove it, or set one of its attributes.", name, what))
		}
	}
	var caps onDemandModel
	var w warmModel
	var none diag.Diagnostics // conversion problems are reported by validateTableSettings
	if !objectAs(ctx, onDemand, &caps, &none) || !objectAs(ctx, warm, &w, &none) {
		return
	}
	for _, side := range []struct {
		name, warmAttr, capAttr string
		warm, limit             types.Number
	}{
		{"read", "read_units_per_second", "max_read_request_units", w.Read, caps.MaxRead},
		{"write", "write_units_per_second", "max_write_request_units", w.Write, caps.MaxWrite},
	} {
		units, capUnits := int64Ptr(side.warm), int64Ptr(side.limit)
		if units != nil && capUnits != nil && *units > *capUnits {
			diags.AddAttributeWarning(attrPath("warm_throughput").AtName(side.warmAttr), "Warm throughput above the on-demand cap",
				fmt.Sprintf("warm_throughput.%s of %s is %s, above its on_demand_throughput.%s of %s: requests above the cap are throttled, "+
					"so the warmth above it is never used. Lower the warm throughput to the cap, or raise the cap.",
					side.warmAttr, what, report.FormatNumber(float64(*units)), side.capAttr, report.FormatNumber(float64(*capUnits))))
		}
	}
}
