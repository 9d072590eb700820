package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// shardKeysParts check every shard's key of a template, and a single shard's.
func shardKeysParts() []functionPart {
	return []functionPart{{
		config: `
output "shard_keys" {
  value = provider::dynamokeys::shard_keys("DAY#{day}#SHARD#{shard}", { day = "2026-11-30" }, 12)
}
output "shard_keys_single" {
  value = provider::dynamokeys::shard_keys("{shard}", {}, 1)
}
`,
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("shard_keys", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("DAY#2026-11-30#SHARD#00"), knownvalue.StringExact("DAY#2026-11-30#SHARD#01"),
				knownvalue.StringExact("DAY#2026-11-30#SHARD#02"), knownvalue.StringExact("DAY#2026-11-30#SHARD#03"),
				knownvalue.StringExact("DAY#2026-11-30#SHARD#04"), knownvalue.StringExact("DAY#2026-11-30#SHARD#05"),
				knownvalue.StringExact("DAY#2026-11-30#SHARD#06"), knownvalue.StringExact("DAY#2026-11-30#SHARD#07"),
				knownvalue.StringExact("DAY#2026-11-30#SHARD#08"), knownvalue.StringExact("DAY#2026-11-30#SHARD#09"),
				knownvalue.StringExact("DAY#2026-11-30#SHARD#10"), knownvalue.StringExact("DAY#2026-11-30#SHARD#11"),
			})),
			statecheck.ExpectKnownOutputValue("shard_keys_single", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("0")})),
		},
	}}
}

// TestShardKeysFunctionErrors plans the bad arguments together (expectEachFunctionError).
func TestShardKeysFunctionErrors(t *testing.T) {
	t.Parallel()
	expectEachFunctionError(t, []functionErrorCase{
		{"count below one", `shard_keys("A#{shard}", {}, 0)`, `Invalid value for "count" parameter.*from 1 to 100000 shards,\s+got 0`},
		{"count above the maximum", `shard_keys("A#{shard}", {}, 100001)`, `Invalid value for "count" parameter.*from 1 to 100000 shards,\s+got 100001`},
		{"count not whole", `shard_keys("A#{shard}", {}, 2.5)`, `Invalid value for "count" parameter.*whole number of shards, got 2.5`},
		{"no shard placeholder", `shard_keys("A#{day}", { day = "x" }, 4)`, `Invalid value for "template" parameter.*no \{shard\} placeholder`},
		{"missing value", `shard_keys("A#{day}#{shard}", {}, 4)`, `Invalid value for "values" parameter.*\{day\}`},
		{"shard given", `shard_keys("A#{shard}", { shard = "1" }, 4)`, `Invalid value for "values" parameter.*must not set shard`},
		{"malformed template", `shard_keys("A#{shard", {}, 4)`, `Invalid value for "template" parameter.*never closed`},
	})
}
