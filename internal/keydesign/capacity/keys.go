package capacity

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The facts of the table's key templates once the shard count is known, and the key attributes and
// conventions the name rules read.

// TableKeys are the facts of the table's key templates once the shard count is known.
type TableKeys struct {
	Routing      model.Routing
	PartitionKey model.KeyFacts
	SortKey      *model.KeyFacts
	// Undeclared are the templates' placeholders without a segment.
	Undeclared []model.PlaceholderRef
}

// Keys are the routing and the facts of the partition and sort key templates pk and sk: the shard count
// sizes {shard} and the key cardinality.
func Keys(m *model.Model, sharding model.ShardingDoc, shardCount int64, pk, sk *model.Template) TableKeys {
	out := TableKeys{Undeclared: []model.PlaceholderRef{}}
	out.Routing = model.Routing{Algorithm: routingAlgorithm(sharding.Strategy), Count: shardCount, Width: model.ShardWidth(shardCount),
		Source: sharding.Source, SchemeVersion: sharding.SchemeVersion}
	out.PartitionKey = keyFacts(m, "partition_key", pk, m.Input.PartitionKey.Template, shardCount)
	if m.Input.SortKey != nil {
		f := keyFacts(m, "sort_key", sk, m.Input.SortKey.Template, shardCount)
		out.SortKey = &f
	}
	for _, ref := range [...]struct {
		key string
		t   *model.Template
	}{{"partition_key", pk}, {"sort_key", sk}} {
		if ref.t == nil {
			continue
		}
		for _, name := range ref.t.Placeholders() {
			if _, ok := m.Segments[name]; !ok && name != model.ShardPlaceholder {
				out.Undeclared = append(out.Undeclared, model.PlaceholderRef{Key: ref.key, Placeholder: name})
			}
		}
	}
	return out
}

// Names are the key attributes of the table and its indexes and the templates' conventions (of pk and sk,
// or of every template every entity writes). A key attribute whose name is not known yet (a key from
// another resource's attribute) is left out: the name rules have nothing to check.
func Names(mdl *model.Model, table model.TableDoc, pk, sk *model.Template) ([]model.KeyAttributeRef, model.Conventions) {
	attrs := keyAttributes(table)
	templates := []*model.Template{pk, sk}
	if m := mdl.Entities; m != nil {
		// Every template every entity writes, its index keys' too.
		templates = templates[:0]
		for _, byAttr := range m.Templates {
			for _, attr := range slices.Sorted(maps.Keys(byAttr)) {
				templates = append(templates, byAttr[attr])
			}
		}
	}
	conv := conventions(templates...)
	if len(mdl.Unknown) == 0 {
		return attrs, conv
	}
	attrs = slices.DeleteFunc(attrs, func(k model.KeyAttributeRef) bool {
		for i := 1; i <= len(k.Path); i++ {
			if mdl.IsUnknown(k.Path[:i].String()) {
				return true
			}
		}
		return mdl.IsUnknown(append(slices.Clone(k.Path), "name").String())
	})
	return attrs, conv
}

// keyFacts derives the facts of one of the table's key templates; shardCount sizes the {shard} placeholder.
func keyFacts(m *model.Model, key string, t *model.Template, src *string, shardCount int64) model.KeyFacts {
	return TemplateFacts(t, src, m.Segments, !m.IsUnknown("segments") && !m.IsUnknown(key+".template"), shardCount)
}

func routingAlgorithm(strategy string) string {
	switch strategy {
	case model.StrategyCalculated:
		return model.RoutingAlgorithm
	case model.StrategyRandom:
		return "random"
	}
	return "none"
}

func keyAttributes(t model.TableDoc) []model.KeyAttributeRef {
	n, elems := 2+len(t.LSIs), 2+3*len(t.LSIs)
	for _, g := range t.GSIs {
		n += len(g.PartitionKey) + len(g.SortKey)
		elems += 4 * (len(g.PartitionKey) + len(g.SortKey))
	}
	refs := make([]model.KeyAttributeRef, 0, n)
	// The paths share one backing array, each capped at its own end so that appending to one copies it.
	parts := make([]string, 0, elems)
	add := func(name, typ string, p ...string) {
		start := len(parts)
		parts = append(parts, p...)
		refs = append(refs, model.KeyAttributeRef{Path: parts[start:len(parts):len(parts)], Name: name, NameBytes: len(name), Type: typ})
	}
	add(t.PartitionKey.Name, t.PartitionKey.Type, "partition_key")
	if t.SortKey != nil {
		add(t.SortKey.Name, t.SortKey.Type, "sort_key")
	}
	for _, l := range t.LSIs {
		add(l.SortKey.Name, l.SortKey.Type, "local_secondary_indexes", l.Name, "sort_key")
	}
	for _, g := range t.GSIs {
		for i, k := range g.PartitionKey {
			add(k.Name, k.Type, "global_secondary_indexes", g.Name, "partition_key", strconv.Itoa(i))
		}
		for i, k := range g.SortKey {
			add(k.Name, k.Type, "global_secondary_indexes", g.Name, "sort_key", strconv.Itoa(i))
		}
	}
	return refs
}

// delimiterChars are the characters treated as key separators.
const delimiterChars = "#|:/~;,"

func conventions(templates ...*model.Template) model.Conventions {
	delims, cases := map[string]bool{}, map[string]bool{}
	for _, t := range templates {
		if t == nil {
			continue
		}
		for _, lit := range t.Literals() {
			word := strings.Builder{}
			flush := func() {
				if c := letterCase(word.String()); c != "" {
					cases[c] = true
				}
				word.Reset()
			}
			for _, r := range lit {
				if strings.ContainsRune(delimiterChars, r) {
					delims[string(r)] = true
					flush()
					continue
				}
				word.WriteRune(r)
			}
			flush()
		}
	}
	// Empty lists, not null: the rules count them.
	return model.Conventions{Delimiters: model.OrEmpty(slices.Sorted(maps.Keys(delims))), LetterCases: model.OrEmpty(slices.Sorted(maps.Keys(cases)))}
}

func letterCase(word string) string {
	upper, lower := false, false
	for _, r := range word {
		upper = upper || unicode.IsUpper(r)
		lower = lower || unicode.IsLower(r)
	}
	switch {
	case upper && lower:
		return "mixed"
	case upper:
		return "upper"
	case lower:
		return "lower"
	}
	return ""
}
