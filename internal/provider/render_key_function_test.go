package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestRenderKeyFunction(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "key" {
  value = provider::dynamokeys::render_key("DAY#{day}#SHARD#{shard}", { day = "2026-11-30", shard = provider::dynamokeys::shard_suffix("user-1", 16) })
}
output "literal" {
  value = provider::dynamokeys::render_key("CONFIG", {})
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("key", knownvalue.StringExact("DAY#2026-11-30#SHARD#04")),
				statecheck.ExpectKnownOutputValue("literal", knownvalue.StringExact("CONFIG")),
			},
		}},
	})
}

func TestRenderKeyFunctionUnknownValue(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "day" {
  input = "2026-11-30"
}
output "key" {
  value = provider::dynamokeys::render_key("DAY#{day}", { day = terraform_data.day.output })
}`,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("key")}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("key", knownvalue.StringExact("DAY#2026-11-30"))},
		}},
	})
}

// TestRenderKeyFunctionErrors plans the bad templates and values together (expectEachFunctionError).
func TestRenderKeyFunctionErrors(t *testing.T) {
	t.Parallel()
	expectEachFunctionError(t, []functionErrorCase{
		{"missing value", `render_key("DAY#{day}", {})`, `Invalid value for "values" parameter.*no entry for placeholder \{day\}`},
		{"unclosed brace", `render_key("DAY#{day", { day = "x" })`, `Invalid value for "template" parameter.*character 5.*never closed`},
		{"bad placeholder name", `render_key("DAY#{Day}", { Day = "x" })`, `Invalid value for "template" parameter.*\[a-z\]\[a-z0-9_\]\*`},
		{"stray closing brace", `render_key("A}", {})`, `Invalid value for "template" parameter.*without a matching`},
	})
}
