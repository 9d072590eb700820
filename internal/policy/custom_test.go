package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// guideCustomRule is the policy plugin guide's custom-rule example: a finding without name, remediation or
// docs_url.
const guideCustomRule = `package dynamokeys.custom.naming

findings contains {"rule": "ORG001", "severity": "error", "path": ["name"],
	"message": sprintf("table %q does not start with prod-", [input.table.name])} if {
	not startswith(input.table.name, "prod-")
}
`

// planEntryPoints evaluates the conftest deny query of the bundle plus the modules of dir on a plan fixture,
// as `opa eval -d policies -d dir` (and conftest with two --policy directories) would.
func planEntryPoints(t *testing.T, dir, fixture string) []any {
	t.Helper()
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	custom, _, err := loadCustom([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range custom {
		modules[name] = m
	}
	rs, err := rego.New(rego.Query(PlanDenyQuery), rego.Compiler(compileModules(t, modules)), rego.StrictBuiltinErrors(true),
		rego.ParsedInput(loadPlan(t, fixture))).Eval(t.Context())
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", err, rs)
	}
	out, _ := rs[0].Expressions[0].Value.([]any)
	return out
}

func denyMessages(results []any) []string {
	var msgs []string
	for _, r := range results {
		obj, _ := r.(map[string]any)
		msg, _ := obj["msg"].(string)
		msgs = append(msgs, msg)
	}
	return msgs
}

// TestGuideCustomRuleReachesEveryEntryPoint: the guide's example fires in the provider's engine and in the
// plan entry points, with its missing fields defaulted rather than the finding dropped.
func TestGuideCustomRuleReachesEveryEntryPoint(t *testing.T) {
	dir := writePolicy(t, guideCustomRule)
	e, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, tableDesign()))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range findings {
		found = found || (f.Rule == "ORG001" && f.Severity == SeverityError && f.Path.String() == "name" && f.Remediation == "")
	}
	if !found {
		t.Errorf("engine: ORG001 missing from %v", findings)
	}
	msgs := denyMessages(planEntryPoints(t, dir, "aws_create.json"))
	want := `ORG001 aws_dynamodb_table.orders: table "orders" does not start with prod-`
	if !strings.Contains(strings.Join(msgs, "\n"), want) {
		t.Errorf("conftest deny lacks %q:\n%s", want, strings.Join(msgs, "\n"))
	}
}

// TestMalformedCustomFindingIsAnErrorNamingTheRule: the engine fails the evaluation, and the plan entry points
// deny, with the rule and its package named.
func TestMalformedCustomFindingIsAnErrorNamingTheRule(t *testing.T) {
	dir := writePolicy(t, `package dynamokeys.custom.naming

findings contains {"rule": "ORG002", "severity": "error"} if true
`)
	e, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Evaluate(t.Context(), analyzed(t, tableDesign()))
	want := "custom rule ORG002 (package dynamokeys.custom.naming) returned a finding that has no message"
	if !errors.Is(err, ErrMalformedFinding) || !strings.Contains(err.Error(), want) {
		t.Errorf("engine: %v", err)
	}
	msgs := strings.Join(denyMessages(planEntryPoints(t, dir, "aws_create.json")), "\n")
	if !strings.Contains(msgs, "dynamokeys: aws_dynamodb_table.orders: "+want) {
		t.Errorf("conftest deny lacks the problem:\n%s", msgs)
	}
}

// writeGuideRule puts the guide's example in a directory of its own, for conftest's second --policy.
func writeGuideRule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "naming.rego"), []byte(guideCustomRule), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
