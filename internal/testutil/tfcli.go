package testutil

import (
	"bytes"
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
