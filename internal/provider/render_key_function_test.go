package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// renderKeyParts check rendered keys, a literal-only template, and that an unknown value gives an unknown key.
func renderKeyParts() []functionPart {
	return []functionPart{{
		config: `
output "render_key" {
  value = provider::dynamokeys::render_key("DAY#{day}#SHARD#{shard}", { day = "2026-11-30", shard = provider::dynamokeys::shard_suffix("user-1", 16) })
}
output "render_key_literal" {
  value = provider::dynamokeys::render_key("CONFIG", {})
}
`,
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("render_key", knownvalue.StringExact("DAY#2026-11-30#SHARD#04")),
			statecheck.ExpectKnownOutputValue("render_key_literal", knownvalue.StringExact("CONFIG")),
		},
	}, {
		config: `
resource "terraform_data" "day" {
  input = "2026-11-30"
}
output "render_key_of_unknown_day" {
  value = provider::dynamokeys::render_key("DAY#{day}", { day = terraform_data.day.output })
}
`,
		preApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("render_key_of_unknown_day")},
		state:    []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("render_key_of_unknown_day", knownvalue.StringExact("DAY#2026-11-30"))},
	}}
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
