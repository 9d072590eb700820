//go:build bundlecheck

// The real conftest on the plan fixtures. These tests need a conftest binary, so they are not part of
// `go test ./...`: `make check-bundle` builds the pinned conftest into .bin/ and runs them with
//
//	CONFTEST=/path/to/conftest go test -tags bundlecheck -run TestConftest ./internal/policy

package policy

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// conftestPath is the conftest binary make passes in; without one the test fails, it never skips.
func conftestPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CONFTEST")
	if path == "" {
		t.Fatal("CONFTEST is not set: run make check-bundle, which builds the pinned conftest and passes its path")
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("CONFTEST=%s is not an executable: %v", path, err)
	}
	return path
}

type conftestFile struct {
	Filename string           `json:"filename"`
	Failures []conftestResult `json:"failures"`
	Warnings []conftestResult `json:"warnings"`
}

type conftestResult struct {
	Msg      string         `json:"msg"`
	Metadata map[string]any `json:"metadata"`
}

// conftestTest runs `conftest test` on one plan fixture with the bundle, in strict mode (unused
// variables and imports, shadowed names and duplicate imports are compile errors) and with built-in errors
// reported, and returns its output and exit code. --policy alone loads the rules and their limits.
func conftestTest(t *testing.T, output, fixture string) ([]byte, int) {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return runConftest(t, "--policy", filepath.Join(root, "policies"), "--output", output, filepath.Join("testdata", "plans", fixture))
}

func runConftest(t *testing.T, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(conftestPath(t), append([]string{"test", "--no-color", "--strict", "--show-builtin-errors", "--namespace", "dynamokeys.conftest"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return append(out, stderr.String()...), exitErr.ExitCode()
	case err != nil:
		t.Fatalf("running conftest: %v\n%s", err, stderr.String())
	}
	return out, 0
}

// TestConftestFailsClosedWithoutLimits: conftest given the rules without their limits module (a policy
// directory missing data.rego) fails the plan with the reason alone; the bundle with --data too (the
// command of earlier releases) reports the same as --policy alone.
func TestConftestFailsClosedWithoutLimits(t *testing.T) {
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	partial := t.TempDir()
	if err := os.CopyFS(partial, os.DirFS(filepath.Join(root, "policies"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(partial, DataModulePath)); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join("testdata", "plans", "aws_create.json")
	out, code := runConftest(t, "--policy", partial, "--output", "json", plan)
	var files []conftestFile
	if code != 1 || json.Unmarshal(out, &files) != nil || len(files) != 1 || len(files[0].Failures) != 1 || len(files[0].Warnings) != 0 ||
		!strings.HasPrefix(files[0].Failures[0].Msg, "dynamokeys: the policy bundle's limits are not loaded") {
		t.Errorf("conftest without data.rego: exit %d, want 1 with the reason only\n%s", code, out)
	}
	alone, aloneCode := runConftest(t, "--policy", filepath.Join(root, "policies"), "--output", "json", plan)
	withData, withDataCode := runConftest(t, "--policy", filepath.Join(root, "policies"), "--data", filepath.Join(root, "policies"), "--output", "json", plan)
	if aloneCode != 1 || withDataCode != aloneCode || string(alone) != string(withData) {
		t.Errorf("--policy alone: exit %d\n%s\nwith --data too: exit %d\n%s", aloneCode, alone, withDataCode, withData)
	}
}

// TestConftestRunsTheGuideCustomRule: the policy plugin guide's custom rule, without remediation or docs_url,
// in a second --policy directory, fails the plan under the real conftest.
func TestConftestRunsTheGuideCustomRule(t *testing.T) {
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out, code := runConftest(t, "--policy", filepath.Join(root, "policies"), "--policy", writeGuideRule(t),
		filepath.Join("testdata", "plans", "aws_update.json"))
	if code != 1 || !strings.Contains(string(out), `ORG001 aws_dynamodb_table.orders: table "orders" does not start with prod-`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestConftestOnPlanFixtures runs the real conftest on every fixture and checks exit codes and rule ids:
// the same expectations as TestPlanAdapterEntryPoints, through conftest's loader and its own OPA version.
func TestConftestOnPlanFixtures(t *testing.T) {
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			out, code := conftestTest(t, "json", name)
			wantDeny := slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "deny:") })
			// conftest exits 1 on a failure (deny) and 0 on warnings only; anything else is a policy or
			// compile error.
			if wantDeny != (code == 1) || code > 1 {
				t.Errorf("exit code %d with deny expected = %v\n%s", code, wantDeny, out)
			}
			var files []conftestFile
			if err := json.Unmarshal(out, &files); err != nil || len(files) != 1 {
				t.Fatalf("conftest --output json: %v\n%s", err, out)
			}
			var got []string
			for kind, results := range map[string][]conftestResult{"deny": files[0].Failures, "warn": files[0].Warnings} {
				for _, r := range results {
					rule, _ := r.Metadata["rule"].(string)
					address, _ := r.Metadata["address"].(string)
					got = append(got, kind+":"+rule+"@"+address)
				}
			}
			slices.Sort(got)
			want = slices.Clone(want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("conftest found %v\nwant %v", got, want)
			}
		})
	}
}

// TestConftestSARIF: the SARIF output carries the rule id and address at the head of each message.
func TestConftestSARIF(t *testing.T) {
	out, code := conftestTest(t, "sarif", "aws_create.json")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (aws_create.json has deny findings)", code)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &sarif); err != nil || len(sarif.Runs) == 0 {
		t.Fatalf("conftest --output sarif: %v\n%s", err, out)
	}
	found := false
	for _, r := range sarif.Runs[0].Results {
		found = found || strings.HasPrefix(r.Message.Text, "DK101 aws_dynamodb_table.flags")
	}
	if !found {
		t.Errorf("SARIF lacks the DK101 result: %s", out)
	}
	// A finding on a standalone GSI names the GSI resource, not the table it joins.
	out, _ = conftestTest(t, "sarif", "aws_v6.json")
	if !strings.Contains(string(out), `"DK107 aws_dynamodb_global_secondary_index.events_x:`) {
		t.Errorf("SARIF of aws_v6.json lacks DK107 at aws_dynamodb_global_secondary_index.events_x: %s", out)
	}
}
