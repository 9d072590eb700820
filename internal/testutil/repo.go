// Package testutil holds what the acceptance tests and the demo share: finding the repository, the
// Terraform CLI, and local DynamoDB-API servers.
package testutil

import (
	"errors"
	"os"
	"path/filepath"
)

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
