package policy

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestV6ShapesFindWhatClassicTablesFind: the hashicorp/aws 6 plan (multi-attribute key_schema GSIs beside
// classic ones, standalone aws_dynamodb_global_secondary_index resources joined to their table by name and
// through the configuration, one whose table is not in the plan) gives the same rule ids and severities per
// table as the same indexes written as global_secondary_index blocks; the index without its table is
// compared with a table of its own. A standalone GSI's findings carry its own address (TestPlanAdapterEntryPoints):
// here they count for the table it belongs to.
func TestV6ShapesFindWhatClassicTablesFind(t *testing.T) {
	sameTable := map[string]string{
		"aws_dynamodb_global_secondary_index.legacy_by_status": "aws_dynamodb_table.legacy",
		"aws_dynamodb_global_secondary_index.events_by_flag":   "aws_dynamodb_table.events_v6",
		"aws_dynamodb_global_secondary_index.events_by_state":  "aws_dynamodb_table.events_v6",
		"aws_dynamodb_global_secondary_index.events_x":         "aws_dynamodb_table.events_v6",
		"aws_dynamodb_global_secondary_index.audit_by_keys":    "aws_dynamodb_table.audit_v6",
	}
	findings := func(fixture string) map[string][]string {
		raw, err := os.ReadFile(filepath.Join("testdata", "plans", fixture))
		if err != nil {
			t.Fatal(err)
		}
		deny, warn, err := EvaluatePlan(t.Context(), raw)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for kind, results := range map[string][]PlanResult{"error": deny, "warning": warn} {
			for _, r := range results {
				if r.Rule == "" {
					continue // the notes on what was not checked
				}
				table := r.Address
				if mapped, ok := sameTable[table]; ok {
					table = mapped
				}
				out[table] = append(out[table], r.Rule+":"+kind)
			}
		}
		for table := range out {
			slices.Sort(out[table])
		}
		return out
	}
	v6, classic := findings("aws_v6.json"), findings("aws_v6_classic.json")
	if len(v6) != 4 {
		t.Errorf("the v6 plan reported on %d tables, want 4: %v", len(v6), v6)
	}
	if !maps.EqualFunc(v6, classic, slices.Equal) {
		t.Errorf("v6 shapes:      %v\nclassic blocks: %v", v6, classic)
	}
}
