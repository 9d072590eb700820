package keydesign

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The query ids of the query file the docs ship (examples/observed-traffic/metric-data-queries.json) and the
// AWS/DynamoDB metric each one reads (metrics-dimensions.html). A result is recognised by its id, or by its
// Label when the label is the metric name (the label CloudWatch gives a query without one).
const (
	QueryConsumedWriteUnits = "consumed_write_capacity_units"
	QueryConsumedReadUnits  = "consumed_read_capacity_units"
	QueryWriteThrottles     = "write_throttle_events"
	QueryReadThrottles      = "read_throttle_events"
)

// MetricQueries maps each query id to its metric name, in the order the query file lists them.
var MetricQueries = []struct{ ID, Metric string }{
	{QueryConsumedWriteUnits, "ConsumedWriteCapacityUnits"},
	{QueryConsumedReadUnits, "ConsumedReadCapacityUnits"},
	{QueryWriteThrottles, "WriteThrottleEvents"},
	{QueryReadThrottles, "ReadThrottleEvents"},
}

// MetricPeriodSeconds is the period of the query file: per-minute sums, whose largest value / 60 is the
// peak per-second rate. A coarser period would average a burst away; a finer one is not published for
// these metrics (metrics-dimensions.html).
const MetricPeriodSeconds = 60

// MinObservedWindow is the shortest window whose peak says something about a table's busiest time: an
// export of less than an hour gets a warning.
const MinObservedWindow = time.Hour

// coarsePeriodMinPoints is how many datapoints must share a coarser spacing than a minute before the export
// is taken for one made with a longer period (a few points of a quiet table can be far apart by chance).
const coarsePeriodMinPoints = 10

// ObservedExport is what the figures are computed from: the outputs of `aws cloudwatch get-metric-data`
// and of `aws cloudwatch get-insight-rule-report` for the most accessed and the most throttled keys, as
// the AWS CLI prints them (the live path builds the same JSON from the API's answers). The reports are
// optional: without them the key figures are nil.
type ObservedExport struct {
	TableName           string
	IndexName           string
	MetricData          []byte
	AccessedKeysReport  []byte
	ThrottledKeysReport []byte
}

// The attributes the exports arrive in; errors and warnings name them.
const (
	AttrMetricData          = "metric_data"
	AttrAccessedKeysReport  = "accessed_keys_report"
	AttrThrottledKeysReport = "throttled_keys_report"
)

// ObserveTraffic checks the exports and computes the observation. Bad input comes back as errors on the
// attribute that holds it, and then there is no observation; a short window or gaps are warnings.
func ObserveTraffic(e ObservedExport) (*Observation, []*FieldError, []*FieldError) {
	var warnings, errs []*FieldError
	fail := func(attr, format string, args ...any) {
		errs = append(errs, &FieldError{Path: Path{attr}, Message: fmt.Sprintf(format, args...)})
	}
	warn := func(attr, format string, args ...any) {
		warnings = append(warnings, &FieldError{Path: Path{attr}, Message: fmt.Sprintf(format, args...)})
	}
	series, err := parseMetricData(e.MetricData)
	if err != nil {
		fail(AttrMetricData, "%v", err)
	}
	var accessed, throttled *insightReport
	if len(bytes.TrimSpace(e.AccessedKeysReport)) > 0 {
		if accessed, err = parseInsightReport(e.AccessedKeysReport, true); err != nil {
			fail(AttrAccessedKeysReport, "%v", err)
		}
	}
	if len(bytes.TrimSpace(e.ThrottledKeysReport)) > 0 {
		if throttled, err = parseInsightReport(e.ThrottledKeysReport, false); err != nil {
			fail(AttrThrottledKeysReport, "%v", err)
		}
	}
	if len(errs) > 0 {
		return nil, warnings, errs
	}

	obs := &Observation{TableName: e.TableName, IndexName: e.IndexName}
	window, w := series.window()
	for _, msg := range w {
		warn(AttrMetricData, "%s", msg)
	}
	obs.Window = window.ObservedWindow
	obs.Complete = window.complete
	if !window.complete {
		warn(AttrMetricData, "the window is incomplete (%s): peaks and throttle counts cover only the datapoints CloudWatch returned", window.why)
	}
	if window.length < MinObservedWindow {
		warn(AttrMetricData, "the window covers %s, less than %s: a short window may miss the busiest time; export at least a day (the live lookback defaults to 14 days)",
			window.length, "an hour")
	}
	obs.Traffic.WritesPerSecond = series.peakPerSecond(QueryConsumedWriteUnits)
	obs.Traffic.ReadsPerSecond = series.peakPerSecond(QueryConsumedReadUnits)
	obs.Traffic.AverageWritesPerSecond = perSecondOver(series.total(QueryConsumedWriteUnits), window.length)
	obs.Traffic.AverageReadsPerSecond = perSecondOver(series.total(QueryConsumedReadUnits), window.length)
	obs.ThrottleEvents = ThrottleTotals{Read: series.total(QueryReadThrottles), Write: series.total(QueryWriteThrottles)}
	obs.TopKeys, obs.Traffic.HotKeyShare = topKeys(accessed, throttled)
	return obs, warnings, nil
}

// metricDataExport is the output of get-metric-data (API_GetMetricData, "Response Syntax"). Pages that the
// CLI joined list a query's result once per page; NextToken is left when paging was cut short.
type metricDataExport struct {
	MetricDataResults *[]metricDataResult `json:"MetricDataResults"`
	NextToken         *string             `json:"NextToken"`
}

type metricDataResult struct {
	ID         *string           `json:"Id"`
	Label      *string           `json:"Label"`
	Timestamps []json.RawMessage `json:"Timestamps"`
	Values     []float64         `json:"Values"`
	StatusCode string            `json:"StatusCode"`
}

// metricSeries are the datapoints of each recognised query, by unix second.
type metricSeries struct {
	points map[string]map[int64]float64
	status map[string]string // StatusCode of the query's last result (the last page)
	cut    bool              // NextToken left: pages are missing
}

func parseMetricData(raw []byte) (*metricSeries, error) {
	var out metricDataExport
	if err := decodeExport(raw, &out); err != nil {
		return nil, err
	}
	if out.MetricDataResults == nil {
		return nil, notTheOutput(raw, "get-metric-data", "MetricDataResults", exportKinds[1])
	}
	s := &metricSeries{points: map[string]map[int64]float64{}, status: map[string]string{}, cut: out.NextToken != nil && *out.NextToken != ""}
	for i, r := range *out.MetricDataResults {
		id := queryOf(r)
		if id == "" {
			return nil, fmt.Errorf("MetricDataResults[%d] (Id %q, Label %q) matches no query of the query file: use the ids %s, or labels that are the metric names",
				i, deref(r.ID), deref(r.Label), strings.Join(queryIDs(), ", "))
		}
		if len(r.Timestamps) != len(r.Values) {
			return nil, fmt.Errorf("MetricDataResults[%d] (%s) has %d Timestamps but %d Values: the export is damaged; export it again", i, id, len(r.Timestamps), len(r.Values))
		}
		if r.StatusCode == "Forbidden" {
			return nil, fmt.Errorf("CloudWatch answered Forbidden for %s: the credentials that exported it lack cloudwatch:GetMetricData", id)
		}
		if s.points[id] == nil {
			s.points[id] = map[int64]float64{}
		}
		for j, ts := range r.Timestamps {
			t, err := parseTimestamp(ts)
			if err != nil {
				return nil, fmt.Errorf("MetricDataResults[%d] (%s) Timestamps[%d]: %w", i, id, j, err)
			}
			v := r.Values[j]
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("MetricDataResults[%d] (%s) Values[%d] is %v: a Sum of capacity units or throttle events is a finite number ≥ 0", i, id, j, v)
			}
			if _, dup := s.points[id][t.Unix()]; !dup {
				s.points[id][t.Unix()] = v
			}
		}
		s.status[id] = r.StatusCode
	}
	if len(s.points[QueryConsumedWriteUnits])+len(s.points[QueryConsumedReadUnits]) == 0 {
		if _, w := s.points[QueryConsumedWriteUnits]; !w {
			if _, r := s.points[QueryConsumedReadUnits]; !r {
				return nil, fmt.Errorf("has neither %s nor %s: export with the query file, which asks for both", QueryConsumedWriteUnits, QueryConsumedReadUnits)
			}
		}
		return nil, errors.New("the window is empty: no consumed-capacity datapoint. Check the table name, region and time range of the export " +
			"(CloudWatch has datapoints only for minutes with traffic)")
	}
	return s, nil
}

// exportKinds are the two exports, by the member that marks each and the attribute that takes it.
var exportKinds = []struct{ command, member, attrs string }{
	{"get-metric-data", "MetricDataResults", "metric_data"},
	{"get-insight-rule-report", "Contributors", "accessed_keys_report or throttled_keys_report"},
}

// notTheOutput says that raw lacks the member of the command's output, naming the other export when raw
// looks like it.
func notTheOutput(raw []byte, command, member string, other struct{ command, member, attrs string }) error {
	hint := ""
	if bytes.Contains(raw, []byte(`"`+other.member+`"`)) {
		hint = fmt.Sprintf(" (this looks like the output of %s: give it as %s)", other.command, other.attrs)
	}
	return fmt.Errorf("is not the output of `aws cloudwatch %s`: it has no %s%s", command, member, hint)
}

func queryOf(r metricDataResult) string {
	for _, q := range MetricQueries {
		if deref(r.ID) == q.ID || deref(r.Label) == q.Metric {
			return q.ID
		}
	}
	return ""
}

func queryIDs() []string {
	ids := make([]string, 0, len(MetricQueries))
	for _, q := range MetricQueries {
		ids = append(ids, q.ID)
	}
	return ids
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// decodeExport reads one JSON object, with messages that say what is wrong with the export.
func decodeExport(raw []byte, into any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return errors.New("is empty: give the JSON the AWS CLI printed")
	}
	if trimmed[0] != '{' {
		return errors.New("is not a JSON object: give the JSON the AWS CLI printed (--output json)")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(into); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case bytes.Contains(trimmed, []byte("NaN")) || bytes.Contains(trimmed, []byte("Infinity")):
			return errors.New("holds NaN or Infinity: every value must be a finite number")
		case errors.As(err, &typeErr) && strings.HasPrefix(typeErr.Value, "number") && typeErr.Type.Kind() == reflect.Float64:
			return fmt.Errorf("holds %s (at %s), too large to be a finite number", typeErr.Value, typeErr.Field)
		case errors.As(err, &typeErr):
			return fmt.Errorf("has %s where a %s belongs (at %s): this is not the output the attribute expects", typeErr.Value, typeErr.Type, cmp.Or(typeErr.Field, "the top level"))
		}
		return fmt.Errorf("is not valid JSON: %w", err)
	}
	if dec.More() {
		return errors.New("holds more than one JSON document: give one command's output")
	}
	return nil
}

// parseTimestamp reads a timestamp as the AWS CLI prints it: ISO 8601 (the default) or epoch seconds
// (cli_timestamp_format = wire).
func parseTimestamp(raw json.RawMessage) (time.Time, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not an ISO 8601 timestamp", s)
		}
		return t, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil && f >= 0 && !math.IsInf(f, 0) {
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%s is not a timestamp", string(raw))
}

type windowFacts struct {
	ObservedWindow
	length   time.Duration
	complete bool
	why      string
}

// window spans the consumed-capacity datapoints: from the first minute to the end of the last. It is
// complete when every query's last page said Complete and every minute between has a datapoint.
func (s *metricSeries) window() (windowFacts, []string) {
	var warnings []string
	minutes := map[int64]bool{}
	for _, id := range []string{QueryConsumedWriteUnits, QueryConsumedReadUnits} {
		for t := range s.points[id] {
			minutes[t] = true
		}
	}
	ts := slices.Sorted(maps.Keys(minutes))
	first, last := ts[0], ts[len(ts)-1]
	end := last + MetricPeriodSeconds
	w := windowFacts{ObservedWindow: ObservedWindow{
		Start: time.Unix(first, 0).UTC().Format(time.RFC3339), End: time.Unix(end, 0).UTC().Format(time.RFC3339), Datapoints: int64(len(ts)),
	}, length: time.Duration(end-first) * time.Second, complete: true}
	var why []string
	for _, id := range slices.Sorted(maps.Keys(s.status)) {
		if st := s.status[id]; st != "" && st != "Complete" {
			why = append(why, fmt.Sprintf("CloudWatch said %s for %s", st, id))
		}
	}
	if s.cut {
		why = append(why, "NextToken is set: later pages were not exported")
	}
	expected := (end - first) / MetricPeriodSeconds
	if int64(len(ts)) < expected {
		why = append(why, fmt.Sprintf("%d of %d minutes have datapoints", len(ts), expected))
	}
	if len(why) > 0 {
		w.complete, w.why = false, strings.Join(why, "; ")
	}
	spacing := int64(0)
	for i := 1; i < len(ts); i++ {
		spacing = gcd(spacing, ts[i]-ts[i-1])
	}
	switch {
	case spacing > 0 && spacing%MetricPeriodSeconds != 0:
		warnings = append(warnings, fmt.Sprintf("datapoints are %d seconds apart, not whole minutes: export with Period %d as the query file does", spacing, MetricPeriodSeconds))
	case spacing > MetricPeriodSeconds && len(ts) >= coarsePeriodMinPoints:
		warnings = append(warnings, fmt.Sprintf("every datapoint is a multiple of %d seconds apart: the export looks made with Period %d; the peak assumes per-minute sums "+
			"(Period %d) and would be overstated up to %d times", spacing, spacing, MetricPeriodSeconds, spacing/MetricPeriodSeconds))
	}
	return w, warnings
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// peakPerSecond is the largest per-minute Sum / 60 of a query; nil when the query was not exported.
func (s *metricSeries) peakPerSecond(id string) *float64 {
	points, ok := s.points[id]
	if !ok {
		return nil
	}
	peak := 0.0
	for _, v := range points {
		peak = max(peak, v)
	}
	return ptr(peak / MetricPeriodSeconds)
}

// perSecondOver spreads a window's total over its length; nil without a total or a window.
func perSecondOver(total *float64, length time.Duration) *float64 {
	if total == nil || length <= 0 {
		return nil
	}
	return ptr(*total / length.Seconds())
}

// total is the sum of a query's datapoints; nil when the query was not exported.
func (s *metricSeries) total(id string) *float64 {
	points, ok := s.points[id]
	if !ok {
		return nil
	}
	sum := 0.0
	for _, v := range points {
		sum += v
	}
	return &sum
}

// insightReport is the output of get-insight-rule-report (API_GetInsightRuleReport, "Response Syntax").
type insightReport struct {
	KeyLabels        []string                 `json:"KeyLabels"`
	AggregateValue   *float64                 `json:"AggregateValue"`
	Contributors     *[]insightContributor    `json:"Contributors"`
	MetricDatapoints []insightMetricDatapoint `json:"MetricDatapoints"`
}

type insightContributor struct {
	Keys                      []string `json:"Keys"`
	ApproximateAggregateValue *float64 `json:"ApproximateAggregateValue"`
	Datapoints                []struct {
		Timestamp        json.RawMessage `json:"Timestamp"`
		ApproximateValue *float64        `json:"ApproximateValue"`
	} `json:"Datapoints"`
}

type insightMetricDatapoint struct {
	Timestamp           json.RawMessage `json:"Timestamp"`
	MaxContributorValue *float64        `json:"MaxContributorValue"`
	Sum                 *float64        `json:"Sum"`
}

// parseInsightReport checks a Contributor Insights report. The most accessed keys report must name at
// least one contributor (no contributor means no request in the window, or a report of another rule); a
// most throttled keys report without contributors means nothing was throttled.
func parseInsightReport(raw []byte, accessed bool) (*insightReport, error) {
	var r insightReport
	if err := decodeExport(raw, &r); err != nil {
		return nil, err
	}
	if r.Contributors == nil {
		return nil, notTheOutput(raw, "get-insight-rule-report", "Contributors", exportKinds[0])
	}
	if accessed && len(*r.Contributors) == 0 {
		return nil, errors.New("lists no contributors: Contributor Insights saw no request in the window, or the report is of another rule. " +
			"Export the DynamoDBContributorInsights-PKC-… rule of the table (or index) over the same window as metric_data")
	}
	if len(r.KeyLabels) > 1 && accessed {
		// A …-SKC-… report lists partition and sort key together; shares per item are not shares per partition key.
		return nil, fmt.Errorf("has %d keys per contributor (%s): export the partition-key rule DynamoDBContributorInsights-PKC-…, not the partition-and-sort-key rule …-SKC-…",
			len(r.KeyLabels), strings.Join(r.KeyLabels, ", "))
	}
	for i, c := range *r.Contributors {
		switch {
		case len(c.Keys) == 0:
			return nil, fmt.Errorf("has Contributors[%d] without Keys: every contributor names its partition-key value", i)
		case c.ApproximateAggregateValue == nil:
			return nil, fmt.Errorf("has Contributors[%d] (%s) without ApproximateAggregateValue", i, contributorKey(c))
		case !finiteNonNegative(*c.ApproximateAggregateValue):
			return nil, fmt.Errorf("has Contributors[%d] (%s) with ApproximateAggregateValue %v: a count is a finite number ≥ 0", i, contributorKey(c), *c.ApproximateAggregateValue)
		}
		for j, d := range c.Datapoints {
			if d.ApproximateValue == nil || !finiteNonNegative(*d.ApproximateValue) {
				return nil, fmt.Errorf("has Contributors[%d] (%s) Datapoints[%d] without a finite ApproximateValue ≥ 0", i, contributorKey(c), j)
			}
			if _, err := parseTimestamp(d.Timestamp); err != nil {
				return nil, fmt.Errorf("has Contributors[%d] (%s) Datapoints[%d] with a bad Timestamp: %w", i, contributorKey(c), j, err)
			}
		}
	}
	if r.AggregateValue != nil && !finiteNonNegative(*r.AggregateValue) {
		return nil, fmt.Errorf("has AggregateValue %v: a count is a finite number ≥ 0", *r.AggregateValue)
	}
	for i, d := range r.MetricDatapoints {
		for name, v := range map[string]*float64{"Sum": d.Sum, "MaxContributorValue": d.MaxContributorValue} {
			if v != nil && !finiteNonNegative(*v) {
				return nil, fmt.Errorf("MetricDatapoints[%d] has %s %v: a count is a finite number ≥ 0", i, name, *v)
			}
		}
		if _, err := parseTimestamp(d.Timestamp); err != nil {
			return nil, fmt.Errorf("MetricDatapoints[%d] Timestamp: %w", i, err)
		}
	}
	if accessed && reportTotal(&r) <= 0 {
		return nil, errors.New("counts no request (AggregateValue and every contributor are 0): export a window with traffic")
	}
	return &r, nil
}

func finiteNonNegative(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }

// contributorKey is the partition-key value of a contributor; a multi-attribute GSI key lists one value per
// attribute, joined with ", ".
func contributorKey(c insightContributor) string { return strings.Join(c.Keys, ", ") }

// reportTotal is every request the rule counted in the window: AggregateValue, or the contributors' sum
// when a report leaves it out.
func reportTotal(r *insightReport) float64 {
	if r.AggregateValue != nil && *r.AggregateValue > 0 {
		return *r.AggregateValue
	}
	sum := 0.0
	for _, c := range *r.Contributors {
		sum += *c.ApproximateAggregateValue
	}
	return sum
}

// topKeys lists the accessed keys busiest first with their share of the window's requests and their
// throttle events, then the keys that were only throttled, most throttled first. The hot-key share is the
// busiest key's share at the report's busiest time (largest MetricDatapoints Sum), where the design's
// hot_key_share applies; without per-time figures, the busiest key's share of the window.
func topKeys(accessed, throttled *insightReport) ([]ObservedKey, *float64) {
	if accessed == nil && throttled == nil {
		return nil, nil
	}
	throttles := map[string]float64{}
	if throttled != nil {
		for _, c := range *throttled.Contributors {
			throttles[contributorKey(c)] += *c.ApproximateAggregateValue
		}
	}
	keys := []ObservedKey{}
	seen := map[string]bool{}
	var hot *float64
	if accessed != nil {
		total := reportTotal(accessed)
		for _, c := range *accessed.Contributors {
			k := contributorKey(c)
			if seen[k] {
				continue
			}
			seen[k] = true
			keys = append(keys, ObservedKey{Key: k, Share: ptr(math.Min(1, *c.ApproximateAggregateValue/total)), ThrottleEvents: throttles[k]})
		}
		slices.SortStableFunc(keys, func(a, b ObservedKey) int { return cmp.Compare(*b.Share, *a.Share) })
		hot = peakShare(accessed)
		if hot == nil {
			hot = ptr(*keys[0].Share)
		}
	}
	var onlyThrottled []ObservedKey
	for k, n := range throttles {
		if !seen[k] {
			onlyThrottled = append(onlyThrottled, ObservedKey{Key: k, ThrottleEvents: n})
		}
	}
	slices.SortFunc(onlyThrottled, func(a, b ObservedKey) int {
		return cmp.Or(cmp.Compare(b.ThrottleEvents, a.ThrottleEvents), strings.Compare(a.Key, b.Key))
	})
	return append(keys, onlyThrottled...), hot
}

// peakShare is MaxContributorValue / Sum at the datapoint with the largest Sum; nil when the report has no
// such datapoint.
func peakShare(r *insightReport) *float64 {
	var best *insightMetricDatapoint
	for i := range r.MetricDatapoints {
		d := &r.MetricDatapoints[i]
		if d.Sum == nil || d.MaxContributorValue == nil || *d.Sum <= 0 {
			continue
		}
		if best == nil || *d.Sum > *best.Sum {
			best = d
		}
	}
	if best == nil {
		return nil
	}
	return ptr(math.Min(1, *best.MaxContributorValue / *best.Sum))
}

// FormatShare prints a share as a percentage for messages and the report: 0.625 → 62.5%.
func FormatShare(f float64) string { return percent(f) }

// formatUnits prints a per-second figure: 2,500 or 0.4.
func formatUnits(f float64) string {
	if f != 0 && math.Abs(f) < 0.1 {
		return strconv.FormatFloat(f, 'g', 2, 64)
	}
	return thousands(f)
}
