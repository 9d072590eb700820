package keydesign

import (
	"cmp"
	"fmt"
	"strings"
)

// reportTopKeys is how many of the busiest keys a report lists.
const reportTopKeys = 5

// ObservationReport renders an observation as text for `terraform output`, in the style of the design
// report: the window, the peaks, the busiest keys and the throttling.
func ObservationReport(o *Observation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dynamokeys measured traffic: %s\n\n", observedTarget(o))
	writeObservation(&b, o)
	return b.String()
}

func observedTarget(o *Observation) string {
	name := cmp.Or(o.TableName, "table")
	if o.IndexName != "" {
		return fmt.Sprintf("%s, index %s", name, o.IndexName)
	}
	return name
}

func writeObservation(b *strings.Builder, o *Observation) {
	complete := "complete"
	if !o.Complete {
		complete = "incomplete: partial data or minutes without datapoints"
	}
	fmt.Fprintf(b, "  window %s to %s, %d one-minute datapoints (%s)\n", o.Window.Start, o.Window.End, o.Window.Datapoints, complete)
	for _, side := range []struct {
		label string
		v     *float64
		unit  string
	}{{"writes", o.Traffic.WritesPerSecond, "WCU"}, {"reads ", o.Traffic.ReadsPerSecond, "RCU"}} {
		if side.v != nil {
			fmt.Fprintf(b, "  peak %s %s %s/s (busiest minute / 60)\n", side.label, formatUnits(*side.v), side.unit)
		}
	}
	if t := o.ThrottleEvents; t.Read != nil || t.Write != nil {
		fmt.Fprintf(b, "  throttle events: %s read, %s write\n", countLabel(t.Read), countLabel(t.Write))
	}
	if o.TopKeys == nil {
		b.WriteString("  no key figures: turn on Contributor Insights (contributor_insights = { mode = \"ACCESSED_AND_THROTTLED_KEYS\" })\n")
		return
	}
	if o.Traffic.HotKeyShare != nil {
		fmt.Fprintf(b, "  busiest key takes %s of requests at the busiest time\n", percent(*o.Traffic.HotKeyShare))
	}
	for i, k := range o.TopKeys {
		if i == reportTopKeys {
			fmt.Fprintf(b, "  … and %d more keys\n", len(o.TopKeys)-reportTopKeys)
			break
		}
		share := "throttled only"
		if k.Share != nil {
			share = percent(*k.Share) + " of requests"
		}
		throttled := ""
		if k.ThrottleEvents > 0 {
			throttled = fmt.Sprintf(", %s throttled", thousands(k.ThrottleEvents))
		}
		fmt.Fprintf(b, "  %d. %s  %s%s\n", i+1, k.Key, share, throttled)
	}
}

func countLabel(v *float64) string {
	if v == nil {
		return "not exported"
	}
	return thousands(*v)
}

// writeMeasured adds the measurements given to a design to its report: each observation with the shard
// count the measured peak calls for next to the one in use.
func writeMeasured(b *strings.Builder, doc *Document) {
	for _, o := range doc.Observed {
		fmt.Fprintf(b, "\nMeasured (%s)\n", observedTarget(&o.Observation))
		writeObservation(b, &o.Observation)
		m := o.Measured
		for _, side := range []struct {
			label              string
			measured, declared *float64
		}{{"writes", o.Traffic.WritesPerSecond, m.DeclaredWriteUnits}, {"reads", o.Traffic.ReadsPerSecond, m.DeclaredReadUnits}} {
			if side.measured != nil && side.declared != nil {
				fmt.Fprintf(b, "  declared peak %s %s units/s, measured %s\n", side.label, formatUnits(*side.declared), formatUnits(*side.measured))
			}
		}
		if m.HotKeyShareSource == "" {
			continue
		}
		basis := "the measured busiest key"
		if m.HotKeyShareSource == MeasuredShareDesign {
			basis = "the design's hot-key share"
		}
		if o.IndexName != "" {
			fmt.Fprintf(b, "  partitions the busiest index key needs at the measured peak (%s): %d\n", basis, m.RequiredShards)
			continue
		}
		fmt.Fprintf(b, "  shards: %d in use; the measured peak calls for %d (%s, at %s utilisation)\n",
			m.ShardCount, m.RequiredShards, basis, percent(doc.TargetUtilization))
	}
}
