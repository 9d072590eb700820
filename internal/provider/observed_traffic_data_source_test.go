package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
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

// exportEnd is the end of the offline exports' window.
var exportEnd = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func metricSpecs() []string {
	var specs []string
	for _, q := range observed.MetricQueries {
		specs = append(specs, q.ID+"="+q.Metric)
	}
	return specs
}

// scenarioExports writes what the guide's CLI commands print for a scenario of the stand-in over the hours
// before exportEnd (get-metric-data with the query file, one get-insight-rule-report per day, concatenated)
// and returns a dynamokeys_observed_traffic block that reads them.
func scenarioExports(t *testing.T, scenario string, hours int, extra string) string {
	t.Helper()
	stub := &awsstub.Server{Now: func() time.Time { return exportEnd }, Insights: map[string]awsstub.Insights{}, Workloads: map[string]*awsstub.Workload{}}
	target := stub.Scenario(scenario, exportEnd)
	metrics, accessed, throttled, err := stub.CLIOutputs(target, exportEnd.Add(-time.Duration(hours)*time.Hour), exportEnd, metricSpecs())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	attrs := ""
	for name, content := range map[string][]byte{"metric_data": metrics, "accessed_keys_report": accessed, "throttled_keys_report": throttled} {
		if content == nil {
			continue
		}
		file := filepath.Join(dir, name+".json")
		if err := os.WriteFile(file, content, 0o600); err != nil {
			t.Fatal(err)
		}
		attrs += fmt.Sprintf("  %s = file(%q)\n", name, file)
	}
	return fmt.Sprintf("\ndata \"dynamokeys_observed_traffic\" \"measured\" {\n  table_name = \"orders\"\n%s  %s\n}\n", attrs, extra)
}

// ordersDesign is the unsharded orders table, declared at 500 writes and 1,000 strongly consistent reads per
// second, with a status index capped at 1,500 write units.
func ordersDesign(observedAttr string) string {
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
`, observedAttr) + findingRules("orders") + measuredOutputs
}

// measuredOutputs are the measured rules' findings with their messages.
const measuredOutputs = `
output "measured" {
  value = distinct([for f in data.dynamokeys_keydesign.orders.findings : "${f.rule}:${f.severity}" if startswith(f.rule, "DK70")])
}
output "messages" {
  value = join("\n", [for f in data.dynamokeys_keydesign.orders.findings : "${f.rule} ${f.message}" if startswith(f.rule, "DK70")])
}
`

func expectMeasured(rules ...string) statecheck.StateCheck {
	checks := make([]knownvalue.Check, len(rules))
	for i, r := range rules {
		checks[i] = knownvalue.StringExact(r)
	}
	return statecheck.ExpectKnownOutputValue("measured", knownvalue.SetExact(checks))
}

func expectMessages(pattern string) statecheck.StateCheck {
	return statecheck.ExpectKnownOutputValue("messages", knownvalue.StringRegexp(regexp.MustCompile("(?s)"+pattern)))
}

// The offline path from the CLI's output of the guide's commands: 26 hours, so the reports of two days are
// joined. Each scenario's verdict is asserted, not the figures it rests on.
func TestObservedTrafficOfflineVerdicts(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		scenario, extra, observed string
		checks                    []statecheck.StateCheck
	}{
		"write-hot key in a read-heavy table": {awsstub.ScenarioReadHeavyWriteHotKey, "", "observed = data.dynamokeys_observed_traffic.measured.observed",
			[]statecheck.StateCheck{expectMeasured("DK701:error", "DK702:error", "DK703:error", "DK704:warning"),
				expectMessages(`DK702 the busiest key "CUSTOMER#c-1001" of the table took 2,850 units/s at its busiest minute .*95% of a partition's 3,000 units/s .*` +
					`the key needs 2 shards and the table is written with 1`),
				expectMessages(`DK704 the table was throttled on key range .* 0 read and 28,800 write events; throttled keys "CUSTOMER#c-1001"`)}},
		"read-hot key in a write-heavy table": {awsstub.ScenarioWriteHeavyReadHotKey, "", "observed = data.dynamokeys_observed_traffic.measured.observed",
			[]statecheck.StateCheck{expectMeasured("DK701:error", "DK702:error"),
				expectMessages(`DK702 the busiest key "CUSTOMER#c-2002" of the table took 5,290 units/s .* the key needs 3 shards`)}},
		"calm table": {awsstub.ScenarioCalm, "", "observed = data.dynamokeys_observed_traffic.measured.observed",
			append(expectRules(true), expectMeasured())},
		"key-range throttling without Contributor Insights": {awsstub.ScenarioKeyRangeThrottled, "", "observed = data.dynamokeys_observed_traffic.measured.observed",
			[]statecheck.StateCheck{expectMeasured("DK701:warning", "DK704:warning"),
				expectMessages(`DK704 the table was throttled on key range .* 0 read and 72,000 write events; Contributor Insights is off, so the key is not named: turn it on`),
				expectMessages(`DK704 the table was throttled over its on-demand maximum .* 0 read and 1,440 write events`)}},
		"throttled-keys mode": {awsstub.ScenarioThrottledKeysOnly, "", "observed = data.dynamokeys_observed_traffic.measured.observed",
			[]statecheck.StateCheck{expectMeasured("DK701:warning", "DK704:warning"),
				expectMessages(`DK704 the table was throttled on key range .*; throttled keys "CUSTOMER#c-3003"`)}},
		"hot index": {awsstub.ScenarioHotIndex, `index_name = "by_status"`, "observed_indexes = { by_status = data.dynamokeys_observed_traffic.measured.observed }",
			[]statecheck.StateCheck{expectMeasured("DK701:error", "DK702:error"),
				expectMessages(`DK702 the busiest key "shipped" of index by_status took 6,040 units/s .* the index key needs 3 partitions' throughput`)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hours := 26
			if tc.scenario == awsstub.ScenarioCalm {
				hours = 3
			}
			unitSteps(t, resource.TestStep{
				Config:            scenarioExports(t, tc.scenario, hours, tc.extra) + ordersDesign(tc.observed),
				ConfigStateChecks: tc.checks,
			})
		})
	}
}

func TestObservedTrafficOfflineFigures(t *testing.T) {
	t.Parallel()
	ds := "data.dynamokeys_observed_traffic.measured"
	num := func(f float64) knownvalue.Check { return knownvalue.Float64Exact(f) }
	unitSteps(t, resource.TestStep{
		Config: scenarioExports(t, awsstub.ScenarioReadHeavyWriteHotKey, 26, ""),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("traffic"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"writes_per_second": num(1500), "reads_per_second": num(9000), "hot_key_units_per_second": num(2850), "hot_key_unit_share": num(2850.0 / 13500),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("top_keys").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"key": knownvalue.StringExact("CUSTOMER#c-1001"), "units_per_second": num(2850), "throttle_events": num(28800),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("throttle_events").AtMapKey("write_key_range"), num(28800)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("throttle_events").AtMapKey("read_account_limit"), num(0)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("key_attributes"), num(1)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("window"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"start": knownvalue.StringExact("2026-11-29T10:00:00Z"), "end": knownvalue.StringExact("2026-11-30T12:00:00Z"), "datapoints": num(26 * 60),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(
				`busiest key: 2,850 units/s at its busiest minute \(units = 3 × WCU \+ RCU; a partition serves 3,000\), 21.1% of the table's units`))),
		},
	})
}

// The example exports plan clean against the example's design.
func TestObservedTrafficCalmExampleExports(t *testing.T) {
	t.Parallel()
	unitSteps(t, resource.TestStep{
		Config: fmt.Sprintf(`
data "dynamokeys_observed_traffic" "measured" {
  table_name            = "orders"
  metric_data           = file(%q)
  accessed_keys_report  = file(%q)
  throttled_keys_report = file(%q)
}
`, trafficFixture(t, "calm-metric-data.json"), trafficFixture(t, "calm-accessed-keys.json"), trafficFixture(t, "calm-throttled-keys.json")) +
			ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"),
		ConfigStateChecks: append(expectRules(true), expectMeasured()),
	})
}

// TestObservedTrafficBadInput: each kind of bad input fails the read with an error on its attribute. The
// parser's every case is unit-tested in internal/observed; these take each attribute and mode once.
func TestObservedTrafficBadInput(t *testing.T) {
	t.Parallel()
	calm := trafficFixture(t, "calm-metric-data.json")
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	tooOld := time.Now().Add(-16 * 24 * time.Hour).UTC().Format(time.RFC3339)
	for name, tc := range map[string]struct{ body, err string }{
		"malformed JSON":  {`metric_data = "{\"MetricDataResults\": ["`, `metric_data: is not valid JSON`},
		"another command": {`metric_data = jsonencode({ TableNames = ["orders"] })`, "metric_data: is not the output of `aws cloudwatch get-metric-data`"},
		"NaN datapoint": {`metric_data = "{\"MetricDataResults\": [{\"Id\": \"consumed_write_capacity_units\", \"Timestamps\": [\"2026-11-30T11:00:00Z\"], \"Values\": [NaN]}]}"`,
			`metric_data: holds NaN or Infinity`},
		"malformed datapoint": {`metric_data = jsonencode({ MetricDataResults = [{ Id = "consumed_write_capacity_units", Timestamps = ["2026-11-30T11:00:00Z"], Values = [1, 2] }] })`,
			`metric_data: MetricDataResults\[0\] \(consumed_write_capacity_units\) has 1 Timestamps but 2 Values`},
		"report without contributors": {fmt.Sprintf("metric_data = file(%q)\n  accessed_keys_report = jsonencode({ KeyLabels = [\"pk\"], AggregateValue = 0, Contributors = [] })",
			calm), `accessed_keys_report: lists no contributors`},
		"report of another rule kind": {fmt.Sprintf("metric_data = file(%q)\n  accessed_keys_report = jsonencode({ KeyLabels = [\"pk\", \"sk\"], "+
			"Contributors = [{ Keys = [\"CUSTOMER#1\", \"ORDER#1\"], ApproximateAggregateValue = 5, Datapoints = [] }] })", calm),
			`accessed_keys_report: lists 2 key values per contributor \(pk, sk\), but a table's partition key is one attribute: this is a report of another rule kind`},
		"no source":            {`index_name = "by_status"`, `Set metric_data .* or table_name`},
		"report without data":  {`table_name = "orders"` + "\n" + `throttled_keys_report = "{}"`, `throttled_keys_report is an offline export`},
		"lookback with export": {`metric_data = "{}"` + "\n" + `lookback = "1d"`, `lookback applies when the data source reads CloudWatch live`},
		"lookback over 15d":    {`table_name = "orders"` + "\n" + `lookback = "16d"`, `longer than 15 days`},
		"bad end":              {`table_name = "orders"` + "\n" + `end = "yesterday"`, `end must be an RFC 3339 time`},
		"end in the future":    {`table_name = "orders"` + "\n" + fmt.Sprintf("end = %q", future), `with data.dynamokeys_observed_traffic.bad,.*on .* line .*end = .*CloudWatch has no datapoints for the future`},
		"end too old":          {`table_name = "orders"` + "\n" + fmt.Sprintf("end = %q", tooOld), `End too old for one-minute data.*more than 15 days ago: CloudWatch keeps one-minute datapoints for 15 days`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unitSteps(t, resource.TestStep{
				Config:      fmt.Sprintf("data \"dynamokeys_observed_traffic\" \"bad\" {\n  %s\n}\n", tc.body),
				ExpectError: regexp.MustCompile("(?s)" + strings.ReplaceAll(tc.err, " ", `\s+`)),
			})
		})
	}
}

func TestObservedTrafficInputErrorsOnTheDesign(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ observed, err string }{
		"index elsewhere": {`observed_indexes = { by_status = { index_name = "by_region", traffic = { writes_per_second = 10 } } }`,
			`observed_indexes.by_status: is the observation of index "by_region", but it is given for index "by_status"`},
		"share above 1":  {`observed = { traffic = { hot_key_unit_share = 1.5 } }`, `observed.traffic.hot_key_unit_share: must be a finite number between 0 and 1, got 1.5`},
		"twice an index": {`observed = { index_name = "by_status" }` + "\n" + `observed_indexes = { by_status = {} }`, `is a second observation of index by_status`},
		"sort-key report": {`observed = { key_attributes = 2 }`, `observed.key_attributes: is 2: the Contributor Insights reports list 2 key value\(s\) per contributor, but the table's partition key is one attribute`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unitSteps(t, resource.TestStep{Config: ordersDesign(tc.observed), ExpectError: expectError(tc.err)})
		})
	}
}

// liveStub serves a scenario that ends now on a stand-in the provider reaches through its endpoint and
// AWS_ENDPOINT_URL_CLOUDWATCH (so these tests do not run in parallel).
func liveStub(t *testing.T, scenario string) *awsstub.Server {
	t.Helper()
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	stub.Scenario(scenario, time.Now().UTC().Truncate(time.Minute))
	t.Setenv("AWS_ENDPOINT_URL_CLOUDWATCH", stub.URL)
	return stub
}

func liveTraffic(extra string) string {
	return fmt.Sprintf("\ndata \"dynamokeys_observed_traffic\" \"measured\" {\n  table_name = \"orders\"\n  %s\n}\n", extra)
}

// The live path against a stand-in that refuses what AWS refuses: the default 14-day window is read without
// one refused call, and the plan names the write-hot key of a read-heavy table in DK702 with its units/s and
// shard count.
func TestAccObservedTrafficLiveFourteenDays(t *testing.T) {
	stub := liveStub(t, awsstub.ScenarioReadHeavyWriteHotKey)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(stub.URL) + liveTraffic("") + ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"),
			ConfigStateChecks: []statecheck.StateCheck{
				expectMeasured("DK701:error", "DK702:error", "DK703:error", "DK704:warning"),
				expectMessages(`DK702 the busiest key "CUSTOMER#c-1001" of the table took 2,850 units/s at its busiest minute .*95% of a partition's 3,000 units/s .*` +
					`the key needs 2 shards and the table is written with 1`),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("window").AtMapKey("datapoints"),
					knownvalue.Int64Exact(14*24*60)),
			},
		}},
	})
	if refused := stub.Refused(); len(refused) > 0 {
		t.Errorf("the stand-in refused %d calls, e.g. %s", len(refused), refused[0])
	}
	counts := map[string]int{}
	for _, r := range stub.Requests() {
		counts[r.Operation]++
	}
	// Each read: 14 day-long reports of each of the two rules.
	if counts["GetInsightRuleReport"] == 0 || counts["GetInsightRuleReport"]%28 != 0 {
		t.Errorf("requests = %v", counts)
	}
}

func TestAccObservedTrafficLiveVerdicts(t *testing.T) {
	for name, tc := range map[string]struct {
		scenario, extra, observed string
		checks                    []statecheck.StateCheck
		warning                   string
	}{
		"calm table": {awsstub.ScenarioCalm, `lookback = "2d"`, "observed = data.dynamokeys_observed_traffic.measured.observed",
			append(expectRules(true), expectMeasured()), ""},
		"key-range throttling with Contributor Insights off": {awsstub.ScenarioKeyRangeThrottled, `lookback = "2d"`,
			"observed = data.dynamokeys_observed_traffic.measured.observed",
			[]statecheck.StateCheck{expectMeasured("DK701:warning", "DK704:warning"),
				expectMessages(`DK704 the table was throttled on key range .*Contributor Insights is off, so the key is not named`)}, ""},
		"hot index": {awsstub.ScenarioHotIndex, "lookback = \"1d\"\n  index_name = \"by_status\"",
			"observed_indexes = { by_status = data.dynamokeys_observed_traffic.measured.observed }",
			[]statecheck.StateCheck{expectMeasured("DK701:error", "DK702:error"),
				expectMessages(`DK702 the busiest key "shipped" of index by_status took 6,040 units/s`)}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			stub := liveStub(t, tc.scenario)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:            providerBlock(stub.URL) + liveTraffic(tc.extra) + ordersDesign(tc.observed),
					ConfigStateChecks: tc.checks,
				}},
			})
			if refused := stub.Refused(); len(refused) > 0 {
				t.Errorf("the stand-in refused %d calls, e.g. %s", len(refused), refused[0])
			}
		})
	}
}

// Contributor Insights FAILED, or a denied optional call, leaves the metrics: the read succeeds with a
// warning on the attribute, which an enforced design that fails on the metrics alone shows.
func TestAccObservedTrafficLiveDegrades(t *testing.T) {
	for name, tc := range map[string]struct {
		setup func(*awsstub.Server)
		err   string
	}{
		"insights failed": {func(s *awsstub.Server) {
			s.Insights["orders"] = awsstub.Insights{Status: "FAILED", Failure: [2]string{"LimitExceededException", "too many rules"}}
		}, `Warning: Contributor Insights failed.*is FAILED \(LimitExceededException: too many rules\)`},
		"report denied": {func(s *awsstub.Server) { s.Denied["GetInsightRuleReport"] = true },
			`Warning: Permission missing for Contributor Insights.*may not call cloudwatch:GetInsightRuleReport`},
		"describe denied": {func(s *awsstub.Server) { s.Denied["DescribeContributorInsights"] = true },
			`Warning: Permission missing for Contributor Insights.*may not call dynamodb:DescribeContributorInsights`},
		"insights enabling": {func(s *awsstub.Server) { s.Insights["orders"] = awsstub.Insights{Status: "ENABLING"} },
			`Warning: Contributor Insights is enabling`},
	} {
		t.Run(name, func(t *testing.T) {
			stub := liveStub(t, awsstub.ScenarioReadHeavyWriteHotKey)
			tc.setup(stub)
			// The metrics alone still fail an enforced plan (DK701: 1,500 WCU/s against the declared 500), and
			// the error output carries the read's warnings.
			design := strings.Replace(ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"), "enforce = false", "", 1)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      providerBlock(stub.URL) + liveTraffic(`lookback = "1d"`) + design,
					ExpectError: regexp.MustCompile(`(?s)` + tc.err),
				}},
			})
		})
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
