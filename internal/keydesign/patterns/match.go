package patterns

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The access-pattern analysis (contributing/capacity-model.md, "Access patterns"), in the order it runs:
//
//  1. Match (before the capacity model): each pattern against the table key, each LSI and each
//     GSI. A key serves a pattern when the query knows every part of its partition key ({shard} aside); its
//     sort condition is expressible when the sort parts before the condition's part are known and the
//     condition is on the next one. Unless the pattern names its index, the best key is picked: one that
//     serves, then a sort that is expressible, a consistency the key allows, the needed attributes
//     projected, the fewest known values left to a filter, the fewest Queries per call, the fewest read
//     units, the table before LSIs before GSIs.
//  2. HotReads (inside the capacity model): the reads that land on the table's partition-key values
//     one shard per call join the table's hot-key read demand, which sizes the shard count.
//  3. Finish (with the shard count): Queries per call, read units per call and per second,
//     the busiest partition's reads; the table's peak read demand becomes the larger of the declared reads
//     and the patterns' reads on the table and its LSIs plus the table reads that fetch unprojected
//     attributes.
//  4. IndexReads (after the measured facts): each GSI without a measurement takes the reads of the
//     patterns it serves as its read demand.

// patternKey is a key that may serve patterns: the table's, an LSI's or a GSI's.
type patternKey struct {
	name, kind string
	// partition are the parts a query must know: template placeholders ({shard} aside) or attribute names.
	partition []keyPart
	// sort are the sort parts, left to right.
	sort []keyPart
	// sharded is true when the partition key carries a {shard} suffix that sharding fills.
	sharded bool
	// keyValues is the number of partition-key values (nil when unbounded); timeBucket is true when a part
	// is a time bucket, whose current value takes the reads of "recent" queries.
	keyValues  *int64
	timeBucket bool
	projection string
	// projected are the attributes an index entry carries besides every key attribute (INCLUDE).
	projected []string
	// keyAttributes are the key attributes of the table and of this index, which every index projects.
	keyAttributes []string
}

// keyPart is one part of a key: a template segment or a whole attribute.
type keyPart struct {
	name      string // segment or attribute name
	attribute string // the attribute it is part of
	keyType   string
	kind      model.SegmentKind // "" for a whole attribute
}

// patternMatch is one key considered for one pattern.
type patternMatch struct {
	key              *patternKey
	missing          []string
	sortOK           bool
	sortReason       string
	filtered         []string
	fanout           bool
	strongOnGSI      bool
	missingAttribute []string
	unitsPerQuery    float64
}

// patternKeys lists the table key, the LSIs and the GSIs (sorted by name) as keys that may serve patterns.
func (an *analysis) patternKeys(st *model.Stated, pk, sk *model.Template) []*patternKey {
	t := st.Table
	keyAttrs := []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		keyAttrs = append(keyAttrs, t.SortKey.Name)
	}
	table := &patternKey{name: model.TableKeyIndex, kind: model.IndexKindTable, projection: model.ProjectionAll, keyAttributes: keyAttrs,
		sharded: pk != nil && pk.HasPlaceholder(model.ShardPlaceholder) && st.Sharding.Strategy != model.StrategyNone}
	if pk != nil {
		values, bounded := int64(1), true
		for _, name := range pk.Placeholders() {
			if name == model.ShardPlaceholder {
				continue
			}
			seg := an.segments[name]
			table.partition = append(table.partition, keyPart{name: name, attribute: t.PartitionKey.Name, keyType: t.PartitionKey.Type, kind: seg.Kind})
			table.timeBucket = table.timeBucket || seg.Kind == model.KindTime
			if seg.Cardinality == nil {
				bounded = false
			} else {
				values = model.SaturatingMul(values, *seg.Cardinality)
			}
		}
		if bounded {
			table.keyValues = &values
		}
	} else {
		table.partition = []keyPart{{name: t.PartitionKey.Name, attribute: t.PartitionKey.Name, keyType: t.PartitionKey.Type}}
	}
	if t.SortKey != nil {
		if sk != nil {
			for _, name := range sk.Placeholders() {
				table.sort = append(table.sort, keyPart{name: name, attribute: t.SortKey.Name, keyType: t.SortKey.Type, kind: an.segments[name].Kind})
			}
		} else {
			table.sort = []keyPart{{name: t.SortKey.Name, attribute: t.SortKey.Name, keyType: t.SortKey.Type}}
		}
	}
	keys := []*patternKey{table}
	for _, l := range t.LSIs {
		lk := *table
		lk.name, lk.kind, lk.projection, lk.projected = l.Name, model.IndexKindLSI, l.ProjectionType, l.NonKeyAttributes
		lk.keyAttributes = append(slices.Clone(keyAttrs), l.SortKey.Name)
		lk.sort = []keyPart{{name: l.SortKey.Name, attribute: l.SortKey.Name, keyType: l.SortKey.Type}}
		keys = append(keys, &lk)
	}
	for _, g := range t.GSIs {
		gk := &patternKey{name: g.Name, kind: model.IndexKindGSI, projection: g.ProjectionType, projected: g.NonKeyAttributes, keyAttributes: slices.Clone(keyAttrs)}
		values, bounded := int64(1), len(g.PartitionKey) > 0
		for _, k := range g.PartitionKey {
			gk.partition = append(gk.partition, keyPart{name: k.Name, attribute: k.Name, keyType: k.Type})
			gk.keyAttributes = append(gk.keyAttributes, k.Name)
			card := k.Cardinality
			if seg, ok := an.segments[k.Name]; ok {
				gk.timeBucket = gk.timeBucket || seg.Kind == model.KindTime
				card = cmp.Or(card, seg.Cardinality)
			}
			if card == nil {
				bounded = false
			} else {
				values = model.SaturatingMul(values, *card)
			}
		}
		if bounded {
			gk.keyValues = &values
		}
		for _, k := range g.SortKey {
			gk.sort = append(gk.sort, keyPart{name: k.Name, attribute: k.Name, keyType: k.Type})
			gk.keyAttributes = append(gk.keyAttributes, k.Name)
		}
		keys = append(keys, gk)
	}
	return keys
}

// knownSet is what a query knows: the names in equals, each standing for itself and, when it names a
// whole key attribute, for every part of that attribute.
type knownSet map[string]bool

func (k knownSet) has(p keyPart) bool { return k[p.name] || k[p.attribute] }

// matchAccessPatterns matches every pattern with the keys and fills the facts that do not depend on the
// shard count. Patterns with unknown values, or all of them when the design they are matched against is
// unknown, are left out and the derived facts they feed are marked unknown.
func (an *analysis) matchAccessPatterns(st *model.Stated, pk, sk *model.Template) Matched {
	out := Matched{Facts: []model.PatternFacts{}, Patterns: an.accessPatternDocs(st.Traffic)}
	if len(an.in.AccessPatterns) == 0 && !an.m.IsUnknown("access_patterns") {
		return out
	}
	unknown := []string{"derived.access_patterns", "derived.capacity"}
	complete := !an.m.IsUnknown("access_patterns") && !an.designUnknownForPatterns()
	if !complete {
		out.Unknown = unknown
		return out
	}
	keys := an.patternKeys(st, pk, sk)
	for _, ap := range out.Patterns {
		if an.patternUnknown(ap.Name) {
			complete = false
			continue
		}
		// A pattern on entities is matched against the keys as its first entity writes them.
		if entityKeys := an.entityPatternKeys(st, ap); entityKeys != nil {
			f := an.matchPattern(st, ap, entityKeys)
			f.EntityOverlaps = an.entityOverlaps(ap, f)
			out.Facts = append(out.Facts, f)
			continue
		}
		out.Facts = append(out.Facts, an.matchPattern(st, ap, keys))
	}
	if !complete {
		out.Unknown = unknown
	}
	return out
}

func (an *analysis) matchPattern(st *model.Stated, ap model.AccessPatternDoc, keys []*patternKey) model.PatternFacts {
	f := model.PatternFacts{Name: ap.Name, Path: patternPath(ap.Name), Consistency: ap.Consistency, Unserved: []model.UnservedKey{}, EntityOverlaps: []model.EntityOverlap{},
		Filtered: []string{}, MissingAttributes: []string{}, ItemsPerQuery: ap.Items, ItemSizeBytes: ap.ItemSizeBytes,
		SuggestedIndex: model.SuggestedIndex{PartitionKey: model.OrEmpty(ap.Equals), SortKey: []string{}}}
	if ap.Sort != nil {
		f.SuggestedIndex.SortKey = []string{ap.Sort.On}
	}
	known := knownSet{}
	for _, e := range ap.Equals {
		known[e] = true
	}
	// The key attributes whose every template of the pattern's entities the query can fill.
	for _, attr := range an.entityKnownAttributes(ap) {
		known[attr] = true
	}
	var matches []patternMatch
	for _, k := range keys {
		if ap.Index != nil && *ap.Index != k.name {
			continue
		}
		matches = append(matches, an.matchKey(st, ap, known, k))
	}
	if len(matches) == 0 {
		return f
	}
	if ap.Index != nil {
		f.Requested = *ap.Index
	}
	// Unserved keys are listed table first, then LSIs, then GSIs (the keys' order), before ranking.
	for _, m := range matches {
		f.Unserved = append(f.Unserved, model.UnservedKey{Index: m.key.name, Missing: m.missing})
	}
	slices.SortStableFunc(matches, compareMatches)
	best := matches[0]
	if len(best.missing) == 0 {
		f.Unserved = []model.UnservedKey{}
	}
	k := best.key
	f.Index, f.IndexKind, f.Serves = k.name, k.kind, len(best.missing) == 0
	f.SortExpressible, f.SortReason = best.sortOK, best.sortReason
	f.Filtered = model.OrEmpty(best.filtered)
	f.Fanout, f.StrongOnGSI = best.fanout, best.strongOnGSI
	f.Projection, f.MissingAttributes = k.projection, model.OrEmpty(best.missingAttribute)
	f.QueriesPerCall = 1
	if f.Serves {
		f.BytesPerQuery = ap.Items * ap.ItemSizeBytes
		f.PagesPerQuery = int64(math.Ceil(float64(f.BytesPerQuery) / float64(model.QueryPageBytes)))
		f.ReadUnitsPerQuery = best.unitsPerQuery
	}
	f.KeyValues = k.keyValues
	switch {
	case ap.HotKeyShare != nil:
		f.HotKeyShare, f.HotKeyShareSource = *ap.HotKeyShare, capacity.ShareGiven
	case k.timeBucket:
		// Reads of "the recent ones" all land in the current bucket, as writes do (the hot-key share model).
		f.HotKeyShare, f.HotKeyShareSource = an.timeBucketShare(k), capacity.ShareTimeBucket
	case k.keyValues != nil:
		f.HotKeyShare, f.HotKeyShareSource = 1/float64(*k.keyValues), capacity.ShareKeyCardinality
	default:
		f.HotKeyShare, f.HotKeyShareSource = 0, capacity.ShareKeyCardinality
	}
	f.SizedBySharding = f.Serves && !f.Fanout && k.kind != model.IndexKindGSI
	return f
}

// timeBucketShare is 1 / the cardinality of a time-bucketed key's other parts (0 when one is unbounded).
func (an *analysis) timeBucketShare(k *patternKey) float64 {
	product := 1.0
	for _, p := range k.partition {
		if p.kind == model.KindTime {
			continue
		}
		card := an.partCardinality(k, p)
		if card == nil {
			return 0
		}
		product *= float64(*card)
	}
	return 1 / product
}

func (an *analysis) partCardinality(k *patternKey, p keyPart) *int64 {
	if k.kind == model.IndexKindGSI {
		for _, g := range an.in.GlobalSecondaryIndexes {
			if g.Name != k.name {
				continue
			}
			for _, attr := range g.PartitionKey {
				if attr.Name == p.name && attr.Cardinality != nil {
					return attr.Cardinality
				}
			}
		}
	}
	if seg, ok := an.segments[p.name]; ok {
		return seg.Cardinality
	}
	return nil
}

// compareMatches orders the keys considered for a pattern, best first.
func compareMatches(x, y patternMatch) int {
	rank := func(m patternMatch) []int {
		return []int{len(m.missing), boolRank(!m.sortOK), boolRank(m.strongOnGSI), len(m.missingAttribute), len(m.filtered),
			boolRank(m.fanout), kindRank[m.key.kind]}
	}
	if c := slices.Compare(rank(x), rank(y)); c != 0 {
		return c
	}
	if c := cmp.Compare(x.unitsPerQuery, y.unitsPerQuery); c != 0 {
		return c
	}
	return cmp.Compare(x.key.name, y.key.name)
}

var kindRank = map[string]int{model.IndexKindTable: 0, model.IndexKindLSI: 1, model.IndexKindGSI: 2}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// matchKey considers one key for one pattern.
func (an *analysis) matchKey(st *model.Stated, ap model.AccessPatternDoc, known knownSet, k *patternKey) patternMatch {
	m := patternMatch{key: k, sortOK: true}
	used := map[string]bool{}
	for _, p := range k.partition {
		if known.has(p) {
			used[p.name], used[p.attribute] = true, true
		} else {
			m.missing = append(m.missing, p.name)
		}
	}
	m.sortOK, m.sortReason = sortExpressible(ap, known, k, used)
	for _, e := range ap.Equals {
		if !used[e] {
			m.filtered = append(m.filtered, e)
		}
	}
	if k.sharded {
		source := keyPart{name: st.Sharding.Source, attribute: st.Table.PartitionKey.Name}
		m.fanout = st.Sharding.Strategy == model.StrategyRandom && !known[st.Table.PartitionKey.Name] ||
			st.Sharding.Strategy == model.StrategyCalculated && (st.Sharding.Source == "" || !known.has(source))
	}
	m.strongOnGSI = k.kind == model.IndexKindGSI && ap.Consistency != string(model.ReadEventual)
	if ap.Attributes != nil && k.projection != model.ProjectionAll {
		available := map[string]bool{}
		for _, name := range slices.Concat(k.keyAttributes, k.projected) {
			available[name] = true
		}
		// Segments of the table's key templates travel inside the key attributes every index projects.
		for _, p := range slices.Concat(k.partition, k.sort) {
			available[p.name] = true
		}
		for name := range an.segments {
			if TableSegment(st.Table, name) {
				available[name] = true
			}
		}
		for _, attr := range ap.Attributes {
			if !available[attr] {
				m.missingAttribute = append(m.missingAttribute, attr)
			}
		}
	}
	factor := consistencyFactor(ap.Consistency)
	m.unitsPerQuery = model.CeilUnits(float64(ap.Items*ap.ItemSizeBytes)/model.ReadUnitBytes) * factor
	return m
}

// TableSegment reports whether a segment is a placeholder of the table's partition or sort key template, as
// stated in table or as the key facts keys give them.
func TableSegment(table model.TableDoc, name string, keys ...*model.KeyFacts) bool {
	for _, f := range keys {
		if f != nil && slices.Contains(f.Placeholders, name) {
			return true
		}
	}
	for _, tmpl := range []*model.KeyDoc{&table.PartitionKey, table.SortKey} {
		if tmpl != nil && tmpl.Template != nil && strings.Contains(*tmpl.Template, "{"+name+"}") {
			return true
		}
	}
	return false
}

// sortExpressible says whether the pattern's known sort parts and sort condition are a key condition on k:
// equalities on a prefix of the sort parts, then at most one condition on the next part. A range on a
// number written as text in a string key compares as text, so it is not the range the query means.
func sortExpressible(ap model.AccessPatternDoc, known knownSet, k *patternKey, used map[string]bool) (bool, string) {
	prefix := 0
	for prefix < len(k.sort) && known.has(k.sort[prefix]) {
		used[k.sort[prefix].name], used[k.sort[prefix].attribute] = true, true
		prefix++
	}
	for _, p := range k.sort[prefix:] {
		if known.has(p) {
			return false, fmt.Sprintf("%s is known but %s, before it in %s, is not: a key condition matches the sort key from its first part",
				partLabel(p), partLabel(k.sort[prefix]), sortKeyLabel(k.name))
		}
	}
	if ap.Sort == nil {
		return true, ""
	}
	at := slices.IndexFunc(k.sort, func(p keyPart) bool { return p.name == ap.Sort.On })
	if at < 0 && len(k.sort) > 0 && k.sort[0].attribute == ap.Sort.On && prefix == 0 {
		at = 0 // a condition on the whole templated sort key
	}
	switch {
	case at < 0 && len(k.sort) == 0:
		return false, fmt.Sprintf("%s has no sort key to hold a condition on %s", indexLabel(k.name), ap.Sort.On)
	case at < 0:
		return false, fmt.Sprintf("%s does not hold %s", sortKeyLabel(k.name), ap.Sort.On)
	case at > prefix:
		var missing []string
		for _, p := range k.sort[prefix:at] {
			missing = append(missing, partLabel(p))
		}
		verb := "comes"
		if len(missing) > 1 {
			verb = "come"
		}
		return false, fmt.Sprintf("the condition is on %s, but %s %s before it in %s and the query does not know it",
			partLabel(k.sort[at]), strings.Join(missing, ", "), verb, sortKeyLabel(k.name))
	}
	p := k.sort[at]
	used[p.name] = true
	isRange := ap.Sort.Condition != model.SortEqual && ap.Sort.Condition != model.SortBeginsWith
	if isRange && p.kind == model.KindNumber && p.keyType != model.KeyTypeNumber {
		return false, fmt.Sprintf("%s is a number written as text in a %s key, so %s compares it as text (\"10\" before \"9\")",
			partLabel(p), p.keyType, ap.Sort.Condition)
	}
	return true, ""
}

// sortKeyLabel names a key's sort key in messages.
func sortKeyLabel(index string) string {
	if index == model.TableKeyIndex {
		return "the table's sort key"
	}
	return "the sort key of index " + strconv.Quote(index)
}

func partLabel(p keyPart) string {
	if p.kind != "" {
		return "{" + p.name + "}"
	}
	return p.name
}
