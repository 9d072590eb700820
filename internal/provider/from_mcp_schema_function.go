package provider

import (
	"context"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

var _ function.Function = (*fromMCPSchemaFunction)(nil)

// NewFromMCPSchemaFunction returns the from_mcp_schema(schema, table) function.
func NewFromMCPSchemaFunction() function.Function { return &fromMCPSchemaFunction{} }

type fromMCPSchemaFunction struct{}

func (f *fromMCPSchemaFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "from_mcp_schema"
}

var (
	mcpKeyType     = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "type": types.StringType}}
	mcpGSIType     = types.ObjectType{AttrTypes: map[string]attr.Type{"partition_key": types.ListType{ElemType: mcpKeyType}, "sort_key": types.ListType{ElemType: mcpKeyType}, "projection_type": types.StringType, "non_key_attributes": types.ListType{ElemType: types.StringType}}}
	mcpSegmentType = types.ObjectType{AttrTypes: map[string]attr.Type{"kind": types.StringType, "values": types.ListType{ElemType: types.StringType}, "max_length": types.NumberType, "characters": types.StringType}}
	mcpEntityType  = types.ObjectType{AttrTypes: map[string]attr.Type{"keys": types.MapType{ElemType: types.StringType}}}
	mcpSortType    = types.ObjectType{AttrTypes: map[string]attr.Type{"on": types.StringType, "condition": types.StringType}}
	mcpPatternType = types.ObjectType{AttrTypes: map[string]attr.Type{"entities": types.ListType{ElemType: types.StringType}, "index": types.StringType, "equals": types.ListType{ElemType: types.StringType}, "sort": mcpSortType, "consistency": types.StringType}}
	mcpDesignType  = types.ObjectType{AttrTypes: map[string]attr.Type{
		"partition_key": mcpKeyType, "sort_key": mcpKeyType, "global_secondary_indexes": types.MapType{ElemType: mcpGSIType},
		"segments": types.MapType{ElemType: mcpSegmentType}, "entities": types.MapType{ElemType: mcpEntityType},
		"access_patterns": types.MapType{ElemType: mcpPatternType}, "skipped": types.ListType{ElemType: types.StringType},
	}}
)

func (f *fromMCPSchemaFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Design inputs from a DynamoDB MCP server schema.json",
		Description: "Reads one table of the `schema.json` data model that the AWS DynamoDB MCP server writes (tables with `table_config`, " +
			"`gsi_list` and entities with `pk_template`, `sk_template`, `gsi_mappings`, `fields` and `access_patterns`) and returns the inputs of a " +
			"design with entities: `partition_key`, `sort_key`, `global_secondary_indexes`, `segments`, `entities` and `access_patterns`, and " +
			"`skipped`, what of the model the design does not hold, with why: patterns that are not reads through a key (writes, Scans), parameters that fill no key placeholder, a key attribute given two templates. The file holds no traffic: add each " +
			"entity's `traffic` and each pattern's `reads_per_second` in HCL.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "schema", Description: "The schema.json text, e.g. file(\"schema.json\")."},
			function.StringParameter{Name: "table", Description: "The table_name of the table to read."},
		},
		Return: function.ObjectReturn{AttributeTypes: mcpDesignType.AttrTypes},
	}
}

type mcpKeyModel struct {
	Name types.String `tfsdk:"name"`
	Type types.String `tfsdk:"type"`
}

type mcpGSIModel struct {
	PartitionKey     []mcpKeyModel `tfsdk:"partition_key"`
	SortKey          []mcpKeyModel `tfsdk:"sort_key"`
	ProjectionType   types.String  `tfsdk:"projection_type"`
	NonKeyAttributes []string      `tfsdk:"non_key_attributes"`
}

type mcpSegmentModel struct {
	Kind       types.String `tfsdk:"kind"`
	Values     []string     `tfsdk:"values"`
	MaxLength  *big.Float   `tfsdk:"max_length"`
	Characters types.String `tfsdk:"characters"`
}

type mcpEntityModel struct {
	Keys map[string]string `tfsdk:"keys"`
}

type mcpSortModel struct {
	On        types.String `tfsdk:"on"`
	Condition types.String `tfsdk:"condition"`
}

type mcpPatternModel struct {
	Entities    []string      `tfsdk:"entities"`
	Index       types.String  `tfsdk:"index"`
	Equals      []string      `tfsdk:"equals"`
	Sort        *mcpSortModel `tfsdk:"sort"`
	Consistency types.String  `tfsdk:"consistency"`
}

type mcpDesignModel struct {
	PartitionKey           mcpKeyModel                `tfsdk:"partition_key"`
	SortKey                *mcpKeyModel               `tfsdk:"sort_key"`
	GlobalSecondaryIndexes map[string]mcpGSIModel     `tfsdk:"global_secondary_indexes"`
	Segments               map[string]mcpSegmentModel `tfsdk:"segments"`
	Entities               map[string]mcpEntityModel  `tfsdk:"entities"`
	AccessPatterns         map[string]mcpPatternModel `tfsdk:"access_patterns"`
	Skipped                []string                   `tfsdk:"skipped"`
}

func mcpKeys(keys []keydesign.IndexKeyAttribute) []mcpKeyModel {
	out := make([]mcpKeyModel, len(keys))
	for i, k := range keys {
		out[i] = mcpKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)}
	}
	return out
}

func (f *fromMCPSchemaFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var schema, table string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &schema, &table))
	if resp.Error != nil {
		return
	}
	d, err := keydesign.FromMCPSchema([]byte(schema), table)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "the schema "+err.Error())
		return
	}
	m := mcpDesignModel{
		PartitionKey:           mcpKeyModel{Name: types.StringValue(d.PartitionKey.Name), Type: types.StringValue(d.PartitionKey.Type)},
		GlobalSecondaryIndexes: map[string]mcpGSIModel{}, Segments: map[string]mcpSegmentModel{}, Entities: map[string]mcpEntityModel{},
		AccessPatterns: map[string]mcpPatternModel{}, Skipped: append([]string{}, d.Skipped...),
	}
	if d.SortKey != nil {
		m.SortKey = &mcpKeyModel{Name: types.StringValue(d.SortKey.Name), Type: types.StringValue(d.SortKey.Type)}
	}
	for _, g := range d.GlobalSecondaryIndexes {
		m.GlobalSecondaryIndexes[g.Name] = mcpGSIModel{PartitionKey: mcpKeys(g.PartitionKey), SortKey: mcpKeys(g.SortKey),
			ProjectionType: types.StringValue(g.ProjectionType), NonKeyAttributes: g.NonKeyAttributes}
	}
	for name, s := range d.Segments {
		seg := mcpSegmentModel{Kind: types.StringValue(string(s.Kind)), Values: s.Values, Characters: types.StringPointerValue(s.Characters)}
		if s.MaxLength != nil {
			seg.MaxLength = new(big.Float).SetInt64(*s.MaxLength)
		}
		m.Segments[name] = seg
	}
	for _, e := range d.Entities {
		m.Entities[e.Name] = mcpEntityModel{Keys: e.Keys}
	}
	for _, ap := range d.AccessPatterns {
		p := mcpPatternModel{Entities: slices.Clone(ap.Entities), Index: types.StringPointerValue(ap.Index), Equals: append([]string{}, ap.Equals...)}
		if ap.Consistency != "" {
			p.Consistency = types.StringValue(ap.Consistency)
		} else {
			p.Consistency = types.StringNull()
		}
		if ap.Sort != nil {
			p.Sort = &mcpSortModel{On: types.StringValue(ap.Sort.On), Condition: types.StringValue(ap.Sort.Condition)}
		}
		m.AccessPatterns[ap.Name] = p
	}
	obj, diags := types.ObjectValueFrom(ctx, mcpDesignType.AttrTypes, m)
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
