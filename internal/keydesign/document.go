package keydesign

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Document is the policy input (contributing/design-document.md): the design as written plus the facts Go
// derived from it.
// It serialises to JSON with the field names the Rego rules read.
type Document struct {
	SchemaVersion     int                        `json:"schema_version"`
	ProviderVersion   string                     `json:"provider_version"`
	Kind              string                     `json:"kind"`
	Address           string                     `json:"address"`
	Table             TableDoc                   `json:"table"`
	Segments          map[string]ResolvedSegment `json:"segments"`
	Sharding          ShardingDoc                `json:"sharding"`
	Traffic           TrafficDoc                 `json:"traffic"`
	TargetUtilization float64                    `json:"target_utilization"`
	Derived           Derived                    `json:"derived"`
	Prior             *Document                  `json:"prior"`
	Unknown           []string                   `json:"unknown"`
}

// TableDoc is the table part of the document.
type TableDoc struct {
	Name          string   `json:"name"`
	BillingMode   string   `json:"billing_mode"`
	ReadCapacity  *int64   `json:"read_capacity"`
	WriteCapacity *int64   `json:"write_capacity"`
	PartitionKey  KeyDoc   `json:"partition_key"`
	SortKey       *KeyDoc  `json:"sort_key"`
	LSIs          []LSIDoc `json:"lsis"`
	GSIs          []GSIDoc `json:"gsis"`
}

// KeyDoc is a table key attribute.
type KeyDoc struct {
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Template *string `json:"template"`
}

// IndexKeyDoc is a secondary index key attribute.
type IndexKeyDoc struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Cardinality *int64 `json:"cardinality"`
}

// LSIDoc is a local secondary index.
type LSIDoc struct {
	Name             string      `json:"name"`
	SortKey          IndexKeyDoc `json:"sort_key"`
	ProjectionType   string      `json:"projection_type"`
	NonKeyAttributes []string    `json:"non_key_attributes"`
}

// GSIDoc is a global secondary index with its derived facts.
type GSIDoc struct {
	Name             string        `json:"name"`
	PartitionKey     []IndexKeyDoc `json:"partition_key"`
	SortKey          []IndexKeyDoc `json:"sort_key"`
	ProjectionType   string        `json:"projection_type"`
	NonKeyAttributes []string      `json:"non_key_attributes"`
	ReadCapacity     *int64        `json:"read_capacity"`
	WriteCapacity    *int64        `json:"write_capacity"`
	// PartitionKeyCardinality is the product of the partition attributes' cardinalities; nil when one is
	// not stated.
	PartitionKeyCardinality *int64 `json:"partition_key_cardinality"`
	// TimeBucketed is true when a partition attribute is named like a time segment of the table's keys.
	TimeBucketed bool `json:"time_bucketed"`
	// HotPartitionWriteUnits is the write demand on the busiest index partition: every table write
	// lands in the index, spread over its partition-key values (all into one when time-bucketed); nil
	// without writes or a bounded cardinality.
	HotPartitionWriteUnits *float64 `json:"hot_partition_write_units"`
}

// ShardingDoc is the sharding block with defaults applied.
type ShardingDoc struct {
	Strategy      string `json:"strategy"`
	Source        string `json:"source"`
	Count         *int64 `json:"count"`
	SchemeVersion int64  `json:"scheme_version"`
}

// TrafficDoc is the traffic block with defaults applied.
type TrafficDoc struct {
	WritesPerSecond            *float64 `json:"writes_per_second"`
	ReadsPerSecond             *float64 `json:"reads_per_second"`
	ItemSizeBytes              int64    `json:"item_size_bytes"`
	ReadConsistency            string   `json:"read_consistency"`
	TransactionalWrites        bool     `json:"transactional_writes"`
	HotKeyShare                *float64 `json:"hot_key_share"`
	HottestItemWritesPerSecond *float64 `json:"hottest_item_writes_per_second"`
	HottestItemReadsPerSecond  *float64 `json:"hottest_item_reads_per_second"`
	MaxItemsPerPartitionKey    *int64   `json:"max_items_per_partition_key"`
}

// Derived holds every fact the rules read; rules never redo this arithmetic.
type Derived struct {
	Capacity       Capacity `json:"capacity"`
	RequiredShards int64    `json:"required_shards"`
	ShardCount     int64    `json:"shard_count"`
	ShardWidth     int      `json:"shard_width"`
	Routing        Routing  `json:"routing"`

	PartitionKey KeyFacts  `json:"partition_key"`
	SortKey      *KeyFacts `json:"sort_key"`

	// Flat aliases of the partition-key facts, read by the rules without going through partition_key.
	PartitionKeyMaxBytes *int64       `json:"partition_key_max_bytes"`
	PartitionKeySegments []SegmentRef `json:"partition_key_segments"`
	HasTimeBucket        bool         `json:"has_time_bucket"`

	// UndeclaredPlaceholders lists template placeholders with no segment, as paths to the template.
	UndeclaredPlaceholders []PlaceholderRef `json:"undeclared_placeholders"`

	// KeyAttributes lists every key attribute of the table and its indexes, with its attribute path.
	KeyAttributes []KeyAttributeRef `json:"key_attributes"`
	// Conventions are the delimiters and letter cases used in the literal text of the templates.
	Conventions Conventions `json:"conventions"`

	Collection CollectionEstimate `json:"collection"`
	// ProjectedNonKeyAttributes counts INCLUDE non-key attributes across all indexes (duplicates count).
	ProjectedNonKeyAttributes int `json:"projected_non_key_attributes"`
}

// Capacity is the capacity-unit arithmetic of contributing/capacity-model.md. Nil values need traffic that
// was not given.
type Capacity struct {
	WriteUnitsPerWrite    float64  `json:"write_units_per_write"`
	ReadUnitsPerRead      float64  `json:"read_units_per_read"`
	PeakWriteUnits        *float64 `json:"peak_write_units"`
	PeakReadUnits         *float64 `json:"peak_read_units"`
	HotKeyShare           float64  `json:"hot_key_share"`
	HotKeyShareSource     string   `json:"hot_key_share_source"`
	HotKeyWriteUnits      *float64 `json:"hot_key_write_units"`
	HotKeyReadUnits       *float64 `json:"hot_key_read_units"`
	PerShardWriteUnits    *float64 `json:"per_shard_write_units"`
	PerShardReadUnits     *float64 `json:"per_shard_read_units"`
	ReadFanout            int64    `json:"read_fanout"`
	HottestItemWriteUnits *float64 `json:"hottest_item_write_units"`
	HottestItemReadUnits  *float64 `json:"hottest_item_read_units"`
}

// Routing is the calculated shard routing spec application code must follow.
type Routing struct {
	Algorithm     string `json:"algorithm"`
	Count         int64  `json:"count"`
	Width         int    `json:"width"`
	Source        string `json:"source"`
	SchemeVersion int64  `json:"scheme_version"`
}

// KeyFacts are the facts of one key template.
type KeyFacts struct {
	Template      *string      `json:"template"`
	Placeholders  []string     `json:"placeholders"`
	Literals      []string     `json:"literals"`
	Segments      []SegmentRef `json:"segments"`
	HasShard      bool         `json:"has_shard"`
	HasTimeBucket bool         `json:"has_time_bucket"`
	// MaxBytes and MinBytes bound the rendered key; nil when a placeholder is undeclared or no template.
	MaxBytes *int64 `json:"max_bytes"`
	MinBytes *int64 `json:"min_bytes"`
	// Cardinality is the number of distinct key values over the table's life (shards included); nil when
	// unbounded or unknown.
	Cardinality *int64 `json:"cardinality"`
	// Monotonic is true when the leading placeholder only grows (a time segment unless monotonic = false).
	Monotonic bool `json:"monotonic"`
}

// SegmentRef is a placeholder of a key with its resolved segment.
type SegmentRef struct {
	Name        string      `json:"name"`
	Kind        SegmentKind `json:"kind"`
	Cardinality *int64      `json:"cardinality"`
	MaxLength   int64       `json:"max_length"`
	Monotonic   bool        `json:"monotonic"`
}

// KeyAttributeRef is one key attribute of the table or an index.
type KeyAttributeRef struct {
	Path      Path   `json:"path"`
	Name      string `json:"name"`
	NameBytes int    `json:"name_bytes"`
	Type      string `json:"type"`
}

// Conventions summarises the literal text of the key templates.
type Conventions struct {
	// Delimiters are the separator characters used (#, |, :, /, ~, ;, ,), sorted.
	Delimiters []string `json:"delimiters"`
	// LetterCases are the cases of the literal words: "upper", "lower" and/or "mixed", sorted.
	LetterCases []string `json:"letter_cases"`
}

// PlaceholderRef points at a placeholder in a template.
type PlaceholderRef struct {
	Key         string `json:"key"` // partition_key or sort_key
	Placeholder string `json:"placeholder"`
}

// CollectionEstimate is the item-collection size estimate of contributing/capacity-model.md.
type CollectionEstimate struct {
	// ItemsPerKey is the estimated number of items under one partition-key value; nil when unbounded.
	ItemsPerKey *float64 `json:"items_per_key"`
	// Basis says where ItemsPerKey comes from: "given", "time_bucket" or "unbounded".
	Basis string `json:"basis"`
	// EntryBytes is the item size plus every LSI entry of one item.
	EntryBytes int64 `json:"entry_bytes"`
	// Bytes is ItemsPerKey × EntryBytes; nil when unbounded.
	Bytes *float64 `json:"bytes"`
}

// Analyze validates an input and builds its Document. Bad input (malformed templates, unknown kinds,
// out-of-range numbers) comes back as FieldErrors with the attribute path; design problems are left to
// the policy rules, which read the derived facts.
func Analyze(in *Input) (*Document, []*FieldError) {
	a := analyzer{in: in, unknown: make(map[string]bool, len(in.Unknown))}
	for _, p := range in.Unknown {
		a.unknown[p.String()] = true
	}
	a.validateScalars()
	a.validateBounds()
	a.validateStructure()
	a.resolveSegments()
	pk := a.parseKey(Path{"partition_key", "template"}, in.PartitionKey.Template)
	var sk *Template
	if in.SortKey != nil {
		sk = a.parseKey(Path{"sort_key", "template"}, in.SortKey.Template)
	}
	if len(a.errs) > 0 {
		return nil, a.errs
	}
	doc := a.build(pk, sk)
	if errs := checkFinite(doc); len(errs) > 0 {
		return nil, errs
	}
	return doc, nil
}

type analyzer struct {
	in       *Input
	unknown  map[string]bool
	segments map[string]ResolvedSegment
	errs     []*FieldError
}

func (a *analyzer) fail(path Path, format string, args ...any) {
	a.errs = append(a.errs, &FieldError{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (a *analyzer) parseKey(path Path, src *string) *Template {
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

func (a *analyzer) resolveSegments() {
	a.segments = make(map[string]ResolvedSegment, len(a.in.Segments))
	for _, name := range sortedKeys(a.in.Segments) {
		if name == ShardPlaceholder {
			a.fail(Path{"segments", name}, "{shard} is reserved for the shard suffix and is set by sharding; remove this segment")
			continue
		}
		if err := checkPlaceholderName(name); err != nil {
			a.fail(Path{"segments", name}, "segment %v", err)
			continue
		}
		r, errs := a.in.Segments[name].Resolve(name)
		a.errs = append(a.errs, errs...)
		a.segments[name] = r
	}
}

func (a *analyzer) validateScalars() {
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
}

func (a *analyzer) checkProjection(path Path, projection string, nonKey []string) {
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

func (a *analyzer) isUnknown(path string) bool { return a.unknown[path] }

func (a *analyzer) build(pk, sk *Template) *Document {
	in := a.in
	doc := &Document{
		Kind:     in.Kind,
		Address:  in.Address,
		Segments: a.segments,
		Prior:    in.Prior,
		Unknown:  make([]string, 0, len(a.unknown)),
	}
	doc.SchemaVersion = DocumentSchemaVersion
	for p := range a.unknown {
		doc.Unknown = append(doc.Unknown, p)
	}
	slices.Sort(doc.Unknown)
	doc.TargetUtilization = DefaultTargetUtilization
	if in.TargetUtilization != nil {
		doc.TargetUtilization = *in.TargetUtilization
	}
	doc.Sharding = ShardingDoc{Strategy: cmp.Or(in.Sharding.Strategy, StrategyNone), Source: in.Sharding.Source,
		Count: in.Sharding.Count, SchemeVersion: DefaultSchemeVersion}
	if in.Sharding.SchemeVersion != nil {
		doc.Sharding.SchemeVersion = *in.Sharding.SchemeVersion
	}
	t := in.Traffic
	doc.Traffic = TrafficDoc{
		WritesPerSecond: t.WritesPerSecond, ReadsPerSecond: t.ReadsPerSecond,
		ItemSizeBytes: DefaultItemSizeBytes, ReadConsistency: cmp.Or(t.ReadConsistency, string(ReadEventual)),
		TransactionalWrites: t.TransactionalWrites, HotKeyShare: t.HotKeyShare,
		HottestItemWritesPerSecond: t.HottestItemWritesPerSecond, HottestItemReadsPerSecond: t.HottestItemReadsPerSecond,
		MaxItemsPerPartitionKey: t.MaxItemsPerPartitionKey,
	}
	if t.ItemSizeBytes != nil {
		doc.Traffic.ItemSizeBytes = *t.ItemSizeBytes
	}
	doc.Table = a.tableDoc()

	d := &doc.Derived
	a.capacity(doc, pk)
	// The shard count sizes the {shard} placeholder and the key cardinality.
	d.PartitionKey = a.keyFacts("partition_key", pk, in.PartitionKey.Template, d.ShardCount)
	d.HasTimeBucket = d.PartitionKey.HasTimeBucket
	d.PartitionKeyMaxBytes = d.PartitionKey.MaxBytes
	d.PartitionKeySegments = d.PartitionKey.Segments
	if in.SortKey != nil {
		f := a.keyFacts("sort_key", sk, in.SortKey.Template, d.ShardCount)
		d.SortKey = &f
	}
	for _, ref := range [...]struct {
		key string
		t   *Template
	}{{"partition_key", pk}, {"sort_key", sk}} {
		if ref.t == nil {
			continue
		}
		for _, name := range ref.t.Placeholders() {
			if _, ok := a.segments[name]; !ok && name != ShardPlaceholder {
				d.UndeclaredPlaceholders = append(d.UndeclaredPlaceholders, PlaceholderRef{Key: ref.key, Placeholder: name})
			}
		}
	}
	if d.UndeclaredPlaceholders == nil {
		d.UndeclaredPlaceholders = []PlaceholderRef{}
	}
	a.gsiFacts(doc)
	a.collection(doc)
	d.KeyAttributes = keyAttributes(doc.Table)
	d.Conventions = conventions(pk, sk)
	return doc
}

func (a *analyzer) tableDoc() TableDoc {
	in := a.in
	td := TableDoc{
		Name: in.TableName, BillingMode: in.BillingMode, ReadCapacity: in.ReadCapacity, WriteCapacity: in.WriteCapacity,
		PartitionKey: KeyDoc{Name: in.PartitionKey.Name, Type: cmp.Or(in.PartitionKey.Type, KeyTypeString), Template: in.PartitionKey.Template},
		LSIs:         make([]LSIDoc, 0, len(in.LocalSecondaryIndexes)),
		GSIs:         make([]GSIDoc, 0, len(in.GlobalSecondaryIndexes)),
	}
	if in.SortKey != nil {
		td.SortKey = &KeyDoc{Name: in.SortKey.Name, Type: cmp.Or(in.SortKey.Type, KeyTypeString), Template: in.SortKey.Template}
	}
	for _, l := range in.LocalSecondaryIndexes {
		td.LSIs = append(td.LSIs, LSIDoc{Name: l.Name, SortKey: indexKeyDoc(l.SortKey),
			ProjectionType: cmp.Or(l.ProjectionType, ProjectionAll), NonKeyAttributes: orEmpty(l.NonKeyAttributes)})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		gd := GSIDoc{Name: g.Name, ProjectionType: cmp.Or(g.ProjectionType, ProjectionAll),
			NonKeyAttributes: orEmpty(g.NonKeyAttributes), ReadCapacity: g.ReadCapacity, WriteCapacity: g.WriteCapacity,
			PartitionKey: make([]IndexKeyDoc, 0, len(g.PartitionKey)), SortKey: make([]IndexKeyDoc, 0, len(g.SortKey))}
		for _, k := range g.PartitionKey {
			gd.PartitionKey = append(gd.PartitionKey, indexKeyDoc(k))
		}
		for _, k := range g.SortKey {
			gd.SortKey = append(gd.SortKey, indexKeyDoc(k))
		}
		td.GSIs = append(td.GSIs, gd)
	}
	slices.SortFunc(td.LSIs, func(x, y LSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	slices.SortFunc(td.GSIs, func(x, y GSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	return td
}

func indexKeyDoc(k IndexKeyAttribute) IndexKeyDoc {
	return IndexKeyDoc{Name: k.Name, Type: cmp.Or(k.Type, KeyTypeString), Cardinality: k.Cardinality}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// keyFacts derives the facts of one key template; shardCount sizes the {shard} placeholder.
func (a *analyzer) keyFacts(key string, t *Template, src *string, shardCount int64) KeyFacts {
	f := KeyFacts{Template: src, Placeholders: []string{}, Literals: []string{}, Segments: []SegmentRef{}}
	if t == nil {
		return f
	}
	f.Placeholders = t.Placeholders()
	f.Literals = orEmpty(t.Literals())
	maxBytes, minBytes := int64(t.LiteralBytes()), int64(t.LiteralBytes())
	cardinality, bounded, declared := int64(1), true, !a.isUnknown("segments") && !a.isUnknown(key+".template")
	for i, name := range f.Placeholders {
		if name == ShardPlaceholder {
			f.HasShard = true
			w := int64(ShardWidth(shardCount))
			maxBytes += w
			minBytes += w
			cardinality = saturatingMul(cardinality, shardCount)
			continue
		}
		seg, ok := a.segments[name]
		if !ok {
			declared = false
			continue
		}
		if i == 0 {
			f.Monotonic = seg.Monotonic
		}
		f.Segments = append(f.Segments, SegmentRef{Name: name, Kind: seg.Kind, Cardinality: seg.Cardinality,
			MaxLength: seg.MaxLength, Monotonic: seg.Monotonic})
		if seg.Kind == KindTime {
			f.HasTimeBucket = true
		}
		maxBytes += seg.MaxLength * int64(strings.Count(t.Source, "{"+name+"}"))
		minBytes += seg.MinLength * int64(strings.Count(t.Source, "{"+name+"}"))
		if seg.Cardinality == nil {
			bounded = false
		} else {
			cardinality = saturatingMul(cardinality, *seg.Cardinality)
		}
	}
	if declared {
		f.MaxBytes, f.MinBytes = &maxBytes, &minBytes
		if bounded {
			f.Cardinality = &cardinality
		}
	}
	return f
}

func saturatingMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// hotKeyShare is the default share of traffic on the busiest partition-key value (contributing/capacity-model.md):
// with a time segment, 1 / product of the other non-shard segments' cardinalities (1.0 when the time
// bucket stands alone: every current write lands in the current bucket); otherwise 1 / product of all
// segment cardinalities (a literal-only key is 1.0; an unbounded id is 0, i.e. uniform). The second result
// says where the share came from.
func (a *analyzer) hotKeyShare(pk *Template) (float64, string) {
	if s := a.in.Traffic.HotKeyShare; s != nil {
		return *s, "given"
	}
	if pk == nil {
		return 0, "no_template"
	}
	product := 1.0
	timeBucket := false
	for _, name := range pk.Placeholders() {
		seg, ok := a.segments[name]
		switch {
		case name == ShardPlaceholder:
		case !ok:
			return 0, "undeclared_placeholder"
		case seg.Kind == KindTime:
			timeBucket = true
		case seg.Cardinality == nil:
			product = math.Inf(1)
		default:
			product *= float64(*seg.Cardinality)
		}
	}
	basis := "key_cardinality"
	if timeBucket {
		basis = "time_bucket"
	}
	return 1 / product, basis
}

func (a *analyzer) capacity(doc *Document, pk *Template) {
	in, d, t := a.in, &doc.Derived, doc.Traffic
	c := &d.Capacity
	c.WriteUnitsPerWrite = WriteUnitsPerWrite(t.ItemSizeBytes, t.TransactionalWrites)
	c.ReadUnitsPerRead, _ = ReadUnitsPerRead(t.ItemSizeBytes, ReadConsistency(t.ReadConsistency))
	c.HotKeyShare, c.HotKeyShareSource = a.hotKeyShare(pk)

	var hotW, hotR float64
	if t.WritesPerSecond != nil {
		c.PeakWriteUnits = ptr(*t.WritesPerSecond * c.WriteUnitsPerWrite)
		hotW = *c.PeakWriteUnits * c.HotKeyShare
		c.HotKeyWriteUnits = ptr(hotW)
	}
	if t.ReadsPerSecond != nil {
		c.PeakReadUnits = ptr(*t.ReadsPerSecond * c.ReadUnitsPerRead)
		hotR = *c.PeakReadUnits * c.HotKeyShare
		c.HotKeyReadUnits = ptr(hotR)
	}
	if v := t.HottestItemWritesPerSecond; v != nil {
		c.HottestItemWriteUnits = ptr(*v * c.WriteUnitsPerWrite)
	}
	if v := t.HottestItemReadsPerSecond; v != nil {
		c.HottestItemReadUnits = ptr(*v * c.ReadUnitsPerRead)
	}
	d.RequiredShards = RequiredShards(hotW, hotR, doc.TargetUtilization)

	switch {
	case doc.Sharding.Strategy == StrategyNone:
		d.ShardCount = 1
	case in.Sharding.Count != nil:
		d.ShardCount = *in.Sharding.Count
	default:
		d.ShardCount = min(d.RequiredShards, MaxShardCount)
	}
	d.ShardWidth = ShardWidth(d.ShardCount)
	if c.HotKeyWriteUnits != nil {
		c.PerShardWriteUnits = ptr(*c.HotKeyWriteUnits / float64(d.ShardCount))
	}
	if c.HotKeyReadUnits != nil {
		c.PerShardReadUnits = ptr(*c.HotKeyReadUnits / float64(d.ShardCount))
	}
	c.ReadFanout = d.ShardCount
	d.Routing = Routing{Algorithm: routingAlgorithm(doc.Sharding.Strategy), Count: d.ShardCount, Width: d.ShardWidth,
		Source: doc.Sharding.Source, SchemeVersion: doc.Sharding.SchemeVersion}
	// Derived numbers built from unknown inputs are unknown too, so rules on them stay silent.
	for _, p := range []string{"traffic", "traffic.writes_per_second", "traffic.reads_per_second", "traffic.item_size_bytes",
		"traffic.hot_key_share", "sharding", "sharding.count", "sharding.strategy", "segments", "partition_key.template", "target_utilization"} {
		if a.isUnknown(p) {
			doc.Unknown = append(doc.Unknown, "derived.capacity", "derived.shard_count", "derived.required_shards")
			break
		}
	}
}

func routingAlgorithm(strategy string) string {
	switch strategy {
	case StrategyCalculated:
		return RoutingAlgorithm
	case StrategyRandom:
		return "random"
	}
	return "none"
}

func (a *analyzer) gsiFacts(doc *Document) {
	for i := range doc.Table.GSIs {
		g := &doc.Table.GSIs[i]
		product, bounded := int64(1), len(g.PartitionKey) > 0
		for _, k := range g.PartitionKey {
			if seg, ok := a.segments[k.Name]; ok && seg.Kind == KindTime {
				g.TimeBucketed = true
			}
			card := k.Cardinality
			if card == nil {
				if seg, ok := a.segments[k.Name]; ok {
					card = seg.Cardinality
				}
			}
			if card == nil {
				bounded = false
				continue
			}
			product = saturatingMul(product, *card)
		}
		if bounded {
			g.PartitionKeyCardinality = ptr(product)
		}
		if w := doc.Derived.Capacity.PeakWriteUnits; w != nil {
			switch {
			case g.TimeBucketed:
				g.HotPartitionWriteUnits = ptr(*w)
			case g.PartitionKeyCardinality != nil:
				g.HotPartitionWriteUnits = ptr(*w / float64(*g.PartitionKeyCardinality))
			}
		}
		if g.ProjectionType == ProjectionInclude {
			doc.Derived.ProjectedNonKeyAttributes += len(g.NonKeyAttributes)
		}
	}
	for _, l := range doc.Table.LSIs {
		if l.ProjectionType == ProjectionInclude {
			doc.Derived.ProjectedNonKeyAttributes += len(l.NonKeyAttributes)
		}
	}
}

// collection estimates the item collection of one partition-key value: items per key × (item size + one
// entry per LSI). ALL and INCLUDE entries are bounded by item size + 100 bytes; KEYS_ONLY entries by the
// key bytes + 100. Items per key are given, or follow from a time bucket's writes.
func (a *analyzer) collection(doc *Document) {
	d, t := &doc.Derived, doc.Traffic
	entry := t.ItemSizeBytes
	keyBytes := int64(0)
	if d.PartitionKey.MaxBytes != nil {
		keyBytes += *d.PartitionKey.MaxBytes
	}
	if d.SortKey != nil && d.SortKey.MaxBytes != nil {
		keyBytes += *d.SortKey.MaxBytes
	}
	for _, l := range doc.Table.LSIs {
		switch l.ProjectionType {
		case ProjectionKeysOnly:
			entry += keyBytes + lsiSortKeyBytes(l.SortKey.Type) + IndexEntryOverheadBytes
		default:
			entry += t.ItemSizeBytes + IndexEntryOverheadBytes
		}
	}
	d.Collection = CollectionEstimate{EntryBytes: entry, Basis: "unbounded"}
	switch {
	case t.MaxItemsPerPartitionKey != nil:
		d.Collection.ItemsPerKey = ptr(float64(*t.MaxItemsPerPartitionKey))
		d.Collection.Basis = "given"
	case d.PartitionKey.HasTimeBucket && t.WritesPerSecond != nil:
		bucket := math.Inf(1)
		for _, s := range d.PartitionKey.Segments {
			if s.Kind == KindTime {
				bucket = math.Min(bucket, a.segments[s.Name].BucketSeconds)
			}
		}
		share := d.Capacity.HotKeyShare
		d.Collection.ItemsPerKey = ptr(math.Ceil(*t.WritesPerSecond * share * bucket / float64(d.ShardCount)))
		d.Collection.Basis = "time_bucket"
	}
	if d.Collection.ItemsPerKey != nil {
		d.Collection.Bytes = ptr(*d.Collection.ItemsPerKey * float64(entry))
	}
}

// lsiSortKeyBytes bounds an LSI sort key value that has no template: a number takes at most
// NumberKeyMaxBytes; strings and binaries get the id default.
func lsiSortKeyBytes(keyType string) int64 {
	if keyType == KeyTypeNumber {
		return NumberKeyMaxBytes
	}
	return DefaultIDMaxLength
}

func ptr[T any](v T) *T { return &v }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func keyAttributes(t TableDoc) []KeyAttributeRef {
	refs := []KeyAttributeRef{}
	add := func(p Path, name, typ string) {
		refs = append(refs, KeyAttributeRef{Path: p, Name: name, NameBytes: len(name), Type: typ})
	}
	add(Path{"partition_key"}, t.PartitionKey.Name, t.PartitionKey.Type)
	if t.SortKey != nil {
		add(Path{"sort_key"}, t.SortKey.Name, t.SortKey.Type)
	}
	for _, l := range t.LSIs {
		add(Path{"local_secondary_indexes", l.Name, "sort_key"}, l.SortKey.Name, l.SortKey.Type)
	}
	for _, g := range t.GSIs {
		for i, k := range g.PartitionKey {
			add(Path{"global_secondary_indexes", g.Name, "partition_key", strconv.Itoa(i)}, k.Name, k.Type)
		}
		for i, k := range g.SortKey {
			add(Path{"global_secondary_indexes", g.Name, "sort_key", strconv.Itoa(i)}, k.Name, k.Type)
		}
	}
	return refs
}

// delimiterChars are the characters treated as key separators.
const delimiterChars = "#|:/~;,"

func conventions(templates ...*Template) Conventions {
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
	return Conventions{Delimiters: sortedKeys(delims), LetterCases: sortedKeys(cases)}
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
