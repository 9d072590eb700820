package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/awsstub"
)

// trafficFixture is the path of an export in examples/observed-traffic/fixtures.
func trafficFixture(t *testing.T, name string) string {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "examples", "observed-traffic", "fixtures", name)
}

// offlineTraffic is a dynamokeys_observed_traffic block reading the fixtures with the prefix.
func offlineTraffic(t *testing.T, name, prefix, extra string) string {
	t.Helper()
	reports := fmt.Sprintf("accessed_keys_report = file(%q)", trafficFixture(t, prefix+"-accessed-keys.json"))
	if prefix != "index-hot" {
		reports += fmt.Sprintf("\n  throttled_keys_report = file(%q)", trafficFixture(t, prefix+"-throttled-keys.json"))
	}
	return fmt.Sprintf(`
data "dynamokeys_observed_traffic" %[1]q {
  table_name  = "orders"
  metric_data = file(%[2]q)
  %[3]s
  %[4]s
}
`, name, trafficFixture(t, prefix+"-metric-data.json"), reports, extra)
}

// ordersDesign is the unsharded orders table of the fixtures, declared at 500 writes and 1,000 reads per
// second, with a status index capped at 1,500 write units.
func ordersDesign(observed string) string {
	return fmt.Sprintf(`
data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  traffic       = { writes_per_second = 500, reads_per_second = 1000, read_consistency = "strong" }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = 1000 }], on_demand_throughput = { max_write_request_units = 1500 } }
  }
  enforce = false
  %s
}
`, observed) + findingRules("orders")
}

func TestObservedTrafficOfflineFigures(t *testing.T) {
	t.Parallel()
	ds := "data.dynamokeys_observed_traffic.hot"
	num := func(f float64) knownvalue.Check { return knownvalue.Float64Exact(f) }
	unitSteps(t, resource.TestStep{
		Config: offlineTraffic(t, "hot", "hot", ""),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("traffic"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"writes_per_second": num(2500), "reads_per_second": num(3000), "hot_key_share": num(0.5),
				// The window's consumed units (both exported pages) over its three hours.
				"average_writes_per_second": num(13768709.0 / 10800), "average_reads_per_second": num(16522451.0 / 10800),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("window"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"start": knownvalue.StringExact("2026-11-30T09:00:00Z"), "end": knownvalue.StringExact("2026-11-30T12:00:00Z"), "datapoints": num(180),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("throttle_events"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"read": num(0), "write": num(15243),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("top_keys").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"key": knownvalue.StringExact("CUSTOMER#c-1001"), "share": num(0.4), "throttle_events": num(10450),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("top_keys").AtSliceIndex(4), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"key": knownvalue.StringExact("CUSTOMER#c-9009"), "share": knownvalue.Null(), "throttle_events": num(40),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("complete"), knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("index_name"), knownvalue.Null()),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`peak writes 2,500 WCU/s`))),
		},
	})
}

// A hot export fails the plan of a design declared below it: the peak needs more than the unsharded key
// gives (DK701), the busiest key needs two shards (DK702), an application writes lower-case keys (DK703),
// and the window saw throttling (DK704).
func TestObservedTrafficHotExportFiresEachRule(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config:            offlineTraffic(t, "table", "hot", "") + ordersDesign("observed = data.dynamokeys_observed_traffic.table.observed"),
		ConfigStateChecks: expectRules(false, "DK701:error", "DK702:error", "DK703:error", "DK704:warning"),
	})
}

func TestObservedTrafficHotExportFailsAnEnforcedPlan(t *testing.T) {
	t.Parallel()
	design := regexp.MustCompile(`(?m)^\s*enforce = false$`).ReplaceAllString(ordersDesign("observed = data.dynamokeys_observed_traffic.table.observed"), "")
	unitSteps(t, resource.TestStep{
		Config:      offlineTraffic(t, "table", "hot", "") + design,
		ExpectError: expectError(`DK702 measured-hot-key: the busiest key "CUSTOMER#c-1001" takes 50% of the measured peak .* needs 2 shards`),
	})
}

func TestObservedTrafficCalmExportLeavesThePlanClean(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config:            offlineTraffic(t, "table", "calm", "") + ordersDesign("observed = data.dynamokeys_observed_traffic.table.observed"),
		ConfigStateChecks: expectRules(true),
	})
}

// Per index: the index's measured writes are above its on-demand cap (DK601 on the index, DK701) and its
// busiest key takes 2,000 WCU (DK702 on the index).
func TestObservedTrafficPerIndex(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: offlineTraffic(t, "by_status", "index-hot", `index_name = "by_status"`) + ordersDesign(
			"observed_indexes = { by_status = data.dynamokeys_observed_traffic.by_status.observed }") + `
output "paths" {
  value = distinct([for f in data.dynamokeys_keydesign.orders.findings : "${f.rule}:${f.path}"])
}
`,
		ConfigStateChecks: append(expectRules(false, "DK601:warning", "DK701:error", "DK702:error"),
			statecheck.ExpectKnownOutputValue("paths", knownvalue.SetExact([]knownvalue.Check{
				knownvalue.StringExact("DK601:global_secondary_indexes.by_status.on_demand_throughput.max_write_request_units"),
				knownvalue.StringExact("DK701:global_secondary_indexes.by_status.on_demand_throughput.max_write_request_units"),
				knownvalue.StringExact("DK702:global_secondary_indexes.by_status"),
			}))),
	})
}

// An observation of an index given as the table's observed is routed to that index by its index_name.
func TestObservedTrafficIndexGivenAsObserved(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: offlineTraffic(t, "by_status", "index-hot", `index_name = "by_status"`) +
			ordersDesign("observed = data.dynamokeys_observed_traffic.by_status.observed"),
		ConfigStateChecks: expectRules(false, "DK601:warning", "DK701:error", "DK702:error"),
	})
}

// TestObservedTrafficBadInput: each kind of bad input fails the read with an error on its attribute. The
// parser's every case is unit-tested in internal/keydesign; these take each attribute and mode once.
func TestObservedTrafficBadInput(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ body, err string }{
		"malformed JSON":  {`metric_data = "{\"MetricDataResults\": ["`, `metric_data: is not valid JSON`},
		"another command": {`metric_data = jsonencode({ TableNames = ["orders"] })`, "metric_data: is not the output of `aws cloudwatch get-metric-data`"},
		"report without contributors": {fmt.Sprintf("metric_data = file(%q)\n  accessed_keys_report = jsonencode({ KeyLabels = [\"pk\"], AggregateValue = 0, Contributors = [] })",
			trafficFixture(t, "calm-metric-data.json")), `accessed_keys_report: lists no contributors`},
		"no source":            {`index_name = "by_status"`, `Set metric_data .* or table_name`},
		"report without data":  {`table_name = "orders"` + "\n" + `throttled_keys_report = "{}"`, `throttled_keys_report is an offline export`},
		"lookback with export": {`metric_data = "{}"` + "\n" + `lookback = "1d"`, `lookback applies when the data source reads CloudWatch live`},
		"bad lookback":         {`table_name = "orders"` + "\n" + `lookback = "30d"`, `longer than 15 days`},
		"bad end":              {`table_name = "orders"` + "\n" + `end = "yesterday"`, `end must be an RFC 3339 time`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unitSteps(t, resource.TestStep{
				Config:      fmt.Sprintf("data \"dynamokeys_observed_traffic\" \"bad\" {\n  %s\n}\n", tc.body),
				ExpectError: expectError(tc.err),
			})
		})
	}
}

func TestObservedTrafficInputErrorsOnTheDesign(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ observed, err string }{
		"index elsewhere": {`observed_indexes = { by_status = { index_name = "by_region", traffic = { writes_per_second = 10 } } }`,
			`observed_indexes.by_status: is the observation of index "by_region", but it is given for index "by_status"`},
		"share above 1":  {`observed = { traffic = { hot_key_share = 1.5 } }`, `observed.traffic.hot_key_share: must be a finite number between 0 and 1, got 1.5`},
		"twice an index": {`observed = { index_name = "by_status" }` + "\n" + `observed_indexes = { by_status = {} }`, `is a second observation of index by_status`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unitSteps(t, resource.TestStep{Config: ordersDesign(tc.observed), ExpectError: expectError(tc.err)})
		})
	}
}

// The live path against the loopback stand-in: DescribeContributorInsights, GetMetricData (paged) and
// GetInsightRuleReport return the figures the offline export gives.
func TestAccObservedTrafficLive(t *testing.T) {
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	stub.PageSize = 60
	stub.Insights["orders"] = awsstub.Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS",
		Rules: []string{"DynamoDBContributorInsights-PKC-orders-1764500000000", "DynamoDBContributorInsights-PKT-orders-1764500000000"}}
	stub.Insights["orders/by_status"] = awsstub.Insights{Status: "DISABLED"}
	for target, prefix := range map[string]string{"orders": "hot", "orders/by_status": "index-hot"} {
		stub.MetricData[target] = readFile(t, trafficFixture(t, prefix+"-metric-data.json"))
	}
	stub.Reports["DynamoDBContributorInsights-PKC-orders-1764500000000"] = readFile(t, trafficFixture(t, "hot-accessed-keys.json"))
	stub.Reports["DynamoDBContributorInsights-PKT-orders-1764500000000"] = readFile(t, trafficFixture(t, "hot-throttled-keys.json"))
	t.Setenv("AWS_ENDPOINT_URL_CLOUDWATCH", stub.URL)

	live := func(name, extra string) string {
		return fmt.Sprintf(`
data "dynamokeys_observed_traffic" %q {
  table_name = "orders"
  lookback   = "3h"
  end        = "2026-11-30T12:00:00Z"
  %s
}
`, name, extra)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(stub.URL) + live("live", "") + live("index", `index_name = "by_status"`) + offlineTraffic(t, "offline", "hot", "") + `
output "same" {
  value = data.dynamokeys_observed_traffic.live.observed == data.dynamokeys_observed_traffic.offline.observed
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("same", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.live", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("hot_key_share"), knownvalue.Float64Exact(0.5)),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.index", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("writes_per_second"), knownvalue.Float64Exact(2500)),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.index", tfjsonpath.New("observed").AtMapKey("top_keys"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.index", tfjsonpath.New("observed").AtMapKey("index_name"), knownvalue.StringExact("by_status")),
			},
		}},
	})
	counts := map[string]int{}
	for _, r := range stub.Requests() {
		counts[r.Operation]++
		if r.Operation == "GetMetricData" {
			var queries []struct {
				MetricStat struct {
					Period float64
					Stat   string
					Metric struct{ Namespace string }
				}
			}
			raw, _ := json.Marshal(r.Input["MetricDataQueries"])
			if err := json.Unmarshal(raw, &queries); err != nil || len(queries) != 4 {
				t.Fatalf("GetMetricData queries = %s (%v)", raw, err)
			}
			if stat := queries[0].MetricStat; stat.Period != 60 || stat.Stat != "Sum" || stat.Metric.Namespace != "AWS/DynamoDB" {
				t.Errorf("GetMetricData query = %s", raw)
			}
		}
	}
	// Terraform reads each data source during plan and apply: every read pages 180 minutes by 60 (3 pages)
	// and reads the table's two reports; the index has no Contributor Insights.
	if counts["GetMetricData"]%6 != 0 || counts["GetMetricData"] == 0 || counts["GetInsightRuleReport"]*3 != counts["GetMetricData"] {
		t.Errorf("requests = %v", counts)
	}
}

func TestAccObservedTrafficLiveTableNotFound(t *testing.T) {
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	t.Setenv("AWS_ENDPOINT_URL_CLOUDWATCH", stub.URL)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(stub.URL) + "data \"dynamokeys_observed_traffic\" \"x\" {\n  table_name = \"missing\"\n}\n",
			ExpectError: expectError(`Table missing .* was not found`),
		}},
	})
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
