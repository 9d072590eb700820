package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/tflintruleset"
)

// TestSchemaTreeIsGenerated fails when the tree the TFLint ruleset reads differs from the provider's schemas.
func TestSchemaTreeIsGenerated(t *testing.T) {
	t.Parallel()
	got, err := generate(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, tflintruleset.SchemaTreeJSON) {
		t.Fatal("internal/tflintruleset/schema_tree.json is stale: run make generate and commit it")
	}
}

// TestSchemaTreeShapes checks the tree against shapes the provider documents: nested objects by name, maps
// keyed by the user walked by value, lists of objects by element.
func TestSchemaTreeShapes(t *testing.T) {
	t.Parallel()
	out, err := generate(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var tree tflintruleset.SchemaTree
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatal(err)
	}
	design := tree.DataSources["dynamokeys_keydesign"]
	table := tree.Resources["dynamokeys_sharded_table"]
	if design == nil || table == nil || tree.DataSources["dynamokeys_observed_traffic"] == nil || tree.Provider == nil {
		t.Fatalf("missing schemas: %+v", tree)
	}
	has := func(n *tflintruleset.SchemaNode, path ...string) bool {
		for _, step := range path {
			if step == "*" {
				n = n.Each
			} else if n != nil {
				n = n.Attributes[step]
			}
			if n == nil {
				return false
			}
		}
		return true
	}
	for _, path := range [][]string{
		{"traffic", "writes_per_second"},
		{"segments", "*", "granularity"},
		{"entities", "*", "traffic", "item_size_bytes"},
		{"access_patterns", "*", "sort", "condition"},
		{"global_secondary_indexes", "*", "partition_key", "*", "name"},
		{"migration", "from", "sharding", "strategy"},
		{"migration", "backfill_write_units_per_second"},
		{"replicas", "regions", "*", "write_share"},
	} {
		if !has(design, path...) || !has(table, path...) {
			t.Errorf("the tree has no %v", path)
		}
	}
	if !has(table, "point_in_time_recovery", "enabled") || !has(tree.Provider, "policy", "enforce") {
		t.Error("the tree lacks the table's or the provider's nested attributes")
	}
	if has(design, "traffic", "writes_per_secnd") || design.Attributes["traffic"].Each != nil {
		t.Error("the tree holds what the schema does not")
	}
}
