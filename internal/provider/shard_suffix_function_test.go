package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// shardSuffixParts check zero-padded suffixes against Node.js's padStart output.
func shardSuffixParts(t *testing.T) []functionPart {
	t.Helper()
	var config strings.Builder
	var checks []statecheck.StateCheck
	for i, v := range nodeVectors(t) {
		if i%5 != 2 {
			continue
		}
		fmt.Fprintf(&config, "output \"suffix_v%d\" {\n  value = provider::dynamokeys::shard_suffix(%q, %d)\n}\n", i, v.ID, v.Count)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("suffix_v%d", i), knownvalue.StringExact(v.Suffix)))
	}
	return []functionPart{{config: config.String(), state: checks}}
}

func TestShardSuffixFunctionRejectsZeroCount(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      `output "x" { value = provider::dynamokeys::shard_suffix("a", 0) }`,
			ExpectError: expectError(`Invalid value for "count" parameter.*from 1 to 100000 shards,\s+got 0`),
		}},
	})
}
