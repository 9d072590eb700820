package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// writeMigration is the report's migration section: both layouts, the steps in order with their figures
// and the current phase marked, what each pattern's readers query, and a rollback against the prior state.
func writeMigration(b *strings.Builder, doc *model.Document) {
	md := doc.Derived.Migration
	if md == nil {
		return
	}
	fmt.Fprintf(b, "\nKey-scheme migration: phase %s (%d of %d)\n", md.Phase, md.PhaseIndex+1, len(model.MigrationPhases))
	if md.ReachedPhaseIndex > md.PhaseIndex {
		fmt.Fprintf(b, "  rollback: back from %s; writers still write both layouts, readers read the %s one\n",
			model.MigrationPhases[md.ReachedPhaseIndex], readersLayout(md))
	}
	for _, e := range md.Entities {
		if !e.Changed {
			continue
		}
		label := "items"
		if e.Name != "" {
			label = e.Name + " items"
		}
		fmt.Fprintf(b, "  %s: %s -> %s\n", label, keysLabel(e.OldKeys), keysLabel(e.NewKeys))
	}
	fmt.Fprintf(b, "  routing: %s -> %s\n", routingLabel(md.OldRouting), routingLabel(md.NewRouting))
	if o := md.Overlap; o != nil {
		fmt.Fprintf(b, "  both layouts can write the key %s: readers of the new layout also find old copies until they are deleted", o.Example)
		if o.KeptShare > 0 {
			fmt.Fprintf(b, "; %s of the items keep their key and are neither rewritten nor deleted", percent(o.KeptShare))
		}
		b.WriteString("\n")
	}
	bf := md.Backfill
	b.WriteString("  steps:\n")
	for i, s := range md.Steps {
		marker := map[string]string{"done": "done", "current": "now ", "next": "    "}[s.State]
		fmt.Fprintf(b, "    %s %d. %s (%s)%s\n", marker, i+1, s.Step, s.Phase, stepFigures(s, bf))
	}
	for _, p := range md.Patterns {
		if !p.Changed && !p.IndexDuplicates {
			continue
		}
		now := p.Reads[max(md.PhaseIndex, 0)]
		fmt.Fprintf(b, "  pattern %s reads the %s layout now: %s per call (old %d, new %d, both layouts %d)",
			p.Name, now.Layout, queriesLabel(now.QueriesPerCall), p.OldQueriesPerCall, p.NewQueriesPerCall, p.BothQueriesPerCall)
		if p.IndexDuplicates {
			fmt.Fprintf(b, "; %s holds the old and the new copy of each re-keyed item until the old is deleted", p.NewIndex)
		}
		b.WriteString("\n")
	}
}

// readersLayout is the layout the readers of a re-keyed pattern read in the current phase.
func readersLayout(md *model.MigrationDoc) string {
	if md.PhaseIndex >= slices.Index(model.MigrationPhases, model.PhaseReadNew) {
		return model.LayoutNew
	}
	return model.LayoutOld
}

func stepFigures(s model.StepDoc, bf model.BackfillDoc) string {
	switch {
	case s.Phase == model.PhaseBackfill && bf.Items != nil:
		// The Scan reads every entity's items: unknown while an unchanged entity states no item_count.
		scan := "Scan RCU unknown"
		if bf.ScanReadUnits != nil {
			scan = "Scan " + thousands(*bf.ScanReadUnits) + " RCU"
		}
		out := fmt.Sprintf(": %s items, %s, %s WCU", thousands(*bf.Items), scan, thousands(*bf.PutWriteUnits+model.SumValues(bf.IndexPutWriteUnits)))
		if bf.Hours != nil {
			out += fmt.Sprintf(", %s hours at %s WCU/s (%s)", num(roundTenth(*bf.Hours)), thousands(bf.Rate), cmp.Or(map[string]string{"headroom": "the headroom, under the " + bf.HeadroomLimit}[bf.RateSource], "declared"))
		}
		return out
	case s.Step == "delete the old items" && bf.DeleteWriteUnits != nil:
		out := fmt.Sprintf(": %s WCU", thousands(*bf.DeleteWriteUnits+model.SumValues(bf.IndexDeleteWriteUnits)))
		if bf.DeleteHours != nil {
			out += fmt.Sprintf(", %s hours", num(roundTenth(*bf.DeleteHours)))
		}
		if bf.Cost != nil {
			out += fmt.Sprintf("; backfill and deletes $%.2f on demand", *bf.Cost)
			if bf.Regions > 1 {
				out += fmt.Sprintf(" in %d Regions (every replica performs the writes)", bf.Regions)
			}
			if bf.PricesConfirmed {
				out += ", at confirmed list prices"
			} else {
				out += ", at estimated or given prices"
			}
		}
		return out
	case s.Phase == model.PhaseBackfill:
		return ": give item_count to size it"
	}
	return ""
}

func queriesLabel(n int64) string {
	if n == 1 {
		return "1 query"
	}
	return fmt.Sprintf("%d queries", n)
}

func roundTenth(x float64) float64 { return math.Round(x*10) / 10 }

func keysLabel(keys map[string]string) string {
	parts := make([]string, 0, len(keys))
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		parts = append(parts, k+"="+keys[k])
	}
	return strings.Join(parts, ", ")
}

func routingLabel(r model.Routing) string {
	if r.Algorithm == "none" {
		return fmt.Sprintf("unsharded (scheme v%d)", r.SchemeVersion)
	}
	return fmt.Sprintf("%s over %d shards of %s (scheme v%d)", r.Algorithm, r.Count, cmp.Or(r.Source, "?"), r.SchemeVersion)
}
