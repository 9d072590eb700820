package model

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// The entity model of a single-table design. Each entity gives a template for every key attribute it writes;
// an index whose key attributes an entity does not write holds none of its items (a sparse index). The model
// stage finds, from the templates alone:
//
//  1. the indexes each entity lands in, and the bounds of its keys and of its items per partition-key value;
//  2. key collisions: two entities whose table keys can render the same primary key (overlap.go), so that
//     one entity's PutItem overwrites the other's item;
//  3. item collections: entities whose partition-key templates can render the same value share one
//     partition-key value's collection, whose demand (the capacity stage) and size are the sums of theirs.

// entityStructure fills the entity model's document: each entity's indexes, key bounds and items per key,
// the collisions and the collections. shardWidth is the width of the {shard} suffix.
func (a *builder) entityStructure(m *Entities, shardWidth int64) {
	in := a.in
	idChars, listed := m.idCharacters()
	m.IDChars = idChars
	m.Doc = EntitiesDoc{Items: []EntityDoc{}, Collisions: []EntityCollision{}, Collections: []CollectionDoc{}, IDCharacters: "any but " + DelimiterList(listed)}
	indexKeys := IndexKeyNames(in)
	width := int(max(shardWidth, 1))
	// Each entity's key as atoms, and its literal prefixes; the automata are built when a pair needs the
	// search.
	tableAtoms := make([][][]TemplateAtom, len(in.Entities))
	prefixes := make([][]string, len(in.Entities))
	tableAutomata := make([]*Automaton, len(in.Entities))
	partitionAutomata := make([]*Automaton, len(in.Entities))
	tableAutomaton := func(i int) *Automaton {
		if tableAutomata[i] == nil {
			tableAutomata[i] = KeyAutomaton(tableAtoms[i])
		}
		return tableAutomata[i]
	}
	partitionAutomaton := func(i int) *Automaton {
		if partitionAutomata[i] == nil {
			partitionAutomata[i] = KeyAutomaton(tableAtoms[i][:1])
		}
		return partitionAutomata[i]
	}
	for i, e := range in.Entities {
		parsed := m.Templates[i]
		d := EntityDoc{Name: e.Name, Keys: e.Keys, Indexes: []string{}, IndexKeys: []EntityIndexKey{}, MaxBytes: map[string]*int64{}}
		for _, name := range slices.Sorted(maps.Keys(indexKeys)) {
			carries := true
			for _, k := range indexKeys[name] {
				if _, ok := e.Keys[k.Name]; !ok {
					carries = false
				}
				if t := parsed[k.Name]; t != nil {
					key := EntityIndexKey{Index: name, Attribute: k.Name, Type: cmp.Or(k.Type, KeyTypeString), Template: t.Source,
						Literals: OrEmpty(t.Literals()), Segments: []string{}}
					for _, ph := range t.Placeholders() {
						if ph != ShardPlaceholder {
							key.Segments = append(key.Segments, ph)
						}
					}
					d.IndexKeys = append(d.IndexKeys, key)
				}
			}
			if carries {
				d.Indexes = append(d.Indexes, name)
			}
		}
		for attr, t := range parsed {
			d.MaxBytes[attr] = TemplateMaxBytes(t, a.segments, shardWidth)
		}
		d.ItemSizeBytes = cmp.Or(Deref(e.Traffic.ItemSizeBytes), DefaultItemSizeBytes)
		var sk *Template
		if len(m.TableKeys) > 1 {
			sk = parsed[m.TableKeys[1]]
		}
		d.ItemsPerKey, d.ItemsBasis = ItemsPerKey(e.Traffic.MaxItemsPerPartitionKey, len(m.TableKeys) > 1, sk,
			sk != nil && !a.isUnknown("segments"), a.segments, in.Segments, Deref(in.Sharding.Count))
		m.Doc.Items = append(m.Doc.Items, d)

		var tableParts [][]TemplateAtom
		for _, k := range m.TableKeys {
			t := parsed[k]
			if t == nil {
				tableParts = nil
				break
			}
			atoms := Atoms(t, a.segments, idChars, width)
			tableParts = append(tableParts, atoms)
			prefixes[i] = append(prefixes[i], LiteralPrefix(atoms))
		}
		tableAtoms[i] = tableParts
	}
	// Collisions and shared collections, pair by pair.
	group := make([]int, len(in.Entities))
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	var searcher Search
	for i := range in.Entities {
		for j := i + 1; j < len(in.Entities); j++ {
			if tableAtoms[i] == nil || tableAtoms[j] == nil {
				continue
			}
			// The same partition-key template, or one whose value the search finds both render.
			samePartition := m.Templates[i][m.TableKeys[0]].Source == m.Templates[j][m.TableKeys[0]].Source
			if !samePartition && !DisjointPrefixes(prefixes[i][:1], prefixes[j][:1]) {
				_, samePartition = searcher.Common(partitionAutomaton(i), partitionAutomaton(j))
			}
			if !samePartition {
				continue
			}
			group[find(j)] = find(i)
			if DisjointPrefixes(prefixes[i], prefixes[j]) {
				continue
			}
			if example, ok := searcher.Common(tableAutomaton(i), tableAutomaton(j)); ok {
				m.Doc.Collisions = append(m.Doc.Collisions, EntityCollision{
					Entities: []string{in.Entities[i].Name, in.Entities[j].Name}, Example: ExampleKey(example, m.TableKeys)})
			}
		}
	}
	roots := map[int]int{}
	for i := range in.Entities {
		r := find(i)
		c, ok := roots[r]
		if !ok {
			c = len(m.Doc.Collections)
			roots[r] = c
			m.Doc.Collections = append(m.Doc.Collections, CollectionDoc{Entities: []string{}})
		}
		m.Doc.Items[i].Collection = c
		m.Doc.Collections[c].Entities = append(m.Doc.Collections[c].Entities, in.Entities[i].Name)
	}
}

// idCharacters is what an id segment without declared characters may hold: any byte but the attribute
// separator and the table's delimiters (a character that is no letter or digit and stands next to a
// placeholder in one of the templates).
func (m *Entities) idCharacters() (ByteSet, string) {
	var delimiters ByteSet
	var listed []string
	note := func(c byte) {
		alphanumeric := '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if c < 0x80 && !alphanumeric && !delimiters.Has(c) {
			delimiters.Add(c)
			listed = append(listed, string(c))
		}
	}
	for _, byAttr := range m.Templates {
		for _, attr := range slices.Sorted(maps.Keys(byAttr)) {
			parts := byAttr[attr].Parts
			for i, part := range parts {
				if part.Placeholder == "" {
					continue
				}
				if i > 0 && parts[i-1].Placeholder == "" && parts[i-1].Literal != "" {
					lit := parts[i-1].Literal
					note(lit[len(lit)-1])
				}
				if i+1 < len(parts) && parts[i+1].Placeholder == "" && parts[i+1].Literal != "" {
					note(parts[i+1].Literal[0])
				}
			}
		}
	}
	delimiters.Add(0)
	slices.Sort(listed)
	return AnyByte.Without(delimiters), strings.Join(listed, "")
}

// Atoms are a template's parts as the collision check reads them.
func Atoms(t *Template, segments map[string]ResolvedSegment, idChars ByteSet, shardWidth int) []TemplateAtom {
	out := make([]TemplateAtom, 0, len(t.Parts))
	for _, part := range t.Parts {
		if part.Placeholder == "" {
			out = append(out, TemplateAtom{Literal: part.Literal})
			continue
		}
		shape := &ValueShape{Chars: idChars}
		if part.Placeholder == ShardPlaceholder {
			shape = &ValueShape{Digits: shardWidth}
		} else if seg, ok := segments[part.Placeholder]; ok {
			switch seg.Kind {
			case KindEnum:
				shape = &ValueShape{Values: seg.Values}
			case KindTime:
				shape = &ValueShape{Layout: TimeShape(seg.Granularity)}
			case KindNumber:
				shape = &ValueShape{Number: true}
			}
			if seg.Characters != "" {
				if chars, err := ParseCharacters(seg.Characters); err == nil {
					shape = &ValueShape{Chars: chars.Without(Single(0))}
				}
			}
		}
		out = append(out, TemplateAtom{Shape: shape})
	}
	return out
}

// TemplateMaxBytes bounds a template's rendered value: its literal bytes and each segment's max_length;
// nil when a placeholder has no segment.
func TemplateMaxBytes(t *Template, segments map[string]ResolvedSegment, shardWidth int64) *int64 {
	n := int64(t.LiteralBytes())
	for _, name := range t.Placeholders() {
		if name == ShardPlaceholder {
			n += max(shardWidth, 1)
			continue
		}
		seg, ok := segments[name]
		if !ok {
			return nil
		}
		n += seg.MaxLength
	}
	return &n
}

// ItemsPerKey bounds the items one partition-key value holds: the stated bound, else what the sort-key
// template can render (a template without placeholders is one item; one of bounded segments at most the
// product of their values; a table without a sort key one item), else nothing bounds them. known is false
// while the sort-key template is unknown; shardCount is 0 while the count is to be computed.
func ItemsPerKey(stated *int64, hasSortKey bool, sk *Template, known bool, segments map[string]ResolvedSegment,
	declared map[string]Segment, shardCount int64) (*int64, string) {
	switch {
	case stated != nil:
		return stated, CollectionGiven
	case !hasSortKey:
		return Ptr(int64(1)), CollectionTemplate
	case !known || sk == nil:
		return nil, CollectionUnbounded
	}
	if n := TemplateValues(sk, segments, declared, shardCount); n != nil {
		return n, CollectionTemplate
	}
	return nil, CollectionUnbounded
}

// TemplateValues is how many distinct values a template can render: the product of its segments' values
// (a stated cardinality, an enum's values, a number of stated max_length's 10^max_length); nil when a
// segment is unbounded (an id, a time) or undeclared, or the template holds {shard} while the shard count
// is to be computed (shardCount 0).
func TemplateValues(t *Template, segments map[string]ResolvedSegment, declared map[string]Segment, shardCount int64) *int64 {
	n := int64(1)
	for _, name := range t.Placeholders() {
		if name == ShardPlaceholder {
			if shardCount < 1 {
				return nil
			}
			n = SaturatingMul(n, shardCount)
			continue
		}
		seg, ok := segments[name]
		if !ok {
			return nil
		}
		switch {
		case seg.Cardinality != nil:
			n = SaturatingMul(n, *seg.Cardinality)
		case seg.Kind == KindNumber && declared[name].MaxLength != nil:
			n = SaturatingMul(n, saturatingPow10(seg.MaxLength))
		default:
			return nil
		}
	}
	return &n
}

func saturatingPow10(digits int64) int64 {
	if digits >= 18 {
		return 1<<63 - 1
	}
	n := int64(1)
	for range digits {
		n *= 10
	}
	return n
}

// Ptr is a pointer to a copy of v: the document's optional figures are pointers.
func Ptr[T any](v T) *T { return &v }

// Deref is the value p points to, the zero value for nil.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// OrEmpty is s, or an empty list for nil: the document states empty lists, which the rules count.
func OrEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
