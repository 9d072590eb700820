package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// Finding is the part of a policy finding the report shows.
type Finding struct {
	Rule     string
	Name     string
	Severity string
	Message  string
	// Path is the attribute the finding concerns; the access-pattern table finds each pattern's findings by it.
	Path model.Path
}

// barWidth is the number of characters that stand for one partition's limit in the report's bar chart;
// demand beyond the limit runs past the "|" marker, up to barOverflow more characters.
const (
	barWidth    = 40
	barOverflow = 20
)

// Text renders a document as text for `terraform output`: key layout, capacity and a bar chart of the
// busiest key's demand (whole and per shard) against the per-partition limits.
func Text(doc *model.Document, findings []Finding) string {
	var b strings.Builder
	d := &doc.Derived
	title := cmp.Or(doc.Table.Name, doc.Address, "key design")
	fmt.Fprintf(&b, "dynamokeys key design: %s\n\n", title)

	b.WriteString("Keys\n")
	if d.Entities != nil {
		// Each entity writes its own templates (the Entities section); the segments are shared.
		fmt.Fprintf(&b, "  %-13s %s (%s), a template per entity\n", "partition key", doc.Table.PartitionKey.Name, doc.Table.PartitionKey.Type)
		if k := doc.Table.SortKey; k != nil {
			fmt.Fprintf(&b, "  %-13s %s (%s), a template per entity\n", "sort key", k.Name, k.Type)
		}
		for _, name := range slices.Sorted(maps.Keys(doc.Segments)) {
			s := doc.Segments[name]
			fmt.Fprintf(&b, "  {%s} %s, %s values, up to %d bytes\n", name, segmentLabel(s), cardinalityLabel(s.Cardinality), s.MaxLength)
		}
	} else {
		writeKey(&b, "partition key", doc.Table.PartitionKey, &d.PartitionKey)
		if doc.Table.SortKey != nil && d.SortKey != nil {
			writeKey(&b, "sort key", *doc.Table.SortKey, d.SortKey)
		}
		for _, s := range d.PartitionKey.Segments {
			fmt.Fprintf(&b, "  {%s} %s, %s values, up to %d bytes\n", s.Name, segmentLabel(doc.Segments[s.Name]), cardinalityLabel(s.Cardinality), s.MaxLength)
		}
	}
	switch doc.Sharding.Strategy {
	case model.StrategyCalculated:
		fmt.Fprintf(&b, "  {shard} %d shards, suffixes %s..%s = sha256(%s) mod %d, scheme v%d\n", d.ShardCount,
			model.FormatShard(0, d.ShardWidth), model.FormatShard(d.ShardCount-1, d.ShardWidth), cmp.Or(doc.Sharding.Source, "?"), d.ShardCount, doc.Sharding.SchemeVersion)
	case model.StrategyRandom:
		fmt.Fprintf(&b, "  {shard} %d shards, random suffix %s..%s, scheme v%d\n", d.ShardCount,
			model.FormatShard(0, d.ShardWidth), model.FormatShard(d.ShardCount-1, d.ShardWidth), doc.Sharding.SchemeVersion)
	}

	if d.Entities != nil {
		writeEntities(&b, d.Entities)
		writeEntityIndexes(&b, doc.Table.GSIs)
	}

	c := d.Capacity
	b.WriteString("\nCapacity at peak\n")
	if d.Entities != nil {
		// The entities' units per request are a write-weighted mean, whatever their item sizes.
		fmt.Fprintf(&b, "  items of %s bytes on average: %s WCU per write, %s RCU per read (%s), means over the entities\n",
			thousands(float64(doc.Traffic.ItemSizeBytes)), num(math.Round(c.WriteUnitsPerWrite*100)/100), num(math.Round(c.ReadUnitsPerRead*100)/100), doc.Traffic.ReadConsistency)
	} else {
		fmt.Fprintf(&b, "  item %s bytes: %s WCU per write%s, %s RCU per read (%s)\n", thousands(float64(doc.Traffic.ItemSizeBytes)),
			num(c.WriteUnitsPerWrite), map[bool]string{true: " (transactional)"}[doc.Traffic.TransactionalWrites], num(c.ReadUnitsPerRead), doc.Traffic.ReadConsistency)
	}
	if c.PeakWriteUnits != nil {
		fmt.Fprintf(&b, "  writes %s/s = %s WCU\n", thousands(*doc.Traffic.WritesPerSecond), thousands(*c.PeakWriteUnits))
	}
	writeReplicas(&b, d.Replicas)
	if c.PeakReadUnits != nil {
		if r := doc.Traffic.ReadsPerSecond; r != nil && *r*c.ReadUnitsPerRead >= *c.PeakReadUnits {
			fmt.Fprintf(&b, "  reads  %s/s = %s RCU\n", thousands(*r), thousands(*c.PeakReadUnits))
		} else {
			fmt.Fprintf(&b, "  reads  %s RCU of the access patterns on the table key and its LSIs\n", thousands(*c.PeakReadUnits))
		}
	}
	if c.PeakWriteUnits == nil && c.PeakReadUnits == nil {
		b.WriteString("  no traffic given: set traffic.writes_per_second and reads_per_second to size shards\n")
	}
	fmt.Fprintf(&b, "  busiest partition-key value takes %s of traffic (%s)\n", percent(c.HotKeyShare), shareBasisLabel(c.HotKeyShareSource))
	fmt.Fprintf(&b, "  shards needed at %s utilisation: %d; shards used: %d; queries to read one collection: %d\n",
		percent(doc.TargetUtilization), d.RequiredShards, d.ShardCount, c.ReadFanout)

	if c.HotKeyWriteUnits != nil || c.HotKeyReadUnits != nil {
		fmt.Fprintf(&b, "\nBusiest key against one partition (| = limit: %s WCU, %s RCU)\n",
			thousands(model.PartitionWriteUnitsLimit), thousands(model.PartitionReadUnitsLimit))
		if c.HotKeyWriteUnits != nil {
			writeBar(&b, "write, whole key", *c.HotKeyWriteUnits, model.PartitionWriteUnitsLimit, "WCU")
			if d.ShardCount > 1 {
				writeBar(&b, "write, per shard", *c.PerShardWriteUnits, model.PartitionWriteUnitsLimit, "WCU")
			}
		}
		if c.HotKeyReadUnits != nil {
			writeBar(&b, "read, whole key", *c.HotKeyReadUnits, model.PartitionReadUnitsLimit, "RCU")
			if d.ShardCount > 1 {
				writeBar(&b, "read, per shard", *c.PerShardReadUnits, model.PartitionReadUnitsLimit, "RCU")
			}
		}
	}

	if doc.Derived.Collection.Bytes != nil && len(doc.Table.LSIs) > 0 {
		fmt.Fprintf(&b, "\nItem collection with %d LSI(s): ~%s per partition-key value (limit %s)\n",
			len(doc.Table.LSIs), bytesLabel(*doc.Derived.Collection.Bytes), bytesLabel(float64(model.ItemCollectionLimitBytes)))
	}

	writeVectors(&b, doc)
	writeMeasured(&b, doc)
	writeAccessPatterns(&b, doc, findings)
	writeMigration(&b, doc)
	writeCost(&b, doc)

	b.WriteString("\nFindings\n")
	if len(findings) == 0 {
		b.WriteString("  none\n")
	}
	hotKey := false
	for _, f := range findings {
		fmt.Fprintf(&b, "  %-7s %s %s: %s\n", strings.ToUpper(f.Severity), f.Rule, f.Name, f.Message)
		hotKey = hotKey || slices.Contains(hotKeyRules, f.Rule)
	}
	if hotKey {
		b.WriteString("\nTo see which keys are hot in production, turn on CloudWatch Contributor Insights\n" +
			"(contributor_insights = { mode = \"THROTTLED_KEYS\" }) and read its most throttled keys.\n")
	}
	return b.String()
}

// hotKeyRules are the rules that predict hot partition keys, which Contributor Insights shows in production.
var hotKeyRules = []string{"DK301", "DK303", "DK304", "DK501"}

func writeKey(b *strings.Builder, label string, k model.KeyDoc, f *model.KeyFacts) {
	tmpl := "(no template)"
	if k.Template != nil {
		tmpl = *k.Template
	}
	size := ""
	if f.MaxBytes != nil {
		size = fmt.Sprintf(", up to %d bytes", *f.MaxBytes)
	}
	fmt.Fprintf(b, "  %-13s %s (%s) = %s%s\n", label, k.Name, k.Type, tmpl, size)
}

func writeBar(b *strings.Builder, label string, demand, limit float64, unit string) {
	filled := int(math.Round(demand / limit * barWidth))
	if demand > 0 && filled == 0 {
		filled = 1
	}
	var bar strings.Builder
	for i := range barWidth + barOverflow {
		switch {
		case i == barWidth:
			bar.WriteByte('|')
		case i < filled && i < barWidth:
			bar.WriteByte('#')
		case i < filled:
			bar.WriteByte('!')
		case i < barWidth:
			bar.WriteByte('.')
		}
	}
	over := ""
	if filled > barWidth+barOverflow {
		over = "+"
	}
	fmt.Fprintf(b, "  %-17s %s%s %s %s (%s of a partition)\n", label, bar.String(), over, thousands(demand), unit, percent(demand/limit))
}

func segmentLabel(s model.ResolvedSegment) string {
	if s.Kind == model.KindTime {
		return "time bucket per " + s.Granularity
	}
	return string(s.Kind)
}

func cardinalityLabel(c *int64) string {
	if c == nil {
		return "unbounded"
	}
	return thousands(float64(*c))
}

func shareBasisLabel(basis string) string {
	switch basis {
	case "given":
		return "given as traffic.hot_key_share"
	case "time_bucket":
		return "every current write lands in the current time bucket"
	case "key_cardinality":
		return "1 / number of partition-key values; give traffic.hot_key_share for skew"
	case capacity.ShareEntities:
		return "the busiest item collection's share of every entity's writes"
	}
	return "unknown: " + basis
}

func percent(f float64) string {
	if f != 0 && f < 0.001 {
		return "<0.1%"
	}
	return strings.TrimSuffix(strconv.FormatFloat(f*100, 'f', 1, 64), ".0") + "%"
}

// num prints a unit count without trailing zeros: 0.5, 2, 12.5.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// thousands prints a number as every report and message does (textfmt.Thousands).
func thousands(f float64) string { return textfmt.Thousands(f) }

func bytesLabel(n float64) string {
	const mb = 1 << 20
	gb := float64(model.Limits.BytesPerGB)
	switch {
	case n >= gb:
		return strconv.FormatFloat(n/gb, 'f', 2, 64) + " GB"
	case n >= mb:
		return strconv.FormatFloat(n/mb, 'f', 1, 64) + " MB"
	}
	return thousands(n) + " bytes"
}

// writeEntities is the entity table of a single-table design: each entity's keys, the indexes it lands in,
// its write units, the demand on its busiest partition-key value and its items per value; then each item
// collection's summed demand and size, and the collisions.
func writeEntities(b *strings.Builder, e *model.EntitiesDoc) {
	b.WriteString("\nEntities\n")
	for _, item := range e.Items {
		keys := make([]string, 0, len(item.Keys))
		for _, attr := range slices.Sorted(maps.Keys(item.Keys)) {
			keys = append(keys, attr+"="+item.Keys[attr])
		}
		indexes := "no index"
		if len(item.Indexes) > 0 {
			indexes = "in " + strings.Join(item.Indexes, ", ")
		}
		writes := "writes not given"
		if item.WriteUnits != nil {
			writes = thousands(*item.WriteUnits) + " WCU"
		}
		if item.HotKeyWriteUnits != nil && item.HotKeyShare > 0 {
			writes += fmt.Sprintf(", %s WCU (%s) on its busiest value", thousands(*item.HotKeyWriteUnits), percent(item.HotKeyShare))
		}
		items := "unbounded items per value"
		if item.ItemsPerKey != nil {
			items = thousands(float64(*item.ItemsPerKey)) + " item(s) per value"
			if item.ItemsBasis == model.CollectionTemplate {
				items += " (its sort key's values)"
			}
		}
		fmt.Fprintf(b, "  %s: %s; %s; %s; %s; collection %d\n", item.Name, strings.Join(keys, " "), indexes, writes, items, item.Collection+1)
	}
	for i, c := range e.Collections {
		demand := ""
		if c.PerShardWriteUnits != nil {
			demand = fmt.Sprintf(", %s WCU on one value", thousands(*c.PerShardWriteUnits))
			if c.Shards > 1 {
				demand = fmt.Sprintf(", %s WCU on one shard of a value", thousands(*c.PerShardWriteUnits))
			}
		}
		if c.PerShardReadUnits != nil {
			demand += fmt.Sprintf(", %s RCU", thousands(*c.PerShardReadUnits))
		}
		size := ", unbounded items per value"
		if c.ItemsPerKey != nil && c.Bytes != nil {
			size = fmt.Sprintf(", %s items (%s) per value", thousands(*c.ItemsPerKey), bytesLabel(*c.Bytes))
		}
		marker := ""
		if i == e.Busiest {
			marker = " (busiest)"
		}
		fmt.Fprintf(b, "  collection %d%s: %s%s%s\n", i+1, marker, strings.Join(c.Entities, " + "), demand, size)
	}
	for _, c := range e.Collisions {
		fmt.Fprintf(b, "  COLLISION %s and %s can write the same key, e.g. %s\n", c.Entities[0], c.Entities[1], c.Example)
	}
}

// writeEntityIndexes is each GSI of a single-table design with the entities it holds: their partition-key
// templates, and the write demand on the index's busiest partition.
func writeEntityIndexes(b *strings.Builder, gsis []model.GSIDoc) {
	if len(gsis) == 0 {
		return
	}
	b.WriteString("\nIndexes\n")
	for _, g := range gsis {
		var held []string
		for _, e := range g.Entities {
			part := e.Entity + " " + strings.Join(e.PartitionKey, "+")
			if e.HotPartitionWriteUnits != nil {
				part += fmt.Sprintf(" (%s WCU on its busiest partition)", thousands(*e.HotPartitionWriteUnits))
			}
			held = append(held, part)
		}
		if len(held) == 0 {
			fmt.Fprintf(b, "  %s: no entity writes its key\n", g.Name)
			continue
		}
		hot := ""
		if g.HotPartitionWriteUnits != nil {
			hot = fmt.Sprintf("; busiest partition %s WCU", thousands(*g.HotPartitionWriteUnits))
		}
		fmt.Fprintf(b, "  %s: %s; %s values%s\n", g.Name, strings.Join(held, ", "), cardinalityLabel(g.PartitionKeyCardinality), hot)
	}
}

// Changes renders "This plan changes": what a plan does to the live table, one line per finding of the change
// rules (DK001–DK009, each with its figures: the backfill's items, write units, dollars and hours, and the
// access patterns that fail meanwhile). It is the plan's, never the design's: "" when the document judges no
// change or no change rule fired, so that a benign change (tags, PITR) says nothing. The provider shows it as
// one warning of the plan instead of in the report attribute, which the state keeps: after the apply the
// change is history, and a report holding it would differ from the next refresh's.
func Changes(doc *model.Document, findings []Finding) string {
	if doc.Change == nil {
		return ""
	}
	var changed []Finding
	for _, f := range findings {
		if model.IsChangeRule(f.Rule) {
			changed = append(changed, f)
		}
	}
	if len(changed) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This plan changes table %s (%s)\n", cmp.Or(doc.Table.Name, doc.Address), changeActionLabel(doc.Change.Action))
	for _, f := range changed {
		fmt.Fprintf(&b, "  %-7s %s %s", strings.ToUpper(f.Severity), f.Rule, f.Name)
		if len(f.Path) > 0 {
			fmt.Fprintf(&b, " at %s", f.Path.String())
		}
		fmt.Fprintf(&b, ": %s\n", f.Message)
	}
	return b.String()
}

func changeActionLabel(action string) string {
	switch action {
	case model.ChangeReplace:
		return "replaced: destroyed and created empty"
	case model.ChangeDelete:
		return "destroyed"
	default:
		return "updated in place"
	}
}
