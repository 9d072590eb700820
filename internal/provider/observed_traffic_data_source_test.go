package provider

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
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

// scenarioAverages are a scenario's consumed write and read units per second over [start, end), computed
// from the workload it generates: the sum of its per-minute units over the window's seconds.
func scenarioAverages(scenario string, start, end time.Time) (writes, reads float64) {
	stub := &awsstub.Server{Now: func() time.Time { return end }, Insights: map[string]awsstub.Insights{}, Workloads: map[string]*awsstub.Workload{}}
	w := stub.Workloads[stub.Scenario(scenario, end)]
	seconds := end.Sub(start).Seconds()
	return w.MetricTotal("ConsumedWriteCapacityUnits", start, end) / seconds, w.MetricTotal("ConsumedReadCapacityUnits", start, end) / seconds
}

func TestObservedTrafficOfflineFigures(t *testing.T) {
	t.Parallel()
	ds := "data.dynamokeys_observed_traffic.measured"
	num := func(f float64) knownvalue.Check { return knownvalue.Float64Exact(f) }
	avgWrites, avgReads := scenarioAverages(awsstub.ScenarioReadHeavyWriteHotKey, exportEnd.Add(-26*time.Hour), exportEnd)
	// The example exports plan clean against the example's design, in the same plan (each plan of these
	// exports costs the CLI most of a second).
	calm := fmt.Sprintf(`
data "dynamokeys_observed_traffic" "calm" {
  table_name            = "orders"
  metric_data           = file(%q)
  accessed_keys_report  = file(%q)
  throttled_keys_report = file(%q)
}
`, trafficFixture(t, "calm-metric-data.json"), trafficFixture(t, "calm-accessed-keys.json"), trafficFixture(t, "calm-throttled-keys.json")) +
		ordersDesign("observed = data.dynamokeys_observed_traffic.calm.observed")
	unitSteps(t, resource.TestStep{
		Config: scenarioExports(t, awsstub.ScenarioReadHeavyWriteHotKey, 26, "") + calm,
		ConfigStateChecks: append(append(expectRules(true), expectMeasured()), []statecheck.StateCheck{
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("traffic"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"writes_per_second": num(1500), "reads_per_second": num(9000), "hot_key_units_per_second": num(2850), "hot_key_unit_share": num(2850.0 / 13500),
				// The window's consumed units over its length, as the workload generated them.
				"average_writes_per_second": closeTo(avgWrites), "average_reads_per_second": closeTo(avgReads),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("top_keys").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"key": knownvalue.StringExact("CUSTOMER#c-1001"), "units_per_second": num(2850), "throttle_events": num(28800),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("throttle_events").AtMapKey("write_key_range"), num(28800)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("throttle_events").AtMapKey("read_account_limit"), num(0)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("key_attributes"), num(1)),
			// Offline there is no table to describe: the item figures are null.
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("item_count"), knownvalue.Null()),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("table_size_bytes"), knownvalue.Null()),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("window"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"start": knownvalue.StringExact("2026-11-29T10:00:00Z"), "end": knownvalue.StringExact("2026-11-30T12:00:00Z"), "datapoints": num(26 * 60),
			})),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(
				`busiest key: 2,850 units/s at its busiest minute \(units = 3 × WCU \+ RCU; a partition serves 3,000\), 21.1% of the table's units`))),
		}...),
	})
}

// TestObservedTrafficBadInput: each kind of bad input fails the read with an error on its attribute. The
// parser's every case is unit-tested in internal/observed; these take each attribute and mode once.
func TestObservedTrafficBadInput(t *testing.T) {
	t.Parallel()
	calm := trafficFixture(t, "calm-metric-data.json")
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	tooOld := time.Now().Add(-16 * 24 * time.Hour).UTC().Format(time.RFC3339)
	var cases []errorCase
	for name, tc := range map[string]struct{ body, err string }{
		"malformed JSON":  {`metric_data = "{\"MetricDataResults\": ["`, `metric_data: is not valid JSON`},
		"another command": {`metric_data = jsonencode({ TableNames = ["orders"] })`, "metric_data: is not the output of `aws cloudwatch get-metric-data`"},
		"NaN datapoint": {`metric_data = "{\"MetricDataResults\": [{\"Id\": \"consumed_write_capacity_units\", \"Timestamps\": [\"2026-11-30T11:00:00Z\"], \"Values\": [NaN]}]}"`,
			`metric_data: holds NaN or Infinity`},
		"null datapoint": {`metric_data = "{\"MetricDataResults\": [{\"Id\": \"consumed_write_capacity_units\", \"Timestamps\": [\"2026-11-30T11:00:00Z\"], \"Values\": [null]}]}"`,
			`metric_data: MetricDataResults\[0\] \(consumed_write_capacity_units\) Values\[0\] is null`},
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
		"end in the future":    {`table_name = "orders"` + "\n" + fmt.Sprintf("end = %q", future), `end = .*CloudWatch has no datapoints for the future`},
		"end too old":          {`table_name = "orders"` + "\n" + fmt.Sprintf("end = %q", tooOld), `End too old for one-minute data.*more than 15 days ago: CloudWatch keeps one-minute datapoints for 15 days`},
	} {
		cases = append(cases, errorCaseOf(name, fmt.Sprintf("data \"dynamokeys_observed_traffic\" %q {\n  %s\n}\n", caseLabel(len(cases)), tc.body), tc.err))
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}

// TestObservedTrafficInputErrorsOnTheDesign plans the bad observations of a design together (expectEachError).
func TestObservedTrafficInputErrorsOnTheDesign(t *testing.T) {
	t.Parallel()
	var cases []errorCase
	for name, tc := range map[string]struct{ observed, err string }{
		"index elsewhere": {`observed_indexes = { by_status = { index_name = "by_region", traffic = { writes_per_second = 10 } } }`,
			`observed_indexes.by_status.index_name: is the observation of index "by_region", but it is given for index "by_status"`},
		"share above 1":   {`observed = { traffic = { hot_key_unit_share = 1.5 } }`, `observed.traffic.hot_key_unit_share: must be a finite number between 0 and 1, got 1.5`},
		"twice an index":  {`observed = { index_name = "by_status" }` + "\n" + `observed_indexes = { by_status = {} }`, `is a second observation of index by_status`},
		"sort-key report": {`observed = { key_attributes = 2 }`, `observed.key_attributes: is 2: the Contributor Insights reports list 2 key value\(s\) per contributor, but the table's partition key is one attribute`},
	} {
		// The design alone (its outputs name data.dynamokeys_keydesign.orders), labelled for the batch.
		design, _, _ := strings.Cut(ordersDesign(tc.observed), "\noutput ")
		design = strings.Replace(design, `"dynamokeys_keydesign" "orders"`, fmt.Sprintf(`"dynamokeys_keydesign" %q`, caseLabel(len(cases))), 1)
		cases = append(cases, errorCaseOf(name, design, tc.err))
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}

// liveStub serves a scenario that ends now on a stand-in the provider reaches through its endpoint and
// cloudwatch_endpoint (liveProviderBlock).
// The window ends at the minute the scenario ends, pinned as the docs recommend, so that every read of the
// test reads the same window.
func liveStub(t *testing.T, scenario string) (*awsstub.Server, string) {
	t.Helper()
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	end := time.Now().UTC().Truncate(time.Minute)
	stub.Scenario(scenario, end)
	return stub, end.Format(time.RFC3339)
}

// liveProviderBlock points the provider's DynamoDB and CloudWatch clients at the stand-in, which answers
// both: through the provider block, not the environment, so the live tests run in parallel.
func liveProviderBlock(url string) string {
	return providerBlockWith(url, fmt.Sprintf("cloudwatch_endpoint = %q", url))
}

func liveTraffic(end, extra string) string {
	return fmt.Sprintf("\ndata \"dynamokeys_observed_traffic\" \"measured\" {\n  table_name = \"orders\"\n  end        = %q\n  %s\n}\n", end, extra)
}

// The live path against a stand-in that refuses what AWS refuses: the default 14-day window is read without
// one refused call, and the plan names the write-hot key of a read-heavy table in DK702 with its units/s and
// shard count.
func TestAccObservedTrafficLiveFourteenDays(t *testing.T) {
	t.Parallel()
	stub, end := liveStub(t, awsstub.ScenarioReadHeavyWriteHotKey)
	endTime, err := time.Parse(time.RFC3339, end)
	if err != nil {
		t.Fatal(err)
	}
	avgWrites, avgReads := scenarioAverages(awsstub.ScenarioReadHeavyWriteHotKey, endTime.Add(-14*24*time.Hour), endTime)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: liveProviderBlock(stub.URL) + liveTraffic(end, "") + ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"),
			ConfigStateChecks: []statecheck.StateCheck{
				expectMeasured("DK701:error", "DK702:error", "DK703:error", "DK704:warning"),
				expectMessages(`DK702 the busiest key "CUSTOMER#c-1001" of the table took 2,850 units/s at its busiest minute .*95% of a partition's 3,000 units/s .*` +
					`the key needs 2 shards and the table is written with 1`),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("window").AtMapKey("datapoints"),
					knownvalue.Int64Exact(14*24*60)),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("average_writes_per_second"),
					closeTo(avgWrites)),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("average_reads_per_second"),
					closeTo(avgReads)),
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

// A live read also reports the table's item count and size as DescribeTable answers them (the figures a plan's
// change of the table is sized by); credentials that may not call DescribeTable leave them null with a
// warning naming the action, and the metrics are read all the same.
func TestAccObservedTrafficLiveItemCount(t *testing.T) {
	t.Parallel()
	ds := "data.dynamokeys_observed_traffic.measured"
	// One TestCase, a step (and a stand-in) per case: the steps hold data sources and outputs only.
	stubs := map[string]*awsstub.Server{}
	var steps []resource.TestStep
	for _, name := range []string{"described", "denied"} {
		denied := name == "denied"
		stub, end := liveStub(t, awsstub.ScenarioCalm)
		stubs[name] = stub
		stub.Tables["orders"] = awsstub.TableSize{ItemCount: 2000000, TableSizeBytes: 3000000000}
		stub.Denied["DescribeTable"] = denied
		var count, size knownvalue.Check = knownvalue.Int64Exact(2000000), knownvalue.Int64Exact(3000000000)
		if denied {
			count, size = knownvalue.Null(), knownvalue.Null()
		}
		steps = append(steps, resource.TestStep{
			Config: liveProviderBlock(stub.URL) + liveTraffic(end, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("item_count"), count),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("table_size_bytes"), size),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("complete"), knownvalue.Bool(true)),
			},
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	for name, stub := range stubs {
		described := 0
		for _, r := range stub.Requests() {
			if r.Operation == "DescribeTable" && r.Input["TableName"] == "orders" {
				described++
			}
		}
		if described == 0 {
			t.Errorf("%s: the live read did not describe table orders: %v", name, stub.Requests())
		}
	}
}

// A live read averages the window's units over the window it read, idle minutes included: a table busy for
// one minute in 14 days (CloudWatch publishes no datapoint for the idle ones) averages far below its peak.
func TestAccObservedTrafficLiveAverageOverTheWindowRead(t *testing.T) {
	t.Parallel()
	end := time.Now().UTC().Truncate(time.Minute)
	// One TestCase, a step (and a stand-in) per window: the steps hold data sources and outputs only.
	var steps []resource.TestStep
	for _, tc := range []struct {
		lookback string
		window   time.Duration
	}{{"", 14 * 24 * time.Hour}, {`lookback = "36h"`, 36 * time.Hour}} { // the default 14 days, 36 hours
		// One minute of 100 WCU/s and 30 RCU/s, three hours before the end.
		w := &awsstub.Workload{Start: end.Add(-3 * time.Hour), Minutes: 1, KeyLabels: []string{"pk"},
			Keys: []awsstub.KeyLoad{{Key: []string{"CUSTOMER#1"}, WCU: awsstub.Constant(100), RCU: awsstub.Constant(30)}}}
		start := end.Add(-tc.window)
		traffic := tfjsonpath.New("observed").AtMapKey("traffic")
		ds := "data.dynamokeys_observed_traffic.measured"
		stub := awsstub.Start()
		t.Cleanup(stub.Close)
		stub.Insights["orders"] = awsstub.Insights{Status: "DISABLED"}
		stub.Workloads["orders"] = w
		steps = append(steps, resource.TestStep{
			Config: liveProviderBlock(stub.URL) + liveTraffic(end.Format(time.RFC3339), tc.lookback),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, traffic.AtMapKey("writes_per_second"), knownvalue.Float64Exact(100)),
				statecheck.ExpectKnownValue(ds, traffic.AtMapKey("average_writes_per_second"),
					closeTo(w.MetricTotal("ConsumedWriteCapacityUnits", start, end)/tc.window.Seconds())),
				statecheck.ExpectKnownValue(ds, traffic.AtMapKey("average_reads_per_second"),
					closeTo(w.MetricTotal("ConsumedReadCapacityUnits", start, end)/tc.window.Seconds())),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("window"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"start": knownvalue.StringExact(start.Format(time.RFC3339)), "end": knownvalue.StringExact(end.Format(time.RFC3339)),
					"datapoints": knownvalue.Int64Exact(1),
				})),
				// CloudWatch answered Complete: the idle minutes are not gaps.
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("observed").AtMapKey("complete"), knownvalue.Bool(true)),
			},
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// A live read takes the reports' period it asked for: a key read only every 5 minutes (a batch job) leaves
// datapoints 300 seconds apart, as a coarser period would, but its busiest minute is still 5,000 units/s,
// over a partition's 3,000, and DK702 says so.
func TestAccObservedTrafficLiveSparseHotKey(t *testing.T) {
	t.Parallel()
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	end := time.Now().UTC().Truncate(time.Minute)
	everyFiveMinutes := func(t time.Time) float64 {
		if t.Minute()%5 == 0 {
			return 5000
		}
		return 0
	}
	stub.Workloads["orders"] = &awsstub.Workload{Start: end.Add(-2 * 24 * time.Hour), Minutes: 2 * 24 * 60, KeyLabels: []string{"pk"},
		Keys: []awsstub.KeyLoad{{Key: []string{"CUSTOMER#batch"}, RCU: everyFiveMinutes}}}
	stub.Insights["orders"] = awsstub.Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS",
		Rules: []string{awsstub.OrdersAccessedRule, awsstub.OrdersThrottledRule}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: liveProviderBlock(stub.URL) + liveTraffic(end.Format(time.RFC3339), `lookback = "1d"`) +
				ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("hot_key_units_per_second"),
					knownvalue.Float64Exact(5000)),
				expectMessages(`DK702 the busiest key "CUSTOMER#batch" of the table took 5,000 units/s at its busiest minute`),
			},
		}},
	})
}

func TestAccObservedTrafficLiveVerdicts(t *testing.T) {
	t.Parallel()
	// One TestCase, a step (and a stand-in) per verdict: the steps hold data sources and outputs only.
	stubs := map[string]*awsstub.Server{}
	var steps []resource.TestStep
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
		stub, end := liveStub(t, tc.scenario)
		stubs[name] = stub
		steps = append(steps, resource.TestStep{
			Config:            liveProviderBlock(stub.URL) + liveTraffic(end, tc.extra) + ordersDesign(tc.observed),
			ConfigStateChecks: tc.checks,
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	for name, stub := range stubs {
		if refused := stub.Refused(); len(refused) > 0 {
			t.Errorf("%s: the stand-in refused %d calls, e.g. %s", name, len(refused), refused[0])
		}
	}
}

// Contributor Insights FAILED or ENABLING, or a denied optional call, leaves the metrics: the read succeeds
// without key figures (the warnings it gives are TestInsightsWarnings').
func TestAccObservedTrafficLiveDegrades(t *testing.T) {
	t.Parallel()
	// One TestCase, a step (and a stand-in) per case: the steps hold data sources and outputs only.
	var steps []resource.TestStep
	for _, setup := range map[string]func(*awsstub.Server){
		"insights failed": func(s *awsstub.Server) {
			s.Insights["orders"] = awsstub.Insights{Status: "FAILED", Failure: [2]string{"LimitExceededException", "too many rules"}}
		},
		"report denied":     func(s *awsstub.Server) { s.Denied["GetInsightRuleReport"] = true },
		"describe denied":   func(s *awsstub.Server) { s.Denied["DescribeContributorInsights"] = true },
		"insights enabling": func(s *awsstub.Server) { s.Insights["orders"] = awsstub.Insights{Status: "ENABLING"} },
	} {
		stub, end := liveStub(t, awsstub.ScenarioReadHeavyWriteHotKey)
		setup(stub)
		steps = append(steps, resource.TestStep{
			Config: liveProviderBlock(stub.URL) + liveTraffic(end, `lookback = "1d"`) + ordersDesign("observed = data.dynamokeys_observed_traffic.measured.observed"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("top_keys"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.dynamokeys_observed_traffic.measured", tfjsonpath.New("observed").AtMapKey("traffic").AtMapKey("writes_per_second"),
					knownvalue.Float64Exact(1500)),
				// Key-range throttling still shows without the keys.
				expectMessages(`DK704 the table was throttled on key range .*Contributor Insights is off, so the key is not named`),
			},
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

func TestInsightsWarnings(t *testing.T) {
	t.Parallel()
	table := observed.Export{TableName: "orders"}
	for name, tc := range map[string]struct {
		export observed.Export
		live   dynamo.TrafficExport
		want   string
	}{
		"failed": {table, dynamo.TrafficExport{InsightsStatus: "FAILED", InsightsFailure: "LimitExceededException: too many rules"},
			`table_name: Contributor Insights failed: Contributor Insights of table orders is FAILED \(LimitExceededException: too many rules\)`},
		"enabling": {table, dynamo.TrafficExport{InsightsStatus: "ENABLING"}, `table_name: Contributor Insights is enabling: Contributor Insights of table orders is ENABLING`},
		"disabling": {observed.Export{TableName: "orders", IndexName: "by_status"}, dynamo.TrafficExport{InsightsStatus: "DISABLING"},
			`index_name: Contributor Insights is disabling: Contributor Insights of index by_status of table orders is DISABLING`},
		"off": {table, dynamo.TrafficExport{InsightsStatus: "DISABLED"}, `table_name: Contributor Insights is off: .*key-range throttling still shows`},
		"throttled only": {table, dynamo.TrafficExport{InsightsStatus: "ENABLED", InsightsMode: "THROTTLED_KEYS", ThrottledKeysReport: []byte("{}")},
			`table_name: Contributor Insights counts throttled keys only: .*runs in mode THROTTLED_KEYS`},
		"denied": {table, dynamo.TrafficExport{Denied: []string{dynamo.ActionGetInsightRuleReport}},
			`table_name: Permission missing for Contributor Insights: The credentials may not call cloudwatch:GetInsightRuleReport`},
	} {
		var got []string
		for _, d := range insightsWarnings(tc.export, &tc.live) {
			p, ok := d.(diag.DiagnosticWithPath)
			if !ok {
				t.Fatalf("%s: a warning without an attribute: %v", name, d)
			}
			got = append(got, fmt.Sprintf("%s: %s: %s", p.Path(), d.Summary(), d.Detail()))
		}
		if len(got) != 1 || !regexp.MustCompile(tc.want).MatchString(got[0]) {
			t.Errorf("%s: warnings = %q, want %q", name, got, tc.want)
		}
	}
}

// The window ends at a whole minute whether end is given or not: the metrics are one-minute sums.
func TestLiveWindowEndsAtAMinute(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 34, 56, 789, time.UTC)
	for name, tc := range map[string]struct {
		end, lookback string
		start, want   time.Time
	}{
		"default":              {"", "90m", time.Date(2026, 11, 30, 11, 4, 0, 0, time.UTC), time.Date(2026, 11, 30, 12, 34, 0, 0, time.UTC)},
		"pinned mid-minute":    {"2026-11-30T10:20:45Z", "1h", time.Date(2026, 11, 30, 9, 20, 0, 0, time.UTC), time.Date(2026, 11, 30, 10, 20, 0, 0, time.UTC)},
		"pinned with fraction": {"2026-11-29T23:59:59.999+01:00", "1d", time.Date(2026, 11, 28, 22, 59, 0, 0, time.UTC), time.Date(2026, 11, 29, 22, 59, 0, 0, time.UTC)},
		"pinned on the minute": {"2026-11-30T12:00:00Z", "2h", time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)},
	} {
		m := observedTrafficSourceModel{Lookback: types.StringValue(tc.lookback), End: types.StringNull()}
		if tc.end != "" {
			m.End = types.StringValue(tc.end)
		}
		start, end, diags := liveWindow(m, now)
		if diags.HasError() || !start.Equal(tc.start) || !end.Equal(tc.want) {
			t.Errorf("%s: window %s to %s (%v), want %s to %s", name, start, end, diags, tc.start, tc.want)
		}
	}
}

func TestAccObservedTrafficLiveTableNotFound(t *testing.T) {
	t.Parallel()
	stub := awsstub.Start()
	t.Cleanup(stub.Close)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      liveProviderBlock(stub.URL) + "data \"dynamokeys_observed_traffic\" \"x\" {\n  table_name = \"missing\"\n}\n",
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

// closeTo checks a number equals want up to float rounding (a sum's order may differ): a relative 1e-12.
type closeTo float64

func (want closeTo) CheckValue(v any) error {
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Errorf("expected a number, got %T", v)
	}
	f, err := n.Float64()
	if err != nil {
		return err
	}
	if math.Abs(f-float64(want)) > 1e-12*math.Abs(float64(want)) {
		return fmt.Errorf("%v is not %v", f, float64(want))
	}
	return nil
}

func (want closeTo) String() string { return fmt.Sprintf("%v", float64(want)) }
