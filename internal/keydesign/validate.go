package keydesign

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/measured"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// checkFinite is the last guard of the capacity math: every derived number must be finite, because the
// policies compare numbers and an infinity or NaN has no JSON form. The input bounds make this unreachable;
// should it ever trip, the user gets an error instead of a crash.
func checkFinite(doc *model.Document) []*model.FieldError {
	c, col := &doc.Derived.Capacity, &doc.Derived.Collection
	ok := finite(c.PeakWriteUnits, c.PeakReadUnits, c.HotKeyWriteUnits, c.HotKeyReadUnits, c.PerShardWriteUnits,
		c.PerShardReadUnits, c.HottestItemWriteUnits, c.HottestItemReadUnits, &c.HotKeyShare, &c.WriteUnitsPerWrite,
		&c.ReadUnitsPerRead, col.ItemsPerKey, col.Bytes)
	for i := 0; ok && i < len(doc.Table.GSIs); i++ {
		g := &doc.Table.GSIs[i]
		ok = finite(g.HotPartitionWriteUnits, g.PatternReadUnits)
	}
	for i := 0; ok && i < len(doc.Derived.AccessPatterns); i++ {
		f := &doc.Derived.AccessPatterns[i]
		ok = finite(&f.ReadUnitsPerSecond, &f.HotKeyReadUnits, &f.FetchReadUnitsPerSecond, &f.HotKeyShare)
	}
	if !ok {
		return []*model.FieldError{{Path: model.Path{"traffic"}, Message: "the traffic numbers give a capacity too large to compute; " +
			"give realistic peak rates and sizes"}}
	}
	if c := doc.Derived.Cost; c != nil && !costFinite(c) {
		return []*model.FieldError{{Path: model.Path{"pricing"}, Message: "the traffic, item count and prices give a monthly cost too large " +
			"to compute; give realistic rates, item counts and pricing.prices"}}
	}
	return nil
}

// costFinite reports whether every figure of the cost estimate is finite.
func costFinite(c *model.CostEstimate) bool {
	ok := finite(c.TableWriteUnitsPerSecond, c.ReadUnitsPerSecond, c.MonthlyWriteRequestUnits, c.MonthlyReadRequestUnits,
		c.TableMonthlyWriteUnits, c.StorageGB, c.PITRGB, c.ProvisionedWriteCapacity, c.ProvisionedReadCapacity,
		c.ChosenExcessShare, c.ChosenExcessMonthly, c.BreakEvenUtilization, c.Utilization)
	for _, m := range [...]*model.ModeCost{c.OnDemand, c.Provisioned} {
		if ok && m != nil {
			ok = finite(&m.TableWrites, &m.IndexWrites, &m.Reads, m.Storage, m.PITR, m.Total)
		}
	}
	for i := 0; ok && i < len(c.Indexes); i++ {
		ic := &c.Indexes[i]
		ok = finite(&ic.WriteUnitsPerWrite, &ic.ReducibleWriteUnits, &ic.ItemShare, ic.MonthlyWriteUnits,
			ic.OnDemandWriteCost, ic.ProvisionedCapacity, ic.ProvisionedCost, ic.ShareOfTableWrites)
	}
	for i := 0; ok && i < len(c.Reads); i++ {
		r := &c.Reads[i]
		ok = finite(&r.MonthlyReadUnits, &r.OnDemandCost, &r.ProvisionedUnits, &r.ProvisionedCost, r.PeakUnitsPerSec, &r.AverageUnitsPerSec)
	}
	return ok
}

// finite reports whether every figure given is finite or absent (nil). It reads the figures where they are,
// so a check copies and allocates nothing.
func finite(values ...*float64) bool {
	return !slices.ContainsFunc(values, func(v *float64) bool { return v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v)) })
}

// Questionable lists input that is accepted but almost certainly not what the user meant: a placeholder
// repeated in one template (the key carries the same value twice, or the shard suffix twice) and a segment
// that no template and no index key uses. They are warnings, not errors: the key still renders and routes
// consistently.
func Questionable(in *model.Input) []*model.FieldError {
	out := measured.Questionable(in)
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
