package provider

import (
	"os"
	"path/filepath"
	"testing"
)

// Designs with measured traffic for the parity test (policy_parity_test.go): between them they fire
// DK701–DK704 and DK601–DK603 on an index, and the bundle must report what the provider reports.
func init() {
	const window = `window = { start = "2026-11-30T09:00:00Z", end = "2026-11-30T12:00:00Z", datapoints = 180 }
    complete = true`
	parityDesigns["measured_hot"] = `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  traffic       = { writes_per_second = 500, reads_per_second = 1000 }
  observed = {
    table_name      = "orders"
    traffic         = { writes_per_second = 2500, reads_per_second = 3000, hot_key_units_per_second = 4200 }
    top_keys        = [{ key = "CUSTOMER#c-1", units_per_second = 4200, throttle_events = 100 }, { key = "customer#c-2", units_per_second = 300, throttle_events = 0 }]
    throttle_events = { read = 0, write = 100, write_key_range = 100 }
    ` + window + `
  }`
	parityDesigns["measured_below_declared"] = `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  traffic       = { writes_per_second = 100 }
  observed = {
    traffic = { writes_per_second = 150, hot_key_units_per_second = 20 }
    top_keys = [{ key = "CUSTOMER#c-1", units_per_second = 20, throttle_events = 0 }]
    ` + window + `
  }`
	parityDesigns["measured_index"] = `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  traffic       = { writes_per_second = 500 }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = 1000 }], on_demand_throughput = { max_write_request_units = 1500 } }
  }
  observed_indexes = {
    by_status = {
      traffic  = { writes_per_second = 2500, reads_per_second = 100, hot_key_units_per_second = 6040 }
      top_keys = [{ key = "shipped", units_per_second = 6040, throttle_events = 0 }]
      ` + window + `
    }
  }`
	parityDesigns["measured_throttled_by_cause"] = `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  traffic       = { writes_per_second = 500, reads_per_second = 500 }
  observed = {
    traffic         = { writes_per_second = 100, reads_per_second = 100 }
    throttle_events = { read = 5, write = 40, write_key_range = 20, write_provisioned = 10, read_account_limit = 5 }
    ` + window + `
  }`
	parityTables["provisioned_index_below_demand"] = `name           = "orders-provisioned-index"
  billing_mode   = "PROVISIONED"
  read_capacity  = 100
  write_capacity = 100
  partition_key  = { name = "pk", template = "ORDER#{order_id}" }
  segments       = { order_id = { kind = "id" } }
  traffic        = { writes_per_second = 50, reads_per_second = 50 }
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customer_id", cardinality = 100000 }], read_capacity = 5, write_capacity = 10 }
  }
  observed_indexes = {
    by_customer = {
      traffic = { writes_per_second = 40, reads_per_second = 20 }
      ` + window + `
    }
  }`
}

// The data source's example reads exports next to it: the example plan gets the calm fixtures there.
func init() {
	examplePreparers["examples/data-sources/dynamokeys_observed_traffic"] = func(t *testing.T, dir string) {
		t.Helper()
		for from, to := range map[string]string{"calm-metric-data.json": "metric-data.json", "calm-accessed-keys.json": "accessed-keys.json",
			"calm-throttled-keys.json": "throttled-keys.json"} {
			if err := os.WriteFile(filepath.Join(dir, to), readFile(t, trafficFixture(t, from)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}
