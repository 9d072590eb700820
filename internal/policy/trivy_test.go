//go:build trivycheck

// Trivy with the bundle as custom checks on every plan fixture. These tests need a Trivy binary, so they are
// not part of `go test ./...`: `make check-trivy` builds the pinned Trivy into .bin/ and runs them with
//
//	TRIVY=/path/to/trivy go test -tags trivycheck -run TestTrivy ./internal/policy

package policy

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTrivyReportsWhatConftestReports runs `trivy config` with the generated checks (WriteTrivyChecks) on
// every plan fixture and compares each finding, as kind:rule@address, with conftest's (planExpectations):
// errors are HIGH results of the deny entry point, warnings MEDIUM results of warn. The notes without a rule
// id (what was not checked) are conftest's alone.
func TestTrivyReportsWhatConftestReports(t *testing.T) {
	trivy := os.Getenv("TRIVY")
	if trivy == "" {
		t.Fatal("TRIVY is not set: run make check-trivy, which builds the pinned Trivy and passes its path")
	}
	checks := t.TempDir()
	if err := WriteTrivyChecks(checks); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	head := regexp.MustCompile(`^(DK\d{3}) (\S+): `)
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(trivy, "config", "--quiet", "--cache-dir", cache, "--skip-check-update",
				"--config-check", checks, "--check-namespaces", "dynamokeys_trivy", "--misconfig-scanners", "json",
				"--format", "json", filepath.Join("testdata", "plans", name))
			out, err := cmd.Output()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				t.Fatalf("trivy: %v\n%s", err, exit.Stderr)
			} else if err != nil {
				t.Fatal(err)
			}
			var report struct {
				Results []struct {
					Misconfigurations []struct {
						ID       string `json:"ID"`
						Severity string `json:"Severity"`
						Message  string `json:"Message"`
						Status   string `json:"Status"`
					} `json:"Misconfigurations"`
				} `json:"Results"`
			}
			if err := json.Unmarshal(out, &report); err != nil {
				t.Fatalf("trivy --format json: %v\n%s", err, out)
			}
			got := []string{}
			for _, r := range report.Results {
				for _, m := range r.Misconfigurations {
					if m.Status != "FAIL" {
						continue
					}
					kind := map[string]string{"HIGH": "deny", "MEDIUM": "warn"}[m.Severity]
					parts := head.FindStringSubmatch(m.Message)
					if parts == nil || parts[1] != m.ID {
						t.Errorf("result %s: the message does not start with its id and address: %s", m.ID, m.Message)
						continue
					}
					got = append(got, kind+":"+m.ID+"@"+parts[2])
				}
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
