package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/importers"
)

var _ function.Function = (*fromWorkbenchModelFunction)(nil)

// NewFromWorkbenchModelFunction returns the from_workbench_model(model, table) function.
func NewFromWorkbenchModelFunction() function.Function { return &fromWorkbenchModelFunction{} }

type fromWorkbenchModelFunction struct{}

func (f *fromWorkbenchModelFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "from_workbench_model"
}

var workbenchExtraTypes = map[string]attr.Type{
	"inferred": types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{
		"entity": types.StringType, "attribute": types.StringType, "template": types.StringType, "samples": types.ListType{ElemType: types.StringType}}}},
	"mismatches": types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{
		"entity": types.StringType, "attribute": types.StringType, "value": types.StringType, "template": types.StringType, "why": types.StringType}}},
	"collisions": types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{
		"entities": types.ListType{ElemType: types.StringType}, "key": types.MapType{ElemType: types.StringType}}}},
}

type workbenchInferredModel struct {
	Entity    string   `tfsdk:"entity"`
	Attribute string   `tfsdk:"attribute"`
	Template  string   `tfsdk:"template"`
	Samples   []string `tfsdk:"samples"`
}

type workbenchMismatchModel struct {
	Entity    string `tfsdk:"entity"`
	Attribute string `tfsdk:"attribute"`
	Value     string `tfsdk:"value"`
	Template  string `tfsdk:"template"`
	Why       string `tfsdk:"why"`
}

type workbenchCollisionModel struct {
	Entities []string          `tfsdk:"entities"`
	Key      map[string]string `tfsdk:"key"`
}

type workbenchExtraModel struct {
	Inferred   []workbenchInferredModel  `tfsdk:"inferred"`
	Mismatches []workbenchMismatchModel  `tfsdk:"mismatches"`
	Collisions []workbenchCollisionModel `tfsdk:"collisions"`
}

func (f *fromWorkbenchModelFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Design inputs from a NoSQL Workbench data model",
		Description: "Reads one table of a NoSQL Workbench data model (the JSON Workbench exports, versions 1.0 to 3.0) and returns the inputs of a " +
			"design with entities, as `from_mcp_schema` does: `partition_key`, `sort_key`, `global_secondary_indexes`, `segments`, `entities`, " +
			"`access_patterns` (empty: the model names none) and `skipped`. Each facet is an entity (a table without facets is one). A key's template " +
			"is the facet's alias where the alias is written as one (`TENANT#<TenantId>`, `{id}`, `${id}`), else it is inferred from the values " +
			"of the facet's sample items, literal prefixes and separators kept and the varying parts typed as segments; GSI keys are always " +
			"inferred. The model checked against itself: `inferred` lists every template the modeler did not write, with its samples; " +
			"`mismatches` each sample value the entity's template cannot render and each alias that disagrees with the samples; `collisions` " +
			"each sample primary key that two facets hold (planned, DK109 reports templates that can render the same key). Unknown fields and " +
			"versions are read past; what names a key, an index, a projection, a type, an alias or a facet and cannot be read is listed in " +
			"`skipped` with why (a key without `AttributeType`, typed `S`; a `SortKeyAlias` on a table without a sort key; a local secondary " +
			"index), and a sample item that DynamoDB would refuse (a key value of another type than its attribute's, a missing table key) in " +
			"`mismatches`. A key `AttributeType` other than `S`, `N` or `B`, two types of one attribute, and a `ProjectionType` other than " +
			"`ALL`, `KEYS_ONLY` or `INCLUDE` are errors. The model holds no traffic: add each entity's `traffic` in HCL.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "model", Description: "The data model's JSON text, e.g. file(\"model.json\")."},
			function.StringParameter{Name: "table", Description: "The TableName of the table to read."},
		},
		Return: function.ObjectReturn{AttributeTypes: importedDesignReturn(workbenchExtraTypes)},
	}
}

func (f *fromWorkbenchModelFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var model, table string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &model, &table))
	if resp.Error != nil {
		return
	}
	d, err := importers.FromWorkbenchModel([]byte(model), table)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "the model "+err.Error())
		return
	}
	extra := workbenchExtraModel{Inferred: []workbenchInferredModel{}, Mismatches: []workbenchMismatchModel{}, Collisions: []workbenchCollisionModel{}}
	for _, in := range d.Inferred {
		extra.Inferred = append(extra.Inferred, workbenchInferredModel{Entity: in.Entity, Attribute: in.Attribute, Template: in.Template, Samples: in.Samples})
	}
	for _, m := range d.Mismatches {
		extra.Mismatches = append(extra.Mismatches, workbenchMismatchModel(m))
	}
	for _, c := range d.Collisions {
		extra.Collisions = append(extra.Collisions, workbenchCollisionModel{Entities: c.Entities, Key: c.Key})
	}
	obj, diags := importedDesignObject(ctx, &d.Design, workbenchExtraTypes, extra)
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
