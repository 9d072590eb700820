package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

var (
	_ list.ListResourceWithConfigure      = (*shardedTableList)(nil)
	_ list.ListResourceWithValidateConfig = (*shardedTableList)(nil)
)

// NewShardedTableList returns the dynamokeys_sharded_table list resource (Terraform ≥ 1.14 `terraform
// query`): the tables of the provider's account and Region, filtered, each with its identity, and the
// key-design findings of what the table itself tells as warnings — an audit before adoption.
func NewShardedTableList() list.ListResource { return &shardedTableList{} }

type shardedTableList struct {
	data *providerData
}

// shardedTableListModel is the list block's config.
type shardedTableListModel struct {
	NamePrefix   types.String `tfsdk:"name_prefix"`
	NameRegex    types.String `tfsdk:"name_regex"`
	Tags         types.Map    `tfsdk:"tags"`
	WithFindings types.Bool   `tfsdk:"with_findings"`
}

func (l *shardedTableList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sharded_table"
}

func (l *shardedTableList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = lschema.Schema{
		Description: "Lists the DynamoDB tables of the provider's account and Region, with each table's identity and, as warnings, " +
			"the key-design findings of what the table itself tells (key names and types, indexes, settings).",
		Attributes: map[string]lschema.Attribute{
			"name_prefix": lschema.StringAttribute{Optional: true, Description: "Only tables whose name starts with this text."},
			"name_regex": lschema.StringAttribute{Optional: true,
				Description: "Only tables whose name matches this regular expression (RE2 syntax, unanchored: use ^ and $ for the whole name)."},
			"tags": lschema.MapAttribute{Optional: true, ElementType: types.StringType,
				Description: "Only tables that carry every one of these tags with these values."},
			"with_findings": lschema.BoolAttribute{Optional: true,
				Description: "Only tables with at least one key-design finding: the tables that need a design."},
		},
	}
}

func (l *shardedTableList) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	data, diags := providerDataFrom(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	l.data = data
}

func (l *shardedTableList) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var m shardedTableListModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !m.NameRegex.IsNull() && !m.NameRegex.IsUnknown() {
		if _, err := regexp.Compile(m.NameRegex.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name_regex"), "Invalid name_regex",
				fmt.Sprintf("%q is not a regular expression: %v. Use RE2 syntax, e.g. \"^orders-\".", m.NameRegex.ValueString(), err))
		}
	}
}

// tableFilter is the list block's config, read.
type tableFilter struct {
	prefix       string
	pattern      *regexp.Regexp
	tags         map[string]string
	withFindings bool
}

func (f tableFilter) matchesName(name string) bool {
	return strings.HasPrefix(name, f.prefix) && (f.pattern == nil || f.pattern.MatchString(name))
}

func (f tableFilter) matchesTags(tags map[string]string) bool {
	for k, v := range f.tags {
		if got, ok := tags[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func (l *shardedTableList) filter(ctx context.Context, config tfsdk.Config) (tableFilter, diag.Diagnostics) {
	var m shardedTableListModel
	diags := config.Get(ctx, &m)
	f := tableFilter{prefix: m.NamePrefix.ValueString(), withFindings: m.WithFindings.ValueBool()}
	if s := m.NameRegex.ValueString(); s != "" {
		var err error
		if f.pattern, err = regexp.Compile(s); err != nil {
			diags.AddAttributeError(path.Root("name_regex"), "Invalid name_regex", err.Error())
		}
	}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &f.tags, false)...)
	}
	return f, diags
}

// List pages through ListTables and reads each table whose name matches, skipping tables deleted meanwhile.
// Each call is retried on throttling by the client's retryer, as every other call of the provider.
func (l *shardedTableList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	fail := func(summary, detail string) {
		var diags diag.Diagnostics
		diags.AddError(summary, detail)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
	}
	if l.data == nil {
		fail("Provider not configured", "The dynamokeys provider was not configured. Please report this issue.")
		return
	}
	f, diags := l.filter(ctx, req.Config)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	client := l.data.dynamo
	stream.Results = func(push func(list.ListResult) bool) {
		listed := int64(0)
		var failed error
		err := client.ListTableNames(ctx, func(name string) bool {
			if !f.matchesName(name) {
				return true
			}
			table, err := client.FindTable(ctx, name)
			switch {
			case errors.Is(err, dynamo.ErrTableNotFound):
				return true // deleted since ListTables named it
			case err != nil:
				failed = err
				return false
			case table.Status == "DELETING" || !f.matchesTags(table.Tags):
				return true
			}
			result, findings := l.result(ctx, req, client, table)
			if f.withFindings && len(findings) == 0 && !result.Diagnostics.HasError() {
				return true
			}
			listed++
			return push(result) && (req.Limit <= 0 || listed < req.Limit)
		})
		if err = cmp.Or(failed, err); err != nil {
			var diags diag.Diagnostics
			diags.AddError("Listing DynamoDB tables failed", err.Error())
			push(list.ListResult{Diagnostics: diags})
		}
	}
}

// result is one listed table: its identity, a display name that says what the audit found, the state a
// read after an import gives (with include_resource), and the findings as warnings.
func (l *shardedTableList) result(ctx context.Context, req list.ListRequest, client *dynamo.Client, t *dynamo.Table) (list.ListResult, []policy.Finding) {
	result := req.NewListResult(ctx)
	id, diags := identityOf(ctx, client, t)
	result.Diagnostics.Append(diags...)
	if diags.HasError() {
		return result, nil
	}
	result.Diagnostics.Append(result.Identity.Set(ctx, id)...)
	findings, diags := auditTable(ctx, l.data.policy, *t)
	result.Diagnostics.Append(diags...)
	result.DisplayName = auditedName(t.Name, findings)
	result.Diagnostics.Append(auditDiagnostics(t.Name, findings)...)
	if req.IncludeResource {
		m, diags := listedTableModel(ctx, req.ResourceSchema.Type().TerraformType(ctx), t, l.data)
		result.Diagnostics.Append(diags...)
		if !diags.HasError() {
			result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
		}
	}
	return result, findings
}

// listedTableModel is the state that an import of the table followed by its read records: what DynamoDB
// reports, design metadata (templates, segments, sharding, traffic) null, which only a configuration
// gives, and the design outputs of what the table shows.
func listedTableModel(ctx context.Context, typ tftypes.Type, t *dynamo.Table, data *providerData) (shardedTableModel, diag.Diagnostics) {
	m, diags := nullTableModel(ctx, typ)
	if diags.HasError() {
		return m, diags
	}
	diags.Append(flattenTable(ctx, t, &m)...)
	readTags(t.Tags, defaultTagsOf(data), &m)
	refreshDesignDocument(ctx, policySettingsOf(data), &m)
	return m, diags
}

// auditTable evaluates what the table tells of its design under the provider's policy settings, through the
// policy bundle's mapping of an aws_dynamodb_table, the one mapping of a table without a design (conftest and
// TFLint use it too). Rules disabled in the provider block stay silent.
func auditTable(ctx context.Context, settings policySettings, t dynamo.Table) ([]policy.Finding, diag.Diagnostics) {
	var diags diag.Diagnostics
	auditor, ok := settings.evaluator.(interface {
		EvaluateAWSTable(context.Context, string, map[string]any) ([]policy.Finding, error)
	})
	if !ok {
		return nil, diags // no rules: every rule is disabled
	}
	// The rules compile on the process's first evaluation, outside its eval_timeout.
	if err := settings.evaluator.Prepare(ctx); err != nil {
		diags.AddWarning("Auditing the table failed", fmt.Sprintf("The key-design rules could not be compiled: %v. The table is listed without findings.", err))
		return nil, diags
	}
	ctx, cancel := context.WithTimeout(ctx, settings.evalTimeout)
	defer cancel()
	all, err := auditor.EvaluateAWSTable(ctx, "aws_dynamodb_table."+t.Name, awsTableAttributes(t))
	if err != nil {
		diags.AddWarning("Auditing the table failed", fmt.Sprintf("The key-design rules could not be evaluated on table %s: %v. The table is listed without findings.", t.Name, err))
		return nil, diags
	}
	return slices.DeleteFunc(all, func(f policy.Finding) bool { return settings.disabledRules[f.Rule] }), diags
}

// auditedName is the display name of a listed table: its name and what the audit found, so that the
// query's output alone says which tables need a design.
func auditedName(name string, findings []policy.Finding) string {
	if len(findings) == 0 {
		return name + " (no key-design findings)"
	}
	rules := map[string]bool{}
	for _, f := range findings {
		rules[f.Rule] = true
	}
	noun := "findings"
	if len(findings) == 1 {
		noun = "finding"
	}
	return fmt.Sprintf("%s (%d key-design %s: %s)", name, len(findings), noun, strings.Join(slices.Sorted(maps.Keys(rules)), ", "))
}

// auditDiagnostics are the findings as warnings, each naming the rule, its severity and the table: an error
// finding would stop the plan of a design, but here it describes a table that exists.
func auditDiagnostics(table string, findings []policy.Finding) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, f := range findings {
		detail := fmt.Sprintf("Table %s, %s (%s): %s", table, f.Path.String(), f.Severity, f.Message)
		if f.Remediation != "" {
			detail += "\n\nRemedy: " + f.Remediation
		}
		if f.DocsURL != "" {
			detail += "\n\nSee " + f.DocsURL
		}
		diags.AddWarning(fmt.Sprintf("%s %s: table %s", f.Rule, f.Name, table), detail)
	}
	return diags
}
