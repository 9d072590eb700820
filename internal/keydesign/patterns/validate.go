package patterns

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// Access patterns are the queries an application makes, declared with the design so that the plan can
// check each against the table key and its indexes (contributing/capacity-model.md, "Access patterns").
// This file holds the model and the validation of the input; match.go matches each
// pattern to a key and computes its numbers.

func patternPath(name string, steps ...string) model.Path {
	return append(model.Path{"access_patterns", name}, steps...)
}

// patternsUnknown reports whether the pattern map, or anything in the pattern, is unknown at plan time.
func (an *analysis) patternUnknown(name string) bool {
	if an.m.IsUnknown("access_patterns") {
		return true
	}
	prefix := patternPath(name).String()
	for p := range an.unknown {
		if p == prefix || strings.HasPrefix(p, prefix+".") || strings.HasPrefix(p, prefix+"[") {
			return true
		}
	}
	return false
}

// designUnknownForPatterns reports whether a part of the design a pattern is matched against is unknown:
// the keys, segments, sharding, indexes or the item size. Patterns are then neither validated against it
// nor analysed.
func (an *analysis) designUnknownForPatterns() bool {
	for p := range an.unknown {
		for _, top := range []string{"partition_key", "sort_key", "segments", "sharding", "local_secondary_indexes",
			"global_secondary_indexes", "traffic.item_size_bytes", "traffic", "entities"} {
			if p == top || strings.HasPrefix(p, top+".") || strings.HasPrefix(p, top+"[") {
				if top == "traffic" && p != "traffic" && p != "traffic.item_size_bytes" {
					continue
				}
				return true
			}
		}
	}
	return false
}

// validateAccessPatterns rejects patterns that name what the design does not have, or that ask what no
// Query can: an unknown index, segment or attribute, a sort condition on a design without a sort key,
// begins_with on a number, rates and sizes out of range. Unknown values are skipped.
func (an *analysis) validateAccessPatterns(sk *model.Template) {
	in := an.in
	if len(in.AccessPatterns) == 0 {
		return
	}
	designKnown := !an.designUnknownForPatterns()
	names := an.patternNames(sk)
	for _, ap := range in.AccessPatterns {
		at := func(steps ...string) model.Path { return patternPath(ap.Name, steps...) }
		if r := ap.ReadsPerSecond; r != nil {
			switch {
			case math.IsNaN(*r) || math.IsInf(*r, 0) || *r <= 0:
				an.fail(at("reads_per_second"), "must be a number of calls per second above 0, got %v; remove a pattern the application no longer makes", *r)
			case *r > model.MaxRequestsPerSecond:
				an.fail(at("reads_per_second"), "must be at most %s per second, got %s", textfmt.Thousands(model.MaxRequestsPerSecond), textfmt.Thousands(*r))
			}
		}
		if n := ap.Items; n != nil && (*n < 1 || *n > model.MaxItemsPerQuery) {
			an.fail(at("items"), "must be between 1 and %s items per Query, got %d", textfmt.Thousands(model.MaxItemsPerQuery), *n)
		}
		if s := ap.ItemSizeBytes; s != nil && (*s < 1 || *s > model.MaxItemSizeBytes) {
			an.fail(at("item_size_bytes"), "must be between 1 and %d bytes (the item size limit), got %d", model.MaxItemSizeBytes, *s)
		}
		if ap.Consistency != "" && !slices.Contains(model.ReadConsistencies, ap.Consistency) {
			an.fail(at("consistency"), "unknown read consistency %q: use one of %s", ap.Consistency, strings.Join(model.ReadConsistencies, ", "))
		}
		if s := ap.HotKeyShare; s != nil && (math.IsNaN(*s) || *s < 0 || *s > 1) {
			an.fail(at("hot_key_share"), "is a share of the pattern's calls and must be between 0 and 1, got %v", *s)
		}
		an.errs = append(an.errs, model.DuplicateNames(at("attributes"), ap.Attributes)...)
		an.validatePatternEntities(ap)
		if !designKnown {
			continue
		}
		if ap.Index != nil {
			if _, ok := names.indexes[*ap.Index]; !ok {
				an.fail(at("index"), "names no key of this design: use %s, or omit index to let the provider pick the key that serves the pattern",
					quotedList(slices.Sorted(maps.Keys(names.indexes))))
			} else if *ap.Index == model.TableKeyIndex && names.tableIndexNamed {
				an.fail(at("index"), "\"table\" names the table's own key, and an index of this design is also named \"table\": rename the index")
			}
		}
		seen := map[string]bool{}
		for i, name := range ap.Equals {
			p := at("equals", strconv.Itoa(i))
			switch {
			case seen[name]:
				an.fail(p, "%q is listed twice; list each known value once", name)
			case !names.known[name]:
				an.fail(p, "%q is neither a segment of a key template nor a key attribute of the table or an index: use one of %s",
					name, quotedList(slices.Sorted(maps.Keys(names.known))))
			}
			seen[name] = true
		}
		if ap.Sort == nil {
			continue
		}
		if ap.Sort.Condition != "" && !slices.Contains(model.SortConditions, ap.Sort.Condition) {
			an.fail(at("sort", "condition"), "unknown sort condition %q: use one of %s", ap.Sort.Condition, strings.Join(model.SortConditions, ", "))
		}
		sortable := names.sortable
		if ap.Index != nil {
			sortable = names.indexes[*ap.Index]
			if _, ok := names.indexes[*ap.Index]; !ok {
				continue
			}
		}
		switch {
		case len(sortable) == 0 && ap.Index != nil:
			an.fail(at("sort"), "%s has no sort key, so a Query on it has no sort condition: remove sort, or name a key with a sort key", indexLabel(*ap.Index))
		case len(sortable) == 0:
			an.fail(at("sort"), "neither the table nor an index of this design has a sort key, so no Query has a sort condition: add a sort key, or remove sort")
		case ap.Sort.On == "":
		case !names.known[ap.Sort.On]:
			an.fail(at("sort", "on"), "%q is neither a segment of a key template nor a key attribute of the table or an index", ap.Sort.On)
		case seen[ap.Sort.On]:
			an.fail(at("sort", "on"), "%q is also in equals: a value the query knows exactly is an equality; list it in equals or sort, not both", ap.Sort.On)
		case ap.Sort.Condition == model.SortBeginsWith && sortable[ap.Sort.On] == model.KeyTypeNumber:
			an.fail(at("sort", "condition"), "begins_with works on string and binary keys only, and %q is part of a number (N) sort key: "+
				"use between, or a string key", ap.Sort.On)
		}
	}
}

// patternNames are the names a pattern may use: every segment and key attribute (known), the keys it may
// name (indexes, each with its sort parts and their key types), and every sort part of the design.
type patternNamesSet struct {
	known           map[string]bool
	indexes         map[string]map[string]string // key name → sort part → key type
	sortable        map[string]string            // every sort part of every key → key type
	tableIndexNamed bool
}

func (an *analysis) patternNames(sk *model.Template) patternNamesSet {
	in := an.in
	s := patternNamesSet{known: map[string]bool{}, indexes: map[string]map[string]string{}, sortable: map[string]string{}}
	for name := range an.segments {
		s.known[name] = true
	}
	add := func(index, part, typ string) {
		typ = cmp.Or(typ, model.KeyTypeString)
		s.indexes[index][part] = typ
		s.sortable[part] = typ
	}
	s.known[in.PartitionKey.Name] = true
	s.indexes[model.TableKeyIndex] = map[string]string{}
	if in.SortKey != nil {
		s.known[in.SortKey.Name] = true
		add(model.TableKeyIndex, in.SortKey.Name, in.SortKey.Type)
		if sk != nil {
			for _, name := range sk.Placeholders() {
				add(model.TableKeyIndex, name, in.SortKey.Type)
			}
		}
	}
	for _, l := range in.LocalSecondaryIndexes {
		s.tableIndexNamed = s.tableIndexNamed || l.Name == model.TableKeyIndex
		s.known[l.SortKey.Name] = true
		s.indexes[l.Name] = map[string]string{}
		add(l.Name, l.SortKey.Name, l.SortKey.Type)
	}
	for _, g := range in.GlobalSecondaryIndexes {
		s.tableIndexNamed = s.tableIndexNamed || g.Name == model.TableKeyIndex
		s.indexes[g.Name] = map[string]string{}
		for _, k := range g.PartitionKey {
			s.known[k.Name] = true
		}
		for _, k := range g.SortKey {
			s.known[k.Name] = true
			add(g.Name, k.Name, k.Type)
		}
	}
	delete(s.known, "")
	return s
}

func indexLabel(index string) string {
	if index == model.TableKeyIndex {
		return "the table's key"
	}
	return "index " + strconv.Quote(index)
}

func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 0 {
		return "(none)"
	}
	return strings.Join(q, ", ")
}

// accessPatternDocs are the patterns with their defaults applied, sorted by name.
func (an *analysis) accessPatternDocs(t model.TrafficDoc) []model.AccessPatternDoc {
	out := make([]model.AccessPatternDoc, 0, len(an.in.AccessPatterns))
	for _, ap := range an.in.AccessPatterns {
		d := model.AccessPatternDoc{Name: ap.Name, Index: ap.Index, Equals: model.OrEmpty(ap.Equals), ReadsPerSecond: ap.ReadsPerSecond,
			Items: 1, ItemSizeBytes: t.ItemSizeBytes, Consistency: cmp.Or(ap.Consistency, string(model.ReadEventual)),
			Attributes: ap.Attributes, HotKeyShare: ap.HotKeyShare, Entities: model.OrEmpty(ap.Entities)}
		if size := an.patternEntitySize(ap); size > 0 {
			d.ItemSizeBytes = size
		}
		if ap.Items != nil {
			d.Items = *ap.Items
		}
		if ap.ItemSizeBytes != nil {
			d.ItemSizeBytes = *ap.ItemSizeBytes
		}
		if ap.Sort != nil {
			d.Sort = &model.SortConditionDoc{On: ap.Sort.On, Condition: cmp.Or(ap.Sort.Condition, model.SortEqual)}
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y model.AccessPatternDoc) int { return cmp.Compare(x.Name, y.Name) })
	return out
}
