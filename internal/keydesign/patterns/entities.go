package patterns

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Access patterns of a single-table design name the entities they read. A pattern is matched against the
// keys as its first entity writes them (its templates of the table's keys), and the query knows a key
// attribute whose template, in every entity it reads, holds only segments it knows (customer_id fills
// CUSTOMER#{customer_id}; PROFILE needs nothing): the profile of a customer is a GetItem, a customer with
// their orders one Query of the collection. A Query that also returns the items of an entity it does not
// name is an overlap (DK110): without a sort condition the whole collection, with one every sort key that
// starts like the selected range.

func (an *analysis) validatePatternEntities(ap model.AccessPattern) {
	if an.entitiesUnknown() {
		return // the entities a pattern may name are known only later
	}
	for i, name := range ap.Entities {
		p := patternPath(ap.Name, "entities", strconv.Itoa(i))
		switch {
		case len(an.in.Entities) == 0:
			an.fail(p, "the design has no entities: remove entities from the pattern, or declare the table's entities")
		case !slices.ContainsFunc(an.in.Entities, func(e model.Entity) bool { return e.Name == name }):
			names := make([]string, len(an.in.Entities))
			for j, e := range an.in.Entities {
				names[j] = e.Name
			}
			an.fail(p, "names no entity of this design: use one of %s", quotedList(names))
		case slices.Index(ap.Entities, name) < i:
			an.fail(p, "%q is listed twice; list each entity once", name)
		}
	}
}

// entitiesUnknown reports whether the entities, or one of them, are not known at plan time.
func (an *analysis) entitiesUnknown() bool {
	for p := range an.unknown {
		if p == "entities" || strings.HasPrefix(p, "entities.") {
			return true
		}
	}
	return false
}

// patternEntitySize is the item size a pattern on entities reads by default: the largest of its entities'
// (an upper bound when it reads several); 0 when the pattern gives one or names no entity.
func (an *analysis) patternEntitySize(ap model.AccessPattern) int64 {
	if ap.ItemSizeBytes != nil {
		return 0
	}
	size := int64(0)
	for _, name := range ap.Entities {
		if i := an.m.EntityIndex(name); i >= 0 {
			size = max(size, an.entities.Doc.Items[i].ItemSizeBytes)
		}
	}
	return size
}

// entityPatternKeys are the keys a pattern on entities is matched against: the table's keys with its first
// entity's templates; nil for a pattern that names no entity.
func (an *analysis) entityPatternKeys(st *model.Stated, ap model.AccessPatternDoc) []*patternKey {
	if len(ap.Entities) == 0 {
		return nil
	}
	i := an.m.EntityIndex(ap.Entities[0])
	if i < 0 {
		return nil
	}
	templates := an.entities.Templates[i]
	var sk *model.Template
	if len(an.entities.TableKeys) > 1 {
		sk = templates[an.entities.TableKeys[1]]
	}
	keys := an.patternKeys(st, templates[an.entities.TableKeys[0]], sk)
	// A GSI's and an LSI's key attributes are the entity's templates too: STATUS#{status} is known from
	// status, and a sort condition is on a placeholder of the index's sort key.
	for _, k := range keys[1:] {
		k.partition = entityParts(k.partition, templates, an.segments)
		k.sort = entityParts(k.sort, templates, an.segments)
	}
	return keys
}

// entityParts replaces each whole-attribute part with the placeholders of the entity's template for that
// attribute, when it has one.
func entityParts(parts []keyPart, templates map[string]*model.Template, segments map[string]model.ResolvedSegment) []keyPart {
	var out []keyPart
	for _, p := range parts {
		t := templates[p.attribute]
		if p.kind != "" || p.name != p.attribute || t == nil || len(t.Placeholders()) == 0 {
			out = append(out, p)
			continue
		}
		for _, ph := range t.Placeholders() {
			if ph != model.ShardPlaceholder {
				out = append(out, keyPart{name: ph, attribute: p.attribute, keyType: p.keyType, kind: segments[ph].Kind})
			}
		}
	}
	return out
}

// entityKnownAttributes are the key attributes a pattern on entities knows whole: every entity it reads
// writes the attribute with a template whose every segment the pattern knows, and no {shard}. A pattern names
// entities only in a design that has them (validatePatternEntities), so one without names reads none.
func (an *analysis) entityKnownAttributes(ap model.AccessPatternDoc) []string {
	if len(ap.Entities) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, e := range ap.Equals {
		known[e] = true
	}
	var out []string
	attrs := map[string]bool{}
	for _, byAttr := range an.entities.Templates {
		for attr := range byAttr {
			attrs[attr] = true
		}
	}
	for _, attr := range slices.Sorted(maps.Keys(attrs)) {
		whole := true
		for _, name := range ap.Entities {
			i := an.m.EntityIndex(name)
			if i < 0 {
				whole = false
				break
			}
			t := an.entities.Templates[i][attr]
			if t == nil || t.HasPlaceholder(model.ShardPlaceholder) {
				whole = false
				break
			}
			for _, ph := range t.Placeholders() {
				whole = whole && known[ph]
			}
		}
		if whole {
			out = append(out, attr)
		}
	}
	return out
}

// entityOverlaps are the entities a pattern's Query on the table key reads beside those it names: those of
// its first entity's collection whose sort key can start like the range the query selects.
func (an *analysis) entityOverlaps(ap model.AccessPatternDoc, f model.PatternFacts) []model.EntityOverlap {
	out := []model.EntityOverlap{}
	m := an.entities
	if m == nil || !f.Serves || f.IndexKind != model.IndexKindTable || len(m.TableKeys) < 2 {
		return out
	}
	first := an.m.EntityIndex(ap.Entities[0])
	sk := m.Templates[first][m.TableKeys[1]]
	if sk == nil || slices.Contains(an.entityKnownAttributes(ap), m.TableKeys[1]) {
		return out // the query names the whole sort key: one item
	}
	idChars := m.IDChars
	width := model.ShardWidth(max(model.Deref(an.in.Sharding.Count), 1))
	// The selected range: the sort key's text before the segment the condition is on (or before the
	// first segment the query does not know), then anything.
	known := map[string]bool{}
	for _, e := range ap.Equals {
		known[e] = true
	}
	// Without a sort condition a Query returns the whole collection.
	prefix := model.Atoms(sk, an.segments, idChars, width)
	cut := 0
	if ap.Sort != nil {
		cut = len(prefix)
		for j, part := range sk.Parts {
			if part.Placeholder != "" && (!known[part.Placeholder] || ap.Sort.On == part.Placeholder) {
				cut = j
				break
			}
		}
	}
	if ap.Sort != nil && ap.Sort.Condition == model.SortEqual {
		return out // one sort key, the pattern's entity's
	}
	selection := model.KeyAutomaton([][]model.TemplateAtom{append(prefix[:cut:cut], model.TemplateAtom{Shape: &model.ValueShape{Anything: true}})})
	if ap.Sort != nil && ap.Sort.Condition != model.SortBeginsWith && ap.Sort.Condition != model.SortBetween {
		// A one-sided range also returns every sort key beyond the prefix on its side (PROFILE > ORDER#...).
		selection = model.RangeAutomaton(model.LiteralPrefix(prefix[:cut]), ap.Sort.Condition == model.SortGreater || ap.Sort.Condition == model.SortGreaterEqual)
	}
	for j, e := range an.in.Entities {
		if slices.Contains(ap.Entities, e.Name) || m.Doc.Items[j].Collection != m.Doc.Items[first].Collection {
			continue
		}
		other := m.Templates[j][m.TableKeys[1]]
		if other == nil {
			continue
		}
		if _, ok := model.CommonValue(selection, model.KeyAutomaton([][]model.TemplateAtom{model.Atoms(other, an.segments, idChars, width)})); !ok {
			continue
		}
		o := model.EntityOverlap{Entity: e.Name, ExtraItems: m.Doc.Items[j].ItemsPerKey}
		if per := nestedValues(sk, other, an.segments, an.m.Input.Segments, model.Deref(an.in.Sharding.Count)); per != nil {
			o.ExtraItemsPerItem = per
			if bound := model.SaturatingMul(*per, ap.Items); o.ExtraItems == nil || bound < *o.ExtraItems {
				o.ExtraItems = model.Ptr(bound)
			}
		}
		if o.ExtraItems != nil {
			bytes := float64(*o.ExtraItems) * float64(m.Doc.Items[j].ItemSizeBytes)
			o.ExtraReadUnitsPerCall = model.Ptr(math.Ceil(bytes/model.ReadUnitBytes-model.CeilEpsilon) * consistencyFactor(ap.Consistency))
			if r := ap.ReadsPerSecond; r != nil {
				o.ExtraReadUnitsPerSecond = model.Ptr(*o.ExtraReadUnitsPerCall * *r)
			}
		}
		out = append(out, o)
	}
	return out
}

// nestedValues is how many sort-key values the template other renders under one value of sk, when other
// nests under it (starts with every part of sk: ORDER#{order_id}#LINE#{line} under ORDER#{order_id}, the
// last literal of sk as a prefix): the values of the placeholders it adds; nil when it does not nest or an
// added placeholder is unbounded.
func nestedValues(sk, other *model.Template, segments map[string]model.ResolvedSegment, declared map[string]model.Segment, shardCount int64) *int64 {
	if len(sk.Placeholders()) == 0 || len(other.Parts) < len(sk.Parts) {
		return nil
	}
	last := len(sk.Parts) - 1
	for i, p := range sk.Parts {
		o := other.Parts[i]
		switch {
		case p.Placeholder != "" || o.Placeholder != "":
			if o.Placeholder != p.Placeholder {
				return nil
			}
		case i == last && !strings.HasPrefix(o.Literal, p.Literal), i < last && o.Literal != p.Literal:
			return nil
		}
	}
	// A placeholder of sk that returns in the rest has the value sk gave it: it adds no values.
	added := &model.Template{}
	for _, p := range other.Parts[len(sk.Parts):] {
		if p.Placeholder == "" || !sk.HasPlaceholder(p.Placeholder) {
			added.Parts = append(added.Parts, p)
		}
	}
	return model.TemplateValues(added, segments, declared, shardCount)
}
