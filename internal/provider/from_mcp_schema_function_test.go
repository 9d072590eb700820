package provider

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// exampleSchema is the path of the function's example schema.json, which Terraform reads from its own
// working directory.
func exampleSchema(t *testing.T) string {
	t.Helper()
	return exampleFunctionFile(t, "from_mcp_schema", "schema.json")
}

// exampleFunctionFile is the path of a file of a function's example directory.
func exampleFunctionFile(t *testing.T, function, file string) string {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "examples", "functions", function, file)
}

// The function's output is a design's inputs: the example's schema.json, planned with the keydesign data
// source, has no finding; its write pattern is listed as skipped.
func mcpSchemaPart(t *testing.T) functionPart {
	t.Helper()
	return functionPart{
		config: fmt.Sprintf(`
locals {
  mcp_shop = provider::dynamokeys::from_mcp_schema(file(%q), "Shop")
}

data "dynamokeys_keydesign" "mcp_shop" {
  partition_key            = local.mcp_shop.partition_key
  sort_key                 = local.mcp_shop.sort_key
  global_secondary_indexes = local.mcp_shop.global_secondary_indexes
  segments                 = local.mcp_shop.segments
  entities                 = { for name, e in local.mcp_shop.entities : name => merge(e, { traffic = { writes_per_second = 100 } }) }
  access_patterns          = local.mcp_shop.access_patterns
}

output "mcp_entities" { value = keys(local.mcp_shop.entities) }
output "mcp_order_keys" { value = local.mcp_shop.entities["order"].keys }
output "mcp_between" { value = local.mcp_shop.access_patterns["get_orders_between"].sort }
output "mcp_orders" { value = local.mcp_shop.access_patterns["get_customer_orders"].sort }
output "mcp_skipped" { value = local.mcp_shop.skipped }
output "mcp_customer_id" { value = local.mcp_shop.segments["customer_id"] }
output "mcp_findings" { value = length(data.dynamokeys_keydesign.mcp_shop.findings) }
`, exampleSchema(t)),
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("mcp_entities", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("customer"), knownvalue.StringExact("order")})),
			statecheck.ExpectKnownOutputValue("mcp_order_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"pk": knownvalue.StringExact("CUSTOMER#{customer_id}"), "sk": knownvalue.StringExact("ORDER#{order_date}#{order_id}")})),
			statecheck.ExpectKnownOutputValue("mcp_between", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"on": knownvalue.StringExact("order_date"), "condition": knownvalue.StringExact("between")})),
			// A Query of an entity's items reads them by their sort key's prefix.
			statecheck.ExpectKnownOutputValue("mcp_orders", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"on": knownvalue.StringExact("order_date"), "condition": knownvalue.StringExact("begins_with")})),
			statecheck.ExpectKnownOutputValue("mcp_skipped", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("create_customer (PutItem): a write, which is no access pattern")})),
			statecheck.ExpectKnownOutputValueAtPath("mcp_customer_id", tfjsonpath.New("characters"), knownvalue.StringExact("0-9a-f-")),
			statecheck.ExpectKnownOutputValue("mcp_findings", knownvalue.Int64Exact(0)),
		},
	}
}

func TestFromMCPSchemaFunctionRefusesAnUnknownTable(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      fmt.Sprintf(`output "x" { value = provider::dynamokeys::from_mcp_schema(file(%q), "Orders") }`, exampleSchema(t)),
			ExpectError: expectError(`has no table "Orders": its tables are "Shop"`),
		}},
	})
}
