package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// writeCost adds the report's cost section: both modes side by side, each index's writes and the basis.
func writeCost(b *strings.Builder, doc *model.Document) {
	c := doc.Derived.Cost
	if c == nil {
		return
	}
	fmt.Fprintf(b, "\nMonthly cost (%s, %s)\n", c.Region, c.TableClass)
	if c.OnDemand == nil {
		fmt.Fprintf(b, "  unknown: %s\n", c.Problem)
		return
	}
	fmt.Fprintf(b, "  prices: %s\n", c.PriceStatus.Wording())
	fmt.Fprintf(b, "  %-14s %12s %12s\n", "", "on-demand", "provisioned")
	row := func(label string, od, pv float64) {
		fmt.Fprintf(b, "  %-14s %12s %12s\n", label, FormatUSD(od), FormatUSD(pv))
	}
	row("table writes", c.OnDemand.TableWrites, c.Provisioned.TableWrites)
	row("index writes", c.OnDemand.IndexWrites, c.Provisioned.IndexWrites)
	row("reads", c.OnDemand.Reads, c.Provisioned.Reads)
	if c.OnDemand.Storage != nil {
		row("storage", *c.OnDemand.Storage, *c.Provisioned.Storage)
	}
	if c.OnDemand.PITR != nil {
		row("PITR", *c.OnDemand.PITR, *c.Provisioned.PITR)
	}
	if c.OnDemand.Total != nil && c.Provisioned.Total != nil {
		row("total", *c.OnDemand.Total, *c.Provisioned.Total)
	}
	for _, ic := range c.Indexes {
		if ic.OnDemandWriteCost != nil && ic.ShareOfTableWrites != nil {
			fmt.Fprintf(b, "  index %s: %s write units per write, %s on-demand (%s of the table's writes)\n",
				ic.Name, num(ic.WriteUnitsPerWrite), FormatUSD(*ic.OnDemandWriteCost), percent(*ic.ShareOfTableWrites))
		}
	}
	if c.BreakEvenUtilization != nil && c.Utilization != nil {
		fmt.Fprintf(b, "  %s is cheaper: on-demand wins below %s average use of the provisioned capacity; this design uses %s\n",
			strings.ReplaceAll(c.CheaperMode, "_", "-"), percent(*c.BreakEvenUtilization), percent(*c.Utilization))
	}
	if why := c.Incomplete(); why != "" {
		fmt.Fprintf(b, "  %s\n", why)
	}
	writeRegionCosts(b, c)
	fmt.Fprintf(b, "  writes priced at %s, reads at %s", basisLabel(c.WritesBasis), basisLabel(c.ReadsBasis))
	if c.StorageGB == nil {
		b.WriteString("; storage not priced (set traffic.item_count)")
	}
	b.WriteString("\n")
}

func basisLabel(basis string) string {
	switch basis {
	case model.BasisDeclaredAverage:
		return "the declared average"
	case model.BasisDeclaredPeak:
		return "the peak held all month (an upper bound)"
	case model.BasisMeasuredAverage:
		return "the measured average"
	case model.BasisMeasuredPeak:
		return "the measured peak held all month (an upper bound)"
	case model.BasisPatternPeak:
		return "the access patterns' reads held all month (an upper bound)"
	}
	return "no traffic"
}

// FormatUSD prints dollars to the cent with grouped thousands: $1,234.50, and -$82.12 below zero.
func FormatUSD(f float64) string {
	sign := ""
	cents := math.Round(f * 100)
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return sign + "$" + thousands(math.Floor(cents/100)) + "." + fmt.Sprintf("%02d", int64(math.Mod(cents, 100)))
}

// writeRegionCosts adds a global table's cost per replica Region and the total of all Regions.
func writeRegionCosts(b *strings.Builder, c *model.CostEstimate) {
	if len(c.Replicas) == 0 {
		return
	}
	b.WriteString("  per replica Region (each performs every Region's writes and stores the whole table):\n")
	total := func(m *model.ModeCost) string {
		if m == nil || m.Total == nil {
			return "unknown"
		}
		return FormatUSD(*m.Total)
	}
	for _, r := range c.Replicas {
		fmt.Fprintf(b, "    %-16s %12s %12s   %s of the writes", r.Region, total(r.OnDemand), total(r.Provisioned), percent(r.WriteShare))
		if r.ReplicatedTTLDeleteUnits > 0 {
			fmt.Fprintf(b, ", %s replicated TTL delete units/s", FormatNumber(r.ReplicatedTTLDeleteUnits))
		}
		b.WriteString("\n")
		if w := r.PriceStatus.Wording(); len(r.PriceStatus.Confirmed) < len(model.PriceNames) {
			fmt.Fprintf(b, "      prices: %s\n", w)
		}
	}
	if a := c.AllRegions; a != nil {
		od, pv := "unknown", "unknown"
		if a.OnDemand != nil {
			od = FormatUSD(*a.OnDemand)
		}
		if a.Provisioned != nil {
			pv = FormatUSD(*a.Provisioned)
		}
		fmt.Fprintf(b, "    %-16s %12s %12s\n", "all Regions", od, pv)
	}
}
