package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The example's OneTable schema, planned with the keydesign data source: its models are entities with
// their value templates, its saved queries access patterns that the design serves, its Scan skipped.
func TestFromOneTableSchemaFunction(t *testing.T) {
	t.Parallel()
	config := fmt.Sprintf(`
locals {
  app = provider::dynamokeys::from_onetable_schema(file(%q))
}

data "dynamokeys_keydesign" "app" {
  partition_key            = local.app.partition_key
  sort_key                 = local.app.sort_key
  global_secondary_indexes = local.app.global_secondary_indexes
  segments                 = local.app.segments
  entities                 = { for name, e in local.app.entities : name => merge(e, { traffic = { writes_per_second = 50 } }) }
  access_patterns          = { for name, p in local.app.access_patterns : name => merge(p, { reads_per_second = 100 }) }
}

output "entities" { value = keys(local.app.entities) }
output "invoice_keys" { value = local.app.entities["invoice"].keys }
output "invoices" { value = local.app.access_patterns["account_invoices"] }
output "number" { value = local.app.segments["number"] }
output "skipped" { value = local.app.skipped }
output "findings" { value = [for f in data.dynamokeys_keydesign.app.findings : "${f.rule} ${f.message}"] }
`, exampleFunctionFile(t, "from_onetable_schema", "schema.json"))
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("entities", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("account"), knownvalue.StringExact("invoice"), knownvalue.StringExact("user")})),
				statecheck.ExpectKnownOutputValue("invoice_keys", knownvalue.MapExact(map[string]knownvalue.Check{
					"pk": knownvalue.StringExact("Account#{account_id}"), "sk": knownvalue.StringExact("Invoice#{issued}#{number}")})),
				statecheck.ExpectKnownOutputValueAtPath("invoices", tfjsonpath.New("sort"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"on": knownvalue.StringExact("issued"), "condition": knownvalue.StringExact("begins_with")})),
				statecheck.ExpectKnownOutputValueAtPath("invoices", tfjsonpath.New("entities"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("invoice")})),
				// ${number:8:0} is a number of 8 characters.
				statecheck.ExpectKnownOutputValueAtPath("number", tfjsonpath.New("max_length"), knownvalue.Int64Exact(8)),
				statecheck.ExpectKnownOutputValue("skipped", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(`query "All items": a Scan; dynamokeys checks the reads that use a key`)})),
				statecheck.ExpectKnownOutputValue("findings", knownvalue.ListExact([]knownvalue.Check{})),
			},
		}},
	})
}

func TestFromOneTableSchemaFunctionErrors(t *testing.T) {
	t.Parallel()
	for schema, want := range map[string]string{
		`{"models": `: "the schema is not a OneTable schema: unexpected EOF",
		`{"format": "onetable:9.0.0", "indexes": {}, "models": {"A": {}}}`: "it has no indexes.primary.hash",
	} {
		err := runFunction(t, NewFromOneTableSchemaFunction(), schema)
		if err == nil || err.FunctionArgument == nil || *err.FunctionArgument != 0 || !strings.Contains(err.Text, want) {
			t.Errorf("error %+v, want %q on argument 0", err, want)
		}
	}
}
