package awsstub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Series is a rate over time: a key's capacity units per second, or events per minute, during the minute
// that starts at t.
type Series func(t time.Time) float64

// Constant is the same value every minute.
func Constant(v float64) Series { return func(time.Time) float64 { return v } }

// DailyPeak is base every minute, and peak during the hour that starts at peakHour (UTC) each day.
func DailyPeak(base, peak float64, peakHour int) Series {
	return func(t time.Time) float64 {
		if t.UTC().Hour() == peakHour {
			return peak
		}
		return base
	}
}

// Workload is the traffic of a table or index, generated in DynamoDB's units: per key and minute the write
// and read capacity units per second it consumed and the requests of it that were throttled, and the
// throttle events by cause. Everything CloudWatch reports is derived from it (DynamoDB Developer Guide,
// "DynamoDB Metrics and dimensions"; "CloudWatch Contributor Insights for DynamoDB: How it works"):
//   - ConsumedWriteCapacityUnits / ConsumedReadCapacityUnits: per minute, the Sum of every key's units
//     (rate × 60);
//   - the most accessed keys rule (-PKC-): per key and minute, ConsumedThroughputUnits = 3 × write units +
//     read units;
//   - the most throttled keys rule (-PKT-): per key and minute, its throttled requests;
//   - the throttle metrics by cause from Throttles, and Read/WriteThrottleEvents as the sum of the causes.
type Workload struct {
	// Start is the first minute with traffic; Minutes how many follow.
	Start   time.Time
	Minutes int
	// KeyLabels are the rule's key labels, one per partition-key attribute.
	KeyLabels []string
	Keys      []KeyLoad
	// Throttles are events per minute by metric name, e.g. "WriteKeyRangeThroughputThrottleEvents".
	Throttles map[string]Series

	// reports holds the reports answered: a data source reads the same window on each plan, and a report of
	// a day sums every key's every minute of it. A workload does not change once served.
	reportsMu sync.Mutex
	reports   map[reportRequest]map[string]any
}

// reportRequest is what a report depends on: the request and the minutes of the window CloudWatch still
// holds (the first and how many), which is how the clock enters it.
type reportRequest struct {
	throttled          bool
	start, period      int64
	maxContributors    int
	orderBy, metrics   string
	firstMinute, count int64
}

// KeyLoad is one partition-key value's traffic.
type KeyLoad struct {
	// Key has one value per key label.
	Key []string
	// WCU and RCU are the capacity units per second the key consumed; nil is none.
	WCU, RCU Series
	// Throttled are the key's throttled requests per minute; nil is none.
	Throttled Series
}

// Spread is n keys named prefix0..prefix(n-1) that share the rates equally.
func Spread(n int, prefix string, wcu, rcu Series) []KeyLoad {
	keys := make([]KeyLoad, n)
	for i := range keys {
		keys[i] = KeyLoad{Key: []string{prefix + strconv.Itoa(i)},
			WCU: func(t time.Time) float64 { return wcu(t) / float64(n) }, RCU: func(t time.Time) float64 { return rcu(t) / float64(n) }}
	}
	return keys
}

func at(s Series, t time.Time) float64 {
	if s == nil {
		return 0
	}
	return s(t)
}

// throttleCauses are the per-cause metrics of each side.
var throttleCauses = map[string][]string{
	"ReadThrottleEvents":  {"ReadKeyRangeThroughputThrottleEvents", "ReadProvisionedThroughputThrottleEvents", "ReadMaxOnDemandThroughputThrottleEvents", "ReadAccountLimitThrottleEvents"},
	"WriteThrottleEvents": {"WriteKeyRangeThroughputThrottleEvents", "WriteProvisionedThroughputThrottleEvents", "WriteMaxOnDemandThroughputThrottleEvents", "WriteAccountLimitThrottleEvents"},
}

// metricValue is a metric's one-minute Sum at minute t; ok is false when CloudWatch publishes no datapoint
// for it (no traffic, no event).
func (w *Workload) metricValue(metric string, t time.Time) (float64, bool) {
	sum := 0.0
	switch metric {
	case "ConsumedWriteCapacityUnits", "ConsumedReadCapacityUnits":
		for _, k := range w.Keys {
			if metric == "ConsumedWriteCapacityUnits" {
				sum += at(k.WCU, t) * 60
			} else {
				sum += at(k.RCU, t) * 60
			}
		}
	case "ReadThrottleEvents", "WriteThrottleEvents":
		for _, c := range throttleCauses[metric] {
			sum += at(w.Throttles[c], t)
		}
	default:
		sum = at(w.Throttles[metric], t)
	}
	return sum, sum > 0
}

// MetricTotal is the sum of a metric's one-minute Sums over the workload's minutes in [from, to): the units
// (or events) CloudWatch would report for that window, for tests to compare averages and totals with.
func (w *Workload) MetricTotal(metric string, from, to time.Time) float64 {
	total := 0.0
	for i := range w.Minutes {
		t := w.Start.Add(time.Duration(i) * time.Minute)
		if t.Before(from) || !t.Before(to) {
			continue
		}
		if v, ok := w.metricValue(metric, t); ok {
			total += v
		}
	}
	return total
}

// ruleValue is what a rule counts for a key in minute t.
func ruleValue(k KeyLoad, throttled bool, t time.Time) float64 {
	if throttled {
		return at(k.Throttled, t)
	}
	return (3*at(k.WCU, t) + at(k.RCU, t)) * 60
}

// minutes are the workload's minutes in [from, to) that CloudWatch still holds at now.
func (w *Workload) minutes(from, to, now time.Time) []time.Time {
	var out []time.Time
	oldest := now.Add(-oneMinuteRetention)
	for i := range w.Minutes {
		t := w.Start.Add(time.Duration(i) * time.Minute)
		if !t.Before(from) && t.Before(to) && !t.Before(oldest) && !t.After(now) {
			out = append(out, t)
		}
	}
	return out
}

type point struct {
	t time.Time
	v float64
}

// getMetricData answers the queries for [StartTime, EndTime), newest first (ScanBy's default), at most
// MaxDatapoints (and PageSize) datapoints a page over all queries.
func (s *Server) getMetricData(in map[string]any) (map[string]any, error) {
	queries, _ := in["MetricDataQueries"].([]any)
	if len(queries) == 0 || len(queries) > maxMetricDataQueries {
		return nil, fmt.Errorf("MetricDataQueries has %d queries; 1 to %d are allowed", len(queries), maxMetricDataQueries)
	}
	limit := maxMetricDatapoints
	if v, ok := in["MaxDatapoints"].(float64); ok {
		if v < 1 || v > maxMetricDatapoints {
			return nil, fmt.Errorf("MaxDatapoints %v is outside 1..%d", v, maxMetricDatapoints)
		}
		limit = int(v)
	}
	if s.PageSize > 0 {
		limit = min(limit, s.PageSize)
	}
	start, _ := in["StartTime"].(time.Time)
	end, _ := in["EndTime"].(time.Time)
	if !start.Before(end) {
		return nil, fmt.Errorf("StartTime %s is not before EndTime %s", start, end)
	}
	offset := 0
	if tok, ok := in["NextToken"].(string); ok {
		offset, _ = strconv.Atoi(tok)
	}
	type series struct {
		id, metric string
		points     []point
	}
	var all []series
	ids := map[string]bool{}
	for _, q := range queries {
		qm, _ := q.(map[string]any)
		id, _ := qm["Id"].(string)
		stat, _ := qm["MetricStat"].(map[string]any)
		period, _ := stat["Period"].(float64)
		statistic, _ := stat["Stat"].(string)
		if err := checkMetricQuery(id, period, statistic); err != nil {
			return nil, err
		}
		if ids[id] {
			return nil, fmt.Errorf("query id %s appears twice", id)
		}
		ids[id] = true
		metric, _ := stat["Metric"].(map[string]any)
		name, _ := metric["MetricName"].(string)
		sr := series{id: id, metric: name}
		if w := s.Workloads[dimensionsKey(metric["Dimensions"])]; w != nil && metric["Namespace"] == "AWS/DynamoDB" {
			if int64(period) != regularResolutionPeriod || statistic != "Sum" {
				return nil, fmt.Errorf("query %s: the stand-in serves one-minute Sums (Period 60, Stat Sum), got Period %v, Stat %s", id, period, statistic)
			}
			for _, t := range w.minutes(start, end, s.Now()) {
				if v, ok := w.metricValue(name, t); ok {
					sr.points = append(sr.points, point{t, v})
				}
			}
			slices.Reverse(sr.points)
		}
		all = append(all, sr)
	}
	results := []any{}
	seen, more := 0, false
	for _, sr := range all {
		var ts, vs []any
		for _, p := range sr.points {
			if seen >= offset && seen < offset+limit {
				ts, vs = append(ts, p.t), append(vs, p.v)
			}
			seen++
		}
		status := "Complete"
		if seen > offset+limit {
			more, status = true, "PartialData"
		}
		results = append(results, map[string]any{"Id": sr.id, "Label": sr.metric, "Timestamps": orEmptyList(ts), "Values": orEmptyList(vs), "StatusCode": status})
	}
	out := map[string]any{"MetricDataResults": results, "Messages": []any{}}
	if more {
		out["NextToken"] = strconv.Itoa(offset + limit)
	}
	return out, nil
}

func orEmptyList(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// getInsightRuleReport answers a report of a rule of Insights from the workload of its table or index.
func (s *Server) getInsightRuleReport(in map[string]any) (any, error) {
	rule, _ := in["RuleName"].(string)
	start, _ := in["StartTime"].(time.Time)
	end, _ := in["EndTime"].(time.Time)
	period, _ := in["Period"].(float64)
	maxContributors, hasMax := in["MaxContributorCount"].(float64)
	if !hasMax {
		maxContributors = maxContributorCount
	}
	orderBy, _ := in["OrderBy"].(string)
	var metrics []string
	if list, ok := in["Metrics"].([]any); ok {
		for _, m := range list {
			name, _ := m.(string)
			metrics = append(metrics, name)
		}
	}
	if err := s.checkReportRequest(rule, start, end, period, maxContributors, metrics, orderBy); err != nil {
		return nil, err
	}
	var w *Workload
	for target, ins := range s.Insights {
		if ins.Status == "ENABLED" && slices.Contains(ins.Rules, rule) {
			w = s.Workloads[target]
		}
	}
	throttled := strings.HasPrefix(rule, dynamoDBRulePrefix+"PKT-")
	if w == nil || (!throttled && !strings.HasPrefix(rule, dynamoDBRulePrefix+"PKC-")) {
		return nil, fmt.Errorf("no rule %s (the stand-in serves the -PKC- and -PKT- rules of enabled tables and indexes)", rule)
	}
	return w.report(throttled, start, end, s.Now(), int64(period), int(maxContributors), orderBy, metrics), nil
}

// report is a rule's report: per period of [start, end), each key's sum of what the rule counts;
// MaxContributorValue is the largest of them, UniqueContributors how many keys had any; the contributors
// are the top maxContributors by OrderBy (Sum over the window, or the largest period).
func (w *Workload) report(throttled bool, start, end, now time.Time, period int64, maxContributors int, orderBy string, metrics []string) map[string]any {
	minutes := w.minutes(start, end, now)
	req := reportRequest{throttled: throttled, start: start.Unix(), period: period, maxContributors: maxContributors,
		orderBy: orderBy, metrics: strings.Join(metrics, ","), count: int64(len(minutes))}
	if len(minutes) > 0 {
		req.firstMinute = minutes[0].Unix()
	}
	w.reportsMu.Lock()
	defer w.reportsMu.Unlock()
	if r, ok := w.reports[req]; ok {
		return r
	}
	r := w.computeReport(throttled, start, minutes, period, maxContributors, orderBy, metrics)
	if w.reports == nil {
		w.reports = map[reportRequest]map[string]any{}
	}
	w.reports[req] = r
	return r
}

// computeReport is report's answer for the window's minutes.
func (w *Workload) computeReport(throttled bool, start time.Time, minutes []time.Time, period int64, maxContributors int, orderBy string, metrics []string) map[string]any {
	type contributor struct {
		key          []string
		total, peak  float64
		periodValues map[int64]float64
	}
	byKey := make([]*contributor, len(w.Keys))
	for i, k := range w.Keys {
		byKey[i] = &contributor{key: k.Key, periodValues: map[int64]float64{}}
	}
	for _, t := range minutes {
		p := start.Unix() + (t.Unix()-start.Unix())/period*period
		for i, k := range w.Keys {
			if v := ruleValue(k, throttled, t); v > 0 {
				byKey[i].periodValues[p] += v
				byKey[i].total += v
			}
		}
	}
	aggregate, unique := 0.0, 0
	periods := map[int64]bool{}
	for _, c := range byKey {
		aggregate += c.total
		if c.total > 0 {
			unique++
		}
		for p, v := range c.periodValues {
			periods[p] = true
			c.peak = max(c.peak, v)
		}
	}
	var datapoints []any
	for _, p := range slices.Sorted(mapsKeys(periods)) {
		dp := map[string]any{"Timestamp": time.Unix(p, 0).UTC()}
		most, count := 0.0, 0
		for _, c := range byKey {
			if v := c.periodValues[p]; v > 0 {
				most, count = max(most, v), count+1
			}
		}
		// Maximum (a single log event's largest value) needs requests, which the workload does not model:
		// the stand-in leaves it out, and the reader does not use it.
		for _, m := range metrics {
			switch m {
			case "MaxContributorValue":
				dp[m] = most
			case "UniqueContributors":
				dp[m] = float64(count)
			}
		}
		datapoints = append(datapoints, dp)
	}
	ranked := slices.DeleteFunc(slices.Clone(byKey), func(c *contributor) bool { return c.total == 0 })
	slices.SortStableFunc(ranked, func(a, b *contributor) int {
		if orderBy == "Maximum" {
			return cmp.Or(cmp.Compare(b.peak, a.peak), cmp.Compare(b.total, a.total))
		}
		return cmp.Or(cmp.Compare(b.total, a.total), cmp.Compare(b.peak, a.peak))
	})
	contributors := []any{}
	for _, c := range ranked[:min(len(ranked), maxContributors)] {
		var points []any
		for _, p := range slices.Sorted(mapsKeys(c.periodValues)) {
			points = append(points, map[string]any{"Timestamp": time.Unix(p, 0).UTC(), "ApproximateValue": c.periodValues[p]})
		}
		keys := make([]any, len(c.key))
		for i, k := range c.key {
			keys[i] = k
		}
		contributors = append(contributors, map[string]any{"Keys": keys, "ApproximateAggregateValue": c.total, "Datapoints": orEmptyList(points)})
	}
	labels := make([]any, len(w.KeyLabels))
	for i, l := range w.KeyLabels {
		labels[i] = l
	}
	return map[string]any{"KeyLabels": labels, "AggregationStatistic": "Sum", "AggregateValue": aggregate,
		"ApproximateUniqueCount": float64(unique), "Contributors": contributors, "MetricDatapoints": orEmptyList(datapoints)}
}

func mapsKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// CLIOutputs are what the guide's AWS CLI commands print for a table or index over [start, end): the
// output of get-metric-data with the query file (the CLI joins the pages), and the outputs of
// get-insight-rule-report for the -PKC- and -PKT- rules, one per day of the window, concatenated as
// `cat` joins the files. A report is nil when the rule is not enabled.
func (s *Server) CLIOutputs(target string, start, end time.Time, metrics []string) (metricData, accessed, throttled []byte, err error) {
	w := s.Workloads[target]
	if w == nil {
		return nil, nil, nil, fmt.Errorf("no workload %s", target)
	}
	var results []any
	for _, m := range metrics {
		id, metric, _ := strings.Cut(m, "=")
		var ts, vs []any
		for _, t := range slices.Backward(w.minutes(start, end, s.Now())) {
			if v, ok := w.metricValue(metric, t); ok {
				ts, vs = append(ts, cliTime(t)), append(vs, v)
			}
		}
		results = append(results, map[string]any{"Id": id, "Label": metric, "Timestamps": orEmptyList(ts), "Values": orEmptyList(vs), "StatusCode": "Complete"})
	}
	if metricData, err = json.MarshalIndent(map[string]any{"MetricDataResults": results, "Messages": []any{}}, "", "  "); err != nil {
		return nil, nil, nil, err
	}
	ins := s.Insights[target]
	for _, rule := range ins.Rules {
		isThrottled := strings.HasPrefix(rule, dynamoDBRulePrefix+"PKT-")
		if ins.Status != "ENABLED" || (!isThrottled && !strings.HasPrefix(rule, dynamoDBRulePrefix+"PKC-")) {
			continue
		}
		var joined []byte
		for from := start; from.Before(end); from = from.Add(maxReportWindow) {
			to := from.Add(maxReportWindow)
			if to.After(end) {
				to = end
			}
			r := w.report(isThrottled, from, to, s.Now(), regularResolutionPeriod, maxDynamoDBContributors, "Maximum", []string{"MaxContributorValue", "Maximum", "UniqueContributors"})
			b, err := json.MarshalIndent(cliTimes(r), "", "  ")
			if err != nil {
				return nil, nil, nil, err
			}
			joined = append(append(joined, b...), '\n')
		}
		if isThrottled {
			throttled = joined
		} else {
			accessed = joined
		}
	}
	return metricData, accessed, throttled, nil
}

// cliTime is a timestamp as the AWS CLI prints it: 2026-11-30T11:59:00+00:00.
func cliTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05-07:00") }

// cliTimes rewrites every time.Time of an answer the way the CLI prints it.
func cliTimes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = cliTimes(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cliTimes(e)
		}
		return out
	case time.Time:
		return cliTime(v)
	}
	return v
}
