package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// TestDataModuleIsGenerated: policies/data.rego is what internal/cmd/datamodule writes from the data file.
func TestDataModuleIsGenerated(t *testing.T) {
	want, err := DataModule()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "policies", DataModulePath))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("policies/%s is stale: run make generate (go run ./internal/cmd/datamodule policies/%s policies/data_gen.go)", DataModulePath, DataModulePath)
	}
}

// modulesWithout is the embedded bundle without the named module, and with replacement modules, as a
// loader given part of the bundle (or files of two releases) would compile it.
func modulesWithout(t *testing.T, drop string, extra map[string]string) map[string]*ast.Module {
	t.Helper()
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := modules["policies/"+drop]; !ok {
		t.Fatalf("the bundle has no policies/%s", drop)
	}
	delete(modules, "policies/"+drop)
	for name, src := range extra {
		m, err := ast.ParseModuleWithOpts(name, src, parserOptions())
		if err != nil {
			t.Fatal(err)
		}
		modules[name] = m
	}
	return modules
}

// compileModules compiles modules in the engine's sandbox, strictly (as `opa check --strict`).
func compileModules(t *testing.T, modules map[string]*ast.Module) *ast.Compiler {
	t.Helper()
	compiler := ast.NewCompiler().WithCapabilities(Capabilities()).WithStrict(true)
	if compiler.Compile(modules); compiler.Failed() {
		t.Fatal(compiler.Errors)
	}
	return compiler
}

const notLoaded = "dynamokeys: the policy bundle's limits are not loaded (the module data.rego of package dynamokeys is missing)"

// TestEntryPointsFailClosedWithoutLimits: with the rules but not their limits, every plan entry point (the
// conftest and `opa eval` deny query, HCP Terraform's, Spacelift's and env0's) reports only the reason, on a
// plan whose findings it would otherwise deny; and with the limits of another data format, the same.
func TestEntryPointsFailClosedWithoutLimits(t *testing.T) {
	plan := loadPlan(t, "aws_create.json")
	wrap := func(key string) ast.Value { return ast.NewObject(ast.Item(ast.StringTerm(key), ast.NewTerm(plan))) }
	entryPoints := []struct {
		query string
		input ast.Value
	}{
		{PlanDenyQuery, plan},
		{"data.dynamokeys.hcp.deny", wrap("plan")},
		{"data.dynamokeys.spacelift.deny", wrap("terraform")},
		{"data.dynamokeys.env0.deny", wrap("plan")},
	}
	current, err := DataModule()
	if err != nil {
		t.Fatal(err)
	}
	oldFormat := strings.Replace(string(current), fmt.Sprintf("\ndata_format := %d\n", policies.Bundle.DataFormat), "\ndata_format := 0\n", 1)
	for name, modules := range map[string]map[string]*ast.Module{
		"missing":    modulesWithout(t, DataModulePath, nil),
		"old format": modulesWithout(t, DataModulePath, map[string]string{"old/data.rego": oldFormat}),
	} {
		compiler := compileModules(t, modules)
		for _, ep := range entryPoints {
			rs, err := rego.New(rego.Query(ep.query), rego.Compiler(compiler), rego.StrictBuiltinErrors(true), rego.ParsedInput(ep.input)).Eval(t.Context())
			if err != nil || len(rs) != 1 {
				t.Fatalf("%s %s: %v %v", name, ep.query, err, rs)
			}
			results, _ := rs[0].Expressions[0].Value.([]any)
			if len(results) != 1 {
				t.Errorf("%s: %s gave %d results, want only the reason: %v", name, ep.query, len(results), results)
				continue
			}
			msg, _ := results[0].(string)
			if obj, ok := results[0].(map[string]any); ok {
				msg, _ = obj["msg"].(string)
			}
			wantPrefix := notLoaded
			if name == "old format" {
				wantPrefix = fmt.Sprintf("dynamokeys: the policy bundle's limits (data.rego) are of data format 0, but its rules read format %d", policies.Bundle.DataFormat)
			}
			if !strings.HasPrefix(msg, wantPrefix) {
				t.Errorf("%s: %s says %q", name, ep.query, msg)
			}
		}
	}
}

// TestEngineRefusesRulesWithoutLimits: the provider's engine does not compile a bundle whose limits are
// missing; it returns the bundle's reason instead of evaluating designs against nothing.
func TestEngineRefusesRulesWithoutLimits(t *testing.T) {
	_, err := compileEngine(t.Context(), modulesWithout(t, DataModulePath, nil))
	if !errors.Is(err, ErrNoBundleData) || !strings.Contains(err.Error(), notLoaded) {
		t.Fatalf("compileEngine without data.rego: %v", err)
	}
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compileEngine(t.Context(), modules); err != nil {
		t.Fatalf("the whole bundle: %v", err)
	}
	if !slices.Contains(slices.Collect(func(yield func(string) bool) {
		for name := range modules {
			if !yield(name) {
				return
			}
		}
	}), "policies/"+DataModulePath) {
		t.Error("the embedded bundle lacks its limits module")
	}
}
