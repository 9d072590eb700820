// Package vectors is the vector-index stage of the key-design analysis: for each vector index of a table,
// which kinds of item it holds, what its partition key (the search schema's HASH) takes on its busiest value,
// what a search returns and what the index costs. It reads the model, the table's traffic and the shard
// count, never the Document; the rules in policies/vectors.rego decide.
//
// The facts, with the AWS pages they come from: an item is indexed only when it carries both the vector and
// the HASH attribute, and one without the HASH is written and silently never indexed (VectorSearchDataSync);
// a vector is a list of 32-bit floats (VectorSearchWorkingWith); one HASH value takes 10 MB/s of vector writes
// (VectorSearchBestPractices); a response is at most 16 MB, unpaginated (VectorSearch.Requirements); writes and
// searches are metered in bytes, at least 1 KB a request, and storage apart (VectorSearchMonitoring;
// VectorSearchStorage).
package vectors

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// WithoutSearches is the design with its vector searches taken out of the access patterns: a search is not
// a Query of the table's keys, so the patterns stage never sees it; the searches come back for Facts.
func WithoutSearches(in *model.Input) (*model.Input, []model.AccessPattern) {
	if !slices.ContainsFunc(in.AccessPatterns, func(ap model.AccessPattern) bool { return ap.VectorSearch != nil }) {
		return in, nil
	}
	out := *in
	out.AccessPatterns = nil
	var searches []model.AccessPattern
	for _, ap := range in.AccessPatterns {
		if ap.VectorSearch != nil {
			searches = append(searches, ap)
			continue
		}
		out.AccessPatterns = append(out.AccessPatterns, ap)
	}
	return &out, searches
}

// Validate rejects what names what the design does not have: a search of an index that does not exist, an
// entity's vector attribute no index reads, and a HASH or inline filter of no name. Out-of-range dimensions
// and top_k are the rules' (DK506, DK507), so that the user sees the limit and its page.
func Validate(m *model.Model, searches []model.AccessPattern) []*model.FieldError {
	var errs model.FieldErrors
	in := m.Input
	names := map[string]bool{}
	attributes := map[string]bool{}
	for _, v := range in.VectorIndexes {
		p := model.Path{"vector_indexes", v.Name}
		names[v.Name] = true
		attributes[v.VectorAttribute] = true
		if v.VectorAttribute == "" && !m.IsUnknown(append(p, "vector_attribute").String()) {
			errs.Add(append(p, "vector_attribute"), "must name the attribute that holds the vectors (a list of numbers)")
		}
		if v.PartitionKey != nil && v.PartitionKey.Name == "" {
			errs.Add(append(p, "partition_key", "name"), "must name the HASH attribute")
		}
		if v.DistanceFunction != "" && !slices.Contains(model.DistanceFunctions, v.DistanceFunction) {
			errs.Add(append(p, "distance_function"), "unknown distance function %q: use one of %s", v.DistanceFunction, strings.Join(model.DistanceFunctions, ", "))
		}
		if v.PartitionKey != nil && v.PartitionKey.Name == v.VectorAttribute {
			errs.Add(append(p, "partition_key", "name"), "the HASH attribute %q is the vector attribute: a HASH holds a string, number or binary value", v.VectorAttribute)
		}
	}
	for _, e := range in.Entities {
		for i, a := range e.VectorAttributes {
			if !attributes[a] && !m.IsUnknown("vector_indexes") {
				errs.Add(model.Path{"entities", e.Name, "vector_attributes", strconv.Itoa(i)},
					"%q is no vector index's vector_attribute: name the attribute a vector index in vector_indexes reads", a)
			}
		}
	}
	for _, ap := range searches {
		p := model.Path{"access_patterns", ap.Name, "vector_search"}
		if ap.VectorSearch.Index == "" || !names[ap.VectorSearch.Index] && !m.IsUnknown("vector_indexes") {
			errs.Add(append(p, "index"), "%q is no vector index of the design: name one of vector_indexes", ap.VectorSearch.Index)
		}
		if ap.Index != nil {
			errs.Add(model.Path{"access_patterns", ap.Name, "index"}, "a vector search reads its vector_search.index: remove index")
		}
		if ap.Sort != nil {
			errs.Add(model.Path{"access_patterns", ap.Name, "sort"}, "a vector search has no sort condition: the index orders by distance")
		}
		for _, name := range ap.Entities {
			if !slices.ContainsFunc(in.Entities, func(e model.Entity) bool { return e.Name == name }) {
				errs.Add(model.Path{"access_patterns", ap.Name, "entities"}, "%q is no entity of the design", name)
			}
		}
	}
	return errs
}

// Traffic is what the stage reads of the table's traffic: the design's as stated, for a design without
// entities, whose one implicit entity writes it.
type Traffic struct {
	WritesPerSecond        *float64
	AverageWritesPerSecond *float64
	ItemSizeBytes          int64
	ItemCount              *int64
}

// Facts are the vector indexes' facts, sorted by name; nil without vector indexes. shardCount sizes a
// {shard} in a HASH template, targetUtilization the HASH values the writes need.
func Facts(m *model.Model, table Traffic, searches []model.AccessPattern, shardCount int64, targetUtilization float64) []model.VectorIndexDoc {
	in := m.Input
	if len(in.VectorIndexes) == 0 {
		return nil
	}
	indexes := slices.SortedFunc(slices.Values(in.VectorIndexes), func(x, y model.VectorIndex) int { return strings.Compare(x.Name, y.Name) })
	out := make([]model.VectorIndexDoc, 0, len(indexes))
	for _, v := range indexes {
		d := indexDoc(v)
		for _, other := range indexes {
			if other.Name != v.Name && other.VectorAttribute == v.VectorAttribute && other.Dimensions != nil && v.Dimensions != nil &&
				*other.Dimensions != *v.Dimensions {
				d.SharedDimensions = append(d.SharedDimensions, other.Name)
			}
		}
		a := indexAnalysis{m: m, v: v, d: &d, table: table, shards: max(shardCount, 1)}
		a.entities()
		a.hash(targetUtilization)
		a.searches(searches)
		a.cost()
		out = append(out, d)
	}
	return out
}

// indexDoc is the index as written, defaults applied.
func indexDoc(v model.VectorIndex) model.VectorIndexDoc {
	d := model.VectorIndexDoc{
		Name: v.Name, Path: model.Path{"vector_indexes", v.Name}, VectorAttribute: v.VectorAttribute, Dimensions: v.Dimensions,
		DistanceFunction: v.DistanceFunction, InlineFilters: []model.IndexKeyDoc{}, ProjectionType: cmp.Or(v.ProjectionType, model.ProjectionAll),
		NonKeyAttributes: model.OrEmpty(v.NonKeyAttributes), SharedDimensions: []string{}, Entities: []model.VectorEntityDoc{},
		HashUniqueEntities: []string{}, HotHashEntities: []string{}, Searches: []model.VectorSearchDoc{},
	}
	if v.PartitionKey != nil {
		d.PartitionKey = &model.IndexKeyDoc{Name: v.PartitionKey.Name, Type: cmp.Or(v.PartitionKey.Type, model.KeyTypeString)}
	}
	for _, f := range v.InlineFilters {
		d.InlineFilters = append(d.InlineFilters, model.IndexKeyDoc{Name: f.Name, Type: cmp.Or(f.Type, model.KeyTypeString)})
	}
	if v.Dimensions != nil && *v.Dimensions > 0 {
		d.VectorBytes = model.SaturatingMul(*v.Dimensions, model.VectorBytesPerDimension)
	}
	return d
}

// indexAnalysis derives one index's facts.
type indexAnalysis struct {
	m      *model.Model
	v      model.VectorIndex
	d      *model.VectorIndexDoc
	table  Traffic
	shards int64
	// members are the kinds of item indexed, with what the figures read of them.
	members []member
}

// member is a kind of item the index holds.
type member struct {
	doc           *model.VectorEntityDoc
	hash          *model.Template
	values        *int64 // HASH values it writes; nil when unbounded or not known
	share         *float64
	unique        bool
	averageWrites *float64
	itemCount     *int64
}

// entities finds the kinds of item carrying the vector attribute, and which of them the index holds.
func (a *indexAnalysis) entities() {
	in := a.m.Input
	if len(in.Entities) == 0 {
		if a.m.Entities == nil && len(a.m.Scopes) == 1 {
			a.addImplicit()
		}
		return
	}
	if a.m.Entities == nil {
		return
	}
	for i, e := range in.Entities {
		if !slices.Contains(e.VectorAttributes, a.v.VectorAttribute) {
			continue
		}
		templates := a.m.Entities.Templates[i]
		ed := model.VectorEntityDoc{Entity: e.Name, HasHash: true, Path: model.Path{"entities", e.Name}}
		var hash *model.Template
		if pk := a.v.PartitionKey; pk != nil {
			_, ed.HasHash = e.Keys[pk.Name]
			hash = templates[pk.Name]
		}
		itemBytes := a.m.Entities.Doc.Items[i].ItemSizeBytes
		var keys []*model.Template
		keyBytes := int64(0)
		for _, k := range a.m.Entities.TableKeys {
			keys = append(keys, templates[k])
			keyBytes += attributeBytes(k, templates[k], a.m.Segments, a.shards)
		}
		a.add(ed, hash, keys, itemBytes, keyBytes, e.Traffic.WritesPerSecond, e.Traffic.AverageWritesPerSecond, e.Traffic.ItemCount)
	}
}

// addImplicit adds a design without entities' one kind of item, which carries every index's vector attribute
// and, as far as the design says, its HASH: the HASH's template is the table key's of that name, else a segment
// of that name.
func (a *indexAnalysis) addImplicit() {
	in := a.m.Input
	ed := model.VectorEntityDoc{HasHash: true, Path: model.Path{"vector_indexes", a.v.Name}}
	var hash *model.Template
	if pk := a.v.PartitionKey; pk != nil {
		switch {
		case pk.Name == in.PartitionKey.Name:
			hash = a.m.PartitionKey
		case in.SortKey != nil && pk.Name == in.SortKey.Name:
			hash = a.m.SortKey
		default:
			if _, ok := a.m.Segments[pk.Name]; ok {
				hash, _ = model.ParseTemplate("{" + pk.Name + "}")
			}
		}
	}
	keys := []*model.Template{a.m.PartitionKey}
	keyBytes := attributeBytes(in.PartitionKey.Name, a.m.PartitionKey, a.m.Segments, a.shards)
	if in.SortKey != nil {
		keys = append(keys, a.m.SortKey)
		keyBytes += attributeBytes(in.SortKey.Name, a.m.SortKey, a.m.Segments, a.shards)
	}
	a.add(ed, hash, keys, a.table.ItemSizeBytes, keyBytes, a.table.WritesPerSecond, a.table.AverageWritesPerSecond, a.table.ItemCount)
}

// add records one kind of item carrying the vector attribute: its projection, and as a member its writes
// and its share of the busiest HASH value.
func (a *indexAnalysis) add(ed model.VectorEntityDoc, hash *model.Template, keys []*model.Template, itemBytes, keyBytes int64,
	writes, averageWrites *float64, itemCount *int64) {
	v, d := a.v, a.d
	if v.PartitionKey != nil {
		keyBytes += attributeBytes(v.PartitionKey.Name, hash, a.m.Segments, a.shards)
	}
	ed.Member = ed.HasHash
	ed.ProjectedBytes = capacity.ProjectedEntryBytes(d.ProjectionType, itemBytes, keyBytes, v.NonKeyAttributes)
	ed.WriteBytesPerItem = d.VectorBytes + ed.ProjectedBytes
	if hash != nil {
		ed.HashTemplate = hash.Source
	}
	mb := member{hash: hash, averageWrites: cmp.Or(averageWrites, writes), itemCount: itemCount}
	if ed.Member {
		ed.WritesPerSecond = writes
		if writes != nil {
			ed.WriteBytesPerSecond = model.Ptr(*writes * float64(ed.WriteBytesPerItem))
		}
		mb.values, mb.share = a.hashValues(hash)
		ed.HotHashShare = mb.share
		mb.unique = uniquePerItem(hash, keys)
	}
	d.Entities = append(d.Entities, ed)
	if ed.Member {
		mb.doc = &d.Entities[len(d.Entities)-1]
		a.members = append(a.members, mb)
	}
}

// hashValues are the values a HASH template renders (nil when unbounded: an id, or a time bucket whose
// values grow) and the share of the writes on the busiest one: 1 / the values of its placeholders but a
// time bucket, whose current value takes every write of the others (the capacity model's hot-key share).
// An index without HASH is one value.
func (a *indexAnalysis) hashValues(t *model.Template) (*int64, *float64) {
	if a.v.PartitionKey == nil {
		return model.Ptr(int64(1)), model.Ptr(1.0)
	}
	if t == nil {
		return nil, nil
	}
	values, others, bounded := int64(1), 1.0, true
	for _, name := range t.Placeholders() {
		if name == model.ShardPlaceholder {
			values = model.SaturatingMul(values, a.shards)
			others *= float64(a.shards)
			continue
		}
		seg, ok := a.m.Segments[name]
		switch {
		case !ok:
			return nil, nil
		case seg.Kind == model.KindTime:
			bounded = false
		case seg.Cardinality == nil:
			bounded = false
			others = math.Inf(1)
		default:
			values = model.SaturatingMul(values, *seg.Cardinality)
			others *= float64(*seg.Cardinality)
		}
	}
	share := 1 / others
	if !bounded {
		return nil, &share
	}
	return &values, &share
}

// uniquePerItem is whether a HASH template renders a value per item: it holds every placeholder of the
// table keys (and they have one), so each value holds one vector.
func uniquePerItem(hash *model.Template, keys []*model.Template) bool {
	if hash == nil {
		return false
	}
	placeholders := false
	for _, k := range keys {
		if k == nil {
			return false
		}
		for _, name := range k.Placeholders() {
			if name == model.ShardPlaceholder {
				continue
			}
			placeholders = true
			if !hash.HasPlaceholder(name) {
				return false
			}
		}
	}
	return placeholders
}

// attributeBytes bounds an attribute in an index entry: its name and its longest value (a template's, or an
// id's default length without one).
func attributeBytes(name string, t *model.Template, segments map[string]model.ResolvedSegment, shards int64) int64 {
	n := int64(len(name))
	if t == nil {
		return n + model.DefaultIDMaxLength
	}
	width := int64(len(strconv.FormatInt(max(shards-1, 0), 10)))
	if b := model.TemplateMaxBytes(t, segments, width); b != nil {
		return n + *b
	}
	return n + model.DefaultIDMaxLength
}

// hash derives the HASH's values and the writes on its busiest value. Members with the same HASH template
// write the same values, so the busiest value is the busiest such group's.
func (a *indexAnalysis) hash(targetUtilization float64) {
	d := a.d
	if a.v.PartitionKey == nil {
		d.HashValues, d.HashValuesBasis = model.Ptr(int64(1)), "no_hash"
	}
	type group struct {
		bytes   float64
		values  *int64
		members []string
	}
	groups := map[string]*group{}
	var order []string
	total, totalKnown, hotKnown := 0.0, len(a.members) > 0, len(a.members) > 0
	bounded := true
	for _, mb := range a.members {
		key := mb.doc.HashTemplate
		g, ok := groups[key]
		if !ok {
			g = &group{values: mb.values}
			groups[key] = g
			order = append(order, key)
		}
		if mb.values == nil {
			bounded = false
		}
		if mb.unique {
			d.HashUniquePerItem = true
			d.HashUniqueEntities = append(d.HashUniqueEntities, mb.doc.Entity)
		}
		switch {
		case mb.doc.WriteBytesPerSecond == nil:
			totalKnown, hotKnown = false, false
		case mb.share == nil:
			hotKnown = false
			total += *mb.doc.WriteBytesPerSecond
		default:
			total += *mb.doc.WriteBytesPerSecond
			g.bytes += *mb.doc.WriteBytesPerSecond * *mb.share
			if *mb.doc.WriteBytesPerSecond**mb.share > 0 {
				g.members = append(g.members, mb.doc.Entity)
			}
		}
	}
	if a.v.PartitionKey != nil {
		switch {
		case len(a.members) == 0:
			d.HashValuesBasis = "unknown"
		case !bounded:
			d.HashValuesBasis = "unbounded"
			if slices.ContainsFunc(a.members, func(mb member) bool { return mb.share == nil }) {
				d.HashValuesBasis = "unknown"
			}
		default:
			sum := int64(0)
			for _, key := range order {
				sum = capacity.SaturatingAdd(sum, *groups[key].values)
			}
			d.HashValues, d.HashValuesBasis = &sum, "template"
		}
	}
	if totalKnown {
		d.WriteBytesPerSecond = &total
		if total > 0 && targetUtilization > 0 {
			d.HashValuesNeeded = model.Ptr(int64(math.Ceil(total / (model.VectorHashWriteBytesPerSecond * targetUtilization))))
		}
	}
	if hotKnown {
		hot := 0.0
		for _, key := range order {
			if g := groups[key]; g.bytes > hot {
				hot, d.HotHashEntities = g.bytes, g.members
			}
		}
		d.HotHashWriteBytesPerSecond = &hot
	}
}

// searches are the access patterns that search the index: what one returns.
func (a *indexAnalysis) searches(searches []model.AccessPattern) {
	for _, ap := range searches {
		if ap.VectorSearch.Index != a.v.Name {
			continue
		}
		s := model.VectorSearchDoc{Pattern: ap.Name, Path: model.Path{"access_patterns", ap.Name, "vector_search"},
			TopK: ap.VectorSearch.TopK, ReadsPerSecond: ap.ReadsPerSecond, HashGiven: a.hashGiven(ap)}
		for _, e := range a.d.Entities {
			if !e.Member || len(ap.Entities) > 0 && !slices.Contains(ap.Entities, e.Entity) {
				continue
			}
			projected := e.ProjectedBytes
			if ap.ItemSizeBytes != nil {
				projected = *ap.ItemSizeBytes
			}
			s.ProjectedItemBytes = max(s.ProjectedItemBytes, projected)
		}
		if s.TopK != nil && *s.TopK > 0 {
			s.ResponseBytes = model.Ptr(model.SaturatingMul(*s.TopK, s.ProjectedItemBytes))
		}
		a.d.Searches = append(a.d.Searches, s)
	}
}

// hashGiven is whether a search gives the HASH value: its name, or every placeholder of each member's template
// of it ({shard} aside, which the application computes).
func (a *indexAnalysis) hashGiven(ap model.AccessPattern) bool {
	pk := a.v.PartitionKey
	if pk == nil || slices.Contains(ap.Equals, pk.Name) {
		return true
	}
	given := len(a.members) > 0
	for _, mb := range a.members {
		if mb.hash == nil {
			return false
		}
		for _, name := range mb.hash.Placeholders() {
			if name != model.ShardPlaceholder && !slices.Contains(ap.Equals, name) {
				given = false
			}
		}
	}
	return given
}
