package testutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

var terraformOnce = sync.OnceValues(findTerraform)

// EnsureTerraformCLI points terraform-plugin-testing at a Terraform-compatible CLI: it sets an absolute
// TF_ACC_TERRAFORM_PATH (and, for OpenTofu, TF_ACC_PROVIDER_NAMESPACE and TF_ACC_PROVIDER_HOST) from
// scripts/terraform-cli.sh, which prefers terraform, then tofu, on PATH and otherwise builds OpenTofu from
// the Go module proxy. It never downloads from a website.
func EnsureTerraformCLI() (string, error) {
	return terraformOnce()
}

func findTerraform() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "terraform-cli.sh"))
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding a Terraform CLI with scripts/terraform-cli.sh: %w: %s", err, stderr.String())
	}
	path := strings.TrimSpace(string(out))
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("scripts/terraform-cli.sh printed %q, not an absolute path", path)
	}
	// A TF_CLI_CONFIG_FILE that names no file makes OpenTofu (1.12) print a warning before its version,
	// which terraform-plugin-testing then cannot read; Terraform ignores it. Without it both read none.
	if rc := os.Getenv("TF_CLI_CONFIG_FILE"); rc != "" {
		if _, err := os.Stat(rc); errors.Is(err, os.ErrNotExist) {
			_ = os.Unsetenv("TF_CLI_CONFIG_FILE")
		}
	}
	if err := os.Setenv("TF_ACC_TERRAFORM_PATH", path); err != nil {
		return "", err
	}
	if strings.HasPrefix(filepath.Base(path), "tofu") {
		// OpenTofu resolves the provider under its own registry host.
		_ = os.Setenv("TF_ACC_PROVIDER_NAMESPACE", "hashicorp")
		_ = os.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
	}
	return path, nil
}

var cliVersionOnce = sync.OnceValues(func() (string, error) {
	path, err := EnsureTerraformCLI()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(path, "version", "-json").Output()
	if err != nil {
		return "", fmt.Errorf("%s version -json: %w", path, err)
	}
	var v struct {
		Version string `json:"terraform_version"` // OpenTofu prints the same key
	}
	// OpenTofu may print a warning (a missing CLI configuration file) before the JSON.
	if err := json.Unmarshal(out[max(0, bytes.IndexByte(out, '{')):], &v); err != nil || v.Version == "" {
		return "", fmt.Errorf("%s version -json printed %q, without terraform_version", path, out)
	}
	return v.Version, nil
})

// CLIVersion is the version of the CLI the tests drive (EnsureTerraformCLI), e.g. "1.11.4".
func CLIVersion() (string, error) { return cliVersionOnce() }

// CLIAtLeast reports whether the CLI the tests drive is at least major.minor, and its version.
func CLIAtLeast(major, minor int) (bool, string, error) {
	v, err := CLIVersion()
	if err != nil {
		return false, "", err
	}
	var gotMajor, gotMinor int
	if _, err := fmt.Sscanf(v, "%d.%d", &gotMajor, &gotMinor); err != nil {
		return false, v, fmt.Errorf("CLI version %q: %w", v, err)
	}
	return gotMajor > major || (gotMajor == major && gotMinor >= minor), v, nil
}

// CLIName is "OpenTofu" or "Terraform", after the CLI the tests drive.
func CLIName() string {
	if strings.HasPrefix(filepath.Base(os.Getenv("TF_ACC_TERRAFORM_PATH")), "tofu") {
		return "OpenTofu"
	}
	return "Terraform"
}
