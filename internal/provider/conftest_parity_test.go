//go:build bundlecheck

// The real conftest in the parity test. `make check-bundle` builds the pinned conftest into .bin/ and runs
//
//	CONFTEST=/path/to/conftest TF_ACC=1 go test -tags bundlecheck -run TestAccPolicyParity ./internal/provider
//
// so that every plan of the parity test is also checked by conftest, with the same expectations.

package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

func init() { conftestOnPlan = runConftest }

// runConftest runs `conftest test` on plan JSON with the bundle (policies and data), in strict mode and
// with built-in errors reported, and returns its failures and warnings.
func runConftest(planJSON []byte) (deny, warn []policy.PlanResult, err error) {
	bin := os.Getenv("CONFTEST")
	if bin == "" {
		return nil, nil, errors.New("CONFTEST is not set: run make check-bundle, which builds the pinned conftest and passes its path")
	}
	root, err := testutil.RepoRoot()
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "parity-plan")
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	planFile := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(planFile, planJSON, 0o600); err != nil {
		return nil, nil, err
	}
	policies := filepath.Join(root, "policies")
	cmd := exec.Command(bin, "test", "--no-color", "--strict", "--show-builtin-errors", "--policy", policies,
		"--namespace", "dynamokeys.conftest", "--output", "json", planFile)
	out, runErr := cmd.Output()
	var exitErr *exec.ExitError
	if runErr != nil && (!errors.As(runErr, &exitErr) || exitErr.ExitCode() != 1) {
		return nil, nil, fmt.Errorf("conftest: %w\n%s", runErr, out)
	}
	var files []struct {
		Failures []struct {
			Msg      string            `json:"msg"`
			Metadata policy.PlanResult `json:"metadata"`
		} `json:"failures"`
		Warnings []struct {
			Msg      string            `json:"msg"`
			Metadata policy.PlanResult `json:"metadata"`
		} `json:"warnings"`
	}
	if err := json.Unmarshal(out, &files); err != nil || len(files) != 1 {
		return nil, nil, fmt.Errorf("conftest --output json: %w\n%s", err, out)
	}
	for _, f := range files[0].Failures {
		f.Metadata.Msg = f.Msg
		deny = append(deny, f.Metadata)
	}
	for _, w := range files[0].Warnings {
		w.Metadata.Msg = w.Msg
		warn = append(warn, w.Metadata)
	}
	return deny, warn, nil
}
