//go:build trivycheck

// Trivy with the bundle as custom checks on every plan fixture. These tests need a Trivy binary, so they are
// not part of `go test ./...`: `make check-bundle` builds the pinned Trivy into .bin/ and runs them with
//
//	TRIVY=/path/to/trivy go test -tags trivycheck -run TestTrivy ./internal/policy

package policy

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestTrivyReportsWhatConftestReports runs `trivy config` with the generated checks (WriteTrivyChecks) on
// every plan fixture and compares each finding, as kind:rule@address, with conftest's (planExpectations):
// errors are HIGH results of the deny entry point, warnings MEDIUM results of warn. The notes without a rule
// id (what was not checked) are conftest's alone.
func TestTrivyReportsWhatConftestReports(t *testing.T) {
	trivy := os.Getenv("TRIVY")
	if trivy == "" {
		t.Fatal("TRIVY is not set: run make check-bundle, which builds the pinned Trivy and passes its path")
	}
	checks := t.TempDir()
	if err := WriteTrivyChecks(checks); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	head := regexp.MustCompile(`^(DK\d{3}) (\S+): `)
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			got := []string{}
			for _, m := range trivyResults(t, trivy, cache, checks, filepath.Join("testdata", "plans", name)) {
				kind := map[string]string{"HIGH": "deny", "MEDIUM": "warn"}[m.Severity]
				parts := head.FindStringSubmatch(m.Message)
				if parts == nil || parts[1] != m.ID {
					t.Errorf("result %s: the message does not start with its id and address: %s", m.ID, m.Message)
					continue
				}
				got = append(got, kind+":"+m.ID+"@"+parts[2])
			}
			wantRules := []string{}
			for _, w := range want {
				if !strings.Contains(w, ":@") {
					wantRules = append(wantRules, w)
				}
			}
			slices.Sort(got)
			slices.Sort(wantRules)
			if !slices.Equal(got, wantRules) {
				t.Errorf("trivy found %q\nconftest %q", got, wantRules)
			}
		})
	}
}

// TestTrivyRunsYourOwnRules writes the checks with a user's policy directory and compares, on every plan
// fixture, the results of the TrivyCustomID checks with conftest's findings of the user's rules: the
// entry points evaluated through OPA's Go packages with the bundle and the same modules.
func TestTrivyRunsYourOwnRules(t *testing.T) {
	trivy := os.Getenv("TRIVY")
	if trivy == "" {
		t.Fatal("TRIVY is not set: run make check-bundle, which builds the pinned Trivy and passes its path")
	}
	// An error on every table not named prod-*, a warning on every design with a GSI, and a malformed
	// finding on a table named events_hot (which conftest denies with the rule's package named).
	dir := t.TempDir()
	rule := `package dynamokeys.custom.org

findings contains {"rule": "ORG001", "severity": "error", "path": ["name"],
	"message": sprintf("table %q does not start with prod-", [input.table.name])} if {
	input.table.name != ""
	not startswith(input.table.name, "prod-")
}

findings contains {"rule": "ORG002", "severity": "warning", "message": "indexes are reviewed"} if {
	count(input.table.gsis) > 0
}

findings contains {"rule": "ORG003"} if input.table.name == "events_hot"
`
	if err := os.WriteFile(filepath.Join(dir, "org.rego"), []byte(rule), 0o600); err != nil {
		t.Fatal(err)
	}
	checks := t.TempDir()
	if err := WriteTrivyChecks(checks, dir); err != nil {
		t.Fatal(err)
	}
	custom, _, err := loadCustom([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	maps.Copy(modules, custom)
	compiler := ast.NewCompiler().WithCapabilities(Capabilities())
	if compiler.Compile(modules); compiler.Failed() {
		t.Fatal(compiler.Errors)
	}
	builtin, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	fired := map[string]bool{}
	for name := range planExpectations {
		t.Run(name, func(t *testing.T) {
			planJSON, err := os.ReadFile(filepath.Join("testdata", "plans", name))
			if err != nil {
				t.Fatal(err)
			}
			var input any
			if err := json.Unmarshal(planJSON, &input); err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for kind, query := range map[string]string{"deny": PlanDenyQuery, "warn": PlanWarnQuery} {
				rs, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.Input(input)).Eval(t.Context())
				if err != nil || len(rs) != 1 {
					t.Fatalf("%s: %v", query, err)
				}
				raw, _ := json.Marshal(rs[0].Expressions[0].Value)
				var results []PlanResult
				if err := json.Unmarshal(raw, &results); err != nil {
					t.Fatal(err)
				}
				for _, r := range results {
					if builtin.HasRule(r.Rule) || r.Rule == "" && kind == "warn" {
						continue
					}
					want = append(want, kind+":"+r.Msg)
					fired[cmpOr(r.Rule, "malformed")] = true
				}
			}
			got := []string{}
			for _, m := range trivyResults(t, trivy, cache, checks, filepath.Join("testdata", "plans", name)) {
				if m.ID == TrivyCustomID {
					got = append(got, map[string]string{"HIGH": "deny", "MEDIUM": "warn"}[m.Severity]+":"+m.Message)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("trivy found %q\nconftest %q", got, want)
			}
		})
	}
	for _, id := range []string{"ORG001", "ORG002", "malformed"} {
		if !fired[id] {
			t.Errorf("no plan fixture made %s fire: the comparison proves nothing about it", id)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// trivyMisconfiguration is one failed check of `trivy config --format json`.
type trivyMisconfiguration struct {
	ID       string `json:"ID"`
	Severity string `json:"Severity"`
	Message  string `json:"Message"`
	Status   string `json:"Status"`
}

// trivyResults runs `trivy config` with the checks in checks on the plan JSON file plan and returns the
// failed checks.
func trivyResults(t *testing.T, trivy, cache, checks, plan string) []trivyMisconfiguration {
	t.Helper()
	cmd := exec.Command(trivy, "config", "--quiet", "--cache-dir", cache, "--skip-check-update",
		"--config-check", checks, "--check-namespaces", "dynamokeys_trivy", "--misconfig-scanners", "json",
		"--format", "json", plan)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("trivy: %v\n%s", err, exit.Stderr)
	} else if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Results []struct {
			Misconfigurations []trivyMisconfiguration `json:"Misconfigurations"`
		} `json:"Results"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("trivy --format json: %v\n%s", err, out)
	}
	var failed []trivyMisconfiguration
	for _, r := range report.Results {
		for _, m := range r.Misconfigurations {
			if m.Status == "FAIL" {
				failed = append(failed, m)
			}
		}
	}
	return failed
}
