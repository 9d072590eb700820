package observed

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// MaxGSIPartitionKeyAttributes is the most attributes a GSI's partition key has (DynamoDB Developer Guide,
// "Multi-attribute keys pattern"): a report lists at most that many key values per contributor. It is the
// bundle's max_gsi_key_attributes (policies/dynamokeys/source/data.json), the limit the design rules use.
var MaxGSIPartitionKeyAttributes = int(policies.Bundle.Limits.MaxGSIKeyAttributes)

// MaxTopKeys is how many accessed keys, and how many keys seen only as throttled, an observation lists: as
// many as one report returns for DynamoDB's rules (GetInsightRuleReport's MaxContributorCount, at most 25
// for them; "CloudWatch Contributor Insights for DynamoDB: How it works").
const MaxTopKeys = 25

// insightReport is the output of get-insight-rule-report (CloudWatch API Reference, GetInsightRuleReport,
// "Response Syntax").
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
	Maximum             *float64        `json:"Maximum"`
	UniqueContributors  *float64        `json:"UniqueContributors"`
}

// reportSet is one rule's reports joined: each report covers at most a day, a window of several days is
// read as several reports.
type reportSet struct {
	keyLabels []string
	// busiest is the largest MaxContributorValue of any period and when it was; busiestKnown is false when
	// no report gave the statistic.
	busiest      float64
	busiestAt    int64
	busiestKnown bool
	// keys are each contributor's largest per-period value and its sum over the reports.
	keys         map[string]*keyFigures
	timestamps   []int64
	contributors int
}

type keyFigures struct {
	peakAt    int64
	peakValue float64
	total     float64
}

// parseReports reads one rule's reports (one, a list, or outputs concatenated) and checks each. A most
// accessed keys report set must name at least one contributor; a most throttled keys report without
// contributors means nothing was throttled.
func parseReports(raw []byte, accessed bool) (*reportSet, error) {
	docs, err := splitDocuments(raw)
	if err != nil {
		return nil, err
	}
	set := &reportSet{keys: map[string]*keyFigures{}}
	for n, doc := range docs {
		var r insightReport
		if err := decodeDocument(doc, &r); err != nil {
			return nil, inDocument(n, len(docs), err)
		}
		if r.Contributors == nil {
			return nil, inDocument(n, len(docs), notTheOutput(doc, "get-insight-rule-report", "Contributors", exportKinds[0]))
		}
		if err := set.add(&r, n == 0); err != nil {
			return nil, inDocument(n, len(docs), err)
		}
	}
	if accessed && set.contributors == 0 {
		return nil, errors.New("lists no contributors: Contributor Insights saw no request in the window, or the report is of another rule. " +
			"Export the DynamoDBContributorInsights-PKC-… rule of the table (or index) over the same window as metric_data")
	}
	return set, nil
}

func (set *reportSet) add(r *insightReport, first bool) error {
	switch {
	case first:
		set.keyLabels = r.KeyLabels
	case len(r.KeyLabels) != len(set.keyLabels):
		return fmt.Errorf("lists %d key labels (%s), the first report %d (%s): join reports of one rule only",
			len(r.KeyLabels), strings.Join(r.KeyLabels, ", "), len(set.keyLabels), strings.Join(set.keyLabels, ", "))
	}
	if len(r.KeyLabels) > MaxGSIPartitionKeyAttributes {
		return fmt.Errorf("lists %d key labels (%s): a partition key has at most %d attributes, so this is not a report of a partition-key rule",
			len(r.KeyLabels), strings.Join(r.KeyLabels, ", "), MaxGSIPartitionKeyAttributes)
	}
	if r.AggregateValue != nil && !finiteNonNegative(*r.AggregateValue) {
		return fmt.Errorf("has AggregateValue %v: a sum of units or events is a finite number ≥ 0", *r.AggregateValue)
	}
	for i, d := range r.MetricDatapoints {
		t, err := parseTimestamp(d.Timestamp)
		if err != nil {
			return fmt.Errorf("MetricDatapoints[%d] Timestamp: %w", i, err)
		}
		for name, v := range map[string]*float64{"MaxContributorValue": d.MaxContributorValue, "Maximum": d.Maximum, "UniqueContributors": d.UniqueContributors} {
			if v != nil && !finiteNonNegative(*v) {
				return fmt.Errorf("MetricDatapoints[%d] has %s %v: a finite number ≥ 0 belongs there", i, name, *v)
			}
		}
		set.timestamps = append(set.timestamps, t.Unix())
		if v := d.MaxContributorValue; v != nil && (!set.busiestKnown || *v > set.busiest) {
			set.busiest, set.busiestAt, set.busiestKnown = *v, t.Unix(), true
		}
	}
	for i, c := range *r.Contributors {
		switch {
		case len(c.Keys) == 0:
			return fmt.Errorf("has Contributors[%d] without Keys: every contributor names its partition-key value", i)
		case len(r.KeyLabels) > 0 && len(c.Keys) != len(r.KeyLabels):
			return fmt.Errorf("has Contributors[%d] with %d keys but %d KeyLabels", i, len(c.Keys), len(r.KeyLabels))
		case c.ApproximateAggregateValue == nil:
			return fmt.Errorf("has Contributors[%d] (%s) without ApproximateAggregateValue", i, contributorKey(c))
		case !finiteNonNegative(*c.ApproximateAggregateValue):
			return fmt.Errorf("has Contributors[%d] (%s) with ApproximateAggregateValue %v: a finite number ≥ 0 belongs there", i, contributorKey(c), *c.ApproximateAggregateValue)
		}
		k := contributorKey(c)
		f := set.keys[k]
		if f == nil {
			f = &keyFigures{peakValue: -1}
			set.keys[k] = f
		}
		f.total += *c.ApproximateAggregateValue
		if math.IsInf(f.total, 0) {
			return fmt.Errorf("has Contributors[%d] (%s) whose ApproximateAggregateValue, summed over the reports, is more than a finite number: "+
				"the values are too large to be units or events", i, k)
		}
		for j, d := range c.Datapoints {
			if d.ApproximateValue == nil || !finiteNonNegative(*d.ApproximateValue) {
				return fmt.Errorf("has Contributors[%d] (%s) Datapoints[%d] without a finite ApproximateValue ≥ 0", i, k, j)
			}
			t, err := parseTimestamp(d.Timestamp)
			if err != nil {
				return fmt.Errorf("has Contributors[%d] (%s) Datapoints[%d] with a bad Timestamp: %w", i, k, j, err)
			}
			set.timestamps = append(set.timestamps, t.Unix())
			if *d.ApproximateValue > f.peakValue {
				f.peakValue, f.peakAt = *d.ApproximateValue, t.Unix()
			}
		}
		set.contributors++
	}
	return nil
}

// contributorKey is the partition-key value of a contributor; a multi-attribute GSI key lists one value per
// attribute, joined with ", ".
func contributorKey(c insightContributor) string { return strings.Join(c.Keys, ", ") }

// period is the spacing of the reports' datapoints in seconds, the greatest common divisor of the gaps
// between them, and how many distinct timestamps it rests on.
func (set *reportSet) period() (spacing int64, points int) {
	ts := slices.Compact(slices.Sorted(slices.Values(set.timestamps)))
	return spacingOf(ts), len(ts)
}

// keyFacts lists the accessed keys by their busiest minute's units per second, then the keys that were only
// throttled, most throttled first, and the busiest key's units per second and when.
func keyFacts(accessed, throttled *reportSet, period int64) (keys []Key, hotUnits *float64, hotAt int64) {
	throttles := map[string]float64{}
	if throttled != nil {
		for k, f := range throttled.keys {
			throttles[k] = f.total
		}
	}
	keys = []Key{}
	if accessed != nil {
		names := slices.Collect(maps.Keys(accessed.keys))
		peakOf := func(k string) float64 { return math.Max(0, accessed.keys[k].peakValue) }
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(cmp.Compare(peakOf(b), peakOf(a)), cmp.Compare(accessed.keys[b].total, accessed.keys[a].total), strings.Compare(a, b))
		})
		for _, k := range names[:min(len(names), MaxTopKeys)] {
			keys = append(keys, Key{Key: k, UnitsPerSecond: ptr(peakOf(k) / float64(period)), ThrottleEvents: throttles[k]})
		}
		// The busiest key's value is MaxContributorValue, the one statistic AWS defines for it; without it,
		// the largest contributor datapoint.
		busiest, at := peakOf(names[0]), accessed.keys[names[0]].peakAt
		if accessed.busiestKnown && accessed.busiest >= busiest {
			busiest, at = accessed.busiest, accessed.busiestAt
		}
		hotUnits, hotAt = ptr(busiest/float64(period)), at
	}
	var onlyThrottled []Key
	for k, n := range throttles {
		if accessed == nil || accessed.keys[k] == nil {
			onlyThrottled = append(onlyThrottled, Key{Key: k, ThrottleEvents: n})
		}
	}
	slices.SortFunc(onlyThrottled, func(a, b Key) int {
		return cmp.Or(cmp.Compare(b.ThrottleEvents, a.ThrottleEvents), strings.Compare(a.Key, b.Key))
	})
	return append(keys, onlyThrottled[:min(len(onlyThrottled), MaxTopKeys)]...), hotUnits, hotAt
}
