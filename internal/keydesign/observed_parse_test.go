package keydesign

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture reads an export of examples/observed-traffic/fixtures, the files the docs' query file describes.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "observed-traffic", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestObserveTrafficHotFixture(t *testing.T) {
	obs, warnings, errs := ObserveTraffic(ObservedExport{TableName: "orders",
		MetricData: fixture(t, "hot-metric-data.json"), AccessedKeysReport: fixture(t, "hot-accessed-keys.json"),
		ThrottledKeysReport: fixture(t, "hot-throttled-keys.json")})
	if len(errs) > 0 || len(warnings) > 0 {
		t.Fatalf("errors %v, warnings %v", errs, warnings)
	}
	// The two pages of each query (PartialData, then Complete) join into one window of 180 minutes.
	if obs.Window != (ObservedWindow{Start: "2026-11-30T09:00:00Z", End: "2026-11-30T12:00:00Z", Datapoints: 180}) || !obs.Complete {
		t.Errorf("window = %+v, complete %v", obs.Window, obs.Complete)
	}
	if got := *obs.Traffic.WritesPerSecond; got != 2500 {
		t.Errorf("peak writes = %v, want 150,000 / 60 = 2,500", got)
	}
	if got := *obs.Traffic.ReadsPerSecond; got != 3000 {
		t.Errorf("peak reads = %v, want 3,000", got)
	}
	// At the busiest hour of the report, the busiest key made 2,500,000 of 5,000,000 requests.
	if got := *obs.Traffic.HotKeyShare; got != 0.5 {
		t.Errorf("hot key share = %v, want 0.5", got)
	}
	if *obs.ThrottleEvents.Write != 15243 || *obs.ThrottleEvents.Read != 0 {
		t.Errorf("throttles = %v / %v", *obs.ThrottleEvents.Write, *obs.ThrottleEvents.Read)
	}
	wantKeys := []string{"CUSTOMER#c-1001", "CUSTOMER#c-2002", "customer#c-77", "CUSTOMER#c-3003", "CUSTOMER#c-9009"}
	if len(obs.TopKeys) != len(wantKeys) {
		t.Fatalf("top keys = %+v", obs.TopKeys)
	}
	for i, k := range obs.TopKeys {
		if k.Key != wantKeys[i] {
			t.Errorf("top_keys[%d] = %q, want %q", i, k.Key, wantKeys[i])
		}
	}
	if k := obs.TopKeys[0]; *k.Share != 0.4 || k.ThrottleEvents != 10450 {
		t.Errorf("busiest key = %+v (share %v), want 4,200,000 / 10,500,000 = 0.4 and 10,450 throttles", k, *k.Share)
	}
	if k := obs.TopKeys[4]; k.Share != nil || k.ThrottleEvents != 40 {
		t.Errorf("throttled-only key = %+v, want no share and 40 throttles", k)
	}
}

func TestObserveTrafficCalmFixture(t *testing.T) {
	obs, warnings, errs := ObserveTraffic(ObservedExport{MetricData: fixture(t, "calm-metric-data.json"),
		AccessedKeysReport: fixture(t, "calm-accessed-keys.json"), ThrottledKeysReport: fixture(t, "calm-throttled-keys.json")})
	if len(errs) > 0 || len(warnings) > 0 {
		t.Fatalf("errors %v, warnings %v", errs, warnings)
	}
	if *obs.Traffic.WritesPerSecond != 300 || *obs.Traffic.ReadsPerSecond != 600 || *obs.Traffic.HotKeyShare != 0.02 {
		t.Errorf("traffic = %v / %v / %v", *obs.Traffic.WritesPerSecond, *obs.Traffic.ReadsPerSecond, *obs.Traffic.HotKeyShare)
	}
	if len(obs.TopKeys) != 10 || obs.TopKeys[0].ThrottleEvents != 0 || *obs.ThrottleEvents.Write != 0 {
		t.Errorf("top keys = %+v", obs.TopKeys)
	}
}

func TestObserveTrafficWithoutReports(t *testing.T) {
	obs, _, errs := ObserveTraffic(ObservedExport{MetricData: fixture(t, "calm-metric-data.json")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if obs.TopKeys != nil || obs.Traffic.HotKeyShare != nil {
		t.Errorf("without Contributor Insights the key figures are nil, got %+v, %v", obs.TopKeys, obs.Traffic.HotKeyShare)
	}
}

const oneResult = `{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Label": "ConsumedWriteCapacityUnits",
 "Timestamps": [%s], "Values": [%s], "StatusCode": "%s"}]}`

func metricData(timestamps, values, status string) []byte {
	return []byte(fmt.Sprintf(oneResult, timestamps, values, status))
}

// minutesOf returns n per-minute timestamps from 10:00 and n values v, every step minutes.
func minutesOf(n, step int, v string) (string, string) {
	var ts, vs []string
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for i := range n {
		ts = append(ts, `"`+start.Add(time.Duration(i*step)*time.Minute).Format("2006-01-02T15:04:05-07:00")+`"`)
		vs = append(vs, v)
	}
	return strings.Join(ts, ","), strings.Join(vs, ",")
}

func TestObserveTrafficBadInput(t *testing.T) {
	hourTS, hourValues := minutesOf(60, 1, "60")
	for name, tc := range map[string]struct {
		export    ObservedExport
		attr, msg string
	}{
		"malformed JSON":   {ObservedExport{MetricData: []byte(`{"MetricDataResults": [`)}, AttrMetricData, "is not valid JSON"},
		"not an object":    {ObservedExport{MetricData: []byte(`[1, 2]`)}, AttrMetricData, "is not a JSON object"},
		"empty":            {ObservedExport{MetricData: []byte(` `)}, AttrMetricData, "is empty"},
		"another command":  {ObservedExport{MetricData: []byte(`{"TableNames": ["orders"]}`)}, AttrMetricData, "is not the output of `aws cloudwatch get-metric-data`"},
		"report as metric": {ObservedExport{MetricData: fixture(t, "hot-accessed-keys.json")}, AttrMetricData, "looks like the output of get-insight-rule-report"},
		"length mismatch":  {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z"`, `1, 2`, "Complete")}, AttrMetricData, "has 1 Timestamps but 2 Values"},
		"negative value":   {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z"`, `-1`, "Complete")}, AttrMetricData, "Values[0] is -1"},
		"NaN value":        {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z"`, `NaN`, "Complete")}, AttrMetricData, "holds NaN or Infinity"},
		"huge value":       {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z"`, `1e999`, "Complete")}, AttrMetricData, "too large to be a finite number"},
		"bad timestamp":    {ObservedExport{MetricData: metricData(`"yesterday"`, `1`, "Complete")}, AttrMetricData, `"yesterday" is not an ISO 8601 timestamp`},
		"empty window":     {ObservedExport{MetricData: metricData(``, ``, "Complete")}, AttrMetricData, "the window is empty"},
		"forbidden":        {ObservedExport{MetricData: metricData(``, ``, "Forbidden")}, AttrMetricData, "lack cloudwatch:GetMetricData"},
		"unknown id": {ObservedExport{MetricData: []byte(`{"MetricDataResults": [{"Id": "m1", "Label": "Throughput", "Timestamps": [], "Values": [], "StatusCode": "Complete"}]}`)},
			AttrMetricData, `(Id "m1", Label "Throughput") matches no query`},
		"no consumed metric": {ObservedExport{MetricData: []byte(`{"MetricDataResults": [{"Id": "read_throttle_events", "Timestamps": [], "Values": [], "StatusCode": "Complete"}]}`)},
			AttrMetricData, "has neither consumed_write_capacity_units nor consumed_read_capacity_units"},
		"two documents": {ObservedExport{MetricData: []byte(`{"MetricDataResults": []} {}`)}, AttrMetricData, "more than one JSON document"},
		"report without contributors": {ObservedExport{MetricData: metricData(hourTS, hourValues, "Complete"), AccessedKeysReport: []byte(`{"KeyLabels": ["pk"], "AggregateValue": 0, "Contributors": []}`)},
			AttrAccessedKeysReport, "lists no contributors"},
		"metric data as report": {ObservedExport{MetricData: metricData(hourTS, hourValues, "Complete"), ThrottledKeysReport: fixture(t, "calm-metric-data.json")},
			AttrThrottledKeysReport, "looks like the output of get-metric-data"},
		"sort key report": {ObservedExport{MetricData: metricData(hourTS, hourValues, "Complete"),
			AccessedKeysReport: []byte(`{"KeyLabels": ["pk", "sk"], "AggregateValue": 5, "Contributors": [{"Keys": ["a", "b"], "ApproximateAggregateValue": 5}]}`)},
			AttrAccessedKeysReport, "not the partition-and-sort-key rule"},
		"negative contributor": {ObservedExport{MetricData: metricData(hourTS, hourValues, "Complete"),
			AccessedKeysReport: []byte(`{"KeyLabels": ["pk"], "AggregateValue": 5, "Contributors": [{"Keys": ["a"], "ApproximateAggregateValue": -5}]}`)},
			AttrAccessedKeysReport, "has Contributors[0] (a) with ApproximateAggregateValue -5"},
		"contributor without keys": {ObservedExport{MetricData: metricData(hourTS, hourValues, "Complete"),
			ThrottledKeysReport: []byte(`{"KeyLabels": ["pk"], "Contributors": [{"Keys": [], "ApproximateAggregateValue": 5}]}`)},
			AttrThrottledKeysReport, "has Contributors[0] without Keys"},
		"wrong type": {ObservedExport{MetricData: []byte(`{"MetricDataResults": "all"}`)}, AttrMetricData, "has string where a"},
	} {
		t.Run(name, func(t *testing.T) {
			obs, _, errs := ObserveTraffic(tc.export)
			if obs != nil || len(errs) != 1 {
				t.Fatalf("want one error and no observation, got %+v, %v", obs, errs)
			}
			if errs[0].Path.String() != tc.attr || !strings.Contains(errs[0].Message, tc.msg) {
				t.Errorf("error = %v, want on %s containing %q", errs[0], tc.attr, tc.msg)
			}
		})
	}
}

func TestObserveTrafficWarnings(t *testing.T) {
	hourTS, hourValues := minutesOf(60, 1, "60")
	coarseTS, coarseValues := minutesOf(12, 5, "300")
	for name, tc := range map[string]struct {
		export   ObservedExport
		msgs     []string
		complete bool
	}{
		"short window": {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z","2026-11-30T10:01:00Z"`, `60, 120`, "Complete")},
			[]string{"the window covers 2m0s, less than an hour"}, true},
		"partial data": {ObservedExport{MetricData: metricData(hourTS, hourValues, "PartialData")},
			[]string{"CloudWatch said PartialData"}, false},
		"gaps": {ObservedExport{MetricData: metricData(`"2026-11-30T10:00:00Z","2026-11-30T11:00:00Z","2026-11-30T11:03:00Z"`, `1, 2, 3`, "Complete")},
			[]string{"3 of 64 minutes have datapoints"}, false},
		"coarse period": {ObservedExport{MetricData: metricData(coarseTS, coarseValues, "Complete")}, []string{"looks made with Period 300"}, false},
	} {
		t.Run(name, func(t *testing.T) {
			obs, warnings, errs := ObserveTraffic(tc.export)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			text := ""
			for _, w := range warnings {
				if w.Path.String() != AttrMetricData {
					t.Errorf("warning on %s", w.Path)
				}
				text += w.Message + "\n"
			}
			for _, msg := range tc.msgs {
				if !strings.Contains(text, msg) {
					t.Errorf("warnings %q lack %q", text, msg)
				}
			}
			if obs.Complete != tc.complete {
				t.Errorf("complete = %v, want %v", obs.Complete, tc.complete)
			}
		})
	}
}
