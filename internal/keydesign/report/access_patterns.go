package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// writeAccessPatterns adds the access-pattern table to the report: for each pattern the key that serves it,
// its Queries per call, its read units per second and the verdict of the rules on it.
func writeAccessPatterns(b *strings.Builder, doc *model.Document, findings []Finding) {
	if len(doc.AccessPatterns) == 0 {
		return
	}
	width := len("pattern")
	for _, ap := range doc.AccessPatterns {
		width = max(width, len(ap.Name))
	}
	b.WriteString("\nAccess patterns\n")
	fmt.Fprintf(b, "  %-*s  %-24s %8s %10s  %s\n", width, "pattern", "served by", "queries", "RCU/s", "verdict")
	for _, ap := range doc.AccessPatterns {
		i := slices.IndexFunc(doc.Derived.AccessPatterns, func(f model.PatternFacts) bool { return f.Name == ap.Name })
		if i < 0 {
			fmt.Fprintf(b, "  %-*s  %-24s %8s %10s  %s\n", width, ap.Name, "(known after apply)", "-", "-", "-")
			continue
		}
		f := doc.Derived.AccessPatterns[i]
		servedBy, queries, units := "Scan (no key serves it)", "-", "-"
		if f.Serves {
			servedBy = servedByLabel(f)
			queries = fmt.Sprint(f.QueriesPerCall)
			units = thousands(f.ReadUnitsPerSecond + f.FetchReadUnitsPerSecond)
		}
		fmt.Fprintf(b, "  %-*s  %-24s %8s %10s  %s\n", width, ap.Name, servedBy, queries, units, patternVerdict(f, findings))
	}
}

func servedByLabel(f model.PatternFacts) string {
	switch f.IndexKind {
	case model.IndexKindTable:
		return "table key"
	case model.IndexKindLSI:
		return "LSI " + f.Index
	}
	return "GSI " + f.Index
}

// patternVerdict lists the findings on a pattern, "ok" without any.
func patternVerdict(f model.PatternFacts, findings []Finding) string {
	var rules []string
	for _, finding := range findings {
		if len(finding.Path) >= len(f.Path) && slices.Equal(finding.Path[:len(f.Path)], f.Path) {
			if r := finding.Rule + " " + finding.Name; !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	if len(rules) == 0 {
		return "ok"
	}
	return strings.Join(rules, ", ")
}
