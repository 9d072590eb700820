package observed

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// reportTopKeys is how many of the busiest keys a report lists.
const reportTopKeys = 5

// causeLabels name the throttle causes for people, with the metric each comes from.
var causeLabels = map[string]string{
	CauseKeyRange:     "key range: a partition over its throughput (…KeyRangeThroughputThrottleEvents)",
	CauseProvisioned:  "provisioned capacity (…ProvisionedThroughputThrottleEvents)",
	CauseMaxOnDemand:  "on-demand maximum (…MaxOnDemandThroughputThrottleEvents)",
	CauseAccountLimit: "account limit (…AccountLimitThrottleEvents)",
}

// CauseLabel names a throttle cause for people.
func CauseLabel(cause string) string { return causeLabels[cause] }

// Report renders an observation as text for `terraform output`: the window, the peaks, the busiest keys and
// the throttling by cause.
func Report(o *Observation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dynamokeys measured traffic: %s\n\n", Target(o))
	Write(&b, o)
	return b.String()
}

// Target names the table or index an observation is of.
func Target(o *Observation) string {
	name := cmp.Or(o.TableName, "table")
	if o.IndexName != "" {
		return fmt.Sprintf("%s, index %s", name, o.IndexName)
	}
	return name
}

// Write adds the lines of an observation to a report.
func Write(b *strings.Builder, o *Observation) {
	complete := "complete"
	if !o.Complete {
		complete = "incomplete: CloudWatch returned partial data or not every page"
	}
	fmt.Fprintf(b, "  window %s to %s, %d one-minute datapoints (%s)\n", o.Window.Start, o.Window.End, o.Window.Datapoints, complete)
	for _, side := range []struct {
		label string
		v     *float64
		unit  string
	}{{"writes", o.Traffic.WritesPerSecond, "WCU"}, {"reads ", o.Traffic.ReadsPerSecond, "RCU"}} {
		if side.v != nil {
			fmt.Fprintf(b, "  peak %s %s %s/s (busiest minute / 60)\n", side.label, units(*side.v), side.unit)
		}
	}
	if o.Traffic.AverageWritesPerSecond != nil || o.Traffic.AverageReadsPerSecond != nil {
		basis := "over the window, idle minutes included"
		if o.AverageOverSpan {
			basis = "over the span of the datapoints: the export does not say the window it was asked for, so idle minutes before the first " +
				"datapoint and after the last are not counted"
		}
		fmt.Fprintf(b, "  average %s WCU/s, %s RCU/s (%s)\n", average(o.Traffic.AverageWritesPerSecond), average(o.Traffic.AverageReadsPerSecond), basis)
	}
	if t := o.ThrottleEvents; t.Read != nil || t.Write != nil {
		fmt.Fprintf(b, "  throttle events: %s read, %s write\n", count(t.Read), count(t.Write))
		for _, c := range t.Causes() {
			if c.Read != nil || c.Write != nil {
				fmt.Fprintf(b, "    %s read, %s write: %s\n", count(c.Read), count(c.Write), causeLabels[c.Cause])
			}
		}
	}
	if o.TopKeys == nil {
		b.WriteString("  no key figures: turn on Contributor Insights (contributor_insights = { mode = \"ACCESSED_AND_THROTTLED_KEYS\" }, or " +
			"\"THROTTLED_KEYS\" to name throttled keys only)\n")
		return
	}
	if h := o.Traffic.HotKeyUnitsPerSecond; h != nil {
		share := ""
		if s := o.Traffic.HotKeyUnitShare; s != nil {
			share = fmt.Sprintf(", %s of the table's units that minute", percent(*s))
		}
		fmt.Fprintf(b, "  busiest key: %s units/s at its busiest minute (units = 3 × WCU + RCU; a partition serves 3,000)%s\n", units(*h), share)
	} else {
		b.WriteString("  Contributor Insights counts throttled keys only: the busiest key needs mode ACCESSED_AND_THROTTLED_KEYS\n")
	}
	for i, k := range o.TopKeys {
		if i == reportTopKeys {
			fmt.Fprintf(b, "  … and %d more keys\n", len(o.TopKeys)-reportTopKeys)
			break
		}
		demand := "throttled only"
		if k.UnitsPerSecond != nil {
			demand = units(*k.UnitsPerSecond) + " units/s at its busiest minute"
		}
		throttled := ""
		if k.ThrottleEvents > 0 {
			throttled = fmt.Sprintf(", %s throttled", thousands(k.ThrottleEvents))
		}
		fmt.Fprintf(b, "  %d. %s  %s%s\n", i+1, k.Key, demand, throttled)
	}
	if o.IndexName != "" {
		b.WriteString("  an index's throttled keys are a lower bound: its -PKT- rule does not count throttling caused by the index's own write capacity\n")
	}
}

func average(v *float64) string {
	if v == nil {
		return "not exported"
	}
	return units(*v)
}

func count(v *float64) string {
	if v == nil {
		return "not exported"
	}
	return thousands(*v)
}

// percent prints a share as a percentage: 0.625 → 62.5%.
func percent(f float64) string {
	if f != 0 && f < 0.001 {
		return "<0.1%"
	}
	return strings.TrimSuffix(strconv.FormatFloat(f*100, 'f', 1, 64), ".0") + "%"
}

// units prints a per-second figure: 2,500 or 0.04.
func units(f float64) string {
	if f != 0 && math.Abs(f) < 0.1 {
		return strconv.FormatFloat(f, 'g', 2, 64)
	}
	return thousands(f)
}

// thousands prints a number as every report and message does (textfmt.Thousands).
func thousands(f float64) string { return textfmt.Thousands(f) }
