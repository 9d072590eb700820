package observed

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
)

// Export is what the figures are computed from: the outputs of `aws cloudwatch get-metric-data` and of
// `aws cloudwatch get-insight-rule-report` for the most accessed and the most throttled keys rules, as the
// AWS CLI prints them (the live path builds the same JSON from the API's answers). Each attribute takes one
// output or several (a JSON list, or outputs concatenated): a report covers at most 24 hours, so a longer
// window is several reports. The reports are optional: without them the key figures are nil.
type Export struct {
	TableName           string
	IndexName           string
	MetricData          []byte
	AccessedKeysReport  []byte
	ThrottledKeysReport []byte
	// ReportPeriodSeconds is the period the reports were asked for, when known (the live path asks for
	// MetricPeriodSeconds); 0 for an offline export, whose period is told from its datapoints.
	ReportPeriodSeconds int64
	// Start and End are the window the metrics were asked for, when known (the live path): the averages
	// spread the window's units over it, idle minutes included, since CloudWatch publishes no datapoint for
	// a minute without traffic. Zero for an offline export, whose output does not say the window it was
	// asked for: the averages then spread over the span of the datapoints, and the report says so.
	Start, End time.Time
}

// The attributes the exports arrive in; problems name them.
const (
	AttrMetricData          = "metric_data"
	AttrAccessedKeysReport  = "accessed_keys_report"
	AttrThrottledKeysReport = "throttled_keys_report"
)

// Observe checks the exports and computes the observation. Bad input comes back as errors on the attribute
// that holds it, and then there is no observation; a short window, partial data or a coarse period are warnings.
func Observe(e Export) (obs *Observation, warnings, errs []*Problem) {
	fail := func(attr, format string, args ...any) {
		errs = append(errs, &Problem{Attribute: attr, Message: fmt.Sprintf(format, args...)})
	}
	warn := func(attr, format string, args ...any) {
		warnings = append(warnings, &Problem{Attribute: attr, Message: fmt.Sprintf(format, args...)})
	}
	series, err := parseMetricData(e.MetricData)
	if err != nil {
		fail(AttrMetricData, "%v", err)
	}
	var accessed, throttled *reportSet
	if len(bytes.TrimSpace(e.AccessedKeysReport)) > 0 {
		if accessed, err = parseReports(e.AccessedKeysReport, true); err != nil {
			fail(AttrAccessedKeysReport, "%v", err)
		}
	}
	if len(bytes.TrimSpace(e.ThrottledKeysReport)) > 0 {
		if throttled, err = parseReports(e.ThrottledKeysReport, false); err != nil {
			fail(AttrThrottledKeysReport, "%v", err)
		}
	}
	if accessed != nil && throttled != nil && bytes.Equal(bytes.TrimSpace(e.AccessedKeysReport), bytes.TrimSpace(e.ThrottledKeysReport)) {
		fail(AttrThrottledKeysReport, "is the same report as accessed_keys_report: one of them is of another rule. Give the -PKC- rule's report as "+
			"accessed_keys_report and the -PKT- rule's as throttled_keys_report")
	}
	labels := func(attr string, set *reportSet) {
		switch {
		case set == nil:
		case e.IndexName == "" && len(set.keyLabels) > 1:
			fail(attr, "lists %d key values per contributor (%s), but a table's partition key is one attribute: this is a report of another rule kind, "+
				"the partition-and-sort-key rule (DynamoDBContributorInsights-SKC-… or -SKT-…). Export the -PKC- (accessed) or -PKT- (throttled) rule",
				len(set.keyLabels), strings.Join(set.keyLabels, ", "))
		}
	}
	labels(AttrAccessedKeysReport, accessed)
	labels(AttrThrottledKeysReport, throttled)
	if accessed != nil && throttled != nil && len(accessed.keyLabels) != len(throttled.keyLabels) {
		fail(AttrThrottledKeysReport, "lists %d key values per contributor and accessed_keys_report %d: give the -PKC- and -PKT- rules of the same table or index",
			len(throttled.keyLabels), len(accessed.keyLabels))
	}
	if !e.Start.IsZero() || !e.End.IsZero() {
		if !e.End.After(e.Start) {
			fail(AttrMetricData, "was asked for the window %s to %s, which ends before it starts", e.Start.UTC().Format(time.RFC3339), e.End.UTC().Format(time.RFC3339))
		}
	}
	if len(errs) > 0 {
		return nil, warnings, errs
	}

	obs = &Observation{TableName: e.TableName, IndexName: e.IndexName}
	window, w := series.window(e.Start, e.End)
	for _, msg := range w {
		warn(AttrMetricData, "%s", msg)
	}
	obs.Window = window.Window
	obs.AverageOverSpan = window.span
	obs.Complete = window.complete
	if !window.complete {
		warn(AttrMetricData, "the window is incomplete (%s): peaks and throttle counts cover only the datapoints CloudWatch returned", window.why)
	}
	if window.length < MinWindow {
		warn(AttrMetricData, "the window covers %s, less than an hour: a short window may miss the busiest time; export at least a day "+
			"(the live lookback defaults to 14 days)", window.length)
	}
	obs.Traffic.WritesPerSecond = series.peakPerSecond(QueryConsumedWriteUnits)
	obs.Traffic.ReadsPerSecond = series.peakPerSecond(QueryConsumedReadUnits)
	obs.Traffic.AverageWritesPerSecond = perSecondOver(series.total(QueryConsumedWriteUnits), window.length)
	obs.Traffic.AverageReadsPerSecond = perSecondOver(series.total(QueryConsumedReadUnits), window.length)
	obs.ThrottleEvents = series.throttles()
	if accessed == nil && throttled == nil {
		return obs, warnings, nil
	}
	period := reportPeriod(e, accessed, warn)
	var hotAt int64
	obs.TopKeys, obs.Traffic.HotKeyUnitsPerSecond, hotAt = keyFacts(accessed, throttled, period)
	if obs.Traffic.HotKeyUnitsPerSecond != nil {
		if units, ok := series.unitsBetween(hotAt, hotAt+period); ok && units > 0 && !math.IsInf(units, 0) {
			obs.Traffic.HotKeyUnitShare = ptr(math.Min(1, *obs.Traffic.HotKeyUnitsPerSecond*float64(period)/units))
		}
	}
	set := accessed
	if set == nil {
		set = throttled
	}
	if len(set.keyLabels) > 0 {
		obs.KeyAttributes = ptr(int64(len(set.keyLabels)))
	}
	return obs, warnings, nil
}

// reportPeriod is the period of the most accessed keys reports: the one asked for when the export says it
// (the live path); else MetricPeriodSeconds, unless the datapoints show a coarser one. A key active only
// every few minutes leaves datapoints as far apart as a coarser period would, so a coarser period is taken
// only on as much evidence as the metrics need (coarsePeriodMinPoints datapoints), and a spacing it cannot
// tell is a warning.
func reportPeriod(e Export, accessed *reportSet, warn func(attr, format string, args ...any)) int64 {
	if e.ReportPeriodSeconds > 0 {
		return e.ReportPeriodSeconds
	}
	if accessed == nil {
		return MetricPeriodSeconds
	}
	spacing, points := accessed.period()
	switch {
	case points < 2:
		warn(AttrAccessedKeysReport, "has no two datapoints to tell its period from: the busiest key's units per second assume one-minute periods "+
			"(export with --period %d)", MetricPeriodSeconds)
	case spacing == MetricPeriodSeconds:
	case spacing%MetricPeriodSeconds == 0 && points >= coarsePeriodMinPoints:
		warn(AttrAccessedKeysReport, "has datapoints %d seconds apart: the busiest key's units per second average each %d-second period and can be "+
			"up to %d times lower at its busiest minute; export with --period %d", spacing, spacing, spacing/MetricPeriodSeconds, MetricPeriodSeconds)
		return spacing
	case spacing%MetricPeriodSeconds == 0:
		warn(AttrAccessedKeysReport, "has %d datapoints, %d seconds apart or a multiple of that: too few to tell a report made with --period %d from "+
			"keys active only every few minutes, so the busiest key's units per second assume one-minute periods, and are up to %d times too high "+
			"if the report was made with --period %d. Export with --period %d",
			points, spacing, spacing, spacing/MetricPeriodSeconds, spacing, MetricPeriodSeconds)
	default:
		warn(AttrAccessedKeysReport, "has datapoints %d seconds apart, not whole minutes: the busiest key's units per second assume one-minute "+
			"periods (export with --period %d)", spacing, MetricPeriodSeconds)
	}
	return MetricPeriodSeconds
}
