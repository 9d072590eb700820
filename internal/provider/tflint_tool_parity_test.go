//go:build tflintcheck

// The real TFLint in the parity test. `make check-tflint` builds the pinned TFLint into .bin/ and the plugin
// into .bin/tflint-plugins, and runs
//
//	TFLINT=/path/to/tflint TFLINT_PLUGIN_DIR=/path/to/plugins TF_ACC=1 go test -tags tflintcheck -run TestAccPolicyParity ./internal/provider
//
// so that TFLint, functions and all, reports on every parity design the rule ids the provider reports.

package provider

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

func init() { tflintOnConfig = runTFLint }

func runTFLint(t *testing.T, config string) []tflintIssue {
	t.Helper()
	bin, plugins := os.Getenv("TFLINT"), os.Getenv("TFLINT_PLUGIN_DIR")
	if bin == "" || plugins == "" {
		t.Fatal("TFLINT and TFLINT_PLUGIN_DIR are not set: run make check-tflint, which builds the pinned TFLint and the plugin")
	}
	dir := t.TempDir()
	files := map[string]string{
		"main.tf":     config,
		".tflint.hcl": "plugin \"terraform\" {\n  enabled = false\n}\n\nplugin \"dynamokeys\" {\n  enabled = true\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "--format", "json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("tflint: %v", err)
	}
	report, errs, err := testutil.ParseTFLintJSON(out)
	if err != nil {
		t.Fatalf("tflint output is not JSON: %v\n%s", err, out)
	}
	if len(errs) > 0 {
		t.Fatalf("tflint errors: %q", errs)
	}
	issues := make([]tflintIssue, 0, len(report))
	for _, is := range report {
		issues = append(issues, tflintIssue{rule: is.Rule, severity: is.Severity, message: is.Message, line: is.Line})
	}
	return issues
}
