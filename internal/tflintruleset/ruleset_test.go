package tflintruleset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// runRules runs every rule of the ruleset on files, as TFLint does, and returns the issues.
func runRules(t *testing.T, files map[string]string) helper.Issues {
	t.Helper()
	runner := &unknownResources{helper.TestRunner(t, files)}
	checkAll(t, runner)
	return runner.Issues
}

// checkAll checks every rule of the ruleset with runner; a rule that returns an error fails the test.
func checkAll(t *testing.T, runner tflint.Runner) {
	t.Helper()
	rs, err := NewRuleSet("test")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Rules {
		if err := r.Check(runner); err != nil {
			t.Fatalf("%s: %v", r.Name(), err)
		}
	}
}

// unknownResources is the SDK's test runner with what TFLint does for a reference to another resource's
// attribute: an unknown value, where the test runner, which knows only variables, fails.
type unknownResources struct {
	*helper.Runner
}

func (r *unknownResources) EvaluateExpr(expr hcl.Expression, target any, opts *tflint.EvaluateExprOption) error {
	for _, traversal := range expr.Variables() {
		switch traversal.RootName() {
		case "var", "local", "path", "terraform", "count", "each", "self":
		default:
			if v, ok := target.(*cty.Value); ok {
				*v = cty.DynamicVal
				return nil
			}
		}
	}
	return r.Runner.EvaluateExpr(expr, target, opts)
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
	// DK303 needs the write rate: it stays silent, and the notice names the input, on the value that sets
	// it. DK301 (a time bucket
	// leading the key) reads only the template, which is known: without the rate, it reports its warning case.
	got := lint(t, map[string]string{"main.tf": noDefault})
	want := []string{
		"dynamokeys_dk301 Warning main.tf:6,34-56 DK301",
		"dynamokeys_unknown_inputs Notice main.tf:12,15-45 dynamokeys:",
	}
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n  got  %q\n  want %q", got, want)
	}
	for _, is := range runRules(t, map[string]string{"main.tf": noDefault}) {
		if is.Rule.Name() == UnknownInputsRule && !strings.Contains(is.Message, "traffic.writes_per_second is not known before the plan") {
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

// unexpandable is a runner on which TFLint's expansion of count, for_each and dynamic blocks fails, as it
// does for the whole module when any resource's expression it must evaluate for that refers to an
// undeclared variable: only the unexpanded content is served.
type unexpandable struct {
	*unknownResources
}

func (r *unexpandable) GetResourceContent(name string, schema *hclext.BodySchema, opts *tflint.GetModuleContentOption) (*hclext.BodyContent, error) {
	if opts == nil || opts.ExpandMode != tflint.ExpandModeNone {
		return nil, errors.New(`main.tf:40,11-19: Reference to undeclared input variable; An input variable with the name "nope" has not been declared.`)
	}
	return r.unknownResources.GetResourceContent(name, schema, opts)
}

func (r *unexpandable) GetModuleContent(schema *hclext.BodySchema, opts *tflint.GetModuleContentOption) (*hclext.BodyContent, error) {
	if opts == nil || opts.ExpandMode != tflint.ExpandModeNone {
		return nil, errors.New(`main.tf:40,11-19: Reference to undeclared input variable`)
	}
	return r.unknownResources.GetModuleContent(schema, opts)
}

const statusTable = `resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "status"
  attribute {
    name = "status"
    type = "S"
  }
}
`

// An expression TFLint cannot evaluate in a checked block is one issue on that block, naming it; the rules
// that do not read it still run, and every other block keeps its issues.
func TestUndeclaredReferenceInACheckedBlock(t *testing.T) {
	t.Parallel()
	src := statusTable + `
resource "aws_dynamodb_table" "typing" {
  name         = "${var.nope}_events"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  attribute {
    name = "pk"
    type = "S"
  }
  local_secondary_index {
    name            = local.missing
    range_key       = "sk"
    projection_type = "ALL"
  }
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = var.nope } }
  traffic       = { writes_per_second = 2500 }
}
`
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk302 Warning main.tf:4,3-26 DK302",
		// The LSI without a table sort key is found though its name could not be read (no DK107 on it).
		"dynamokeys_dk202 Error main.tf:11,1-39 DK202",
		// On the reference that fails; no notice besides of the inputs it leaves unknown.
		"dynamokeys_unreadable_input Warning main.tf:12,21-29 dynamokeys:",
		"dynamokeys_unreadable_input Warning main.tf:28,58-66 dynamokeys:",
	)
	for _, is := range runRules(t, map[string]string{"main.tf": src}) {
		if is.Rule.Name() == UnreadableRule && is.Range.Start.Line == 12 {
			for _, want := range []string{"2 expressions of aws_dynamodb_table.typing", "line 12:", "line 20:", `"nope"`} {
				if !strings.Contains(is.Message, want) {
					t.Errorf("the issue does not say %q: %s", want, is.Message)
				}
			}
		}
	}
}

// When TFLint cannot expand the module's resources at all, each block is checked as written.
func TestUnexpandableModuleIsCheckedAsWritten(t *testing.T) {
	t.Parallel()
	src := statusTable + `
resource "aws_dynamodb_table" "none" {
  count        = 0
  name         = "none"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "state"
  attribute {
    name = "state"
    type = "S"
  }
}

resource "aws_dynamodb_table" "generated" {
  name         = "generated"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"
  attribute {
    name = "customer_id"
    type = "S"
  }
  dynamic "global_secondary_index" {
    for_each = ["a", "b"]
    content {
      name            = "by_kind_${global_secondary_index.value}"
      hash_key        = "kind"
      projection_type = "ALL"
    }
  }
}

resource "aws_sqs_queue" "queue" {
  count = var.nope ? 1 : 0
  name  = "${var.nope}_queue"
}
`
	runner := &unexpandable{&unknownResources{helper.TestRunner(t, map[string]string{"main.tf": src})}}
	checkAll(t, runner)
	var got []string
	for _, is := range runner.Issues {
		got = append(got, fmt.Sprintf("%s %s", is.Rule.Name(), is.Range))
	}
	slices.Sort(got)
	// orders as before; none makes no instance; generated's indexes come from a dynamic block, known only to
	// the plan (the notice, which is off by default, on the block).
	want := []string{"dynamokeys_dk302 main.tf:4,3-26", "dynamokeys_unknown_inputs main.tf:22,1-42"}
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n  got  %q\n  want %q", got, want)
	}
}

// A reusable module's key from a variable that defaults to null: the caller sets it. The table gets every
// rule that does not need the key.
func TestNullKeyFromAVariableStillChecksTheRest(t *testing.T) {
	t.Parallel()
	src := `variable "hash_key" {
  type    = string
  default = null
}

variable "name" {
  type    = string
  default = null
}

resource "aws_dynamodb_table" "this" {
  name         = var.name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = var.hash_key
  global_secondary_index {
    name            = "x"
    hash_key        = "tenant"
    projection_type = "ALL"
  }
}
`
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk107 Error main.tf:15,3-25 DK107",
		"dynamokeys_unknown_inputs Notice main.tf:12,18-26 dynamokeys:",
		"dynamokeys_unknown_inputs Notice main.tf:14,18-30 dynamokeys:",
	)
}

func TestEmptyTableNameIsReported(t *testing.T) {
	t.Parallel()
	src := strings.Replace(statusTable, `name         = "orders"`, `name         = ""`, 1)
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk107 Error main.tf:2,3-20 DK107",
		"dynamokeys_dk302 Warning main.tf:4,3-26 DK302",
	)
}

// panicking is a runner on which the analysis hits a defect.
type panicking struct {
	*unknownResources
}

func (r *panicking) GetResourceContent(string, *hclext.BodySchema, *tflint.GetModuleContentOption) (*hclext.BodyContent, error) {
	panic("a defect")
}

// A defect of the analysis is one issue, not an aborted run.
func TestAnalysisDefectIsOneIssue(t *testing.T) {
	t.Parallel()
	runner := &panicking{&unknownResources{helper.TestRunner(t, map[string]string{"main.tf": statusTable})}}
	checkAll(t, runner)
	if len(runner.Issues) != 1 || runner.Issues[0].Rule.Name() != InvalidDesignRule || !strings.Contains(runner.Issues[0].Message, "a defect") ||
		runner.Issues[0].Range.Filename != "main.tf" {
		t.Errorf("issues %+v", runner.Issues)
	}
}

// TestAWSGlobalTables: replica blocks, a witness, a TTL block and a replica resource joined by
// global_table_arn reach the MRSC rules.
func TestAWSGlobalTables(t *testing.T) {
	t.Parallel()
	src := `resource "aws_dynamodb_table" "pair" {
  name         = "pair"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"
  region       = "us-east-1"
  attribute {
    name = "customer_id"
    type = "S"
  }
  replica {
    region_name      = "us-east-2"
    consistency_mode = "STRONG"
  }
}

resource "aws_dynamodb_table" "witnessed" {
  name         = "witnessed"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"
  region       = "us-east-1"
  attribute {
    name = "customer_id"
    type = "S"
  }
  replica {
    region_name      = "us-east-2"
    consistency_mode = "STRONG"
  }
  global_table_witness {
    region_name = "us-west-2"
  }
  ttl {
    enabled        = true
    attribute_name = "expires"
  }
}

resource "aws_dynamodb_table" "eventual" {
  name         = "eventual"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"
  region       = "eu-west-1"
  attribute {
    name = "customer_id"
    type = "S"
  }
}

resource "aws_dynamodb_table_replica" "eventual_again" {
  global_table_arn = aws_dynamodb_table.eventual.arn
  region           = "eu-west-1"
}
`
	// pair: two Regions (DK604, on the replica block); witnessed: three Regions but TTL (DK605, on the ttl
	// block); eventual: its replica resource repeats the table's Region (DK606).
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk604 Error main.tf:10,3-10 DK604",
		"dynamokeys_dk605 Error main.tf:32,3-6 DK605",
		"dynamokeys_dk606 Error main.tf:38,1-41 DK606",
	)
}

// TestReplicasOnTheResourceAreInvalid: the provider refuses replicas on dynamokeys_sharded_table, and so does
// TFLint, on the attribute; on the data source they are read and the MRSC rules run.
func TestReplicasOnTheResourceAreInvalid(t *testing.T) {
	t.Parallel()
	src := `resource "dynamokeys_sharded_table" "orders" {
  name          = "orders"
  partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "eu-west-1" = {} } }
}

data "dynamokeys_keydesign" "ledger" {
  partition_key = { name = "pk", template = "ACCOUNT#{account_id}" }
  segments      = { account_id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {} }, consistency = "strong" }
}
`
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_invalid_design Error main.tf:5,3-71 dynamokeys:",
		"dynamokeys_dk604 Error main.tf:11,21-69 DK604",
	)
}
