package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The example's OneTable schema, planned with the keydesign data source: its models are entities with
// their value templates, its saved queries access patterns that the design serves, its Scan skipped.
func oneTableSchemaPart(t *testing.T) functionPart {
	t.Helper()
	return functionPart{
		config: fmt.Sprintf(`
locals {
  onetable_app = provider::dynamokeys::from_onetable_schema(file(%q))
}

data "dynamokeys_keydesign" "onetable_app" {
  partition_key            = local.onetable_app.partition_key
  sort_key                 = local.onetable_app.sort_key
  global_secondary_indexes = local.onetable_app.global_secondary_indexes
  segments                 = local.onetable_app.segments
  entities                 = { for name, e in local.onetable_app.entities : name => merge(e, { traffic = { writes_per_second = 50 } }) }
  access_patterns          = { for name, p in local.onetable_app.access_patterns : name => merge(p, { reads_per_second = 100 }) }
}

output "onetable_entities" { value = keys(local.onetable_app.entities) }
output "onetable_invoice_keys" { value = local.onetable_app.entities["invoice"].keys }
output "onetable_invoices" { value = local.onetable_app.access_patterns["account_invoices"] }
output "onetable_number" { value = local.onetable_app.segments["number"] }
output "onetable_skipped" { value = local.onetable_app.skipped }
output "onetable_findings" { value = [for f in data.dynamokeys_keydesign.onetable_app.findings : "${f.rule} ${f.message}"] }
`, exampleFunctionFile(t, "from_onetable_schema", "schema.json")),
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("onetable_entities", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("account"), knownvalue.StringExact("invoice"), knownvalue.StringExact("user")})),
			statecheck.ExpectKnownOutputValue("onetable_invoice_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"pk": knownvalue.StringExact("Account#{account_id}"), "sk": knownvalue.StringExact("Invoice#{issued}#{number}")})),
			statecheck.ExpectKnownOutputValueAtPath("onetable_invoices", tfjsonpath.New("sort"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"on": knownvalue.StringExact("issued"), "condition": knownvalue.StringExact("begins_with")})),
			statecheck.ExpectKnownOutputValueAtPath("onetable_invoices", tfjsonpath.New("entities"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("invoice")})),
			// ${number:8:0} is a number of 8 characters.
			statecheck.ExpectKnownOutputValueAtPath("onetable_number", tfjsonpath.New("max_length"), knownvalue.Int64Exact(8)),
			statecheck.ExpectKnownOutputValue("onetable_skipped", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact(`query "All items": a Scan; dynamokeys checks the reads that use a key`)})),
			statecheck.ExpectKnownOutputValue("onetable_findings", knownvalue.ListExact([]knownvalue.Check{})),
		},
	}
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
