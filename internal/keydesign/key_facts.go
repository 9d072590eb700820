package keydesign

import (
	"maps"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The key stages of the analysis (analyze.go, stages): the facts of the key templates once the shard count
// is known, and the key attributes and conventions the name rules read.

// keysStage writes the routing, the facts of the partition and sort key templates (the shard count sizes
// {shard} and the key cardinality) and the placeholders without a segment.
func (a *analyzer) keysStage(doc *model.Document) {
	in, d := a.in, &doc.Derived
	d.ShardWidth = model.ShardWidth(d.ShardCount)
	d.Routing = model.Routing{Algorithm: routingAlgorithm(doc.Sharding.Strategy), Count: d.ShardCount, Width: d.ShardWidth,
		Source: doc.Sharding.Source, SchemeVersion: doc.Sharding.SchemeVersion}
	d.PartitionKey = a.keyFacts("partition_key", a.pk, in.PartitionKey.Template, d.ShardCount)
	d.HasTimeBucket = d.PartitionKey.HasTimeBucket
	d.PartitionKeyMaxBytes = d.PartitionKey.MaxBytes
	d.PartitionKeySegments = d.PartitionKey.Segments
	if in.SortKey != nil {
		f := a.keyFacts("sort_key", a.sk, in.SortKey.Template, d.ShardCount)
		d.SortKey = &f
	}
	d.UndeclaredPlaceholders = []model.PlaceholderRef{}
	for _, ref := range [...]struct {
		key string
		t   *model.Template
	}{{"partition_key", a.pk}, {"sort_key", a.sk}} {
		if ref.t == nil {
			continue
		}
		for _, name := range ref.t.Placeholders() {
			if _, ok := a.segments[name]; !ok && name != model.ShardPlaceholder {
				d.UndeclaredPlaceholders = append(d.UndeclaredPlaceholders, model.PlaceholderRef{Key: ref.key, Placeholder: name})
			}
		}
	}
}

// namesStage writes the key attributes of the table and its indexes and the templates' conventions. A key
// attribute whose name is not known yet (a key from another resource's attribute) is left out: the name
// rules have nothing to check.
func (a *analyzer) namesStage(doc *model.Document) {
	d := &doc.Derived
	d.KeyAttributes = keyAttributes(doc.Table)
	templates := []*model.Template{a.pk, a.sk}
	if m := a.entities; m != nil {
		// Every template every entity writes, its index keys' too.
		templates = templates[:0]
		for _, byAttr := range m.Templates {
			for _, attr := range slices.Sorted(maps.Keys(byAttr)) {
				templates = append(templates, byAttr[attr])
			}
		}
	}
	d.Conventions = conventions(templates...)
	if len(a.unknown) == 0 {
		return
	}
	d.KeyAttributes = slices.DeleteFunc(d.KeyAttributes, func(k model.KeyAttributeRef) bool {
		for i := 1; i <= len(k.Path); i++ {
			if a.isUnknown(k.Path[:i].String()) {
				return true
			}
		}
		return a.isUnknown(append(slices.Clone(k.Path), "name").String())
	})
}
