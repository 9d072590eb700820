package dynamo

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/awsstub"
)

func trafficFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "observed-traffic", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testMetricNames = map[string]string{
	"consumed_write_capacity_units": "ConsumedWriteCapacityUnits", "consumed_read_capacity_units": "ConsumedReadCapacityUnits",
	"write_throttle_events": "WriteThrottleEvents", "read_throttle_events": "ReadThrottleEvents",
}

const (
	pkcRule = "DynamoDBContributorInsights-PKC-orders-1764500000000"
	pktRule = "DynamoDBContributorInsights-PKT-orders-1764500000000"
)

func stubClient(stub *awsstub.Server) *Client {
	return NewClient(Config{Region: "us-east-1", Endpoint: stub.URL, CloudWatchEndpoint: stub.URL, AccessKey: "test", SecretKey: "test"})
}

var window = TrafficQuery{Start: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), MetricNames: testMetricNames}

func TestExportTrafficPagesAndAsksForTheQueryFile(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.PageSize = 50
	stub.Insights["orders"] = awsstub.Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS",
		Rules: []string{pkcRule, pktRule, "DynamoDBContributorInsights-SKC-orders-1764500000000", "DynamoDBContributorInsights-SKT-orders-1764500000000"}}
	stub.MetricData["orders"] = trafficFixture(t, "hot-metric-data.json")
	stub.Reports[pkcRule] = trafficFixture(t, "hot-accessed-keys.json")
	stub.Reports[pktRule] = trafficFixture(t, "hot-throttled-keys.json")

	q := window
	q.TableName = "orders"
	got, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}

	reqs := stub.Requests()
	var ops []string
	for _, r := range reqs {
		ops = append(ops, r.Operation)
	}
	// 180 minutes at 50 datapoints a page: four pages, then the PKC and PKT reports (not SKC/SKT).
	want := []string{"DescribeContributorInsights", "GetMetricData", "GetMetricData", "GetMetricData", "GetMetricData", "GetInsightRuleReport", "GetInsightRuleReport"}
	if !reflect.DeepEqual(ops, want) {
		t.Fatalf("operations = %v, want %v", ops, want)
	}
	if !reflect.DeepEqual(reqs[0].Input, map[string]any{"TableName": "orders"}) {
		t.Errorf("DescribeContributorInsights input = %v", reqs[0].Input)
	}
	for i, r := range reqs[1:5] {
		if tok, want := r.Input["NextToken"], []any{nil, "50", "100", "150"}[i]; tok != want {
			t.Errorf("page %d NextToken = %v, want %v", i, tok, want)
		}
		if !as[time.Time](t, r.Input["StartTime"]).Equal(q.Start) || !as[time.Time](t, r.Input["EndTime"]).Equal(q.End) {
			t.Errorf("page %d window = %v..%v", i, r.Input["StartTime"], r.Input["EndTime"])
		}
		queries := as[[]any](t, r.Input["MetricDataQueries"])
		if len(queries) != 4 {
			t.Fatalf("page %d asks %d queries", i, len(queries))
		}
		for _, qv := range queries {
			qm := as[map[string]any](t, qv)
			id := as[string](t, qm["Id"])
			wantQuery := map[string]any{"Id": id, "ReturnData": true, "MetricStat": map[string]any{"Period": 60.0, "Stat": "Sum",
				"Metric": map[string]any{"Namespace": "AWS/DynamoDB", "MetricName": testMetricNames[id],
					"Dimensions": []any{map[string]any{"Name": "TableName", "Value": "orders"}}}}}
			if !reflect.DeepEqual(qm, wantQuery) {
				t.Errorf("query = %v\nwant %v", qm, wantQuery)
			}
		}
	}
	for i, rule := range []string{pkcRule, pktRule} {
		in := reqs[5+i].Input
		if in["RuleName"] != rule || in["Period"] != 60.0 || in["MaxContributorCount"] != 100.0 || in["OrderBy"] != "Sum" {
			t.Errorf("GetInsightRuleReport input = %v", in)
		}
	}

	// Every datapoint of the export comes back, one result per query and page, as the AWS CLI joins them.
	var export struct {
		MetricDataResults []struct {
			ID         string    `json:"Id"`
			Timestamps []string  `json:"Timestamps"`
			Values     []float64 `json:"Values"`
			StatusCode string    `json:"StatusCode"`
		} `json:"MetricDataResults"`
	}
	if err := json.Unmarshal(got.MetricData, &export); err != nil {
		t.Fatal(err)
	}
	points, peak, statuses := map[string]int{}, map[string]float64{}, map[string][]string{}
	for _, r := range export.MetricDataResults {
		if len(r.Timestamps) != len(r.Values) {
			t.Errorf("%s: %d timestamps, %d values", r.ID, len(r.Timestamps), len(r.Values))
		}
		for _, ts := range r.Timestamps {
			if _, err := time.Parse(time.RFC3339, ts); err != nil {
				t.Errorf("timestamp %q: %v", ts, err)
			}
		}
		points[r.ID] += len(r.Values)
		for _, v := range r.Values {
			peak[r.ID] = max(peak[r.ID], v)
		}
		statuses[r.ID] = append(statuses[r.ID], r.StatusCode)
	}
	if points["consumed_write_capacity_units"] != 180 || peak["consumed_write_capacity_units"] != 150000 || peak["consumed_read_capacity_units"] != 180000 {
		t.Errorf("points %v, peaks %v", points, peak)
	}
	if !reflect.DeepEqual(statuses["consumed_write_capacity_units"], []string{"PartialData", "PartialData", "PartialData", "Complete"}) {
		t.Errorf("statuses = %v", statuses["consumed_write_capacity_units"])
	}
	assertSameJSON(t, got.AccessedKeysReport, trafficFixture(t, "hot-accessed-keys.json"))
	assertSameJSON(t, got.ThrottledKeysReport, trafficFixture(t, "hot-throttled-keys.json"))
	if got.InsightsStatus != "ENABLED" || got.InsightsMode != "ACCESSED_AND_THROTTLED_KEYS" {
		t.Errorf("insights = %s %s", got.InsightsStatus, got.InsightsMode)
	}
}

// assertSameJSON compares a report as the API answered it with the export it was served from: the same
// members and values, timestamps at the same instant.
func assertSameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	normalizeTimes(g)
	normalizeTimes(w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("report =\n%v\nwant\n%v", g, w)
	}
}

func normalizeTimes(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil { // the API's JSON carries absent members as null, the CLI leaves them out
				delete(v, k)
				continue
			}
			if s, ok := e.(string); ok && k == "Timestamp" {
				if ts, err := time.Parse(time.RFC3339, s); err == nil {
					v[k] = ts.UTC().Format(time.RFC3339)
				}
			}
			normalizeTimes(e)
		}
	case []any:
		for _, e := range v {
			normalizeTimes(e)
		}
	}
}

func TestExportTrafficOfAnIndexWithoutInsights(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	stub.Insights["orders/by_status"] = awsstub.Insights{Status: "DISABLED"}
	stub.MetricData["orders/by_status"] = trafficFixture(t, "index-hot-metric-data.json")
	q := window
	q.TableName, q.IndexName = "orders", "by_status"
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
}

func TestExportTrafficOfAMissingTable(t *testing.T) {
	stub := awsstub.Start()
	defer stub.Close()
	q := window
	q.TableName = "nope"
	_, err := stubClient(stub).ExportTraffic(t.Context(), q)
	if !errors.Is(err, ErrTableNotFound) {
		t.Errorf("err = %v, want ErrTableNotFound", err)
	}
}

func TestReportPeriod(t *testing.T) {
	for window, want := range map[time.Duration]int32{3 * time.Hour: 60, 24 * time.Hour: 60, 2 * 24 * time.Hour: 300, 14 * 24 * time.Hour: 3600, 100 * 24 * time.Hour: 86400} {
		if got := reportPeriod(window); got != want {
			t.Errorf("reportPeriod(%s) = %d, want %d", window, got, want)
		}
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
