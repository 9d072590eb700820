package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestShardFunctionMatchesNode checks provider::dynamokeys::shard through the Terraform CLI against
// shard numbers that Node.js computed.
func TestShardFunctionMatchesNode(t *testing.T) {
	t.Parallel()
	var config strings.Builder
	var checks []statecheck.StateCheck
	for i, v := range nodeVectors(t) {
		if i%5 != 0 { // every fifth vector keeps one plan small while covering all ids and counts
			continue
		}
		fmt.Fprintf(&config, "output \"v%d\" {\n  value = provider::dynamokeys::shard(%q, %d)\n}\n", i, v.ID, v.Count)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("v%d", i), knownvalue.Int64Exact(v.Shard)))
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{{Config: config.String(), ConfigStateChecks: checks}},
	})
}

func TestShardFunctionUnknownIDGivesUnknownResult(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "id" {
  input = "user-1"
}
output "shard" {
  value = provider::dynamokeys::shard(terraform_data.id.output, 16)
}`,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("shard")}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("shard", knownvalue.Int64Exact(4))},
		}},
	})
}

func TestShardFunctionRejectsCountBelowOne(t *testing.T) {
	t.Parallel()
	for _, count := range []string{"0", "-3"} {
		resource.UnitTest(t, resource.TestCase{
			TerraformVersionChecks:   functionsAvailable,
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      `output "x" { value = provider::dynamokeys::shard("a", ` + count + `) }`,
				ExpectError: expectError(`Invalid value for "count" parameter.*count must be from 1 to`),
			}},
		})
	}
}
