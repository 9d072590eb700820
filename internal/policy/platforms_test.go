package policy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// platformCompiler compiles the bundle with the platform policies of the policy plugin guide
// (examples/policy-platforms), as Spacelift and env0 load them next to the bundle.
func platformCompiler(t *testing.T) *ast.Compiler {
	t.Helper()
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	shims, err := filepath.Glob(filepath.Join("..", "..", "examples", "policy-platforms", "*", "*.rego"))
	if err != nil || len(shims) != 2 {
		t.Fatalf("platform policies: %v %v", shims, err)
	}
	for _, name := range shims {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ast.ParseModuleWithOpts(name, string(src), parserOptions())
		if err != nil {
			t.Fatal(err)
		}
		modules[name] = m
	}
	return compileModules(t, modules)
}

func evalStrings(t *testing.T, compiler *ast.Compiler, query string, input ast.Value) []string {
	t.Helper()
	rs, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.StrictBuiltinErrors(true), rego.ParsedInput(input)).Eval(t.Context())
	if err != nil || len(rs) != 1 {
		t.Fatalf("%s: %v %v", query, err, rs)
	}
	var out []string
	raw, _ := json.Marshal(rs[0].Expressions[0].Value)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s is not a set of strings: %s", query, raw)
	}
	slices.Sort(out)
	return out
}

func loadInput(t *testing.T, path string) (ast.Value, map[string]json.RawMessage) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.ValueFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	return v, fields
}

// conftestMessages are the messages of the conftest entry points on a plan.
func conftestMessages(t *testing.T, planJSON []byte) (deny, warn []string) {
	t.Helper()
	d, w, err := EvaluatePlan(t.Context(), planJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d {
		deny = append(deny, r.Msg)
	}
	for _, r := range w {
		warn = append(warn, r.Msg)
	}
	slices.Sort(deny)
	slices.Sort(warn)
	return deny, warn
}

// TestPlatformEntryPointsOnTheirDocumentedInput: Spacelift's plan policy input (the plan under terraform,
// beside spacelift) and env0's approval policy input (the plan under plan, beside deploymentRequest,
// template, costEstimation, deployerUser and approvers) give, through the bundle's entry points and through
// the guide's package spacelift and package env0 policies, the messages conftest gives on the plan alone.
func TestPlatformEntryPointsOnTheirDocumentedInput(t *testing.T) {
	compiler := platformCompiler(t)
	for _, c := range []struct{ fixture, field, entry, shim string }{
		{"spacelift.json", "terraform", "data.dynamokeys.spacelift", "data.spacelift"},
		{"env0.json", "plan", "data.dynamokeys.env0", "data.env0"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			input, fields := loadInput(t, filepath.Join("testdata", "platforms", c.fixture))
			wantDeny, wantWarn := conftestMessages(t, fields[c.field])
			if len(wantDeny) < 4 || len(wantWarn) < 3 {
				t.Fatalf("the fixture's plan should deny and warn: %v %v", wantDeny, wantWarn)
			}
			for _, pkg := range []string{c.entry, c.shim} {
				if got := evalStrings(t, compiler, pkg+".deny", input); !slices.Equal(got, wantDeny) {
					t.Errorf("%s.deny:\n%s\nwant\n%s", pkg, strings.Join(got, "\n"), strings.Join(wantDeny, "\n"))
				}
				if got := evalStrings(t, compiler, pkg+".warn", input); !slices.Equal(got, wantWarn) {
					t.Errorf("%s.warn:\n%s\nwant\n%s", pkg, strings.Join(got, "\n"), strings.Join(wantWarn, "\n"))
				}
			}
		})
	}
}

// TestSpaceliftSanitizedPlanIsNotCheckedRatherThanMisread: under Spacelift's default sanitization every
// string of the plan is a hash; the key types, names and design documents it hides are not misread as
// findings: each checked resource gets one "not checked" warning and nothing is denied.
func TestSpaceliftSanitizedPlanIsNotCheckedRatherThanMisread(t *testing.T) {
	compiler := platformCompiler(t)
	input, _ := loadInput(t, filepath.Join("testdata", "platforms", "spacelift_sanitized.json"))
	if deny := evalStrings(t, compiler, "data.spacelift.deny", input); len(deny) != 0 {
		t.Errorf("deny on a sanitized plan: %v", deny)
	}
	warn := evalStrings(t, compiler, "data.spacelift.warn", input)
	var addresses []string
	for _, w := range warn {
		address, ok := strings.CutPrefix(w, "dynamokeys: the planned values of ")
		address, _, cut := strings.Cut(address, " were sanitized (their strings replaced with hashes), so its key design was not checked")
		if !ok || !cut {
			t.Errorf("warning other than not-checked: %s", w)
			continue
		}
		addresses = append(addresses, address)
	}
	want := []string{
		"aws_dynamodb_table.events_by_day", "aws_dynamodb_table.flags", "aws_dynamodb_table.orders", "aws_dynamodb_table.orders_by_status",
		"data.dynamokeys_keydesign.orders_by_status", "dynamokeys_sharded_table.events_good", "dynamokeys_sharded_table.events_hot",
	}
	if !slices.Equal(addresses, want) {
		t.Errorf("not-checked warnings for %v\nwant %v", addresses, want)
	}
}
