package tflintruleset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/terraform-linters/tflint-plugin-sdk/helper"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
)

// runRules runs every rule of the ruleset on files, as TFLint does, and returns the issues.
func runRules(t *testing.T, files map[string]string) helper.Issues {
	t.Helper()
	rs, err := NewRuleSet("test")
	if err != nil {
		t.Fatal(err)
	}
	runner := helper.TestRunner(t, files)
	for _, r := range rs.Rules {
		if err := r.Check(runner); err != nil {
			t.Fatal(err)
		}
	}
	return runner.Issues
}

// lint returns each issue of files as "rule severity file:line,col-line,col first-word-of-message", sorted.
func lint(t *testing.T, files map[string]string) []string {
	t.Helper()
	var got []string
	for _, is := range runRules(t, files) {
		got = append(got, fmt.Sprintf("%s %s %s %s", is.Rule.Name(), is.Rule.Severity(), is.Range, strings.Fields(is.Message)[0]))
	}
	slices.Sort(got)
	return got
}

func assertIssues(t *testing.T, files map[string]string, want ...string) {
	t.Helper()
	got := lint(t, files)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n  got  %q\n  want %q", got, want)
	}
}

const hotDay = `
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = %s, reads_per_second = 400, item_size_bytes = 800 }
}
`

func TestLiteralHotDesign(t *testing.T) {
	t.Parallel()
	assertIssues(t, map[string]string{"main.tf": fmt.Sprintf(hotDay, "2500")},
		"dynamokeys_dk301 Error main.tf:3,34-56 DK301",
		"dynamokeys_dk303 Error main.tf:3,34-56 DK303",
	)
	// The same design at a rate one partition serves: DK303 compares the numbers and is silent, DK301 (a time
	// bucket leading the key) drops to its warning case.
	assertIssues(t, map[string]string{"main.tf": fmt.Sprintf(hotDay, "500")},
		"dynamokeys_dk301 Warning main.tf:3,34-56 DK301",
	)
}

// Locals and --var-file values are evaluated by TFLint itself, which the SDK's test runner does not model:
// the real-tool tests (tflint_tool_test.go) cover them.
func TestVariablesWithDefaults(t *testing.T) {
	t.Parallel()
	withDefault := `variable "writes" {
  type    = number
  default = 2500
}
` + fmt.Sprintf(hotDay, "var.writes")
	assertIssues(t, map[string]string{"main.tf": withDefault},
		"dynamokeys_dk301 Error main.tf:7,34-56 DK301",
		"dynamokeys_dk303 Error main.tf:7,34-56 DK303",
	)
}

func TestSensitiveVariable(t *testing.T) {
	t.Parallel()
	src := `variable "writes" {
  type      = number
  default   = 2500
  sensitive = true
}
` + fmt.Sprintf(hotDay, "var.writes")
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk301 Error main.tf:8,34-56 DK301",
		"dynamokeys_dk303 Error main.tf:8,34-56 DK303",
	)
}

func TestUnknownInputsAreNotGuessed(t *testing.T) {
	t.Parallel()
	noDefault := `variable "writes" {
  type = number
}
` + fmt.Sprintf(hotDay, "var.writes")
	// DK303 needs the write rate: it stays silent, and the notice names the input. DK301 (a time bucket
	// leading the key) reads only the template, which is known: without the rate, it reports its warning case.
	got := lint(t, map[string]string{"main.tf": noDefault})
	want := []string{
		"dynamokeys_dk301 Warning main.tf:6,34-56 DK301",
		"dynamokeys_unknown_inputs Notice main.tf:5,1-37 dynamokeys:",
	}
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n  got  %q\n  want %q", got, want)
	}
	for _, is := range runRules(t, map[string]string{"main.tf": noDefault}) {
		if is.Rule.Name() == UnknownInputsRule && !strings.Contains(is.Message, "traffic.writes_per_second not known before the plan") {
			t.Errorf("the notice does not name the unknown input: %s", is.Message)
		}
	}
}

func TestEnforceFalseReportsErrorsAsWarnings(t *testing.T) {
	t.Parallel()
	src := strings.Replace(fmt.Sprintf(hotDay, "2500"), "traffic =", "enforce = false\n  traffic =", 1)
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk301 Warning main.tf:3,34-56 DK301",
		"dynamokeys_dk303 Warning main.tf:3,34-56 DK303",
	)
}

func TestProviderPolicySettings(t *testing.T) {
	t.Parallel()
	// The provider block's policy settings apply as in the provider: enforce = false makes errors warnings,
	// disabled_rules drops a rule; a block's own enforce wins over the provider's.
	provider := `provider "dynamokeys" {
  policy = { enforce = false, disabled_rules = ["DK303"] }
}
`
	assertIssues(t, map[string]string{"main.tf": fmt.Sprintf(hotDay, "2500"), "provider.tf": provider},
		"dynamokeys_dk301 Warning main.tf:3,34-56 DK301",
	)
	enforced := strings.Replace(fmt.Sprintf(hotDay, "2500"), "traffic =", "enforce = true\n  traffic =", 1)
	assertIssues(t, map[string]string{"main.tf": enforced, "provider.tf": provider},
		"dynamokeys_dk301 Error main.tf:3,34-56 DK301",
	)
	// An aliased provider block is another configuration: its settings do not apply to the default one.
	aliased := strings.Replace(provider, "policy =", "alias  = \"other\"\n  policy =", 1)
	assertIssues(t, map[string]string{"main.tf": fmt.Sprintf(hotDay, "2500"), "provider.tf": aliased},
		"dynamokeys_dk301 Error main.tf:3,34-56 DK301",
		"dynamokeys_dk303 Error main.tf:3,34-56 DK303",
	)
}

func TestShardedTableSettings(t *testing.T) {
	t.Parallel()
	// The table's own settings are read too: a one-character name breaks DK107, on the name attribute; a
	// provisioned table below its peak demand breaks the capacity rule on write_capacity.
	src := `resource "dynamokeys_sharded_table" "orders" {
  name           = "o"
  billing_mode   = "PROVISIONED"
  read_capacity  = 100
  write_capacity = 5
  partition_key  = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments = {
    customer_id = { kind = "id" }
  }
  traffic = { writes_per_second = 50, reads_per_second = 10 }
}
`
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk107 Error main.tf:2,3-23 DK107",
		"dynamokeys_dk603 Error main.tf:5,3-21 DK603",
	)
}

func TestInvalidDesign(t *testing.T) {
	t.Parallel()
	src := `data "dynamokeys_keydesign" "bad" {
  partition_key = { name = "pk", template = "USER#{user_id}" }
  segments = {
    user_id = { kind = "id" }
    day     = { kind = "time", granularity = "fortnight" }
  }
}
`
	// The provider refuses it at validate; TFLint says so on the granularity item, and evaluates no rule.
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_invalid_design Error main.tf:5,32-57 dynamokeys:",
	)
}

func TestAWSTablesThroughThePlanAdapter(t *testing.T) {
	t.Parallel()
	src := `resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"
  attribute {
    name = "status"
    type = "S"
  }
}

resource "aws_dynamodb_table" "events" {
  name         = "events"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"
  attribute {
    name = "customer_id"
    type = "S"
  }
}

resource "aws_dynamodb_global_secondary_index" "by_status" {
  table_name = aws_dynamodb_table.events.name
  index_name = "by_status"
  key_schema {
    attribute_name = "status"
    attribute_type = "S"
    key_type       = "HASH"
  }
}
`
	// orders: a status-named partition key, on hash_key. events is clean: the status-named key of the
	// standalone index joined to it is reported on that index's key_schema block, not on the table.
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk302 Warning main.tf:4,3-26 DK302",
		"dynamokeys_dk302 Warning main.tf:24,3-13 DK302",
	)
}

func TestRulesAreEnabledAndDisabledByID(t *testing.T) {
	t.Parallel()
	rs, err := NewRuleSet("test")
	if err != nil {
		t.Fatal(err)
	}
	names := rs.RuleNames()
	for _, want := range []string{"dynamokeys_dk101", "dynamokeys_dk301", "dynamokeys_dk303", UnknownInputsRule, InvalidDesignRule} {
		if !slices.Contains(names, want) {
			t.Errorf("no rule %s among %v", want, names)
		}
	}
	config := &tflint.Config{Rules: map[string]*tflint.RuleConfig{"dynamokeys_dk301": {Name: "dynamokeys_dk301", Enabled: false}}}
	if err := rs.ApplyGlobalConfig(config); err != nil {
		t.Fatal(err)
	}
	runner := helper.TestRunner(t, map[string]string{"main.tf": fmt.Sprintf(hotDay, "2500")})
	for _, r := range rs.EnabledRules {
		if err := r.Check(runner); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, is := range runner.Issues {
		got = append(got, is.Rule.Name())
	}
	if !slices.Equal(got, []string{"dynamokeys_dk303"}) {
		t.Errorf("with dynamokeys_dk301 disabled, got %v, want only dynamokeys_dk303", got)
	}
}

// TestAccessPatterns: the access-pattern rules run before the plan too, on the pattern they name.
func TestAccessPatterns(t *testing.T) {
	t.Parallel()
	const orders = `
data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_date}#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_date  = { kind = "time", granularity = "day" }
    order_id    = { kind = "id" }
  }
  access_patterns = {
    order_by_id = { equals = ["order_id"], reads_per_second = %s }
    by_id_range = { equals = ["customer_id"], sort = { on = "order_id", condition = "begins_with" }, reads_per_second = 10 }
  }
}
`
	assertIssues(t, map[string]string{"main.tf": fmt.Sprintf(orders, "100")},
		"dynamokeys_dk801 Error main.tf:11,5-68 DK801",
		"dynamokeys_dk802 Error main.tf:12,5-125 DK802",
	)
}
