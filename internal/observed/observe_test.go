package observed

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// metricData is a get-metric-data output of the query file's consumed-capacity queries: one write and one
// read Sum per minute from 10:00, and the key-range write throttles.
func metricData(writes, reads []float64, keyRange []float64) string {
	series := func(id string, values []float64) string {
		var ts, vs []string
		for i, v := range values {
			ts = append(ts, fmt.Sprintf(`"2026-11-30T10:%02d:00+00:00"`, i))
			vs = append(vs, fmt.Sprint(v))
		}
		return fmt.Sprintf(`{"Id": %q, "Label": "x", "Timestamps": [%s], "Values": [%s], "StatusCode": "Complete"}`, id, strings.Join(ts, ","), strings.Join(vs, ","))
	}
	return fmt.Sprintf(`{"MetricDataResults": [%s, %s, %s], "Messages": []}`, series(QueryConsumedWriteUnits, writes), series(QueryConsumedReadUnits, reads),
		series(QueryWriteKeyRangeThrottles, keyRange))
}

// report is a get-insight-rule-report output with one-minute datapoints from 10:00 at minute offset.
func report(labels string, offset int, maxValues []float64, contributors ...string) string {
	var dps []string
	for i, v := range maxValues {
		dps = append(dps, fmt.Sprintf(`{"Timestamp": "2026-11-30T10:%02d:00+00:00", "MaxContributorValue": %v, "UniqueContributors": 3}`, offset+i, v))
	}
	return fmt.Sprintf(`{"KeyLabels": [%s], "AggregationStatistic": "Sum", "AggregateValue": 1000, "Contributors": [%s], "MetricDatapoints": [%s]}`,
		labels, strings.Join(contributors, ","), strings.Join(dps, ","))
}

func contributor(key string, offset int, values ...float64) string {
	var dps []string
	total := 0.0
	for i, v := range values {
		dps = append(dps, fmt.Sprintf(`{"Timestamp": "2026-11-30T10:%02d:00+00:00", "ApproximateValue": %v}`, offset+i, v))
		total += v
	}
	return fmt.Sprintf(`{"Keys": [%s], "ApproximateAggregateValue": %v, "Datapoints": [%s]}`, key, total, strings.Join(dps, ","))
}

func minutes(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// A write-hot key: in minute 10:30 the table writes 1,500 WCU/s and reads 9,000 RCU/s, and one key writes
// 950 WCU/s: the -PKC- rule counts 3 × 950 × 60 = 171,000 units for it, 2,850 units/s.
func TestObserveBusiestKeyInUnits(t *testing.T) {
	writes, reads := minutes(60, 300*60), minutes(60, 2000*60)
	writes[30], reads[30] = 1500*60, 9000*60
	// Two reports of consecutive half hours, joined three ways: one output, a list, concatenated.
	first := report(`"pk"`, 0, minutes(30, 3000), contributor(`"CUSTOMER#b"`, 0, minutes(30, 3000)...))
	second := report(`"pk"`, 30, append([]float64{171000}, minutes(29, 3000)...),
		contributor(`"CUSTOMER#a"`, 30, 171000, 600), contributor(`"CUSTOMER#b"`, 30, 2400))
	for name, accessed := range map[string]string{"list": "[" + first + "," + second + "]", "concatenated": first + "\n" + second} {
		obs, warnings, errs := Observe(Export{TableName: "orders", MetricData: []byte(metricData(writes, reads, []float64{0, 7, 0})), AccessedKeysReport: []byte(accessed)})
		if len(errs) > 0 || len(warnings) > 0 {
			t.Fatalf("%s: errors %v, warnings %v", name, errs, warnings)
		}
		if *obs.Traffic.HotKeyUnitsPerSecond != 2850 || *obs.Traffic.HotKeyUnitShare != 171000.0/(3*1500*60+9000*60) {
			t.Errorf("%s: hot key %v units/s, share %v", name, *obs.Traffic.HotKeyUnitsPerSecond, *obs.Traffic.HotKeyUnitShare)
		}
		if len(obs.TopKeys) != 2 || obs.TopKeys[0].Key != "CUSTOMER#a" || *obs.TopKeys[0].UnitsPerSecond != 2850 || *obs.TopKeys[1].UnitsPerSecond != 50 {
			t.Errorf("%s: top keys %+v", name, obs.TopKeys)
		}
		if *obs.Traffic.WritesPerSecond != 1500 || *obs.ThrottleEvents.WriteKeyRange != 7 || obs.ThrottleEvents.ReadKeyRange != nil || *obs.KeyAttributes != 1 {
			t.Errorf("%s: traffic %+v, throttles %+v", name, obs.Traffic, obs.ThrottleEvents)
		}
	}
}

// A report made with a coarser period understates the busiest minute: with enough datapoints to tell it
// (as many as the metrics need), the figure is per second of the period, with a warning.
func TestObserveCoarseReportPeriodWarns(t *testing.T) {
	var points, datapoints []string
	for h := range coarsePeriodMinPoints {
		points = append(points, fmt.Sprintf(`{"Timestamp": "2026-11-30T%02d:00:00Z", "ApproximateValue": 360000}`, h))
		datapoints = append(datapoints, fmt.Sprintf(`{"Timestamp": "2026-11-30T%02d:00:00Z", "MaxContributorValue": 360000}`, h))
	}
	accessed := fmt.Sprintf(`{"KeyLabels": ["pk"], "Contributors": [{"Keys": ["k"], "ApproximateAggregateValue": %d, "Datapoints": [%s]}], "MetricDatapoints": [%s]}`,
		360000*coarsePeriodMinPoints, strings.Join(points, ","), strings.Join(datapoints, ","))
	obs, warnings, errs := Observe(Export{MetricData: []byte(metricData(minutes(60, 60), minutes(60, 60), nil)), AccessedKeysReport: []byte(accessed)})
	if len(errs) > 0 || len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "accessed_keys_report: has datapoints 3600 seconds apart") {
		t.Fatalf("errors %v, warnings %v", errs, warnings)
	}
	if *obs.Traffic.HotKeyUnitsPerSecond != 100 {
		t.Errorf("hot key = %v units/s, want 360,000 / 3,600", *obs.Traffic.HotKeyUnitsPerSecond)
	}
}

// A hot key active only every 5 minutes leaves datapoints 300 seconds apart, as a report made with
// --period 300 would: its units per second are per minute, 300,000 / 60 = 5,000, not 1,000. Live, the
// period is the one asked for, however sparse the key; offline, a coarser period needs as many datapoints
// as the metrics need to tell it, and fewer are read as minutes with a warning.
func TestObserveSparseHotKeyKeepsTheMinute(t *testing.T) {
	sparse := func(n int) string {
		var points, datapoints []string
		for i := range n {
			ts := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC).Add(time.Duration(5*i) * time.Minute).Format(time.RFC3339)
			points = append(points, fmt.Sprintf(`{"Timestamp": %q, "ApproximateValue": 300000}`, ts))
			datapoints = append(datapoints, fmt.Sprintf(`{"Timestamp": %q, "MaxContributorValue": 300000}`, ts))
		}
		return fmt.Sprintf(`{"KeyLabels": ["pk"], "Contributors": [{"Keys": ["HOT"], "ApproximateAggregateValue": %d, "Datapoints": [%s]}], "MetricDatapoints": [%s]}`,
			300000*n, strings.Join(points, ","), strings.Join(datapoints, ","))
	}
	metrics := []byte(metricData(minutes(60, 5000*60), minutes(60, 0), nil))
	for name, tc := range map[string]struct {
		e       Export
		want    float64
		warning string
	}{
		"live, many datapoints":   {Export{ReportPeriodSeconds: 60, AccessedKeysReport: []byte(sparse(12))}, 5000, ""},
		"live, few datapoints":    {Export{ReportPeriodSeconds: 60, AccessedKeysReport: []byte(sparse(3))}, 5000, ""},
		"offline, few datapoints": {Export{AccessedKeysReport: []byte(sparse(coarsePeriodMinPoints - 1))}, 5000, "too few to tell a report made with --period 300"},
		"offline, enough to tell": {Export{AccessedKeysReport: []byte(sparse(coarsePeriodMinPoints))}, 1000, "has datapoints 300 seconds apart"},
	} {
		tc.e.MetricData = metrics
		obs, warnings, errs := Observe(tc.e)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		if *obs.Traffic.HotKeyUnitsPerSecond != tc.want || *obs.TopKeys[0].UnitsPerSecond != tc.want {
			t.Errorf("%s: hot key %v units/s, top key %+v; want %v", name, *obs.Traffic.HotKeyUnitsPerSecond, obs.TopKeys[0], tc.want)
		}
		switch {
		case tc.warning == "" && len(warnings) > 0:
			t.Errorf("%s: warnings %v", name, warnings)
		case tc.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0].Error(), tc.warning)):
			t.Errorf("%s: warnings %v, want %q", name, warnings, tc.warning)
		}
	}
}

// An index's multi-attribute key: one value per attribute, joined; the count travels for the design to check.
func TestObserveMultiAttributeIndexKey(t *testing.T) {
	accessed := report(`"region", "tier"`, 0, []float64{600, 300}, contributor(`"eu", "gold"`, 0, 600, 300))
	obs, _, errs := Observe(Export{IndexName: "by_region", MetricData: []byte(metricData(minutes(60, 60), minutes(60, 60), nil)), AccessedKeysReport: []byte(accessed)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if obs.TopKeys[0].Key != "eu, gold" || *obs.KeyAttributes != 2 {
		t.Errorf("top key %q, %d attributes", obs.TopKeys[0].Key, *obs.KeyAttributes)
	}
}

func TestObserveThrottledKeysOnly(t *testing.T) {
	throttled := report(`"pk"`, 0, []float64{40}, contributor(`"CUSTOMER#hot"`, 0, 40), contributor(`"CUSTOMER#warm"`, 0, 3))
	obs, _, errs := Observe(Export{MetricData: []byte(metricData(minutes(60, 60), minutes(60, 60), minutes(60, 1))), ThrottledKeysReport: []byte(throttled)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if obs.Traffic.HotKeyUnitsPerSecond != nil || len(obs.TopKeys) != 2 || obs.TopKeys[0].Key != "CUSTOMER#hot" || obs.TopKeys[0].UnitsPerSecond != nil || obs.TopKeys[0].ThrottleEvents != 40 {
		t.Errorf("observation %+v, keys %+v", obs.Traffic, obs.TopKeys)
	}
	if !strings.Contains(Report(obs), "Contributor Insights counts throttled keys only") {
		t.Errorf("report = %s", Report(obs))
	}
}

// Values as large as a float holds but finite are read, and nothing that is not finite reaches the JSON of
// the observation.
func TestObserveLargeFiniteValuesStayFinite(t *testing.T) {
	big := 1.7e308
	obs, _, errs := Observe(Export{MetricData: []byte(metricData([]float64{big}, []float64{big}, []float64{big})),
		AccessedKeysReport: []byte(report(`"pk"`, 0, []float64{big}, contributor(`"k"`, 0, big)))})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := json.Marshal(obs); err != nil {
		t.Errorf("the observation is not JSON: %v", err)
	}
	if *obs.Traffic.WritesPerSecond != big/60 || *obs.ThrottleEvents.WriteKeyRange != big {
		t.Errorf("traffic %+v, throttles %+v", obs.Traffic, obs.ThrottleEvents)
	}
}

// Every bad input is an error on its attribute; none panics.
func TestObserveBadInput(t *testing.T) {
	good := metricData(minutes(60, 60), minutes(60, 60), nil)
	goodReport := report(`"pk"`, 0, []float64{60}, contributor(`"k"`, 0, 60))
	for name, tc := range map[string]struct {
		e    Export
		want string
	}{
		"empty":    {Export{MetricData: []byte(" ")}, "metric_data: is empty"},
		"not JSON": {Export{MetricData: []byte("{")}, "metric_data: is not valid JSON"},
		"NaN":      {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": ["2026-11-30T10:00:00Z"], "Values": [NaN]}]}`)}, "metric_data: holds NaN or Infinity"},
		"null value": {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": ["2026-11-30T10:00:00Z", "2026-11-30T10:01:00Z"], "Values": [5, null]}]}`)},
			"metric_data: MetricDataResults[0] (consumed_write_capacity_units) Values[1] is null"},
		"null throttle value": {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": ["2026-11-30T10:00:00Z"], "Values": [5]}, ` +
			`{"Id": "write_key_range_throttle_events", "Timestamps": ["2026-11-30T10:00:00Z"], "Values": [null]}]}`)},
			"metric_data: MetricDataResults[1] (write_key_range_throttle_events) Values[0] is null"},
		"sum too large": {Export{MetricData: []byte(metricData([]float64{1e308, 1e308}, []float64{1, 1}, nil))},
			"metric_data: consumed_write_capacity_units sums to more than a finite number"},
		"throttle sum too large": {Export{MetricData: []byte(metricData([]float64{1, 1}, []float64{1, 1}, []float64{1.7e308, 1.7e308}))},
			"metric_data: write_key_range_throttle_events sums to more than a finite number"},
		"key total too large": {Export{MetricData: []byte(good), ThrottledKeysReport: []byte(report(`"pk"`, 0, nil, contributor(`"k"`, 0, 1e308)) + report(`"pk"`, 1, nil, contributor(`"k"`, 1, 1e308)))},
			"throttled_keys_report: output 2 of 2: has Contributors[0] (k) whose ApproximateAggregateValue, summed over the reports, is more than a finite number"},
		"negative":           {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": ["2026-11-30T10:00:00Z"], "Values": [-1]}]}`)}, "Values[0] is -1"},
		"bad timestamp":      {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": ["yesterday"], "Values": [1]}]}`)}, `"yesterday" is not an ISO 8601 timestamp`},
		"unknown query":      {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "x", "Label": "y", "Timestamps": [], "Values": []}]}`)}, `matches no query of the query file`},
		"report as metrics":  {Export{MetricData: []byte(goodReport)}, "this looks like the output of get-insight-rule-report"},
		"empty list":         {Export{MetricData: []byte("[]")}, "metric_data: is an empty list"},
		"second doc damaged": {Export{MetricData: []byte(good + `{"MetricDataResults": 3}`)}, "metric_data: output 2 of 2: has number where"},
		"empty window": {Export{MetricData: []byte(`{"MetricDataResults": [{"Id": "consumed_write_capacity_units", "Timestamps": [], "Values": []}]}`)},
			"metric_data: the window is empty"},
		"sort key report on a table": {Export{MetricData: []byte(good), AccessedKeysReport: []byte(report(`"pk", "sk"`, 0, []float64{60}, contributor(`"a", "b"`, 0, 60)))},
			"accessed_keys_report: lists 2 key values per contributor (pk, sk), but a table's partition key is one attribute: this is a report of another rule kind"},
		"five key labels": {Export{IndexName: "i", MetricData: []byte(good), AccessedKeysReport: []byte(report(`"a","b","c","d","e"`, 0, nil))},
			"accessed_keys_report: lists 5 key labels"},
		"same report twice": {Export{MetricData: []byte(good), AccessedKeysReport: []byte(goodReport), ThrottledKeysReport: []byte(goodReport)},
			"throttled_keys_report: is the same report as accessed_keys_report"},
		"no contributors": {Export{MetricData: []byte(good), AccessedKeysReport: []byte(report(`"pk"`, 0, nil))}, "accessed_keys_report: lists no contributors"},
		"keys and labels differ": {Export{MetricData: []byte(good), AccessedKeysReport: []byte(report(`"pk"`, 0, nil, contributor(`"a", "b"`, 0, 1)))},
			"has Contributors[0] with 2 keys but 1 KeyLabels"},
		"NaN in a report": {Export{MetricData: []byte(good), ThrottledKeysReport: []byte(`{"Contributors": [], "MetricDatapoints": [{"Timestamp": "2026-11-30T10:00:00Z", "MaxContributorValue": NaN}]}`)},
			"throttled_keys_report: holds NaN or Infinity"},
		"mixed reports": {Export{MetricData: []byte(good), AccessedKeysReport: []byte(goodReport + report(`"pk", "sk"`, 1, nil))},
			"accessed_keys_report: output 2 of 2: lists 2 key labels (pk, sk), the first report 1 (pk)"},
	} {
		obs, _, errs := Observe(tc.e)
		if obs != nil || len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: errors %v, want %q", name, errs, tc.want)
		}
	}
}

// The averages spread the window's units over the window asked for, idle minutes included: CloudWatch
// publishes no datapoint for an idle minute, so a table busy for one minute of 14 days averages its units
// over 14 days, far below its peak. Offline, the export does not say its window: the span of the
// datapoints is the basis, and the report says so.
func TestObserveAverageOverTheWindowAsked(t *testing.T) {
	writes, reads := []float64{6000, 0, 0}, []float64{1200, 0, 0}
	for _, lookback := range []time.Duration{time.Hour, 36 * time.Hour, 14 * 24 * time.Hour} {
		end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		obs, _, errs := Observe(Export{MetricData: []byte(metricData(writes[:1], reads[:1], nil)), Start: end.Add(-lookback), End: end})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if want := 6000 / lookback.Seconds(); *obs.Traffic.AverageWritesPerSecond != want || *obs.Traffic.WritesPerSecond != 100 {
			t.Errorf("%s: average writes %v WCU/s, peak %v; want %v and 100", lookback, *obs.Traffic.AverageWritesPerSecond, *obs.Traffic.WritesPerSecond, want)
		}
		if want := 1200 / lookback.Seconds(); *obs.Traffic.AverageReadsPerSecond != want {
			t.Errorf("%s: average reads %v RCU/s, want %v", lookback, *obs.Traffic.AverageReadsPerSecond, want)
		}
		if obs.Window.Start != end.Add(-lookback).Format(time.RFC3339) || obs.Window.End != end.Format(time.RFC3339) || obs.Window.Datapoints != 1 {
			t.Errorf("%s: window %+v", lookback, obs.Window)
		}
		if r := Report(obs); !strings.Contains(r, "(over the window, idle minutes included)") {
			t.Errorf("%s: report = %s", lookback, r)
		}
	}
	// Offline: the span of the datapoints, three minutes here, stated in the report.
	obs, _, errs := Observe(Export{MetricData: []byte(metricData(writes, reads, nil))})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if *obs.Traffic.AverageWritesPerSecond != 6000.0/180 || !obs.AverageOverSpan {
		t.Errorf("offline average writes %v WCU/s, want %v over the span", *obs.Traffic.AverageWritesPerSecond, 6000.0/180)
	}
	if r := Report(obs); !strings.Contains(r, "over the span of the datapoints: the export does not say the window it was asked for") {
		t.Errorf("offline report = %s", r)
	}
	// A window that ends before it starts is the caller's error, not a negative average.
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if obs, _, errs := Observe(Export{MetricData: []byte(metricData(writes, reads, nil)), Start: end, End: end}); obs != nil || len(errs) == 0 {
		t.Errorf("an empty window gave %+v, errors %v", obs, errs)
	}
}

// CloudWatch publishes no datapoint for an idle minute: with StatusCode Complete, minutes without one are
// idle, and the window is complete without a warning. PartialData, a missing page, or an export without
// StatusCode leave the minutes unexplained: incomplete, with the gap count in the warning.
func TestObserveIdleMinutesAreNotGapsWhenComplete(t *testing.T) {
	sparse := func(status, nextToken string) []byte {
		series := func(id string) string {
			return fmt.Sprintf(`{"Id": %q, "Timestamps": ["2026-11-30T10:00:00Z", "2026-11-30T10:30:00Z", "2026-11-30T11:59:00Z"], "Values": [60, 6000, 60]%s}`,
				id, status)
		}
		return []byte(fmt.Sprintf(`{"MetricDataResults": [%s, %s]%s}`, series(QueryConsumedWriteUnits), series(QueryConsumedReadUnits), nextToken))
	}
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for name, tc := range map[string]struct {
		e        Export
		complete bool
		warning  string
	}{
		"complete, offline":   {Export{MetricData: sparse(`, "StatusCode": "Complete"`, "")}, true, ""},
		"complete, live 14d":  {Export{MetricData: sparse(`, "StatusCode": "Complete"`, ""), Start: end.Add(-14 * 24 * time.Hour), End: end}, true, ""},
		"partial data":        {Export{MetricData: sparse(`, "StatusCode": "PartialData"`, "")}, false, "CloudWatch said PartialData for consumed_write_capacity_units; 3 of 120 minutes have datapoints"},
		"next token left":     {Export{MetricData: sparse(`, "StatusCode": "Complete"`, `, "NextToken": "more"`)}, false, "NextToken is set: later pages were not exported; 3 of 120 minutes"},
		"no status, gaps":     {Export{MetricData: sparse("", "")}, false, "(3 of 120 minutes have datapoints)"},
		"no status, live 14d": {Export{MetricData: sparse("", ""), Start: end.Add(-14 * 24 * time.Hour), End: end}, false, "(3 of 20160 minutes have datapoints)"},
	} {
		obs, warnings, errs := Observe(tc.e)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		if obs.Complete != tc.complete {
			t.Errorf("%s: complete = %v", name, obs.Complete)
		}
		switch {
		case tc.warning == "" && len(warnings) > 0:
			t.Errorf("%s: warnings %v", name, warnings)
		case tc.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0].Error(), tc.warning)):
			t.Errorf("%s: warnings %v, want %q", name, warnings, tc.warning)
		}
		if r := Report(obs); tc.complete != strings.Contains(r, "datapoints (complete)") {
			t.Errorf("%s: report = %s", name, r)
		}
	}
}

// A report lists at most as many key values per contributor as a GSI's partition key has attributes: the
// bundle's max_gsi_key_attributes, the limit the design rules use.
func TestObserveKeyLabelsBoundedByTheBundleLimit(t *testing.T) {
	labels := func(n int) (string, string) {
		var l, k []string
		for i := range n {
			l, k = append(l, fmt.Sprintf(`"a%d"`, i)), append(k, fmt.Sprintf(`"v%d"`, i))
		}
		return strings.Join(l, ","), strings.Join(k, ",")
	}
	limit := int(policies.Bundle.Limits.MaxGSIKeyAttributes)
	metrics := []byte(metricData(minutes(60, 60), minutes(60, 60), nil))
	l, k := labels(limit)
	obs, _, errs := Observe(Export{IndexName: "i", MetricData: metrics, AccessedKeysReport: []byte(report(l, 0, []float64{60}, contributor(k, 0, 60)))})
	if len(errs) > 0 || *obs.KeyAttributes != int64(limit) {
		t.Errorf("%d key labels: errors %v", limit, errs)
	}
	l, k = labels(limit + 1)
	_, _, errs = Observe(Export{IndexName: "i", MetricData: metrics, AccessedKeysReport: []byte(report(l, 0, []float64{60}, contributor(k, 0, 60)))})
	if want := fmt.Sprintf("lists %d key labels", limit+1); len(errs) == 0 || !strings.Contains(errs[0].Error(), want) ||
		!strings.Contains(errs[0].Error(), fmt.Sprintf("at most %d attributes", limit)) {
		t.Errorf("%d key labels: errors %v, want %q", limit+1, errs, want)
	}
}
