package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The example's Workbench model, planned with the keydesign data source: the templates its aliases do not
// write are inferred (the order's sort alias names their placeholders), the order item of another shape is
// a mismatch, and the design's one finding is its GSI's two-value partition key.
func workbenchModelPart(t *testing.T) functionPart {
	t.Helper()
	return functionPart{
		config: fmt.Sprintf(`
locals {
  wb_shop = provider::dynamokeys::from_workbench_model(file(%q), "Shop")
}

data "dynamokeys_keydesign" "wb_shop" {
  partition_key            = local.wb_shop.partition_key
  sort_key                 = local.wb_shop.sort_key
  global_secondary_indexes = local.wb_shop.global_secondary_indexes
  segments                 = local.wb_shop.segments
  entities                 = { for name, e in local.wb_shop.entities : name => merge(e, { traffic = { writes_per_second = 100 } }) }
  access_patterns          = local.wb_shop.access_patterns
}

output "wb_order_keys" { value = local.wb_shop.entities["order"].keys }
output "wb_customer_keys" { value = local.wb_shop.entities["customer"].keys }
output "wb_inferred" { value = [for i in local.wb_shop.inferred : "${i.entity}.${i.attribute}"] }
output "wb_mismatches" { value = local.wb_shop.mismatches }
output "wb_collisions" { value = local.wb_shop.collisions }
output "wb_order_date" { value = local.wb_shop.segments["order_date"] }
output "wb_findings" { value = [for f in data.dynamokeys_keydesign.wb_shop.findings : "${f.rule} ${f.message}"] }
`, exampleFunctionFile(t, "from_workbench_model", "model.json")),
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("wb_order_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"PK": knownvalue.StringExact("CUSTOMER#{customer_id}"), "SK": knownvalue.StringExact("ORDER#{order_date}#{order_no}"),
				"GSI1PK": knownvalue.StringExact("STATUS#{status}"), "GSI1SK": knownvalue.StringExact("{order_date}")})),
			statecheck.ExpectKnownOutputValue("wb_customer_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"PK": knownvalue.StringExact("CUSTOMER#{customer_id}"), "SK": knownvalue.StringExact("PROFILE")})),
			// The customer's partition alias is a template, so it is not inferred.
			statecheck.ExpectKnownOutputValue("wb_inferred", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("customer.SK"), knownvalue.StringExact("order.PK"), knownvalue.StringExact("order.SK"),
				knownvalue.StringExact("order.GSI1PK"), knownvalue.StringExact("order.GSI1SK")})),
			statecheck.ExpectKnownOutputValue("wb_mismatches", knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"entity": knownvalue.StringExact("order"), "attribute": knownvalue.StringExact("SK"), "value": knownvalue.StringExact("ORDER#1004"),
				"template": knownvalue.StringExact("ORDER#{order_date}#{order_no}"),
				"why":      knownvalue.StringExact("a sample value of another shape than the entity's other samples")})})),
			statecheck.ExpectKnownOutputValue("wb_collisions", knownvalue.ListExact([]knownvalue.Check{})),
			statecheck.ExpectKnownOutputValueAtPath("wb_order_date", tfjsonpath.New("granularity"), knownvalue.StringExact("day")),
			// The GSI by order status, an enum of the two values the samples hold, is the finding the model deserves.
			statecheck.ExpectKnownOutputValue("wb_findings", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringRegexp(regexp.MustCompile(`^DK501 GSI "GSI1" has a low-cardinality \(2 values\) partition key`))})),
		},
	}
}

// Two facets whose samples hold the same primary key: the function lists it, and the planned design's
// templates can render it too, which DK109 reports.
func TestFromWorkbenchModelFunctionCollision(t *testing.T) {
	t.Parallel()
	config := `
locals {
  item  = { PK = { S = "USER#u1" }, SK = { S = "PROFILE" } }
  model = jsonencode({
    ModelName = "Users", ModelMetadata = { Version = "3.0" }
    DataModel = [{
      TableName     = "Users"
      KeyAttributes = { PartitionKey = { AttributeName = "PK", AttributeType = "S" }, SortKey = { AttributeName = "SK", AttributeType = "S" } }
      TableFacets = [
        { FacetName = "User", KeyAttributeAlias = { PartitionKeyAlias = "USER#<UserId>", SortKeyAlias = "PROFILE" }, TableData = [local.item] },
        { FacetName = "Admin", KeyAttributeAlias = { PartitionKeyAlias = "USER#<UserId>", SortKeyAlias = "PROFILE" }, TableData = [local.item] },
      ]
    }]
  })
  users = provider::dynamokeys::from_workbench_model(local.model, "Users")
}

data "dynamokeys_keydesign" "users" {
  partition_key = local.users.partition_key
  sort_key      = local.users.sort_key
  segments      = local.users.segments
  entities      = { for name, e in local.users.entities : name => merge(e, { traffic = { writes_per_second = 10 } }) }
  lifecycle {
    precondition {
      condition     = length(local.users.collisions) == 1 && local.users.collisions[0].key.PK == "USER#u1"
      error_message = "the sample collision is not listed"
    }
  }
}
`
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      config,
			ExpectError: expectError(`DK109 entity-key-collision: entities "admin" and "user" can write the same primary key`),
		}},
	})
}

// runFunction calls a function in process with string arguments.
func runFunction(t *testing.T, f function.Function, args ...string) *function.FuncError {
	t.Helper()
	var def function.DefinitionResponse
	f.Definition(t.Context(), function.DefinitionRequest{}, &def)
	values := make([]attr.Value, len(args))
	for i, a := range args {
		values[i] = types.StringValue(a)
	}
	ret, ok := def.Definition.Return.(function.ObjectReturn)
	if !ok {
		t.Fatalf("%T returns no object", f)
	}
	resp := &function.RunResponse{Result: function.NewResultData(types.ObjectUnknown(ret.AttributeTypes))}
	f.Run(t.Context(), function.RunRequest{Arguments: function.NewArgumentsData(values)}, resp)
	return resp.Error
}

// A model that is no model is an error on the model argument, saying why; a model read past is none.
func TestFromWorkbenchModelFunctionErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ model, table, want string }{
		{`{"DataModel": [`, "T", "the model is not a NoSQL Workbench data model: unexpected EOF"},
		{`{"DataModel": [{"TableName": "A", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk"}}}]}`, "B", `the model has no table "B": its tables are "A"`},
	} {
		err := runFunction(t, NewFromWorkbenchModelFunction(), tt.model, tt.table)
		if err == nil || err.FunctionArgument == nil || *err.FunctionArgument != 0 || !strings.Contains(err.Text, tt.want) {
			t.Errorf("error %+v, want %q on argument 0", err, tt.want)
		}
	}
	if err := runFunction(t, NewFromWorkbenchModelFunction(), `{"Future": 1, "DataModel": [{"TableName": "A", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk"}}, "TableFacets": "?"}]}`, "A"); err != nil {
		t.Errorf("a model with unknown fields: %v", err)
	}
}
