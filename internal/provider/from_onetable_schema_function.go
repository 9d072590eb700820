package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/importers"
)

var _ function.Function = (*fromOneTableSchemaFunction)(nil)

// NewFromOneTableSchemaFunction returns the from_onetable_schema(schema) function.
func NewFromOneTableSchemaFunction() function.Function { return &fromOneTableSchemaFunction{} }

type fromOneTableSchemaFunction struct{}

func (f *fromOneTableSchemaFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "from_onetable_schema"
}

func (f *fromOneTableSchemaFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Design inputs from a dynamodb-onetable schema",
		Description: "Reads a dynamodb-onetable schema (`format` `onetable:1.x`: `indexes`, `models`, `params`, `queries`) and returns the inputs " +
			"of a design with entities, as `from_mcp_schema` does: `partition_key`, `sort_key` and `global_secondary_indexes` from `indexes` " +
			"(`primary` and the GSIs, their `project` as the projection), a segment per placeholder typed from its field, each model as an entity " +
			"whose key attributes' `value` templates are its keys (`${_type}` is the model's name, `${field:N:0}` a placeholder of N characters), " +
			"and each saved query that names an index and its `hash` value as an access pattern. A key attribute's type is the type OneTable " +
			"writes its field as: `string` (and binary, written as base64 text) `S`, `number` `N`, `date` `N`, or `S` with `isoDates`. " +
			"`skipped` lists, with why, what is no input or is read as something else: a value computed by code (`value: true`), a local index, " +
			"a Scan, a placeholder that names no field, a query's sort its operation cannot read. A field type OneTable does not know, a key " +
			"field that DynamoDB stores as BOOL, a list, a map or a set, a key attribute two models write as two types and a `project` other " +
			"than `all`, `keys` or a list are errors. The schema holds no traffic: add each entity's `traffic` and each pattern's " +
			"`reads_per_second` in HCL.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "schema", Description: "The schema's JSON text, e.g. file(\"schema.json\")."},
		},
		Return: function.ObjectReturn{AttributeTypes: importedDesignTypes},
	}
}

func (f *fromOneTableSchemaFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var schema string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &schema))
	if resp.Error != nil {
		return
	}
	d, err := importers.FromOneTableSchema([]byte(schema))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "the schema "+err.Error())
		return
	}
	obj, diags := importedDesignObject(ctx, d, nil, nil)
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
