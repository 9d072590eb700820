package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// findingRules outputs the rule ids of a data source's findings (output rules) and its ok (output ok), for
// assertions.
func findingRules(name string) string { return findingOutputs(name, "") }

// namedFindingRules is findingRules for one design among others: its outputs are rules_<name> and ok_<name>.
func namedFindingRules(name string) string { return findingOutputs(name, "_"+name) }

// findingOutputs are the outputs rules<suffix> and ok<suffix> of data source name.
func findingOutputs(name, suffix string) string {
	return fmt.Sprintf(`
output "rules%[2]s" {
  value = distinct([for f in data.dynamokeys_keydesign.%[1]s.findings : "${f.rule}:${f.severity}"])
}
output "ok%[2]s" {
  value = data.dynamokeys_keydesign.%[1]s.ok
}
`, name, suffix)
}

// expectRules checks findingRules' outputs: exactly these rule:severity pairs, and ok.
func expectRules(ok bool, rules ...string) []statecheck.StateCheck {
	return expectFindingOutputs("", ok, rules)
}

// expectNamedRules checks namedFindingRules' outputs.
func expectNamedRules(name string, ok bool, rules ...string) []statecheck.StateCheck {
	return expectFindingOutputs("_"+name, ok, rules)
}

func expectFindingOutputs(suffix string, ok bool, rules []string) []statecheck.StateCheck {
	checks := make([]knownvalue.Check, len(rules))
	for i, r := range rules {
		checks[i] = knownvalue.StringExact(r)
	}
	return []statecheck.StateCheck{
		statecheck.ExpectKnownOutputValue("rules"+suffix, knownvalue.SetExact(checks)),
		statecheck.ExpectKnownOutputValue("ok"+suffix, knownvalue.Bool(ok)),
	}
}

func unitSteps(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

const dailyLogUnsharded = `
data "dynamokeys_keydesign" "log" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id" }
  }
  traffic = { writes_per_second = 2500 }
  %s
}
`

// The partition-key guidance's daily event log: 2,500 writes/s into one day's key fails the plan with both
// the time-bucket rule (DK301) and the hot-key demand rule (DK303), in one plan.
func TestScenarioDailyEventLogFails(t *testing.T) {
	t.Parallel()
	dk301 := `DK301 time-bucket-partition-key: .*shard it into at least 4 shards`
	dk303 := `DK303 hot-key-demand: the busiest key needs 2,500 WCU per shard .* use at least 4 shards`
	unitSteps(t, resource.TestStep{
		Config:      fmt.Sprintf(dailyLogUnsharded, ""),
		ExpectError: expectError(`(` + dk301 + `.*` + dk303 + `|` + dk303 + `.*` + dk301 + `)`),
	})
}

// scenario is a design of the partition-key guidance and the findings it gets: its data source is named
// by the scenario, so that the scenarios plan together, in one configuration (a test case each cost some
// twelve CLI runs).
type scenario struct {
	name   string // the data source's name, and the outputs' suffix
	config string // the data source
	ok     bool
	rules  []string // rule:severity, each once
	checks []statecheck.StateCheck
}

// TestScenariosWarnOrPass plans the guidance's designs that warn or pass, each with the rules it must get.
func TestScenariosWarnOrPass(t *testing.T) {
	t.Parallel()
	scenarios := []scenario{{
		// The daily event log with enforce = false: its errors come back as findings, and the plan passes.
		name: "log_unenforced", config: strings.Replace(fmt.Sprintf(dailyLogUnsharded, "enforce = false"), `"log"`, `"log_unenforced"`, 1),
		ok: false, rules: []string{"DK301:error", "DK303:error"},
	}, {
		// Sharded: no findings, ok, and the 4 shards that bring 2,500 WCU under 800 WCU (80% of a partition) each.
		name: "log_sharded", config: `
data "dynamokeys_keydesign" "log_sharded" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id" }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500 }
}
`,
		ok: true,
		checks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.dynamokeys_keydesign.log_sharded", tfjsonpath.New("shard_count"), knownvalue.Int64Exact(4)),
		},
	}, {
		name: "status_orders", config: `
data "dynamokeys_keydesign" "status_orders" {
  partition_key = { name = "status", template = "{status}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    status   = { kind = "enum", values = ["pending", "paid", "shipped", "delivered"] }
    order_id = { kind = "id" }
  }
  traffic = { writes_per_second = 100 }
}
`,
		ok: true, rules: []string{"DK302:warning"},
	}, {
		name: "tenants", config: `
data "dynamokeys_keydesign" "tenants" {
  partition_key = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key      = { name = "sk", template = "DOC#{doc_id}" }
  segments = {
    tenant_id = { kind = "id" }
    doc_id    = { kind = "id" }
  }
  local_secondary_indexes = {
    by_updated = { sort_key = { name = "updated", type = "N" }, projection_type = "KEYS_ONLY" }
  }
  traffic = { writes_per_second = 50 }
}
`,
		ok: true, rules: []string{"DK203:warning"},
	}, {
		name: "votes", config: `
data "dynamokeys_keydesign" "votes" {
  partition_key = { name = "pk", template = "CANDIDATE#{candidate}#{shard}" }
  segments      = { candidate = { kind = "id" } }
  sharding      = { strategy = "random", count = 4 }
  traffic       = { writes_per_second = 3000, hot_key_share = 0.5 }
}
`,
		ok: true, rules: []string{"DK401:warning"},
	}}
	var config strings.Builder
	var checks []statecheck.StateCheck
	for _, sc := range scenarios {
		config.WriteString(sc.config + namedFindingRules(sc.name))
		checks = append(checks, expectNamedRules(sc.name, sc.ok, sc.rules...)...)
		checks = append(checks, sc.checks...)
	}
	unitSteps(t, resource.TestStep{Config: config.String(), ConfigStateChecks: checks})
}

func TestScenarioBoolKeyTypeFails(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: `
data "dynamokeys_keydesign" "flags" {
  partition_key = { name = "enabled", type = "BOOL" }
}
`,
		ExpectError: expectError(`DK101 key-attribute-type: key attribute "enabled" has type "BOOL"`),
	})
}

// TestPolicyDisabledRulesDropFindings and TestPolicyProviderEnforceFalse are test cases of their own: a
// provider configured under two aliases is one provider server in a test (terraform-plugin-testing serves
// it in-process, and Terraform cannot start a second instance of a server it attached to), so the last
// configuration would hold for both.
func TestPolicyDisabledRulesDropFindings(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: `
provider "dynamokeys" {
  policy = { disabled_rules = ["DK301", "DK303", "DK999"] }
}
` + fmt.Sprintf(dailyLogUnsharded, "") + findingRules("log"),
		ConfigStateChecks: expectRules(true),
	})
}

func TestPolicyProviderEnforceFalse(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: `
provider "dynamokeys" {
  policy = { enforce = false }
}
` + fmt.Sprintf(dailyLogUnsharded, "") + findingRules("log"),
		ConfigStateChecks: expectRules(false, "DK301:error", "DK303:error"),
	})
}

func writeRego(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "org.rego"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestPolicyDirsAddCustomRules(t *testing.T) {
	t.Parallel()
	dir := writeRego(t, `package dynamokeys.custom.org

findings contains {"rule": "ORG001", "name": "prefix", "severity": "error", "message": "partition key templates start with TENANT#", "path": ["partition_key", "template"]} if {
	not startswith(input.table.partition_key.template, "TENANT#")
}
`)
	unitSteps(t, resource.TestStep{
		Config:      fmt.Sprintf("provider \"dynamokeys\" {\n  policy = { policy_dirs = [%q] }\n}\n", dir) + minimalDesign,
		ExpectError: expectError(`ORG001 prefix: partition key templates start with TENANT#`),
	})
}

func TestPolicyDirsCompileErrorNamesFileAndLine(t *testing.T) {
	t.Parallel()
	dir := writeRego(t, "package dynamokeys.custom.org\n\nleak := http.send({\"method\": \"GET\", \"url\": \"http://127.0.0.1:1\"})\n")
	unitSteps(t, resource.TestStep{
		Config:      fmt.Sprintf("provider \"dynamokeys\" {\n  policy = { policy_dirs = [%q] }\n}\n", dir) + minimalDesign,
		ExpectError: expectError(`Policies in policy_dirs cannot be loaded.*org.rego:3.*http.send`),
	})
}
