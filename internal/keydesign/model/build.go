package model

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// The model stage: the input checked, its segments resolved and its key templates parsed, per entity of a
// single-table design with the structure they share (index membership, collisions, item collections).
// Every later stage reads the Model; none reads the raw input again.

// Model is the design as the stages read it.
type Model struct {
	// Input is the design as given, with its entities in name order.
	Input *Input
	// Unknown holds the attribute paths not known at plan time, as dotted strings.
	Unknown map[string]bool
	// Segments are the declared segments with their defaults applied.
	Segments map[string]ResolvedSegment
	// PartitionKey and SortKey are the table's own templates (a design of one entity); nil with entities.
	PartitionKey, SortKey *Template
	// Entities is the entity model of a single-table design; nil for a design of one entity.
	Entities *Entities
	// Scopes are the kinds of item the design writes, which the later stages iterate: each entity of a
	// single-table design, or the one implicit entity of a design without entities (scopes.go).
	Scopes []Scope
	// implicit holds the implicit entity's scope, which Scopes holds without another allocation.
	implicit [1]Scope
}

// IsUnknown reports whether the dotted attribute path is unknown at plan time.
func (m *Model) IsUnknown(path string) bool { return m.Unknown[path] }

// Entities are the parsed entities of a single-table design and what they share: Doc's items with their
// indexes, key bounds and items per key, the collisions and the item collections. The capacity stage adds
// their demand.
type Entities struct {
	Doc EntitiesDoc
	// Templates are each entity's parsed templates, by attribute, in the order of Doc.Items.
	Templates []map[string]*Template
	// TableKeys are the table's key attribute names: partition key, then sort key.
	TableKeys []string
	// IDChars is what an id segment without declared characters may hold (IDCharacters).
	IDChars ByteSet
}

// builder carries the model stage's checks: the input, what is unknown, the resolved segments and the
// errors found.
type builder struct {
	in       *Input
	unknown  map[string]bool
	segments map[string]ResolvedSegment
	errs     []*FieldError
}

func (a *builder) fail(path Path, format string, args ...any) {
	a.errs = append(a.errs, &FieldError{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (a *builder) isUnknown(path string) bool { return a.unknown[path] }

// Build checks an input and builds its model. The errors are what the user must fix, each on its attribute;
// the model is complete only when there are none.
func Build(in *Input) (*Model, []*FieldError) {
	a := &builder{in: in, unknown: make(map[string]bool, len(in.Unknown))}
	for _, p := range in.Unknown {
		a.unknown[p.String()] = true
	}
	a.validateScalars()
	a.validateBounds()
	a.validateStructure()
	a.resolveSegments()
	entities := a.parseEntities()
	m := &Model{Input: a.in, Unknown: a.unknown, Segments: a.segments}
	if entities == nil {
		m.PartitionKey = a.parseKey(Path{"partition_key", "template"}, a.in.PartitionKey.Template)
		if a.in.SortKey != nil {
			m.SortKey = a.parseKey(Path{"sort_key", "template"}, a.in.SortKey.Template)
		}
	} else if len(a.errs) == 0 {
		width := int64(1)
		if c := a.in.Sharding.Count; c != nil && *c > 0 {
			width = int64(ShardWidth(*c))
		}
		a.entityStructure(entities, width)
		m.Entities = entities
		// An entity's key template not known yet leaves the table's key, and its busiest value, unknown: the
		// table-level figures wait.
		for i, k := range entities.TableKeys {
			if slices.ContainsFunc(entities.Templates, func(templates map[string]*Template) bool { return templates[k] == nil }) {
				m.Unknown[[]string{"partition_key", "sort_key"}[i]+".template"] = true
			}
		}
	}
	m.Scopes = m.scopes()
	return m, a.errs
}

// IndexKeyNames are the key attributes of each index, by index name.
func IndexKeyNames(in *Input) map[string][]IndexKeyAttribute {
	out := map[string][]IndexKeyAttribute{}
	for _, l := range in.LocalSecondaryIndexes {
		out[l.Name] = []IndexKeyAttribute{l.SortKey}
	}
	for _, g := range in.GlobalSecondaryIndexes {
		out[g.Name] = append(slices.Clone(g.PartitionKey), g.SortKey...)
	}
	return out
}

func (a *builder) parseKey(path Path, src *string) *Template {
	if src == nil {
		return nil
	}
	t, err := ParseTemplate(*src)
	if err != nil {
		a.fail(path, "template %q is malformed at %v", *src, err)
		return nil
	}
	return t
}

func (a *builder) resolveSegments() {
	a.segments = make(map[string]ResolvedSegment, len(a.in.Segments))
	for _, name := range slices.Sorted(maps.Keys(a.in.Segments)) {
		if name == ShardPlaceholder {
			a.fail(Path{"segments", name}, "{shard} is reserved for the shard suffix and is set by sharding; remove this segment")
			continue
		}
		if err := CheckPlaceholderName(name); err != nil {
			a.fail(Path{"segments", name}, "segment %v", err)
			continue
		}
		r, errs := a.in.Segments[name].Resolve(name)
		a.errs = append(a.errs, errs...)
		a.segments[name] = r
	}
}

func (a *builder) validateScalars() {
	in := a.in
	nonNegative := func(attr string, v *float64) {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
			a.fail(Path{"traffic", attr}, "must be a finite number ≥ 0, got %v", *v)
		}
	}
	t := in.Traffic
	nonNegative("writes_per_second", t.WritesPerSecond)
	nonNegative("reads_per_second", t.ReadsPerSecond)
	nonNegative("hottest_item_writes_per_second", t.HottestItemWritesPerSecond)
	nonNegative("hottest_item_reads_per_second", t.HottestItemReadsPerSecond)
	if t.ItemSizeBytes != nil && (*t.ItemSizeBytes < 1 || *t.ItemSizeBytes > MaxItemSizeBytes) {
		a.fail(Path{"traffic", "item_size_bytes"}, "must be between 1 and %d bytes (the item size limit), got %d", MaxItemSizeBytes, *t.ItemSizeBytes)
	}
	if t.ReadConsistency != "" && !slices.Contains(ReadConsistencies, t.ReadConsistency) {
		a.fail(Path{"traffic", "read_consistency"}, "unknown read consistency %q: use one of %s", t.ReadConsistency, strings.Join(ReadConsistencies, ", "))
	}
	if s := t.HotKeyShare; s != nil && (math.IsNaN(*s) || *s < 0 || *s > 1) {
		a.fail(Path{"traffic", "hot_key_share"}, "is a share of traffic and must be between 0 and 1, got %v", *s)
	}
	if m := t.MaxItemsPerPartitionKey; m != nil && *m < 0 {
		a.fail(Path{"traffic", "max_items_per_partition_key"}, "must be ≥ 0, got %d", *m)
	}
	if u := in.TargetUtilization; u != nil && (math.IsNaN(*u) || *u <= 0 || *u > 1) {
		a.fail(Path{"target_utilization"}, "must be in (0, 1], e.g. 0.8 to keep 20%% headroom, got %v", *u)
	}
	s := in.Sharding
	if s.Strategy != "" && !slices.Contains(ShardingStrategies, s.Strategy) {
		a.fail(Path{"sharding", "strategy"}, "unknown strategy %q: use one of %s", s.Strategy, strings.Join(ShardingStrategies, ", "))
	}
	if c := s.Count; c != nil && (*c < 1 || *c > MaxShardCount) {
		a.fail(Path{"sharding", "count"}, "must be between 1 and %d shards, got %d (omit it to compute the count from traffic)", MaxShardCount, *c)
	}
	if v := s.SchemeVersion; v != nil && *v < 1 {
		a.fail(Path{"sharding", "scheme_version"}, "must be ≥ 1, got %d", *v)
	}
	for _, lsi := range in.LocalSecondaryIndexes {
		a.checkProjection(Path{"local_secondary_indexes", lsi.Name}, lsi.ProjectionType, lsi.NonKeyAttributes)
	}
	for _, gsi := range in.GlobalSecondaryIndexes {
		a.checkProjection(Path{"global_secondary_indexes", gsi.Name}, gsi.ProjectionType, gsi.NonKeyAttributes)
	}
	for _, v := range in.VectorIndexes {
		a.checkProjection(Path{"vector_indexes", v.Name}, v.ProjectionType, v.NonKeyAttributes)
	}
}

// checkProjection checks an index's projection; one unknown at plan time is checked at apply.
func (a *builder) checkProjection(path Path, projection string, nonKey []string) {
	if len(a.unknown) > 0 && (a.isUnknown(append(path, "projection_type").String()) || a.isUnknown(append(path, "non_key_attributes").String())) {
		return
	}
	switch projection {
	case ProjectionAll, ProjectionKeysOnly, "":
		if len(nonKey) > 0 {
			a.fail(append(path, "non_key_attributes"), "non_key_attributes apply only to projection_type = \"INCLUDE\"")
		}
	case ProjectionInclude:
		if len(nonKey) == 0 {
			a.fail(append(path, "non_key_attributes"), "projection_type = \"INCLUDE\" needs at least one non-key attribute")
		}
	default:
		a.fail(append(path, "projection_type"), "unknown projection type %q: use ALL, KEYS_ONLY or INCLUDE", projection)
	}
}

// validateBounds rejects numbers beyond the upper bounds above.
func (a *builder) validateBounds() {
	in := a.in
	t := in.Traffic
	// In the order of the schema, so that the diagnostics come in the same order every plan.
	for _, rate := range []struct {
		attr string
		v    *float64
	}{
		{"writes_per_second", t.WritesPerSecond}, {"reads_per_second", t.ReadsPerSecond},
		{"hottest_item_writes_per_second", t.HottestItemWritesPerSecond}, {"hottest_item_reads_per_second", t.HottestItemReadsPerSecond},
	} {
		attr, v := rate.attr, rate.v
		if v != nil && *v > MaxRequestsPerSecond {
			a.fail(Path{"traffic", attr}, "must be at most %s per second, got %s; give the peak rate of this table",
				textfmt.Thousands(MaxRequestsPerSecond), textfmt.Thousands(*v))
		}
	}
	if m := t.MaxItemsPerPartitionKey; m != nil && *m > MaxItemsPerPartitionKey {
		a.fail(Path{"traffic", "max_items_per_partition_key"}, "must be at most %s items, got %s",
			textfmt.Thousands(MaxItemsPerPartitionKey), textfmt.Thousands(float64(*m)))
	}
	for _, name := range slices.Sorted(maps.Keys(in.Segments)) {
		if l := in.Segments[name].MaxLength; l != nil && *l > MaxSegmentLength {
			a.fail(Path{"segments", name, "max_length"}, "must be at most %s bytes (the item size limit), got %s",
				textfmt.Thousands(float64(MaxSegmentLength)), textfmt.Thousands(float64(*l)))
		}
	}
	// The path is made only for a message: this runs on every plan.
	capacity := func(v *int64, gsi *string, attr string) {
		if v != nil && (*v < 1 || *v > MaxCapacityUnits) {
			p := Path{attr}
			if gsi != nil {
				p = Path{"global_secondary_indexes", *gsi, attr}
			}
			a.fail(p, "must be between 1 and %s capacity units, got %d", textfmt.Thousands(MaxCapacityUnits), *v)
		}
	}
	capacity(in.ReadCapacity, nil, "read_capacity")
	capacity(in.WriteCapacity, nil, "write_capacity")
	for _, g := range in.GlobalSecondaryIndexes {
		capacity(g.ReadCapacity, &g.Name, "read_capacity")
		capacity(g.WriteCapacity, &g.Name, "write_capacity")
		for i, k := range g.PartitionKey {
			if k.Cardinality != nil && *k.Cardinality < 1 {
				a.fail(Path{"global_secondary_indexes", g.Name, "partition_key", fmt.Sprint(i), "cardinality"},
					"must be at least 1 distinct value, got %d", *k.Cardinality)
			}
		}
	}
}

// validateStructure rejects what CreateTable would reject and no rule covers: one attribute name with two
// types, an index name used twice, an attribute twice in one key, a projected attribute listed twice.
// Unknown values are skipped.
func (a *builder) validateStructure() {
	in := a.in
	// One attribute, one type: DynamoDB keeps one AttributeDefinition per name.
	// Unknown paths are rare; checking them formats a path, so only when there are any. Paths are built
	// only for a message or that check: this runs on every plan.
	unknown := func(p Path) bool { return len(a.unknown) > 0 && a.isUnknown(p.String()) }
	type typed struct {
		typ string
		at  keyDeclaration
	}
	seen := map[string]typed{}
	check := func(name, typ string, at keyDeclaration) {
		if name == "" {
			return
		}
		if len(a.unknown) > 0 {
			if p := at.path("type"); unknown(p[:len(p)-1]) || unknown(p) {
				return
			}
		}
		typ = cmp.Or(typ, KeyTypeString)
		first, ok := seen[name]
		if !ok {
			seen[name] = typed{typ, at}
			return
		}
		if first.typ != typ {
			a.fail(at.path("type"), "attribute %q is type %s here but %s at %s: a DynamoDB attribute has one type "+
				"across the table and all its indexes; use the same type, or another attribute name", name, typ, first.typ, first.at.path())
		}
	}
	check(in.PartitionKey.Name, in.PartitionKey.Type, keyDeclaration{part: "partition_key"})
	if in.SortKey != nil {
		check(in.SortKey.Name, in.SortKey.Type, keyDeclaration{part: "sort_key"})
	}
	for _, l := range in.LocalSecondaryIndexes {
		check(l.SortKey.Name, l.SortKey.Type, keyDeclaration{index: l.Name, lsi: true, part: "sort_key"})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		for i, k := range g.PartitionKey {
			check(k.Name, k.Type, keyDeclaration{index: g.Name, part: "partition_key", i: i})
		}
		for i, k := range g.SortKey {
			check(k.Name, k.Type, keyDeclaration{index: g.Name, part: "sort_key", i: i})
		}
	}
	// A vector index's search-schema attributes are attribute definitions too, beside the keys'.
	for _, v := range slices.SortedFunc(slices.Values(in.VectorIndexes), func(x, y VectorIndex) int { return strings.Compare(x.Name, y.Name) }) {
		if v.PartitionKey != nil {
			check(v.PartitionKey.Name, v.PartitionKey.Type, keyDeclaration{index: v.Name, vector: true, part: "partition_key"})
		}
		for i, k := range v.InlineFilters {
			check(k.Name, k.Type, keyDeclaration{index: v.Name, vector: true, part: "inline_filters", i: i})
		}
	}
	// The vector attribute holds a list and is never defined: DynamoDB refuses one that is also a key or
	// search attribute. (Its own HASH is the vectors stage's message.)
	for _, v := range in.VectorIndexes {
		at, defined := seen[v.VectorAttribute]
		if !defined || at.at == (keyDeclaration{index: v.Name, vector: true, part: "partition_key"}) ||
			len(a.unknown) > 0 && unknown(Path{"vector_indexes", v.Name, "vector_attribute"}) {
			continue
		}
		a.fail(Path{"vector_indexes", v.Name, "vector_attribute"}, "attribute %q is also the %s attribute at %s: a vector attribute holds a list "+
			"of numbers and cannot be a key or search attribute; name another attribute", v.VectorAttribute, at.typ, at.at.path())
	}
	if in.SortKey != nil && in.SortKey.Name != "" && in.SortKey.Name == in.PartitionKey.Name {
		a.fail(Path{"sort_key", "name"}, "the sort key and the partition key are both %q: a table key uses two different attributes", in.SortKey.Name)
	}
	lsiNames := map[string]bool{}
	for _, l := range in.LocalSecondaryIndexes {
		lsiNames[l.Name] = true
		if l.SortKey.Name != "" && l.SortKey.Name == in.PartitionKey.Name {
			a.fail(Path{"local_secondary_indexes", l.Name, "sort_key", "name"},
				"the LSI sort key is the table's partition key %q: an LSI sorts by another attribute", l.SortKey.Name)
		}
		if len(l.NonKeyAttributes) > 1 {
			a.noDuplicates(Path{"local_secondary_indexes", l.Name, "non_key_attributes"}, l.NonKeyAttributes)
		}
	}
	for _, g := range in.GlobalSecondaryIndexes {
		if lsiNames[g.Name] {
			a.fail(Path{"global_secondary_indexes", g.Name}, "index name %q is also the name of a local secondary index: index names are unique within a table; rename one", g.Name)
		}
		used := make(map[string]keyDeclaration, len(g.PartitionKey)+len(g.SortKey))
		once := func(part string, attrs []IndexKeyAttribute) {
			for i, k := range attrs {
				at := keyDeclaration{index: g.Name, part: part, i: i}
				if k.Name == "" || len(a.unknown) > 0 && unknown(at.path("name")) {
					continue
				}
				if where, dup := used[k.Name]; dup {
					a.fail(at.path("name"), "attribute %q is already in this index's key at %s: each key attribute appears once", k.Name, where.path("name"))
					continue
				}
				used[k.Name] = at
			}
		}
		once("partition_key", g.PartitionKey)
		once("sort_key", g.SortKey)
		if len(g.NonKeyAttributes) > 1 {
			a.noDuplicates(Path{"global_secondary_indexes", g.Name, "non_key_attributes"}, g.NonKeyAttributes)
		}
	}
}

// keyDeclaration is where a key attribute is declared: a part (partition_key or sort_key) of the table's
// key, of an LSI's or of a GSI's (the i-th attribute of its part), named by path only for a message.
// A vector index's search-schema attribute is declared the same way: its partition_key, or the i-th of its
// inline_filters.
type keyDeclaration struct {
	index, part string // index is "" for the table's own key
	lsi, vector bool
	i           int
}

// path is the declaration's path, ending in leaf (type or name) when one is given.
func (k keyDeclaration) path(leaf ...string) Path {
	var p Path
	switch {
	case k.index == "":
		p = Path{k.part}
	case k.lsi:
		p = Path{"local_secondary_indexes", k.index, k.part}
	case k.vector && k.part == "partition_key":
		p = Path{"vector_indexes", k.index, k.part}
	case k.vector:
		p = Path{"vector_indexes", k.index, k.part, strconv.Itoa(k.i)}
	default:
		p = Path{"global_secondary_indexes", k.index, k.part, strconv.Itoa(k.i)}
	}
	return append(p, leaf...)
}

func (a *builder) noDuplicates(p Path, names []string) {
	a.errs = append(a.errs, DuplicateNames(p, names)...)
}

// DuplicateNames reports each attribute name listed twice at p.
func DuplicateNames(p Path, names []string) []*FieldError {
	var errs []*FieldError
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			errs = append(errs, &FieldError{Path: p, Message: fmt.Sprintf("%q is listed twice; list each projected attribute once", n)})
		}
		seen[n] = true
	}
	return errs
}

// parseEntities validates the entities and parses their templates; nil without entities.
func (a *builder) parseEntities() *Entities {
	in := a.in
	if len(in.Entities) == 0 {
		return nil
	}
	// The model reads the entities in name order, as the provider gives them, whoever calls.
	sorted := *in
	sorted.Entities = slices.SortedFunc(slices.Values(in.Entities), func(x, y Entity) int { return strings.Compare(x.Name, y.Name) })
	a.in, in = &sorted, &sorted
	m := &Entities{TableKeys: []string{in.PartitionKey.Name}}
	if in.SortKey != nil {
		m.TableKeys = append(m.TableKeys, in.SortKey.Name)
	}
	if in.PartitionKey.Template != nil {
		a.fail(Path{"partition_key", "template"}, "a design with entities takes its key templates from each entity's keys: remove partition_key.template")
	}
	if in.SortKey != nil && in.SortKey.Template != nil {
		a.fail(Path{"sort_key", "template"}, "a design with entities takes its key templates from each entity's keys: remove sort_key.template")
	}
	if in.Traffic != (Traffic{}) {
		a.fail(Path{"traffic"}, "a design with entities takes its traffic from each entity's traffic: move it into entities.<name>.traffic")
	}
	known := map[string]bool{}
	for _, k := range m.TableKeys {
		known[k] = true
	}
	for _, keys := range IndexKeyNames(a.in) {
		for _, k := range keys {
			known[k.Name] = true
		}
	}
	// A vector index's HASH is a key attribute too: an entity's template of it gives its values.
	for _, v := range a.in.VectorIndexes {
		if v.PartitionKey != nil {
			known[v.PartitionKey.Name] = true
		}
	}
	for _, e := range in.Entities {
		p := Path{"entities", e.Name}
		if !ValidEntityName(e.Name) {
			a.fail(p, "entity name %q: use letters, digits and underscores", e.Name)
		}
		parsed := map[string]*Template{}
		for _, attr := range slices.Sorted(maps.Keys(e.Keys)) {
			kp := Path{"entities", e.Name, "keys", attr}
			if !known[attr] {
				a.fail(kp, "%q is no key attribute of the table or of an index: name the table's partition or sort key (%s), an index key attribute or a vector index's partition_key",
					attr, strings.Join(m.TableKeys, ", "))
				continue
			}
			if a.isUnknown(kp.String()) {
				continue
			}
			t, err := ParseTemplate(e.Keys[attr])
			if err != nil {
				a.fail(kp, "%v", err)
				continue
			}
			for _, name := range t.Placeholders() {
				if _, ok := a.segments[name]; !ok && name != ShardPlaceholder {
					a.fail(kp, "placeholder {%s} has no segment: declare segments.%s (segments are shared by every entity)", name, name)
				}
			}
			parsed[attr] = t
		}
		for _, k := range m.TableKeys {
			if _, ok := e.Keys[k]; !ok && !a.isUnknown(Path{"entities", e.Name, "keys"}.String()) {
				a.fail(Path{"entities", e.Name, "keys"}, "entity %q has no template for the table key %q: every item carries the table's keys", e.Name, k)
			}
		}
		a.validateEntityTraffic(e)
		m.Templates = append(m.Templates, parsed)
	}
	return m
}

func (a *builder) validateEntityTraffic(e Entity) {
	t := e.Traffic
	p := func(attr string) Path { return Path{"entities", e.Name, "traffic", attr} }
	for attr, v := range SortedByName(map[string]*float64{"writes_per_second": t.WritesPerSecond, "average_writes_per_second": t.AverageWritesPerSecond, "reads_per_second": t.ReadsPerSecond}) {
		if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
			a.fail(p(attr), "must be a finite number of at least 0, got %v", *v)
		}
	}
	if t.ItemSizeBytes != nil && (*t.ItemSizeBytes < 1 || *t.ItemSizeBytes > MaxItemSizeBytes) {
		a.fail(p("item_size_bytes"), "must be 1 to %d bytes (the item size limit), got %d", MaxItemSizeBytes, *t.ItemSizeBytes)
	}
	for attr, v := range SortedByName(map[string]*int64{"item_count": t.ItemCount, "max_items_per_partition_key": t.MaxItemsPerPartitionKey}) {
		if v != nil && *v < 0 {
			a.fail(p(attr), "must be at least 0, got %d", *v)
		}
	}
}

// HasUnknownUnder reports whether an attribute under the dotted path p is unknown at plan time.
func (m *Model) HasUnknownUnder(p string) bool {
	for u := range m.Unknown {
		if strings.HasPrefix(u, p+".") {
			return true
		}
	}
	return false
}

// SortedByName yields a map's entries in name order, so that a check over them reports in the same order
// every plan.
func SortedByName[V any](m map[string]V) iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

// EntityIndex is the position of an entity in Input.Entities and in the entity model; -1 when the design
// has no such entity.
func (m *Model) EntityIndex(name string) int {
	if m.Entities == nil {
		return -1
	}
	return slices.IndexFunc(m.Input.Entities, func(e Entity) bool { return e.Name == name })
}
