package report

import (
	"fmt"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// writeReplicas adds the report's lines on a global table: the Regions, and each Region's own and
// replicated writes, which its partitions all take.
func writeReplicas(b *strings.Builder, f *model.ReplicasFacts) {
	if f == nil {
		return
	}
	witness := ""
	if f.Witness != nil {
		witness = ", witness " + *f.Witness
	}
	fmt.Fprintf(b, "  global table: %d replica Region(s)%s, %s consistency; every replica performs every Region's writes, "+
		"so the write figures are global; reads stay per Region\n", len(f.Regions), witness, f.Consistency)
	if f.TTLDeletesPerSecond != nil && len(f.Regions) > 1 {
		fmt.Fprintf(b, "    TTL deletes %s/s are replicated too (counted in the writes' units)\n", thousands(*f.TTLDeletesPerSecond))
	}
	for _, r := range f.Regions {
		if r.WritesPerSecond == nil {
			continue
		}
		fmt.Fprintf(b, "    %-16s %s writes/s made here (%s) + %s/s replicated from the other Regions\n", r.Region,
			thousands(*r.WritesPerSecond), percent(r.WriteShare), thousands(*r.ReplicatedWritesPerSecond))
	}
}
