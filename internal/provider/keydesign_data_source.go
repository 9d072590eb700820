package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	designFactsModel
}

func (d *keydesignDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_keydesign"
}

func (d *keydesignDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]dschema.Attribute{}
	maps.Copy(attrs, dataSourceAttributes(designInputAttributes()))
	maps.Copy(attrs, dataSourceAttributes(designOutputAttributes()))
	maps.Copy(attrs, dataSourceAttributes(designFactsAttributes()))
	resp.Schema = dschema.Schema{
		Description: "Computes a DynamoDB key design offline: capacity units, the shard count the busiest key needs, shard " +
			"suffixes, the routing spec, a readable report and policy findings. Needs no AWS credentials and makes no network call.",
		Attributes: attrs,
	}
}

func (d *keydesignDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	data, diags := providerDataFrom(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	d.data = data
}

func (d *keydesignDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m keydesignDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in, diags := readDesign(m.designInputModel)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	out, diags, ok := designOutputs(ctx, policySettingsOf(d.data), in, m.Enforce)
	resp.Diagnostics.Append(diags...)
	if !ok {
		return
	}
	m.designOutputModel = out
	m.designFactsModel = out.Facts
	m.PartitionKey, _ = withResolvedDefaults(m.PartitionKey).(types.Object)
	m.SortKey, _ = withResolvedDefaults(m.SortKey).(types.Object)
	m.LocalSecondaryIndexes, _ = withResolvedDefaults(m.LocalSecondaryIndexes).(types.Map)
	m.GlobalSecondaryIndexes, _ = withResolvedDefaults(m.GlobalSecondaryIndexes).(types.Map)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
