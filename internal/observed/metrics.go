package observed

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// The query ids of the query file the docs ship (examples/observed-traffic/metric-data-queries.json) and the
// AWS/DynamoDB metric each one reads (DynamoDB Developer Guide, "DynamoDB Metrics and dimensions"). A result
// is recognised by its id, or by its Label when the label is the metric name (the label CloudWatch gives a
// query without one).
const (
	QueryConsumedWriteUnits = "consumed_write_capacity_units"
	QueryConsumedReadUnits  = "consumed_read_capacity_units"
	QueryWriteThrottles     = "write_throttle_events"
	QueryReadThrottles      = "read_throttle_events"
	// The throttle events by cause, which DynamoDB publishes since 2025.
	QueryWriteKeyRangeThrottles     = "write_key_range_throttle_events"
	QueryReadKeyRangeThrottles      = "read_key_range_throttle_events"
	QueryWriteProvisionedThrottles  = "write_provisioned_throttle_events"
	QueryReadProvisionedThrottles   = "read_provisioned_throttle_events"
	QueryWriteMaxOnDemandThrottles  = "write_max_on_demand_throttle_events"
	QueryReadMaxOnDemandThrottles   = "read_max_on_demand_throttle_events"
	QueryWriteAccountLimitThrottles = "write_account_limit_throttle_events"
	QueryReadAccountLimitThrottles  = "read_account_limit_throttle_events"
)

// MetricQuery is one query of the query file: its id and its AWS/DynamoDB metric.
type MetricQuery struct{ ID, Metric string }

// MetricQueries lists the query file's queries, in its order.
var MetricQueries = []MetricQuery{
	{QueryConsumedWriteUnits, "ConsumedWriteCapacityUnits"},
	{QueryConsumedReadUnits, "ConsumedReadCapacityUnits"},
	{QueryWriteThrottles, "WriteThrottleEvents"},
	{QueryReadThrottles, "ReadThrottleEvents"},
	{QueryWriteKeyRangeThrottles, "WriteKeyRangeThroughputThrottleEvents"},
	{QueryReadKeyRangeThrottles, "ReadKeyRangeThroughputThrottleEvents"},
	{QueryWriteProvisionedThrottles, "WriteProvisionedThroughputThrottleEvents"},
	{QueryReadProvisionedThrottles, "ReadProvisionedThroughputThrottleEvents"},
	{QueryWriteMaxOnDemandThrottles, "WriteMaxOnDemandThroughputThrottleEvents"},
	{QueryReadMaxOnDemandThrottles, "ReadMaxOnDemandThroughputThrottleEvents"},
	{QueryWriteAccountLimitThrottles, "WriteAccountLimitThrottleEvents"},
	{QueryReadAccountLimitThrottles, "ReadAccountLimitThrottleEvents"},
}

// MetricPeriodSeconds is the period of the query file: per-minute sums, whose largest value / 60 is the
// peak per-second rate. A coarser period would average a burst away; a finer one is not published for
// these metrics ("DynamoDB Metrics and dimensions").
const MetricPeriodSeconds = 60

// WriteUnitWeight is what one write capacity unit counts in Contributor Insights' ConsumedThroughputUnits,
// 3 × write units + read units ("CloudWatch Contributor Insights for DynamoDB: How it works"): a partition's
// 1,000 WCU are worth its 3,000 RCU.
const WriteUnitWeight = 3

// MinWindow is the shortest window whose peak says something about a table's busiest time: an export of
// less than an hour gets a warning.
const MinWindow = time.Hour

// coarsePeriodMinPoints is how many datapoints must share a coarser spacing than a minute before the export
// is taken for one made with a longer period (a few points of a quiet table can be far apart by chance).
const coarsePeriodMinPoints = 10

// metricDataExport is the output of get-metric-data (CloudWatch API Reference, GetMetricData, "Response
// Syntax"). Pages that the CLI joined list a query's result once per page; NextToken is left when paging was
// cut short.
type metricDataExport struct {
	MetricDataResults *[]metricDataResult `json:"MetricDataResults"`
	NextToken         *string             `json:"NextToken"`
}

type metricDataResult struct {
	ID         *string           `json:"Id"`
	Label      *string           `json:"Label"`
	Timestamps []json.RawMessage `json:"Timestamps"`
	Values     []*float64        `json:"Values"`
	StatusCode string            `json:"StatusCode"`
}

// metricSeries are the datapoints of each recognised query, by unix second.
type metricSeries struct {
	points map[string]map[int64]float64
	status map[string]string // StatusCode of the query's last result (the last page)
	cut    bool              // NextToken left: pages are missing
}

// parseMetricData reads one get-metric-data output, or several (a JSON list, or outputs concatenated), as
// one series.
func parseMetricData(raw []byte) (*metricSeries, error) {
	docs, err := splitDocuments(raw)
	if err != nil {
		return nil, err
	}
	s := &metricSeries{points: map[string]map[int64]float64{}, status: map[string]string{}}
	for n, doc := range docs {
		var out metricDataExport
		if err := decodeDocument(doc, &out); err != nil {
			return nil, inDocument(n, len(docs), err)
		}
		if out.MetricDataResults == nil {
			return nil, inDocument(n, len(docs), notTheOutput(doc, "get-metric-data", "MetricDataResults", exportKinds[1]))
		}
		s.cut = out.NextToken != nil && *out.NextToken != ""
		if err := s.add(*out.MetricDataResults); err != nil {
			return nil, inDocument(n, len(docs), err)
		}
	}
	if len(s.points[QueryConsumedWriteUnits])+len(s.points[QueryConsumedReadUnits]) == 0 {
		_, w := s.points[QueryConsumedWriteUnits]
		_, r := s.points[QueryConsumedReadUnits]
		if !w && !r {
			return nil, fmt.Errorf("has neither %s nor %s: export with the query file, which asks for both", QueryConsumedWriteUnits, QueryConsumedReadUnits)
		}
		return nil, errors.New("the window is empty: no consumed-capacity datapoint. Check the table name, region and time range of the export " +
			"(CloudWatch has datapoints only for minutes with traffic, and keeps one-minute datapoints for 15 days)")
	}
	// Each datapoint is finite, but their sum may not be: the totals become averages and throttle counts,
	// which JSON cannot hold as Infinity.
	for _, q := range MetricQueries {
		if total := s.total(q.ID); total != nil && math.IsInf(*total, 0) {
			return nil, fmt.Errorf("%s sums to more than a finite number over the window: its datapoints are too large to be capacity units or events; "+
				"export it again", q.ID)
		}
	}
	return s, nil
}

func (s *metricSeries) add(results []metricDataResult) error {
	for i, r := range results {
		id := queryOf(r)
		if id == "" {
			return fmt.Errorf("MetricDataResults[%d] (Id %q, Label %q) matches no query of the query file: use the ids %s, or labels that are the metric names",
				i, deref(r.ID), deref(r.Label), strings.Join(queryIDs(), ", "))
		}
		if len(r.Timestamps) != len(r.Values) {
			return fmt.Errorf("MetricDataResults[%d] (%s) has %d Timestamps but %d Values: the export is damaged; export it again", i, id, len(r.Timestamps), len(r.Values))
		}
		if r.StatusCode == "Forbidden" {
			return fmt.Errorf("CloudWatch answered Forbidden for %s: the credentials that exported it lack cloudwatch:GetMetricData", id)
		}
		if s.points[id] == nil {
			s.points[id] = map[int64]float64{}
		}
		for j, ts := range r.Timestamps {
			t, err := parseTimestamp(ts)
			if err != nil {
				return fmt.Errorf("MetricDataResults[%d] (%s) Timestamps[%d]: %w", i, id, j, err)
			}
			if r.Values[j] == nil {
				return fmt.Errorf("MetricDataResults[%d] (%s) Values[%d] is null: a Sum of capacity units or throttle events is a finite number ≥ 0; "+
					"the export is damaged, export it again", i, id, j)
			}
			v := *r.Values[j]
			if !finiteNonNegative(v) {
				return fmt.Errorf("MetricDataResults[%d] (%s) Values[%d] is %v: a Sum of capacity units or throttle events is a finite number ≥ 0", i, id, j, v)
			}
			if _, dup := s.points[id][t.Unix()]; !dup {
				s.points[id][t.Unix()] = v
			}
		}
		s.status[id] = r.StatusCode
	}
	return nil
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

type windowFacts struct {
	Window
	length   time.Duration
	complete bool
	why      string
	// span is true when the window is the span of the datapoints, not the window the data was asked for.
	span bool
}

// window is the window the metrics were asked for when start and end are given (the live path); else the
// span of the consumed-capacity datapoints, from the first minute to the end of the last. It is complete
// when every query's last page said Complete and no page is missing; minutes without a datapoint are idle
// then, and count as gaps only when CloudWatch did not say Complete.
func (s *metricSeries) window(start, end time.Time) (windowFacts, []string) {
	var warnings []string
	minutes := map[int64]bool{}
	for _, id := range []string{QueryConsumedWriteUnits, QueryConsumedReadUnits} {
		for t := range s.points[id] {
			minutes[t] = true
		}
	}
	ts := slices.Sorted(maps.Keys(minutes))
	first, last := ts[0], ts[len(ts)-1]+MetricPeriodSeconds
	span := start.IsZero() && end.IsZero()
	if !span {
		first, last = start.Unix(), end.Unix()
	}
	w := windowFacts{Window: Window{
		Start: time.Unix(first, 0).UTC().Format(time.RFC3339), End: time.Unix(last, 0).UTC().Format(time.RFC3339), Datapoints: int64(len(ts)),
	}, length: time.Duration(last-first) * time.Second, complete: true, span: span}
	var why []string
	for _, id := range slices.Sorted(maps.Keys(s.status)) {
		if st := s.status[id]; st != "" && st != "Complete" {
			why = append(why, fmt.Sprintf("CloudWatch said %s for %s", st, id))
		}
	}
	if s.cut {
		why = append(why, "NextToken is set: later pages were not exported")
	}
	// CloudWatch publishes no datapoint for a minute without traffic, so a minute without one is a gap only
	// when CloudWatch did not say it returned everything: a consumed-capacity query without StatusCode
	// Complete (partial data, or an export without the status).
	confirmed := len(why) == 0
	for _, id := range []string{QueryConsumedWriteUnits, QueryConsumedReadUnits} {
		if _, exported := s.points[id]; exported && s.status[id] != "Complete" {
			confirmed = false
		}
	}
	if expected := (last - first) / MetricPeriodSeconds; !confirmed {
		if int64(len(ts)) < expected {
			why = append(why, fmt.Sprintf("%d of %d minutes have datapoints", len(ts), expected))
		}
	}
	if len(why) > 0 {
		w.complete, w.why = false, strings.Join(why, "; ")
	}
	spacing := spacingOf(ts)
	switch {
	case spacing > 0 && spacing%MetricPeriodSeconds != 0:
		warnings = append(warnings, fmt.Sprintf("datapoints are %d seconds apart, not whole minutes: export with Period %d as the query file does", spacing, MetricPeriodSeconds))
	case spacing > MetricPeriodSeconds && len(ts) >= coarsePeriodMinPoints:
		warnings = append(warnings, fmt.Sprintf("every datapoint is a multiple of %d seconds apart: the export looks made with Period %d; the peak assumes per-minute sums "+
			"(Period %d) and would be overstated up to %d times", spacing, spacing, MetricPeriodSeconds, spacing/MetricPeriodSeconds))
	}
	return w, warnings
}

// spacingOf is the greatest common divisor of the gaps between sorted timestamps; 0 for fewer than two.
func spacingOf(sorted []int64) int64 {
	spacing := int64(0)
	for i := 1; i < len(sorted); i++ {
		spacing = gcd(spacing, sorted[i]-sorted[i-1])
	}
	return spacing
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

// unitsBetween is the table's ConsumedThroughputUnits, 3 × write units + read units, in [from, to): what
// the most accessed keys rule counts in the same time; ok is false when no consumed-capacity datapoint lies
// there.
func (s *metricSeries) unitsBetween(from, to int64) (float64, bool) {
	units, ok := 0.0, false
	for id, weight := range map[string]float64{QueryConsumedWriteUnits: WriteUnitWeight, QueryConsumedReadUnits: 1} {
		for t, v := range s.points[id] {
			if t >= from && t < to {
				units += weight * v
				ok = true
			}
		}
	}
	return units, ok
}

func (s *metricSeries) throttles() Throttles {
	return Throttles{
		Read: s.total(QueryReadThrottles), Write: s.total(QueryWriteThrottles),
		ReadKeyRange: s.total(QueryReadKeyRangeThrottles), WriteKeyRange: s.total(QueryWriteKeyRangeThrottles),
		ReadProvisioned: s.total(QueryReadProvisionedThrottles), WriteProvisioned: s.total(QueryWriteProvisionedThrottles),
		ReadMaxOnDemand: s.total(QueryReadMaxOnDemandThrottles), WriteMaxOnDemand: s.total(QueryWriteMaxOnDemandThrottles),
		ReadAccountLimit: s.total(QueryReadAccountLimitThrottles), WriteAccountLimit: s.total(QueryWriteAccountLimitThrottles),
	}
}

func finiteNonNegative(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }
