package testutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// CacheCLIVersion points TF_ACC_TERRAFORM_PATH (EnsureTerraformCLI's CLI) at a shell script in dir that
// answers `version -json` with what the CLI printed once, and runs the CLI for everything else.
// terraform-plugin-testing asks each TestCase and each working directory for the version (some 250 runs of
// the CLI in internal/provider, each ~0.1 s of CPU) and reads only the CLI's own version from the answer,
// not the providers it lists. The script has the CLI's file name, so that CLIName still tells OpenTofu.
// On Windows (no /bin/sh) it changes nothing.
func CacheCLIVersion(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	cli, err := EnsureTerraformCLI()
	if err != nil {
		return err
	}
	if env := os.Getenv("TF_ACC_TERRAFORM_PATH"); env != "" {
		cli = env
	}
	out, err := exec.Command(cli, "version", "-json").Output()
	if err != nil {
		return fmt.Errorf("%s version -json: %w", cli, err)
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	script := "#!/bin/sh\n" +
		"if [ \"$#\" -eq 2 ] && [ \"$1\" = version ] && [ \"$2\" = -json ]; then\n" +
		"  printf '%s' " + quote(string(out)) + "\n  exit 0\nfi\n" +
		"exec " + quote(cli) + " \"$@\"\n"
	shim := filepath.Join(dir, filepath.Base(cli))
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil { //nolint:gosec // an executable script
		return err
	}
	return os.Setenv("TF_ACC_TERRAFORM_PATH", shim)
}
