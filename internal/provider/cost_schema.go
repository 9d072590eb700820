package provider

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The cost model's attributes: the `pricing` input, the data source's `cost` and `infracost_usage` outputs
// (the resource carries the same estimate in design_document and report, which keeps its plan short), and
// the warning when a region has no prices. contributing/cost-model.md describes the figures.

// pricingAttribute is the design's `pricing` input.
func pricingAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "Where and how the design is priced for `cost`. Defaults: the provider's `region`, else the AWS_REGION or " +
			"AWS_DEFAULT_REGION environment variable (a profile's region is not read), else us-east-1; " +
			"the Standard table class; no point-in-time recovery. On dynamokeys_sharded_table " +
			"the table's own `table_class` and `point_in_time_recovery` apply when these are not set.",
		Attributes: map[string]rschema.Attribute{
			"region": optionalString("AWS region whose prices apply. The price table has " + regionList() +
				"; another region needs every price in `prices`, else `cost` has no figures and the plan warns."),
			"table_class":            optionalString("STANDARD or STANDARD_INFREQUENT_ACCESS.", stringvalidator.OneOf(model.TableClasses...)),
			"point_in_time_recovery": optionalBool("Whether continuous backups (PITR) are priced, per GB-month of the table and its LSIs."),
			"prices": rschema.SingleNestedAttribute{Optional: true, Description: "Explicit prices; each one left out comes from the price table.",
				Attributes: pricesAttributes()},
			"vector_prices": vectorPricesAttribute,
		}}
}

// pricesAttributes are explicit prices, in `pricing` and in each replica Region.
func pricesAttributes() map[string]rschema.Attribute {
	price := func(what string) rschema.NumberAttribute {
		return optionalFloat("Price in dollars " + what + ", replacing the price table's (a negotiated rate or a region the table lacks); " +
			"between 0 and " + limitText(model.MaxPriceUSD) + ", which keeps every cost a finite number.")
	}
	return map[string]rschema.Attribute{
		"write_request_units_per_million": price("per million on-demand write request units"),
		"read_request_units_per_million":  price("per million on-demand read request units"),
		"write_capacity_unit_hour":        price("per provisioned write capacity unit-hour"),
		"read_capacity_unit_hour":         price("per provisioned read capacity unit-hour"),
		"storage_gb_month":                price("per GB-month of storage"),
		"pitr_gb_month":                   price("per GB-month of point-in-time recovery"),
	}
}

func regionList() string {
	regions := make([]string, 0, len(model.PriceTable.Regions))
	for r := range model.PriceTable.Regions {
		regions = append(regions, r)
	}
	slices.Sort(regions)
	return strings.Join(regions, ", ")
}

// costDiagnostics warns when the region has no prices: the plan goes on, `cost` has no figures.
func costDiagnostics(doc *model.Document) diag.Diagnostics {
	var diags diag.Diagnostics
	if c := doc.Derived.Cost; c != nil && c.Prices == nil && c.Problem != "" {
		diags.AddAttributeWarning(attributePath(model.Path{"pricing"}), "No prices for the design's region",
			"cost has no dollar figures: "+c.Problem+".")
	}
	return diags
}

var (
	modeCostAttribute = func(mode string) rschema.SingleNestedAttribute {
		return rschema.SingleNestedAttribute{Computed: true, Description: "Monthly dollars in " + mode + " mode; null without traffic or prices.",
			Attributes: map[string]rschema.Attribute{
				"table_writes": computedFloat("The table's own writes."),
				"index_writes": computedFloat("Every secondary index's writes (the entries each table write adds)."),
				"reads":        computedFloat("Reads."),
				"storage":      computedFloat("Storage of the table and its indexes; null without traffic.item_count."),
				"pitr":         computedFloat("Point-in-time recovery; null when off or without traffic.item_count."),
				"total":        computedFloat("The sum of the known parts; null unless both writes and reads are known."),
			}}
	}
	costAttribute = rschema.SingleNestedAttribute{Computed: true,
		Description: "What the design costs per month at the price table's prices (`prices` says which are confirmed list prices), on-demand and provisioned side by side, with the basis of the figures. " +
			"See the cost guide for every formula.",
		Attributes: map[string]rschema.Attribute{
			"region":      computedString("Region priced."),
			"table_class": computedString("Table class priced."),
			"currency":    computedString("Currency of the figures (USD)."),
			"problem":     computedString("Why there are no dollar figures (no traffic, no prices for the region); null when there are."),
			"writes_basis": computedString("What the write units rest on: declared_average, declared_peak (the peak held all month: an upper bound), " +
				"measured_average (the observed window's consumed units), measured_peak, or none."),
			"reads_basis": computedString("What the read units rest on; the same values as writes_basis, and access_patterns (the declared access " +
				"patterns' reads, held all month: an upper bound) when they exceed the declared peak and no average is declared."),
			"monthly_write_request_units": computedFloat("Write request units per month, the table's and every index's."),
			"monthly_read_request_units":  computedFloat("Read request units per month."),
			"storage_gb":                  computedFloat("GB stored by the table and its indexes; null without traffic.item_count."),
			"on_demand":                   modeCostAttribute("on-demand (PAY_PER_REQUEST)"),
			"provisioned":                 modeCostAttribute("provisioned"),
			"provisioned_write_capacity":  computedFloat("Write capacity units provisioned mode pays for every hour, table and indexes."),
			"provisioned_read_capacity":   computedFloat("Read capacity units provisioned mode pays for every hour."),
			"cheaper_mode":                computedString("on_demand or provisioned; null unless both writes and reads are known."),
			"break_even_utilization":      computedFloat("Average use of the provisioned capacity below which on-demand costs less."),
			"utilization":                 computedFloat("The design's average use of the provisioned capacity."),
			"index_writes": rschema.MapAttribute{Computed: true, ElementType: types.Float64Type,
				Description: "Monthly on-demand dollars of each secondary index's writes, by index name."},
			"prices": computedString("Where the prices come from: which are confirmed list prices (with the date of their source), which " +
				"the price table's estimates (scaled from another region or class, or not confirmed), and which the design gives."),
			"replica_regions": rschema.MapNestedAttribute{Computed: true,
				Description: "A global table's cost in each replica Region, by Region (null without `replicas`): every Region performs every " +
					"Region's writes (replicated writes cost what single-Region writes do), stores the whole table and serves its own reads.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"write_share": computedFloat("The Region's share of the writes made by the application."),
					"prices":      computedString("Where the Region's prices come from, as `prices` says it."),
					"on_demand":   modeCostAttribute("on-demand (PAY_PER_REQUEST), in this Region"),
					"provisioned": modeCostAttribute("provisioned, in this Region"),
				}}},
			"all_regions": rschema.SingleNestedAttribute{Computed: true,
				Description: "A global table's monthly total, every replica Region together; null without `replicas`.",
				Attributes: map[string]rschema.Attribute{
					"on_demand":   computedFloat("On-demand total of all Regions; null when a Region's is unknown."),
					"provisioned": computedFloat("Provisioned total of all Regions; null when a Region's is unknown."),
				}},
		}}
	costType                = objectType(costAttribute.Attributes)
	infracostUsageAttribute = rschema.MapAttribute{Computed: true, ElementType: types.NumberType,
		Description: "The usage-file entries Infracost reads for an aws_dynamodb_table: monthly_write_request_units (table and indexes), " +
			"monthly_read_request_units, storage_gb and pitr_backup_storage_gb, rounded up; entries the design cannot give are left out. " +
			"See the cost guide for the recipe."}
)

// costModel is the data source's `cost`, field by field of costAttribute.
type costModel struct {
	Region                   types.String               `tfsdk:"region"`
	TableClass               types.String               `tfsdk:"table_class"`
	Currency                 types.String               `tfsdk:"currency"`
	Problem                  types.String               `tfsdk:"problem"`
	WritesBasis              types.String               `tfsdk:"writes_basis"`
	ReadsBasis               types.String               `tfsdk:"reads_basis"`
	MonthlyWriteRequestUnits types.Float64              `tfsdk:"monthly_write_request_units"`
	MonthlyReadRequestUnits  types.Float64              `tfsdk:"monthly_read_request_units"`
	StorageGB                types.Float64              `tfsdk:"storage_gb"`
	OnDemand                 *modeCostModel             `tfsdk:"on_demand"`
	Provisioned              *modeCostModel             `tfsdk:"provisioned"`
	ProvisionedWriteCapacity types.Float64              `tfsdk:"provisioned_write_capacity"`
	ProvisionedReadCapacity  types.Float64              `tfsdk:"provisioned_read_capacity"`
	CheaperMode              types.String               `tfsdk:"cheaper_mode"`
	BreakEvenUtilization     types.Float64              `tfsdk:"break_even_utilization"`
	Utilization              types.Float64              `tfsdk:"utilization"`
	IndexWrites              map[string]types.Float64   `tfsdk:"index_writes"`
	Prices                   types.String               `tfsdk:"prices"`
	ReplicaRegions           map[string]regionCostModel `tfsdk:"replica_regions"`
	AllRegions               *allRegionsModel           `tfsdk:"all_regions"`
}

// regionCostModel is one replica Region's cost.
type regionCostModel struct {
	WriteShare  types.Float64  `tfsdk:"write_share"`
	Prices      types.String   `tfsdk:"prices"`
	OnDemand    *modeCostModel `tfsdk:"on_demand"`
	Provisioned *modeCostModel `tfsdk:"provisioned"`
}

// allRegionsModel is a global table's total.
type allRegionsModel struct {
	OnDemand    types.Float64 `tfsdk:"on_demand"`
	Provisioned types.Float64 `tfsdk:"provisioned"`
}

// modeCostModel is one billing mode's monthly dollars; nil is a null object.
type modeCostModel struct {
	TableWrites types.Float64 `tfsdk:"table_writes"`
	IndexWrites types.Float64 `tfsdk:"index_writes"`
	Reads       types.Float64 `tfsdk:"reads"`
	Storage     types.Float64 `tfsdk:"storage"`
	PITR        types.Float64 `tfsdk:"pitr"`
	Total       types.Float64 `tfsdk:"total"`
}

func modeCost(m *model.ModeCost) *modeCostModel {
	if m == nil {
		return nil
	}
	return &modeCostModel{TableWrites: types.Float64Value(m.TableWrites), IndexWrites: types.Float64Value(m.IndexWrites),
		Reads: types.Float64Value(m.Reads), Storage: floatOrNull(m.Storage), PITR: floatOrNull(m.PITR), Total: floatOrNull(m.Total)}
}

// flattenCost is the data source's `cost` and `infracost_usage`.
func flattenCost(ctx context.Context, c *model.CostEstimate) (types.Object, types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	usage := map[string]*big.Float{}
	for k, v := range c.InfracostUsage() {
		usage[k] = new(big.Float).SetInt64(v)
	}
	usageMap, dg := types.MapValueFrom(ctx, types.NumberType, usage)
	diags.Append(dg...)
	m := costModel{
		Region: types.StringValue(c.Region), TableClass: types.StringValue(c.TableClass), Currency: types.StringValue(c.Currency),
		Problem: stringOrNull(c.Problem), WritesBasis: types.StringValue(c.WritesBasis), ReadsBasis: types.StringValue(c.ReadsBasis),
		MonthlyWriteRequestUnits: floatOrNull(c.MonthlyWriteRequestUnits), MonthlyReadRequestUnits: floatOrNull(c.MonthlyReadRequestUnits),
		StorageGB: floatOrNull(c.StorageGB), OnDemand: modeCost(c.OnDemand), Provisioned: modeCost(c.Provisioned),
		ProvisionedWriteCapacity: floatOrNull(c.ProvisionedWriteCapacity), ProvisionedReadCapacity: floatOrNull(c.ProvisionedReadCapacity),
		CheaperMode: stringOrNull(c.CheaperMode), BreakEvenUtilization: floatOrNull(c.BreakEvenUtilization), Utilization: floatOrNull(c.Utilization),
		IndexWrites: map[string]types.Float64{},
	}
	for _, i := range c.Indexes {
		m.IndexWrites[i.Name] = floatOrNull(i.OnDemandWriteCost)
	}
	if c.Prices != nil {
		m.Prices = types.StringValue(c.PriceStatus.Wording())
	} else {
		m.Prices = types.StringNull()
	}
	if len(c.Replicas) > 0 {
		m.ReplicaRegions = map[string]regionCostModel{}
		for _, r := range c.Replicas {
			m.ReplicaRegions[r.Region] = regionCostModel{WriteShare: types.Float64Value(r.WriteShare), Prices: types.StringValue(r.PriceStatus.Wording()),
				OnDemand: modeCost(r.OnDemand), Provisioned: modeCost(r.Provisioned)}
		}
	}
	if a := c.AllRegions; a != nil {
		m.AllRegions = &allRegionsModel{OnDemand: floatOrNull(a.OnDemand), Provisioned: floatOrNull(a.Provisioned)}
	}
	obj, dg := types.ObjectValueFrom(ctx, costType.AttrTypes, m)
	diags.Append(dg...)
	return obj, usageMap, diags
}

// costOutputs are the data source's cost attributes for a document; null while the estimate is unknown.
func costOutputs(ctx context.Context, doc *model.Document) (types.Object, types.Map, diag.Diagnostics) {
	if doc.Derived.Cost == nil {
		return types.ObjectNull(costType.AttrTypes), types.MapNull(types.NumberType), nil
	}
	obj, usage, diags := flattenCost(ctx, doc.Derived.Cost)
	if diags.HasError() {
		diags.AddError("Encoding the cost failed", fmt.Sprintf("%v. Please report this issue with the design that caused it.", diags))
	}
	return obj, usage, diags
}
