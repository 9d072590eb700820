package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

var (
	_ datasource.DataSource              = (*keydesignDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*keydesignDataSource)(nil)
)

// NewKeydesignDataSource returns the dynamokeys_keydesign data source.
func NewKeydesignDataSource() datasource.DataSource { return &keydesignDataSource{} }

type keydesignDataSource struct {
	data *providerData
}

type keydesignDataSourceModel struct {
	designInputModel
	designOutputModel
}

func (d *keydesignDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_keydesign"
}

func (d *keydesignDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]dschema.Attribute{}
	for name, s := range designInputSpecs() {
		attrs[name] = s.dataSource()
	}
	for name, s := range designOutputSpecs() {
		attrs[name] = s.dataSource()
	}
	resp.Schema = dschema.Schema{
		Description: "Computes a DynamoDB key design offline: capacity units, the shard count the busiest key needs, shard " +
			"suffixes, the routing spec, a readable report and policy findings. Needs no AWS credentials and makes no network call.",
		Attributes: attrs,
	}
}

func (d *keydesignDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	data, ok := req.ProviderData.(*providerData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. Please report this issue.", req.ProviderData))
		return
	}
	d.data = data
}

func (d *keydesignDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m keydesignDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in, diags := expandDesign(ctx, m.designInputModel)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	in.Kind = "keydesign"
	doc, errs := keydesign.Analyze(in)
	if len(errs) > 0 {
		resp.Diagnostics.Append(fieldErrorDiagnostics(errs)...)
		return
	}
	settings := d.settings()
	findings, diags := evaluateDesign(ctx, settings, doc)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	enforce := settings.enforce
	if !m.Enforce.IsNull() {
		enforce = m.Enforce.ValueBool()
	}
	resp.Diagnostics.Append(findingDiagnostics(findings, enforce)...)
	out, diags := flattenDesign(ctx, doc, findings)
	resp.Diagnostics.Append(diags...)
	m.designOutputModel = out
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// settings are the provider's policy settings, or the defaults when the provider was not configured.
func (d *keydesignDataSource) settings() policySettings {
	if d.data != nil {
		return d.data.policy
	}
	settings := policySettings{enforce: true, evalTimeout: DefaultEvalTimeout, disabledRules: map[string]bool{}}
	if engine, err := policy.Builtin(); err == nil {
		settings.evaluator = engine
	}
	return settings
}
