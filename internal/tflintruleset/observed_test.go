package tflintruleset

import (
	"strings"
	"testing"
)

const measuredIndex = `data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  traffic       = { writes_per_second = 500 }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = 1000 }] }
  }
  observed_indexes = {
    by_status = {
      %s
      traffic  = { writes_per_second = 2500, reads_per_second = 100, hot_key_units_per_second = 6040 }
      top_keys = [{ key = "paid", units_per_second = 6040, throttle_events = 0 }]
      window   = { start = "2026-11-30T00:00:00Z", end = "2026-11-30T03:00:00Z", datapoints = 180 }
    }
  }
}
`

func TestWrittenObservation(t *testing.T) {
	t.Parallel()
	// An observation written out in the configuration is read as the provider reads it: the index's
	// measured writes are five times the design's, and its busiest key is over a partition.
	got := lint(t, map[string]string{"main.tf": strings.Replace(measuredIndex, "%s", "", 1)})
	for _, want := range []string{"dynamokeys_dk701 ", "dynamokeys_dk702 "} {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, want)
		}
		if !found {
			t.Errorf("issues %q: want one of %s", got, want)
		}
	}
	for _, g := range got {
		if strings.HasPrefix(g, UnknownInputsRule) {
			t.Errorf("a written observation is known: %q", got)
		}
	}
	// One given for another index than its key is the provider's error; TFLint says so on index_name.
	assertIssues(t, map[string]string{"main.tf": strings.Replace(measuredIndex, "%s", `index_name = "by_day"`, 1)},
		"dynamokeys_invalid_design Error main.tf:10,7-28 dynamokeys:")
}
