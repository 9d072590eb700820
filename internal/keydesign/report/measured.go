package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// writeMeasured adds the measurements given to a design to its report: each observation with the shard
// count the measured peak calls for next to the one in use.
func writeMeasured(b *strings.Builder, doc *model.Document) {
	for _, o := range doc.Observed {
		fmt.Fprintf(b, "\nMeasured (%s)\n", observed.Target(&o.Observation))
		observed.Write(b, &o.Observation)
		m := o.Measured
		for _, side := range []struct {
			label              string
			measured, declared *float64
		}{{"writes", o.Traffic.WritesPerSecond, m.DeclaredWriteUnits}, {"reads", o.Traffic.ReadsPerSecond, m.DeclaredReadUnits}} {
			if side.measured != nil && side.declared != nil {
				fmt.Fprintf(b, "  declared peak %s %s units/s, measured %s\n", side.label, formatUnits(*side.declared), formatUnits(*side.measured))
			}
		}
		if m.HotKeySource == "" {
			continue
		}
		basis := "the design's hot-key share"
		if m.HotKeySource == model.MeasuredShareMeasured {
			basis = fmt.Sprintf("the busiest key's %s units/s, %s of a partition's %s", formatUnits(*m.HotKeyUnits), percent(*m.HotKeyPartitionShare),
				thousands(model.PartitionReadUnitsLimit))
			if m.ShardCount > 1 {
				basis += fmt.Sprintf("; about %s units/s over its %d shards", formatUnits(*m.LogicalKeyUnits), m.ShardCount)
			}
		}
		if o.IndexName != "" {
			fmt.Fprintf(b, "  partitions the busiest index key needs at the measured peak (%s, at %s utilisation): %d\n", basis, percent(doc.TargetUtilization), m.RequiredShards)
			continue
		}
		fmt.Fprintf(b, "  shards: %d in use; the measured peak calls for %d (%s, at %s utilisation)\n",
			m.ShardCount, m.RequiredShards, basis, percent(doc.TargetUtilization))
	}
}

// FormatShare prints a share as a percentage for messages and the report: 0.625 → 62.5%.
func FormatShare(f float64) string { return percent(f) }

// formatUnits prints a per-second figure: 2,500 or 0.04.
func formatUnits(f float64) string {
	if f != 0 && math.Abs(f) < 0.1 {
		return strconv.FormatFloat(f, 'g', 2, 64)
	}
	return thousands(f)
}
