package keydesign

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Access patterns are the queries an application makes, declared with the design so that the plan can
// check each against the table key and its indexes (contributing/capacity-model.md, "Access patterns").
// This file holds the model and the validation of the input; access_patterns_analysis.go matches each
// pattern to a key and computes its numbers.

// TableKeyIndex names the table's own key in AccessPattern.Index.
const TableKeyIndex = "table"

// Sort-key conditions of a Query's key condition expression (API_Query, KeyConditionExpression).
const (
	SortEqual        = "="
	SortLess         = "<"
	SortLessEqual    = "<="
	SortGreater      = ">"
	SortGreaterEqual = ">="
	SortBetween      = "between"
	SortBeginsWith   = "begins_with"
)

// SortConditions lists the valid sort conditions.
var SortConditions = []string{SortEqual, SortLess, SortLessEqual, SortGreater, SortGreaterEqual, SortBetween, SortBeginsWith}

// Kinds of key that can serve a pattern (PatternFacts.IndexKind).
const (
	IndexKindTable = "table"
	IndexKindLSI   = "lsi"
	IndexKindGSI   = "gsi"
)

// AccessPattern is one query of the application as the user wrote it. Nil pointers are not set (defaults
// apply) or not known yet; Input.Unknown lists the unknown paths.
type AccessPattern struct {
	Name string
	// Index is the key the query reads: TableKeyIndex, an LSI or a GSI name; nil lets the analysis pick the
	// key that serves it best.
	Index *string
	// Equals are what the query knows exactly: segments of a key template, or key attribute names (a GSI's
	// attributes, a table key without a template, or a whole templated key attribute).
	Equals []string
	Sort   *SortCondition
	// ReadsPerSecond is the pattern's peak rate of calls.
	ReadsPerSecond *float64
	// Items is how many items one Query returns; nil means 1.
	Items *int64
	// ItemSizeBytes is the size of one item the query reads; nil means traffic.item_size_bytes.
	ItemSizeBytes *int64
	// Consistency is eventual (""), strong or transactional.
	Consistency string
	// Attributes are the attributes the caller needs; nil means not checked.
	Attributes []string
	// HotKeyShare is the share of the pattern's calls on its busiest partition-key value; nil derives it
	// from the cardinality of the key's values.
	HotKeyShare *float64
	// Entities are the entities of a single-table design the query reads (access_patterns_entities.go).
	Entities []string
}

// SortCondition is a condition on one sort segment or sort attribute.
type SortCondition struct {
	On        string
	Condition string
}

// AccessPatternDoc is a pattern in the design document, defaults applied.
type AccessPatternDoc struct {
	Name           string            `json:"name"`
	Index          *string           `json:"index"`
	Equals         []string          `json:"equals"`
	Sort           *SortConditionDoc `json:"sort"`
	ReadsPerSecond *float64          `json:"reads_per_second"`
	Items          int64             `json:"items"`
	ItemSizeBytes  int64             `json:"item_size_bytes"`
	Consistency    string            `json:"consistency"`
	Attributes     []string          `json:"attributes"`
	HotKeyShare    *float64          `json:"hot_key_share"`
	Entities       []string          `json:"entities"`
}

// SortConditionDoc is a pattern's sort condition in the design document.
type SortConditionDoc struct {
	On        string `json:"on"`
	Condition string `json:"condition"`
}

// PatternFacts are what the analysis derived for one access pattern (derived.access_patterns). Numbers are
// per second unless named per call or per query; they are zero when no key serves the pattern.
type PatternFacts struct {
	Name string `json:"name"`
	// Path is the pattern's attribute, where findings on it point.
	Path model.Path `json:"path"`
	// Requested is the index the pattern names; "" when the analysis picked the key.
	Requested string `json:"requested"`
	// Index is the key the facts describe: the requested one, else the best candidate (even one that does
	// not serve the pattern, to name what is missing); "" when the design has no key to consider.
	Index     string `json:"index"`
	IndexKind string `json:"index_kind"`
	// Serves is true when the query knows the whole partition key of Index: a Query, not a Scan.
	Serves bool `json:"serves"`
	// Unserved lists, when no key serves the pattern, each key considered and the parts of its partition
	// key the query does not know.
	Unserved []UnservedKey `json:"unserved"`
	// SortExpressible is false when the sort condition (or a known sort part) cannot be a key condition on
	// Index; SortReason says why.
	SortExpressible bool   `json:"sort_expressible"`
	SortReason      string `json:"sort_reason"`
	// SuggestedIndex is a GSI key that would serve the pattern: the known attributes as partition key and the
	// sorted-on attribute as sort key.
	SuggestedIndex SuggestedIndex `json:"suggested_index"`
	// Filtered are known values that are not part of Index's key: the query reads past them and filters.
	Filtered []string `json:"filtered"`
	// Fanout is true when the partition key is write-sharded and the query cannot compute the shard: it
	// queries every shard. QueriesPerCall is then the shard count, else 1.
	Fanout         bool  `json:"fanout"`
	QueriesPerCall int64 `json:"queries_per_call"`
	// Consistency is the pattern's read consistency; StrongOnGSI holds when it is not eventual on a GSI,
	// which DynamoDB refuses.
	Consistency string `json:"consistency"`
	StrongOnGSI bool   `json:"strong_on_gsi"`
	// ItemsPerQuery × ItemSizeBytes = BytesPerQuery, read in PagesPerQuery pages of at most 1 MB.
	ItemsPerQuery int64 `json:"items_per_query"`
	ItemSizeBytes int64 `json:"item_size_bytes"`
	BytesPerQuery int64 `json:"bytes_per_query"`
	PagesPerQuery int64 `json:"pages_per_query"`
	// ReadUnitsPerQuery is ceil(BytesPerQuery / 4 KB) × the consistency factor; per call × QueriesPerCall;
	// per second × reads_per_second.
	ReadUnitsPerQuery  float64 `json:"read_units_per_query"`
	ReadUnitsPerCall   float64 `json:"read_units_per_call"`
	ReadUnitsPerSecond float64 `json:"read_units_per_second"`
	// Projection is Index's projection type (ALL for the table); MissingAttributes the needed attributes it
	// does not project, which cost FetchReadUnitsPerSecond of table reads (one read per item).
	Projection              string   `json:"projection"`
	MissingAttributes       []string `json:"missing_attributes"`
	FetchReadUnitsPerSecond float64  `json:"fetch_read_units_per_second"`
	// KeyValues is the number of partition-key values the pattern reads (nil when unbounded); HotKeyShare
	// the share of its calls on the busiest one (given, or derived as the table's hot-key share is).
	KeyValues         *int64  `json:"key_values"`
	HotKeyShare       float64 `json:"hot_key_share"`
	HotKeyShareSource string  `json:"hot_key_share_source"`
	// HotKeyReadUnits is the busiest logical key's reads, every shard together; PartitionReadUnits the
	// busiest physical partition's: HotKeyReadUnits / the key's shards.
	HotKeyReadUnits    float64 `json:"hot_key_read_units"`
	PartitionReadUnits float64 `json:"partition_read_units"`
	// SizedBySharding is true when the reads land on the table's partition-key values one shard per call,
	// so that they join the table's hot-key read demand, which sizes the shard count (DK303).
	SizedBySharding bool `json:"sized_by_sharding"`
	// EntityOverlaps are the other entities of the collection whose items the query also reads (DK110).
	EntityOverlaps []EntityOverlap `json:"entity_overlaps"`
}

// UnservedKey is a key that cannot serve a pattern and the partition-key parts the pattern does not know.
type UnservedKey struct {
	Index   string   `json:"index"`
	Missing []string `json:"missing"`
}

// SuggestedIndex is the key of a GSI that would serve a pattern.
type SuggestedIndex struct {
	PartitionKey []string `json:"partition_key"`
	SortKey      []string `json:"sort_key"`
}

// Bounds of the pattern inputs, beyond which no real query goes; they keep the numbers finite.
const (
	// MaxItemsPerQuery bounds items: a billion items is far beyond what one Query call reads.
	MaxItemsPerQuery = 1_000_000_000
)

func patternPath(name string, steps ...string) model.Path {
	return append(model.Path{"access_patterns", name}, steps...)
}

// patternsUnknown reports whether the pattern map, or anything in the pattern, is unknown at plan time.
func (a *analyzer) patternUnknown(name string) bool {
	if a.isUnknown("access_patterns") {
		return true
	}
	prefix := patternPath(name).String()
	for p := range a.unknown {
		if p == prefix || strings.HasPrefix(p, prefix+".") || strings.HasPrefix(p, prefix+"[") {
			return true
		}
	}
	return false
}

// designUnknownForPatterns reports whether a part of the design a pattern is matched against is unknown:
// the keys, segments, sharding, indexes or the item size. Patterns are then neither validated against it
// nor analysed.
func (a *analyzer) designUnknownForPatterns() bool {
	for p := range a.unknown {
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
func (a *analyzer) validateAccessPatterns(sk *model.Template) {
	in := a.in
	if len(in.AccessPatterns) == 0 {
		return
	}
	designKnown := !a.designUnknownForPatterns()
	names := a.patternNames(sk)
	for _, ap := range in.AccessPatterns {
		at := func(steps ...string) model.Path { return patternPath(ap.Name, steps...) }
		if r := ap.ReadsPerSecond; r != nil {
			switch {
			case math.IsNaN(*r) || math.IsInf(*r, 0) || *r <= 0:
				a.fail(at("reads_per_second"), "must be a number of calls per second above 0, got %v; remove a pattern the application no longer makes", *r)
			case *r > MaxRequestsPerSecond:
				a.fail(at("reads_per_second"), "must be at most %s per second, got %s", thousands(MaxRequestsPerSecond), thousands(*r))
			}
		}
		if n := ap.Items; n != nil && (*n < 1 || *n > MaxItemsPerQuery) {
			a.fail(at("items"), "must be between 1 and %s items per Query, got %d", thousands(MaxItemsPerQuery), *n)
		}
		if s := ap.ItemSizeBytes; s != nil && (*s < 1 || *s > model.MaxItemSizeBytes) {
			a.fail(at("item_size_bytes"), "must be between 1 and %d bytes (the item size limit), got %d", model.MaxItemSizeBytes, *s)
		}
		if ap.Consistency != "" && !slices.Contains(ReadConsistencies, ap.Consistency) {
			a.fail(at("consistency"), "unknown read consistency %q: use one of %s", ap.Consistency, strings.Join(ReadConsistencies, ", "))
		}
		if s := ap.HotKeyShare; s != nil && (math.IsNaN(*s) || *s < 0 || *s > 1) {
			a.fail(at("hot_key_share"), "is a share of the pattern's calls and must be between 0 and 1, got %v", *s)
		}
		a.noDuplicates(at("attributes"), ap.Attributes)
		a.validatePatternEntities(ap)
		if !designKnown {
			continue
		}
		if ap.Index != nil {
			if _, ok := names.indexes[*ap.Index]; !ok {
				a.fail(at("index"), "names no key of this design: use %s, or omit index to let the provider pick the key that serves the pattern",
					quotedList(slices.Sorted(maps.Keys(names.indexes))))
			} else if *ap.Index == TableKeyIndex && names.tableIndexNamed {
				a.fail(at("index"), "\"table\" names the table's own key, and an index of this design is also named \"table\": rename the index")
			}
		}
		seen := map[string]bool{}
		for i, name := range ap.Equals {
			p := at("equals", strconv.Itoa(i))
			switch {
			case seen[name]:
				a.fail(p, "%q is listed twice; list each known value once", name)
			case !names.known[name]:
				a.fail(p, "%q is neither a segment of a key template nor a key attribute of the table or an index: use one of %s",
					name, quotedList(slices.Sorted(maps.Keys(names.known))))
			}
			seen[name] = true
		}
		if ap.Sort == nil {
			continue
		}
		if ap.Sort.Condition != "" && !slices.Contains(SortConditions, ap.Sort.Condition) {
			a.fail(at("sort", "condition"), "unknown sort condition %q: use one of %s", ap.Sort.Condition, strings.Join(SortConditions, ", "))
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
			a.fail(at("sort"), "%s has no sort key, so a Query on it has no sort condition: remove sort, or name a key with a sort key", indexLabel(*ap.Index))
		case len(sortable) == 0:
			a.fail(at("sort"), "neither the table nor an index of this design has a sort key, so no Query has a sort condition: add a sort key, or remove sort")
		case ap.Sort.On == "":
		case !names.known[ap.Sort.On]:
			a.fail(at("sort", "on"), "%q is neither a segment of a key template nor a key attribute of the table or an index", ap.Sort.On)
		case seen[ap.Sort.On]:
			a.fail(at("sort", "on"), "%q is also in equals: a value the query knows exactly is an equality; list it in equals or sort, not both", ap.Sort.On)
		case ap.Sort.Condition == SortBeginsWith && sortable[ap.Sort.On] == KeyTypeNumber:
			a.fail(at("sort", "condition"), "begins_with works on string and binary keys only, and %q is part of a number (N) sort key: "+
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

func (a *analyzer) patternNames(sk *model.Template) patternNamesSet {
	in := a.in
	s := patternNamesSet{known: map[string]bool{}, indexes: map[string]map[string]string{}, sortable: map[string]string{}}
	for name := range a.segments {
		s.known[name] = true
	}
	add := func(index, part, typ string) {
		typ = cmp.Or(typ, KeyTypeString)
		s.indexes[index][part] = typ
		s.sortable[part] = typ
	}
	s.known[in.PartitionKey.Name] = true
	s.indexes[TableKeyIndex] = map[string]string{}
	if in.SortKey != nil {
		s.known[in.SortKey.Name] = true
		add(TableKeyIndex, in.SortKey.Name, in.SortKey.Type)
		if sk != nil {
			for _, name := range sk.Placeholders() {
				add(TableKeyIndex, name, in.SortKey.Type)
			}
		}
	}
	for _, l := range in.LocalSecondaryIndexes {
		s.tableIndexNamed = s.tableIndexNamed || l.Name == TableKeyIndex
		s.known[l.SortKey.Name] = true
		s.indexes[l.Name] = map[string]string{}
		add(l.Name, l.SortKey.Name, l.SortKey.Type)
	}
	for _, g := range in.GlobalSecondaryIndexes {
		s.tableIndexNamed = s.tableIndexNamed || g.Name == TableKeyIndex
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
	if index == TableKeyIndex {
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
func (a *analyzer) accessPatternDocs(t TrafficDoc) []AccessPatternDoc {
	out := make([]AccessPatternDoc, 0, len(a.in.AccessPatterns))
	for _, ap := range a.in.AccessPatterns {
		d := AccessPatternDoc{Name: ap.Name, Index: ap.Index, Equals: orEmpty(ap.Equals), ReadsPerSecond: ap.ReadsPerSecond,
			Items: 1, ItemSizeBytes: t.ItemSizeBytes, Consistency: cmp.Or(ap.Consistency, string(ReadEventual)),
			Attributes: ap.Attributes, HotKeyShare: ap.HotKeyShare, Entities: orEmpty(ap.Entities)}
		if size := a.patternEntitySize(ap); size > 0 {
			d.ItemSizeBytes = size
		}
		if ap.Items != nil {
			d.Items = *ap.Items
		}
		if ap.ItemSizeBytes != nil {
			d.ItemSizeBytes = *ap.ItemSizeBytes
		}
		if ap.Sort != nil {
			d.Sort = &SortConditionDoc{On: ap.Sort.On, Condition: cmp.Or(ap.Sort.Condition, SortEqual)}
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y AccessPatternDoc) int { return cmp.Compare(x.Name, y.Name) })
	return out
}
