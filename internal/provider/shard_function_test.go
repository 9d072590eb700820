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

// shardParts check provider::dynamokeys::shard against shard numbers that Node.js computed (every fifth
// vector: one plan stays small while covering all ids and counts), and that an unknown id gives an unknown
// shard.
func shardParts(t *testing.T) []functionPart {
	t.Helper()
	var config strings.Builder
	var checks []statecheck.StateCheck
	for i, v := range nodeVectors(t) {
		if i%5 != 0 {
			continue
		}
		fmt.Fprintf(&config, "output \"shard_v%d\" {\n  value = provider::dynamokeys::shard(%q, %d)\n}\n", i, v.ID, v.Count)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("shard_v%d", i), knownvalue.Int64Exact(v.Shard)))
	}
	return []functionPart{{config: config.String(), state: checks}, {
		config: `
resource "terraform_data" "id" {
  input = "user-1"
}
output "shard_of_unknown_id" {
  value = provider::dynamokeys::shard(terraform_data.id.output, 16)
}
`,
		preApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("shard_of_unknown_id")},
		state:    []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("shard_of_unknown_id", knownvalue.Int64Exact(4))},
	}}
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
