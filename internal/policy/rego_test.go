package policy

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
)

// minPolicyCoverage is the share of Rego lines the *_test.rego files must exercise.
const minPolicyCoverage = 90.0

// TestRegoRules runs every *_test.rego of the bundle with OPA's tester, in the same sandbox as the engine,
// and reports policy coverage.
func TestRegoRules(t *testing.T) {
	ctx := t.Context()
	modules, err := BundleModules(true)
	if err != nil {
		t.Fatal(err)
	}
	compiler := ast.NewCompiler().WithCapabilities(Capabilities()).WithEnablePrintStatements(true)
	coverage := cover.New()
	store := inmem.New()
	txn := storage.NewTransactionOrDie(ctx, store)
	defer store.Abort(ctx, txn)
	ch, err := tester.NewRunner().SetCompiler(compiler).SetStore(store).SetCoverageQueryTracer(coverage).
		CapturePrintOutput(true).RaiseBuiltinErrors(true).SetModules(modules).RunTests(ctx, txn)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for r := range ch {
		switch {
		case r.Error != nil:
			t.Errorf("%s.%s: error: %v", r.Package, r.Name, r.Error)
		case r.Fail:
			t.Errorf("%s.%s: failed\n%s", r.Package, r.Name, r.Output)
		case r.Skip:
			t.Errorf("%s.%s: skipped (todo_ tests are not allowed)", r.Package, r.Name)
		default:
			passed++
		}
	}
	if passed == 0 {
		t.Fatal("no Rego test ran")
	}
	rules := map[string]*ast.Module{}
	for name, m := range modules {
		if name != "policies/fixtures_test.rego" && !isTestFile(name) {
			rules[name] = m
		}
	}
	report := coverage.Report(rules)
	t.Logf("%d Rego tests passed; policy coverage %.1f%%", passed, report.Coverage)
	for file, fr := range report.Files {
		if fr.Coverage < minPolicyCoverage {
			t.Logf("  %s: %.1f%% (not covered: %v)", file, fr.Coverage, fr.NotCovered)
		}
	}
	if report.Coverage < minPolicyCoverage {
		t.Errorf("policy coverage %.1f%% is below %.0f%%", report.Coverage, minPolicyCoverage)
	}
}

func isTestFile(name string) bool { return len(name) > 10 && name[len(name)-10:] == "_test.rego" }
