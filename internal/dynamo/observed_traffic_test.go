package dynamo

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/awsstub"
)

func metricNames() map[string]string {
	names := map[string]string{}
	for _, q := range observed.MetricQueries {
		names[q.ID] = q.Metric
	}
	return names
}

const (
	// The table is named with "-PKC-" in it: only the rule names' prefixes tell the rules apart.
	ciTable = "orders-PKC-prod"
	pkcRule = "DynamoDBContributorInsights-PKC-orders-PKC-prod-1764500000000"
	pktRule = "DynamoDBContributorInsights-PKT-orders-PKC-prod-1764500000000"
	skcRule = "DynamoDBContributorInsights-SKC-orders-PKC-prod-1764500000000"
)

// now is the stand-in's clock in these tests.
var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func stubClient(stub *awsstub.Server) *Client {
	return NewClient(Config{Region: "us-east-1", Endpoint: stub.URL, CloudWatchEndpoint: stub.URL, AccessKey: "test", SecretKey: "test"})
}

// readHeavyWorkload is a read-heavy table (1,500 WCU/s and 9,000 RCU/s at its daily 11:00 peak, spread over
// 100 customers) whose busiest customer writes 950 WCU/s at the peak: 2,850 units/s. 300 requests a minute
// of that customer are throttled on key range at the peak.
func readHeavyWorkload() *awsstub.Workload {
	keys := awsstub.Spread(100, "CUSTOMER#c-", awsstub.DailyPeak(100, 550, 11), awsstub.DailyPeak(1000, 9000, 11))
	keys = append(keys, awsstub.KeyLoad{Key: []string{"CUSTOMER#c-hot"}, WCU: awsstub.DailyPeak(40, 950, 11), RCU: awsstub.Constant(0),
		Throttled: awsstub.DailyPeak(0, 300, 11)})
	return &awsstub.Workload{Start: now.Add(-15 * 24 * time.Hour), Minutes: 15 * 24 * 60, KeyLabels: []string{"pk"}, Keys: keys,
		Throttles: map[string]awsstub.Series{"WriteKeyRangeThroughputThrottleEvents": awsstub.DailyPeak(0, 300, 11)}}
}

func fourteenDays() TrafficQuery {
	return TrafficQuery{TableName: ciTable, Start: now.Add(-14 * 24 * time.Hour), End: now, MetricNames: metricNames()}
}

// TestExportTrafficReadsFourteenDaysWithinAWSLimits: the live reader reads a 14-day window from a stand-in
// that refuses what AWS refuses, without one refused call, and what it reads names the write-hot key of a
// read-heavy table with its units per second.
func TestExportTrafficReadsFourteenDaysWithinAWSLimits(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.Now = func() time.Time { return now }
	stub.Insights[ciTable] = awsstub.Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: []string{skcRule, pkcRule, pktRule}}
	stub.Workloads[ciTable] = readHeavyWorkload()

	q := fourteenDays()
	got, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if refused := stub.Refused(); len(refused) > 0 {
		t.Fatalf("the stand-in refused %d calls: %v", len(refused), refused)
	}

	// The verdict: the busiest key at its busiest minute, 3 × 950 WCU/s, is 95% of a partition.
	obs, _, errs := observed.Observe(observed.Export{TableName: ciTable, MetricData: got.MetricData, AccessedKeysReport: got.AccessedKeysReport,
		ThrottledKeysReport: got.ThrottledKeysReport})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if *obs.Traffic.HotKeyUnitsPerSecond != 2850 || obs.TopKeys[0].Key != "CUSTOMER#c-hot" || obs.TopKeys[0].ThrottleEvents != 14*60*300 {
		t.Errorf("busiest key %+v at %v units/s", obs.TopKeys[0], *obs.Traffic.HotKeyUnitsPerSecond)
	}
	if *obs.Traffic.WritesPerSecond != 1500 || *obs.Traffic.ReadsPerSecond != 9000 || *obs.ThrottleEvents.WriteKeyRange != 14*60*300 ||
		obs.Window.Datapoints != 14*24*60 || !obs.Complete {
		t.Errorf("traffic %v/%v, throttles %+v, window %+v", *obs.Traffic.WritesPerSecond, *obs.Traffic.ReadsPerSecond, obs.ThrottleEvents, obs.Window)
	}

	// The calls: one DescribeContributorInsights, GetMetricData paged by 100,800 datapoints, and a report of
	// at most 24 hours per day for the -PKC- and -PKT- rules (not -SKC-), which tile the window.
	reports := map[string][][2]time.Time{}
	metricPages := 0
	for _, r := range stub.Requests() {
		switch r.Operation {
		case "GetMetricData":
			metricPages++
			if len(as[[]any](t, r.Input["MetricDataQueries"])) != len(observed.MetricQueries) || r.Input["MaxDatapoints"] != float64(MaxMetricDatapoints) {
				t.Errorf("GetMetricData input: %d queries, MaxDatapoints %v", len(as[[]any](t, r.Input["MetricDataQueries"])), r.Input["MaxDatapoints"])
			}
		case "GetInsightRuleReport":
			in := r.Input
			rule := as[string](t, in["RuleName"])
			if in["Period"] != 60.0 || in["MaxContributorCount"] != 25.0 || in["OrderBy"] != "Maximum" ||
				!reflect.DeepEqual(in["Metrics"], []any{"MaxContributorValue", "Maximum", "UniqueContributors"}) {
				t.Errorf("GetInsightRuleReport input = %v", in)
			}
			reports[rule] = append(reports[rule], [2]time.Time{as[time.Time](t, in["StartTime"]), as[time.Time](t, in["EndTime"])})
		}
	}
	// 12 queries: 2 × 20,160 consumed-capacity minutes and 2 × 840 throttled minutes = 42,000 datapoints, one page.
	if metricPages != 1 {
		t.Errorf("GetMetricData pages = %d", metricPages)
	}
	if len(reports) != 2 || reports[skcRule] != nil {
		t.Fatalf("reports of rules %v", slices.Collect(mapKeys(reports)))
	}
	for rule, windows := range reports {
		slices.SortFunc(windows, func(a, b [2]time.Time) int { return a[0].Compare(b[0]) })
		if len(windows) != 14 || !windows[0][0].Equal(q.Start) || !windows[13][1].Equal(q.End) {
			t.Errorf("%s: %d windows %v", rule, len(windows), windows)
		}
		for i := 1; i < len(windows); i++ {
			if !windows[i][0].Equal(windows[i-1][1]) {
				t.Errorf("%s: window %d starts at %s, the last ended at %s", rule, i, windows[i][0], windows[i-1][1])
			}
		}
	}
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestStandInRefusesWhatAWSRefuses: the reader's tests mean something only if the stand-in refuses the calls
// AWS refuses.
func TestStandInRefusesWhatAWSRefuses(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.Now = func() time.Time { return now }
	stub.Insights[ciTable] = awsstub.Insights{Status: "ENABLED", Rules: []string{pkcRule}}
	stub.Workloads[ciTable] = readHeavyWorkload()
	cw, err := stubClient(stub).CloudWatch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	report := func(mod func(*cloudwatch.GetInsightRuleReportInput)) error {
		in := &cloudwatch.GetInsightRuleReportInput{RuleName: aws.String(pkcRule), StartTime: aws.Time(now.Add(-24 * time.Hour)), EndTime: aws.Time(now),
			Period: aws.Int32(60), MaxContributorCount: aws.Int32(25), Metrics: ReportMetrics, OrderBy: aws.String("Maximum")}
		mod(in)
		_, err := cw.GetInsightRuleReport(t.Context(), in)
		return err
	}
	if err := report(func(*cloudwatch.GetInsightRuleReportInput) {}); err != nil {
		t.Fatalf("a report within the limits: %v", err)
	}
	for name, tc := range map[string]struct {
		mod  func(*cloudwatch.GetInsightRuleReportInput)
		want string
	}{
		"100 contributors": {func(in *cloudwatch.GetInsightRuleReportInput) { in.MaxContributorCount = aws.Int32(100) }, "above 25"},
		"two days":         {func(in *cloudwatch.GetInsightRuleReportInput) { in.StartTime = aws.Time(now.Add(-48 * time.Hour)) }, "longer than 24h0m0s"},
		"16 days ago": {func(in *cloudwatch.GetInsightRuleReportInput) {
			in.StartTime, in.EndTime = aws.Time(now.Add(-16*24*time.Hour)), aws.Time(now.Add(-15*24*time.Hour-time.Hour))
		}, "more than 15 days ago"},
		"Sum":          {func(in *cloudwatch.GetInsightRuleReportInput) { in.Metrics = []string{"Sum", "MaxContributorValue"} }, `"Sum", which DynamoDB's`},
		"bad order by": {func(in *cloudwatch.GetInsightRuleReportInput) { in.OrderBy = aws.String("Average") }, `OrderBy "Average"`},
	} {
		if err := report(tc.mod); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
	metric := func(n int, mod func(*cwtypes.MetricDataQuery), maxPoints int32) error {
		var queries []cwtypes.MetricDataQuery
		for i := range n {
			q := cwtypes.MetricDataQuery{Id: aws.String(string(rune('a'+i%26)) + strings.Repeat("x", i/26)), MetricStat: &cwtypes.MetricStat{Period: aws.Int32(60), Stat: aws.String("Sum"),
				Metric: &cwtypes.Metric{Namespace: aws.String("AWS/DynamoDB"), MetricName: aws.String("ConsumedWriteCapacityUnits"),
					Dimensions: []cwtypes.Dimension{{Name: aws.String("TableName"), Value: aws.String(ciTable)}}}}}
			mod(&q)
			queries = append(queries, q)
		}
		_, err := cw.GetMetricData(t.Context(), &cloudwatch.GetMetricDataInput{StartTime: aws.Time(now.Add(-time.Hour)), EndTime: aws.Time(now),
			MetricDataQueries: queries, MaxDatapoints: aws.Int32(maxPoints)})
		return err
	}
	keep := func(*cwtypes.MetricDataQuery) {}
	for name, err := range map[string]error{
		"501 queries":   metric(501, keep, 100800),
		"datapoints":    metric(1, keep, 100801),
		"period 90":     metric(1, func(q *cwtypes.MetricDataQuery) { q.MetricStat.Period = aws.Int32(90) }, 100800),
		"statistic p99": metric(1, func(q *cwtypes.MetricDataQuery) { q.MetricStat.Stat = aws.String("Median") }, 100800),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := metric(500, keep, 100800); err != nil {
		t.Errorf("500 queries: %v", err)
	}
}

// TestExportTrafficWithoutPermissionForTheOptionalCalls: a denied DescribeContributorInsights or
// GetInsightRuleReport leaves the metrics and names the IAM action; a denied GetMetricData is an error.
func TestExportTrafficWithoutPermissionForTheOptionalCalls(t *testing.T) {
	for op, action := range map[string]string{"DescribeContributorInsights": ActionDescribeContributorInsights, "GetInsightRuleReport": ActionGetInsightRuleReport,
		"GetMetricData": ""} {
		t.Run(op, func(t *testing.T) {
			stub := awsstub.Start()
			defer stub.Close()
			stub.Now = func() time.Time { return now }
			stub.Insights[ciTable] = awsstub.Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: []string{pkcRule, pktRule}}
			stub.Workloads[ciTable] = readHeavyWorkload()
			stub.Denied[op] = true
			q := fourteenDays()
			q.Start = now.Add(-36 * time.Hour)
			got, err := stubClient(stub).ExportTraffic(t.Context(), q)
			if action == "" {
				if !IsAccessDenied(err) {
					t.Errorf("err = %v, want access denied", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Denied, []string{action}) || len(got.MetricData) == 0 || got.AccessedKeysReport != nil || got.ThrottledKeysReport != nil {
				t.Errorf("export = %+v", got)
			}
		})
	}
}

func TestExportTrafficReportsInsightsFailure(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.Now = func() time.Time { return now }
	stub.Insights[ciTable] = awsstub.Insights{Status: "FAILED", Failure: [2]string{"LimitExceededException", "Too many rules in the account"}}
	stub.Workloads[ciTable] = readHeavyWorkload()
	q := fourteenDays()
	q.Start = now.Add(-2 * time.Hour)
	got, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got.InsightsStatus != "FAILED" || got.InsightsFailure != "LimitExceededException: Too many rules in the account" || got.RuleNames != nil {
		t.Errorf("export = %+v", got)
	}
}

func TestExportTrafficOfAnIndexWithoutInsights(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.Now = func() time.Time { return now }
	stub.Insights["orders/by_status"] = awsstub.Insights{Status: "DISABLED"}
	stub.Workloads["orders/by_status"] = &awsstub.Workload{Start: now.Add(-3 * time.Hour), Minutes: 180, KeyLabels: []string{"status"},
		Keys: []awsstub.KeyLoad{{Key: []string{"shipped"}, WCU: awsstub.Constant(2000)}, {Key: []string{"new"}, WCU: awsstub.Constant(500), RCU: awsstub.Constant(100)}}}
	q := TrafficQuery{TableName: "orders", IndexName: "by_status", Start: now.Add(-3 * time.Hour), End: now, MetricNames: metricNames()}
	got, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	reqs := stub.Requests()
	if len(reqs) != 2 || reqs[1].Operation != "GetMetricData" {
		t.Fatalf("requests = %v", reqs)
	}
	if !reflect.DeepEqual(reqs[0].Input, map[string]any{"TableName": "orders", "IndexName": "by_status"}) {
		t.Errorf("DescribeContributorInsights input = %v", reqs[0].Input)
	}
	query := as[map[string]any](t, as[[]any](t, reqs[1].Input["MetricDataQueries"])[0])
	dims := as[map[string]any](t, as[map[string]any](t, query["MetricStat"])["Metric"])["Dimensions"]
	wantDims := []any{map[string]any{"Name": "TableName", "Value": "orders"}, map[string]any{"Name": "GlobalSecondaryIndexName", "Value": "by_status"}}
	if !reflect.DeepEqual(dims, wantDims) {
		t.Errorf("dimensions = %v", dims)
	}
	if got.InsightsStatus != "DISABLED" || got.RuleNames != nil || got.AccessedKeysReport != nil || len(got.MetricData) == 0 {
		t.Errorf("export = %+v", got)
	}
	obs, _, errs := observed.Observe(observed.Export{TableName: "orders", IndexName: "by_status", MetricData: got.MetricData})
	if len(errs) > 0 || *obs.Traffic.WritesPerSecond != 2500 || *obs.Traffic.ReadsPerSecond != 100 || obs.TopKeys != nil {
		t.Errorf("observation %+v, %v", obs, errs)
	}
}

func TestExportTrafficOfAMissingTable(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	q := fourteenDays()
	q.TableName = "nope"
	_, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if !errors.Is(err, ErrTableNotFound) {
		t.Errorf("err = %v, want ErrTableNotFound", err)
	}
}

func TestReportWindows(t *testing.T) {
	start := time.Date(2026, 11, 16, 12, 0, 30, 0, time.UTC)
	got := ReportWindows(start, start.Add(50*time.Hour))
	want := [][2]time.Time{{start, start.Add(24 * time.Hour)}, {start.Add(24 * time.Hour), start.Add(48 * time.Hour)}, {start.Add(48 * time.Hour), start.Add(50 * time.Hour)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("windows = %v", got)
	}
}

// as asserts a recorded request value's type.
func as[T any](t *testing.T, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%v is a %T", v, v)
	}
	return x
}

// TestExportTrafficJoinsEveryPage: a GetMetricData answer cut into pages (here 1,000 datapoints, all
// queries together) reads the same as one page.
func TestExportTrafficJoinsEveryPage(t *testing.T) {
	read := func(pageSize int) (*observed.Observation, int) {
		stub := awsstub.Start()
		defer stub.Close()
		stub.Now = func() time.Time { return now }
		stub.PageSize = pageSize
		stub.Insights[ciTable] = awsstub.Insights{Status: "DISABLED"}
		stub.Workloads[ciTable] = readHeavyWorkload()
		q := fourteenDays()
		q.Start = now.Add(-48 * time.Hour)
		got, err := stubClient(stub).ExportTraffic(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		obs, _, errs := observed.Observe(observed.Export{TableName: ciTable, MetricData: got.MetricData})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		pages := 0
		for _, r := range stub.Requests() {
			if r.Operation == "GetMetricData" {
				pages++
			}
		}
		return obs, pages
	}
	whole, onePage := read(0)
	paged, pages := read(1000)
	// 2 × 2,880 consumed-capacity minutes and 2 × 120 throttled minutes: 6,000 datapoints, 6 pages.
	if onePage != 1 || pages != 6 {
		t.Errorf("pages = %d and %d", onePage, pages)
	}
	if !reflect.DeepEqual(whole, paged) || !paged.Complete || paged.Window.Datapoints != 2*24*60 {
		t.Errorf("paged = %+v\nwhole = %+v", paged, whole)
	}
}
