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
// reported, and returns its output and exit code.
func conftestTest(t *testing.T, output, fixture string) ([]byte, int) {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(conftestPath(t), "test", "--no-color", "--strict", "--show-builtin-errors",
		"--policy", filepath.Join(root, "policies"), "--data", filepath.Join(root, "policies"), "--namespace", "dynamokeys.conftest",
		"--output", output, filepath.Join("testdata", "plans", fixture))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return out, exitErr.ExitCode()
	case err != nil:
		t.Fatalf("running conftest: %v\n%s", err, stderr.String())
	}
	return out, 0
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
}
