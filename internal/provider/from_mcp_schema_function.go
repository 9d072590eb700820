package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/importers"
)

var _ function.Function = (*fromMCPSchemaFunction)(nil)

// NewFromMCPSchemaFunction returns the from_mcp_schema(schema, table) function.
func NewFromMCPSchemaFunction() function.Function { return &fromMCPSchemaFunction{} }

type fromMCPSchemaFunction struct{}

func (f *fromMCPSchemaFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "from_mcp_schema"
}

func (f *fromMCPSchemaFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Design inputs from a DynamoDB MCP server schema.json",
		Description: "Reads one table of the `schema.json` data model that the AWS DynamoDB MCP server writes (tables with `table_config`, " +
			"`gsi_list` and entities with `pk_template`, `sk_template`, `gsi_mappings`, `fields` and `access_patterns`) and returns the inputs of a " +
			"design with entities: `partition_key`, `sort_key`, `global_secondary_indexes`, `segments`, `entities` and `access_patterns`, and " +
			"`skipped`, what of the model the design does not hold, with why: patterns that are not reads through a key (writes, Scans, an " +
			"unknown operation or `range_condition`), parameters that fill no key placeholder, a key attribute given two templates, a sort-key " +
			"template where the table or GSI has no sort key, a placeholder that names no field. A key the table cannot have is an error: a " +
			"GSI without a name, an entity without `pk_template` (or `sk_template` on a table with a sort key), a key placeholder whose field " +
			"is not a string, integer, decimal, boolean or uuid, a `projection` other than `ALL`, `KEYS_ONLY` or `INCLUDE`. The file holds no " +
			"traffic: add each entity's `traffic` and each pattern's `reads_per_second` in HCL.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "schema", Description: "The schema.json text, e.g. file(\"schema.json\")."},
			function.StringParameter{Name: "table", Description: "The table_name of the table to read."},
		},
		Return: function.ObjectReturn{AttributeTypes: importedDesignTypes},
	}
}

func (f *fromMCPSchemaFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var schema, table string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &schema, &table))
	if resp.Error != nil {
		return
	}
	d, err := importers.FromMCPSchema([]byte(schema), table)
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
