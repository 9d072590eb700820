package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// designOutputModel holds the computed attributes the data source and the resource share: shard count,
// routing, findings, the report and the design document. Facts holds the ones only the data source has.
type designOutputModel struct {
	ShardCount     types.Int64      `tfsdk:"shard_count"`
	Routing        types.Object     `tfsdk:"routing"`
	Findings       types.List       `tfsdk:"findings"`
	OK             types.Bool       `tfsdk:"ok"`
	Report         types.String     `tfsdk:"report"`
	DesignDocument types.String     `tfsdk:"design_document"`
	Facts          designFactsModel `tfsdk:"-"`
}

// designFactsModel holds the computed attributes of the data source that the resource leaves out: in a plan
// each repeated something the same block already shows (the partition key's template, routing's width,
// the report's capacity, a suffix per shard), while the data source's values feed other resources.
type designFactsModel struct {
	ShardWidth           types.Int64  `tfsdk:"shard_width"`
	ShardSuffixes        types.List   `tfsdk:"shard_suffixes"`
	PartitionKeyTemplate types.String `tfsdk:"partition_key_template"`
	Capacity             types.Object `tfsdk:"capacity"`
	Cost                 types.Object `tfsdk:"cost"`
	InfracostUsage       types.Map    `tfsdk:"infracost_usage"`
	MigrationPlan        types.Object `tfsdk:"migration_plan"`
}

// unknownDesignOutputs marks every computed design attribute unknown (values known only after apply).
func unknownDesignOutputs() designOutputModel {
	return designOutputModel{
		ShardCount:     types.Int64Unknown(),
		Routing:        types.ObjectUnknown(routingType.AttrTypes),
		Findings:       types.ListUnknown(findingType),
		OK:             types.BoolUnknown(),
		Report:         types.StringUnknown(),
		DesignDocument: types.StringUnknown(),
		Facts: designFactsModel{
			ShardWidth:           types.Int64Unknown(),
			ShardSuffixes:        types.ListUnknown(types.StringType),
			PartitionKeyTemplate: types.StringUnknown(),
			Capacity:             types.ObjectUnknown(capacityType.AttrTypes),
			Cost:                 types.ObjectUnknown(costType.AttrTypes),
			InfracostUsage:       types.MapUnknown(types.NumberType),
			MigrationPlan:        types.ObjectUnknown(migrationPlanType.AttrTypes),
		},
	}
}

func floatOrNull(f *float64) types.Float64 {
	if f == nil {
		return types.Float64Null()
	}
	return types.Float64Value(*f)
}

// flattenDesign turns a document and its findings into the computed attributes.
func flattenDesign(ctx context.Context, doc *model.Document, findings []policy.Finding) (designOutputModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	d := doc.Derived
	c := d.Capacity
	out := designOutputModel{ShardCount: types.Int64Value(d.ShardCount)}
	out.Facts = designFactsModel{
		ShardWidth:           types.Int64Value(int64(d.ShardWidth)),
		PartitionKeyTemplate: types.StringPointerValue(doc.Table.PartitionKey.Template),
	}
	var dg diag.Diagnostics
	out.Facts.ShardSuffixes, dg = types.ListValueFrom(ctx, types.StringType, model.ShardSuffixes(d.ShardCount))
	diags.Append(dg...)
	out.Facts.Capacity, dg = types.ObjectValue(capacityType.AttrTypes, map[string]attr.Value{
		"write_units_per_write": types.Float64Value(c.WriteUnitsPerWrite),
		"read_units_per_read":   types.Float64Value(c.ReadUnitsPerRead),
		"peak_write_units":      floatOrNull(c.PeakWriteUnits),
		"peak_read_units":       floatOrNull(c.PeakReadUnits),
		"hot_key_share":         types.Float64Value(c.HotKeyShare),
		"hot_key_write_units":   floatOrNull(c.HotKeyWriteUnits),
		"hot_key_read_units":    floatOrNull(c.HotKeyReadUnits),
		"per_shard_write_units": floatOrNull(c.PerShardWriteUnits),
		"per_shard_read_units":  floatOrNull(c.PerShardReadUnits),
		"read_fanout":           types.Int64Value(c.ReadFanout),
		"required_shard_count":  types.Int64Value(d.RequiredShards),
	})
	diags.Append(dg...)
	out.Facts.Cost, out.Facts.InfracostUsage, dg = costOutputs(ctx, doc)
	diags.Append(dg...)
	out.Facts.MigrationPlan, dg = migrationPlanOutput(ctx, doc)
	diags.Append(dg...)
	out.Routing, dg = types.ObjectValueFrom(ctx, routingType.AttrTypes, routingValue(d.Routing))
	diags.Append(dg...)

	ok := true
	items := make([]attr.Value, 0, len(findings))
	reported := make([]report.Finding, 0, len(findings))
	for _, f := range findings {
		if f.Severity == policy.SeverityError {
			ok = false
		}
		obj, dg := types.ObjectValue(findingType.AttrTypes, map[string]attr.Value{
			"rule": types.StringValue(f.Rule), "name": types.StringValue(f.Name), "severity": types.StringValue(f.Severity),
			"message": types.StringValue(f.Message), "path": types.StringValue(f.Path.String()),
			"remediation": types.StringValue(f.Remediation), "docs_url": types.StringValue(f.DocsURL),
		})
		diags.Append(dg...)
		items = append(items, obj)
		reported = append(reported, report.Finding{Rule: f.Rule, Name: f.Name, Severity: f.Severity, Message: f.Message, Path: f.Path})
	}
	out.Findings, dg = types.ListValue(findingType, items)
	diags.Append(dg...)
	out.OK = types.BoolValue(ok)
	out.Report = types.StringValue(report.Text(doc, reported))
	document, err := doc.Attribute()
	if err != nil {
		diags.AddError("Encoding the design document failed", fmt.Sprintf("%v. Please report this issue with the design that caused it.", err))
	}
	out.DesignDocument = types.StringValue(document)
	return out, diags
}

// mapAttributes are the attributes whose next path step is a map key.
var mapAttributes = map[string]bool{"segments": true, "local_secondary_indexes": true, "global_secondary_indexes": true, "tags": true, "observed_indexes": true,
	"access_patterns": true}

// attributePath converts a domain path to a Terraform attribute path, using the schema's shape: the step
// after a map attribute is a key, a number after a list attribute is an index.
func attributePath(p model.Path) path.Path {
	out := path.Empty()
	expectKey := false
	for _, step := range p {
		if expectKey {
			out = out.AtMapKey(step)
			expectKey = false
			continue
		}
		if i, err := strconv.Atoi(step); err == nil && len(out.Steps()) > 0 {
			out = out.AtListIndex(i)
			continue
		}
		out = out.AtName(step)
		expectKey = mapAttributes[step]
	}
	return out
}

// diagnosticPath is the path a diagnostic is attached to: the top-level attribute and, when it is a map or
// a list, the element. Terraform places a diagnostic by looking the path's last attribute name up in the
// block's body, which for a path into a nested attribute finds a top-level attribute of the same name (a
// GSI's partition_key would highlight the table's) or nothing. Cut at the element, the right expression is
// highlighted; the diagnostic's text names the full path.
func diagnosticPath(p model.Path) path.Path {
	if len(p) > 2 || (len(p) == 2 && !mapAttributes[p[0]]) {
		if mapAttributes[p[0]] {
			p = p[:2]
		} else {
			p = p[:1]
		}
	}
	return attributePath(p)
}

// addPathDiagnostic adds an error or a warning on the attribute at p (on the block when p is empty).
func addPathDiagnostic(diags *diag.Diagnostics, isError bool, p model.Path, summary, detail string) {
	at := diagnosticPath(p)
	switch {
	case isError && len(at.Steps()) == 0:
		diags.AddError(summary, detail)
	case isError:
		diags.AddAttributeError(at, summary, detail)
	case len(at.Steps()) == 0:
		diags.AddWarning(summary, detail)
	default:
		diags.AddAttributeWarning(at, summary, detail)
	}
}

// findingDiagnostics reports findings as diagnostics on their attributes. Error findings are errors only
// when enforce is true; warnings are always warnings.
func findingDiagnostics(findings []policy.Finding, enforce bool) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, f := range findings {
		summary := fmt.Sprintf("%s %s: %s", f.Rule, f.Name, f.Message)
		detail := f.Message
		if len(f.Path) > 0 {
			detail = f.Path.String() + ": " + detail
		}
		if f.Remediation != "" {
			detail += "\n\nRemedy: " + f.Remediation
		}
		if f.DocsURL != "" {
			detail += "\n\nSee " + f.DocsURL
		}
		addPathDiagnostic(&diags, f.Severity == policy.SeverityError && enforce, f.Path, summary, detail)
	}
	return diags
}

// fieldErrorDiagnostics reports bad input on its attribute.
func fieldErrorDiagnostics(errs []*model.FieldError) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, e := range errs {
		addPathDiagnostic(&diags, true, e.Path, "Invalid key design", e.Error())
	}
	return diags
}

// fieldWarningDiagnostics reports input that is accepted but almost certainly not what the user meant.
func fieldWarningDiagnostics(warnings []*model.FieldError) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, w := range warnings {
		addPathDiagnostic(&diags, false, w.Path, "Questionable key design", w.Error())
	}
	return diags
}
