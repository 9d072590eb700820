package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// TestDataGoIsGenerated: policies/data_gen.go is what dataGo writes from the data file, which it decodes
// strictly.
func TestDataGoIsGenerated(t *testing.T) {
	want, err := dataGo(policies.DataJSON)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "policies", "data_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("policies/data_gen.go is stale: run make generate (go run ./internal/cmd/datamodule policies/data.rego policies/data_gen.go)")
	}
}
