package keydesign

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Upper bounds of the numeric design inputs. They are far above anything a DynamoDB table does, so no real
// design is refused; they exist so that every derived number stays finite and readable (a rate of 1e308
// writes per second would overflow the capacity math to infinity).
const (
	// MaxRequestsPerSecond bounds the traffic rates: a billion requests per second, far beyond the busiest
	// tables AWS has reported (tens of millions per second across a whole service).
	MaxRequestsPerSecond = 1_000_000_000
	// MaxItemsPerPartitionKey bounds traffic.max_items_per_partition_key: a trillion items.
	MaxItemsPerPartitionKey = 1_000_000_000_000
	// MaxCapacityUnits bounds provisioned read and write capacity of a table or index.
	MaxCapacityUnits = 1_000_000_000
)

// MaxSegmentLength bounds a segment's max_length: no attribute value exceeds the item size limit.
var MaxSegmentLength = model.MaxItemSizeBytes

// validateBounds rejects numbers beyond the upper bounds above.
func (a *analyzer) validateBounds() {
	in := a.in
	t := in.Traffic
	for attr, v := range map[string]*float64{
		"writes_per_second": t.WritesPerSecond, "reads_per_second": t.ReadsPerSecond,
		"hottest_item_writes_per_second": t.HottestItemWritesPerSecond, "hottest_item_reads_per_second": t.HottestItemReadsPerSecond,
	} {
		if v != nil && *v > MaxRequestsPerSecond {
			a.fail(model.Path{"traffic", attr}, "must be at most %s per second, got %s; give the peak rate of this table",
				thousands(MaxRequestsPerSecond), thousands(*v))
		}
	}
	if m := t.MaxItemsPerPartitionKey; m != nil && *m > MaxItemsPerPartitionKey {
		a.fail(model.Path{"traffic", "max_items_per_partition_key"}, "must be at most %s items, got %s",
			thousands(MaxItemsPerPartitionKey), thousands(float64(*m)))
	}
	for _, name := range slices.Sorted(maps.Keys(in.Segments)) {
		if l := in.Segments[name].MaxLength; l != nil && *l > MaxSegmentLength {
			a.fail(model.Path{"segments", name, "max_length"}, "must be at most %s bytes (the item size limit), got %s",
				thousands(float64(MaxSegmentLength)), thousands(float64(*l)))
		}
	}
	capacity := func(p model.Path, v *int64) {
		if v != nil && (*v < 1 || *v > MaxCapacityUnits) {
			a.fail(p, "must be between 1 and %s capacity units, got %d", thousands(MaxCapacityUnits), *v)
		}
	}
	capacity(model.Path{"read_capacity"}, in.ReadCapacity)
	capacity(model.Path{"write_capacity"}, in.WriteCapacity)
	for _, g := range in.GlobalSecondaryIndexes {
		capacity(model.Path{"global_secondary_indexes", g.Name, "read_capacity"}, g.ReadCapacity)
		capacity(model.Path{"global_secondary_indexes", g.Name, "write_capacity"}, g.WriteCapacity)
		for i, k := range g.PartitionKey {
			if k.Cardinality != nil && *k.Cardinality < 1 {
				a.fail(model.Path{"global_secondary_indexes", g.Name, "partition_key", fmt.Sprint(i), "cardinality"},
					"must be at least 1 distinct value, got %d", *k.Cardinality)
			}
		}
	}
}

// validateStructure rejects what CreateTable would reject and no rule covers: one attribute name with two
// types, an index name used twice, an attribute twice in one key, a projected attribute listed twice.
// Unknown values are skipped.
func (a *analyzer) validateStructure() {
	in := a.in
	// One attribute, one type: DynamoDB keeps one AttributeDefinition per name.
	// Unknown paths are rare; checking them formats a path, so only when there are any. Paths are built
	// only for a message: this runs on every plan.
	unknown := func(p model.Path) bool { return len(a.unknown) > 0 && a.isUnknown(p.String()) }
	type typed struct {
		typ  string
		path func() model.Path
	}
	seen := map[string]typed{}
	check := func(name, typ string, path func() model.Path) {
		if name == "" {
			return
		}
		if len(a.unknown) > 0 {
			if p := path(); unknown(p[:len(p)-1]) || unknown(p) {
				return
			}
		}
		typ = cmp.Or(typ, model.KeyTypeString)
		first, ok := seen[name]
		if !ok {
			seen[name] = typed{typ, path}
			return
		}
		if first.typ != typ {
			a.fail(path(), "attribute %q is type %s here but %s at %s: a DynamoDB attribute has one type "+
				"across the table and all its indexes; use the same type, or another attribute name", name, typ, first.typ, first.path()[:len(first.path())-1])
		}
	}
	check(in.PartitionKey.Name, in.PartitionKey.Type, func() model.Path { return model.Path{"partition_key", "type"} })
	if in.SortKey != nil {
		check(in.SortKey.Name, in.SortKey.Type, func() model.Path { return model.Path{"sort_key", "type"} })
	}
	for _, l := range in.LocalSecondaryIndexes {
		check(l.SortKey.Name, l.SortKey.Type, func() model.Path { return model.Path{"local_secondary_indexes", l.Name, "sort_key", "type"} })
	}
	for _, g := range in.GlobalSecondaryIndexes {
		for _, part := range []struct {
			key   string
			attrs []model.IndexKeyAttribute
		}{{"partition_key", g.PartitionKey}, {"sort_key", g.SortKey}} {
			for i, k := range part.attrs {
				check(k.Name, k.Type, func() model.Path {
					return model.Path{"global_secondary_indexes", g.Name, part.key, strconv.Itoa(i), "type"}
				})
			}
		}
	}
	if in.SortKey != nil && in.SortKey.Name != "" && in.SortKey.Name == in.PartitionKey.Name {
		a.fail(model.Path{"sort_key", "name"}, "the sort key and the partition key are both %q: a table key uses two different attributes", in.SortKey.Name)
	}
	lsiNames := map[string]bool{}
	for _, l := range in.LocalSecondaryIndexes {
		lsiNames[l.Name] = true
		if l.SortKey.Name != "" && l.SortKey.Name == in.PartitionKey.Name {
			a.fail(model.Path{"local_secondary_indexes", l.Name, "sort_key", "name"},
				"the LSI sort key is the table's partition key %q: an LSI sorts by another attribute", l.SortKey.Name)
		}
		a.noDuplicates(model.Path{"local_secondary_indexes", l.Name, "non_key_attributes"}, l.NonKeyAttributes)
	}
	for _, g := range in.GlobalSecondaryIndexes {
		p := model.Path{"global_secondary_indexes", g.Name}
		if lsiNames[g.Name] {
			a.fail(p, "index name %q is also the name of a local secondary index: index names are unique within a table; rename one", g.Name)
		}
		used := map[string]model.Path{}
		for _, part := range []struct {
			key   string
			attrs []model.IndexKeyAttribute
		}{{"partition_key", g.PartitionKey}, {"sort_key", g.SortKey}} {
			for i, k := range part.attrs {
				at := model.Path{"global_secondary_indexes", g.Name, part.key, fmt.Sprint(i), "name"}
				if k.Name == "" || unknown(at) {
					continue
				}
				if where, dup := used[k.Name]; dup {
					a.fail(at, "attribute %q is already in this index's key at %s: each key attribute appears once", k.Name, where)
					continue
				}
				used[k.Name] = at
			}
		}
		a.noDuplicates(append(p, "non_key_attributes"), g.NonKeyAttributes)
	}
}

func (a *analyzer) noDuplicates(p model.Path, names []string) {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			a.fail(p, "%q is listed twice; list each projected attribute once", n)
		}
		seen[n] = true
	}
}

// checkFinite is the last guard of the capacity math: every derived number must be finite, because the
// policies compare numbers and an infinity or NaN has no JSON form. The input bounds make this unreachable;
// should it ever trip, the user gets an error instead of a crash.
func checkFinite(doc *model.Document) []*model.FieldError {
	c, col := doc.Derived.Capacity, doc.Derived.Collection
	values := []*float64{c.PeakWriteUnits, c.PeakReadUnits, c.HotKeyWriteUnits, c.HotKeyReadUnits, c.PerShardWriteUnits,
		c.PerShardReadUnits, c.HottestItemWriteUnits, c.HottestItemReadUnits, &c.HotKeyShare, &c.WriteUnitsPerWrite,
		&c.ReadUnitsPerRead, col.ItemsPerKey, col.Bytes}
	for _, g := range doc.Table.GSIs {
		values = append(values, g.HotPartitionWriteUnits, g.PatternReadUnits)
	}
	for _, f := range doc.Derived.AccessPatterns {
		values = append(values, &f.ReadUnitsPerSecond, &f.HotKeyReadUnits, &f.FetchReadUnitsPerSecond, &f.HotKeyShare)
	}
	for _, v := range values {
		if v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v)) {
			return []*model.FieldError{{Path: model.Path{"traffic"}, Message: "the traffic numbers give a capacity too large to compute; " +
				"give realistic peak rates and sizes"}}
		}
	}
	if c := doc.Derived.Cost; c != nil && !costFinite(c) {
		return []*model.FieldError{{Path: model.Path{"pricing"}, Message: "the traffic, item count and prices give a monthly cost too large " +
			"to compute; give realistic rates, item counts and pricing.prices"}}
	}
	return nil
}

// costFinite reports whether every figure of the cost estimate is finite.
func costFinite(c *model.CostEstimate) bool {
	values := []*float64{c.TableWriteUnitsPerSecond, c.ReadUnitsPerSecond, c.MonthlyWriteRequestUnits, c.MonthlyReadRequestUnits,
		c.TableMonthlyWriteUnits, c.StorageGB, c.PITRGB, c.ProvisionedWriteCapacity, c.ProvisionedReadCapacity,
		c.ChosenExcessShare, c.ChosenExcessMonthly, c.BreakEvenUtilization, c.Utilization}
	for _, m := range []*model.ModeCost{c.OnDemand, c.Provisioned} {
		if m != nil {
			values = append(values, &m.TableWrites, &m.IndexWrites, &m.Reads, m.Storage, m.PITR, m.Total)
		}
	}
	for i := range c.Indexes {
		ic := &c.Indexes[i]
		values = append(values, &ic.WriteUnitsPerWrite, &ic.ReducibleWriteUnits, &ic.ItemShare, ic.MonthlyWriteUnits,
			ic.OnDemandWriteCost, ic.ProvisionedCapacity, ic.ProvisionedCost, ic.ShareOfTableWrites)
	}
	for i := range c.Reads {
		r := &c.Reads[i]
		values = append(values, &r.MonthlyReadUnits, &r.OnDemandCost, &r.ProvisionedUnits, &r.ProvisionedCost, r.PeakUnitsPerSec, &r.AverageUnitsPerSec)
	}
	return !slices.ContainsFunc(values, func(v *float64) bool { return v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v)) })
}

// Questionable lists input that is accepted but almost certainly not what the user meant: a placeholder
// repeated in one template (the key carries the same value twice, or the shard suffix twice) and a segment
// that no template and no index key uses. They are warnings, not errors: the key still renders and routes
// consistently.
func Questionable(in *model.Input) []*model.FieldError {
	out := questionableObserved(in)
	used := map[string]bool{}
	templatesKnown := true
	for _, key := range []struct {
		name string
		k    *model.Key
	}{{"partition_key", &in.PartitionKey}, {"sort_key", in.SortKey}} {
		p := model.Path{key.name, "template"}
		if slices.ContainsFunc(in.Unknown, func(u model.Path) bool { return u.String() == p.String() || u.String() == key.name }) {
			templatesKnown = false
			continue
		}
		if key.k == nil || key.k.Template == nil {
			continue
		}
		t, err := model.ParseTemplate(*key.k.Template)
		if err != nil {
			continue // Analyze reports it
		}
		for _, name := range t.Placeholders() {
			used[name] = true
			if n := strings.Count(t.Source, "{"+name+"}"); n > 1 {
				out = append(out, &model.FieldError{Path: p, Message: fmt.Sprintf("placeholder {%s} appears %d times in %q: the key "+
					"repeats the same value; write it once", name, n, t.Source)})
			}
		}
	}
	// The entities' templates use segments too.
	for _, e := range in.Entities {
		for attr, src := range e.Keys {
			if slices.ContainsFunc(in.Unknown, func(u model.Path) bool {
				return strings.HasPrefix(model.Path{"entities", e.Name, "keys", attr}.String(), u.String())
			}) {
				templatesKnown = false
				continue
			}
			if t, err := model.ParseTemplate(src); err == nil {
				for _, name := range t.Placeholders() {
					used[name] = true
				}
			}
		}
	}
	if slices.ContainsFunc(in.Unknown, func(u model.Path) bool { return len(u) > 0 && u[0] == "entities" && len(u) < 3 }) {
		templatesKnown = false
	}
	if !templatesKnown || slices.ContainsFunc(in.Unknown, func(u model.Path) bool { return len(u) > 0 && u[0] == "segments" }) {
		return out
	}
	for _, l := range in.LocalSecondaryIndexes {
		used[l.SortKey.Name] = true
	}
	for _, g := range in.GlobalSecondaryIndexes {
		for _, k := range slices.Concat(g.PartitionKey, g.SortKey) {
			used[k.Name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(in.Segments)) {
		if !used[name] && name != in.Sharding.Source {
			out = append(out, &model.FieldError{Path: model.Path{"segments", name}, Message: fmt.Sprintf("segment %q is declared but no key "+
				"template has a {%s} placeholder and no index key attribute is named %s: add it to a template or remove it", name, name, name)})
		}
	}
	return out
}
