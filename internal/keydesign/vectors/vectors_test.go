package vectors

import (
	"math"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// multiTenant is a single-table design with documents of 1,000 tenants searched by tenant: doc items carry the
// vector and the HASH, note items the vector only.
func multiTenant(tenants int64, projection string) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"tenant_id": {Kind: model.KindID, Cardinality: model.Ptr(tenants)},
			"doc_id":    {Kind: model.KindID},
		},
		VectorIndexes: []model.VectorIndex{{Name: "by_embedding", VectorAttribute: "embedding", Dimensions: model.Ptr(int64(1024)),
			DistanceFunction: model.DistanceCosine, PartitionKey: &model.IndexKeyAttribute{Name: "tenant_id", Type: "S"}, ProjectionType: projection}},
		Entities: []model.Entity{
			{Name: "doc", Keys: map[string]string{"PK": "DOC#{doc_id}", "SK": "V", "tenant_id": "{tenant_id}"}, VectorAttributes: []string{"embedding"},
				Traffic: model.EntityTraffic{WritesPerSecond: model.Ptr(600.0), ItemSizeBytes: model.Ptr(int64(4500)), ItemCount: model.Ptr(int64(1_000_000))}},
			{Name: "note", Keys: map[string]string{"PK": "NOTE#{doc_id}", "SK": "N"}, VectorAttributes: []string{"embedding"},
				Traffic: model.EntityTraffic{WritesPerSecond: model.Ptr(50.0)}},
		},
		AccessPatterns: []model.AccessPattern{{Name: "similar", Equals: []string{"tenant_id"}, ReadsPerSecond: model.Ptr(20.0),
			VectorSearch: &model.VectorSearch{Index: "by_embedding", TopK: model.Ptr(int64(10))}}},
	}
}

func facts(t *testing.T, in *model.Input) []model.VectorIndexDoc {
	t.Helper()
	in, searches := WithoutSearches(in)
	m, errs := model.Build(in)
	if errs = append(errs, Validate(m, searches)...); len(errs) > 0 {
		t.Fatalf("design errors: %v", errs)
	}
	tr := in.Traffic
	return Facts(m, Traffic{WritesPerSecond: tr.WritesPerSecond, ItemSizeBytes: max(model.Deref(tr.ItemSizeBytes), 1024), ItemCount: tr.ItemCount},
		searches, 1, 0.8)
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }

// The figures by hand. A KEYS_ONLY entry of a doc: PK (2 + "DOC#" 4 + an id's 64) + SK (2 + 1) + tenant_id (9 +
// 64) = 146 bytes; its vector 1,024 × 4 = 4,096 bytes; a write 4,242 bytes. 600 writes a second are 2,545,200
// bytes a second, 1/1,000 of them on the busiest tenant: 2,545.2. A note carries the vector and no tenant_id:
// never indexed. A search returns 10 × 146 = 1,460 bytes.
func TestMultiTenantFigures(t *testing.T) {
	t.Parallel()
	all := facts(t, multiTenant(1000, model.ProjectionKeysOnly))
	if len(all) != 1 {
		t.Fatalf("%d indexes", len(all))
	}
	v := all[0]
	if v.VectorBytes != 4096 || len(v.Entities) != 2 {
		t.Fatalf("vector bytes %d, entities %+v", v.VectorBytes, v.Entities)
	}
	doc, note := v.Entities[0], v.Entities[1]
	if !doc.Member || doc.ProjectedBytes != 146 || doc.WriteBytesPerItem != 4242 || !near(model.Deref(doc.WriteBytesPerSecond), 2_545_200) {
		t.Errorf("doc %+v", doc)
	}
	if note.Member || note.HasHash || note.WriteBytesPerSecond != nil {
		t.Errorf("note %+v: carries no HASH, so it is never indexed", note)
	}
	if model.Deref(v.HashValues) != 1000 || v.HashValuesBasis != "template" || v.HashUniquePerItem {
		t.Errorf("hash values %v (%s), unique %v", model.Deref(v.HashValues), v.HashValuesBasis, v.HashUniquePerItem)
	}
	if !near(model.Deref(v.HotHashWriteBytesPerSecond), 2545.2) || model.Deref(v.HashValuesNeeded) != 1 {
		t.Errorf("hot %v B/s, needed %v", model.Deref(v.HotHashWriteBytesPerSecond), model.Deref(v.HashValuesNeeded))
	}
	if len(v.Searches) != 1 || !v.Searches[0].HashGiven || v.Searches[0].ProjectedItemBytes != 146 || model.Deref(v.Searches[0].ResponseBytes) != 1460 {
		t.Errorf("searches %+v", v.Searches)
	}
	// The month: 730 h × 3,600 s. Writes 600 × 4,242 B; searches 20 × 1,460 B; storage 1,000,000 × 4,242 B;
	// GB of 2^30 bytes, at the unconfirmed us-east-1 prices $0.52, $0.002 and $0.25.
	secs, gb := 730*3600.0, float64(1<<30)
	c := v.Cost
	wantWrite, wantSearch, wantStorage := 600*4242*secs/gb, 20*1460*secs/gb, 1e6*4242/gb
	if !near(model.Deref(c.WriteGBPerMonth), wantWrite) || !near(model.Deref(c.SearchGBPerMonth), wantSearch) || !near(model.Deref(c.StorageGB), wantStorage) {
		t.Errorf("GB: write %v search %v storage %v", model.Deref(c.WriteGBPerMonth), model.Deref(c.SearchGBPerMonth), model.Deref(c.StorageGB))
	}
	if c.Prices == nil || len(c.Prices.Unconfirmed) != 3 || !near(model.Deref(c.MonthlyUSD), wantWrite*0.52+wantSearch*0.002+wantStorage*0.25) {
		t.Errorf("cost %+v prices %+v", c, c.Prices)
	}
}

// One hot tenant: with two tenant values, half of 5,000 writes of 4,242 bytes (10,605,000 B/s) land on one
// value; the writes need ceil(21,210,000 / (10,485,760 × 0.8)) = 3 values.
func TestHotTenant(t *testing.T) {
	t.Parallel()
	in := multiTenant(2, model.ProjectionKeysOnly)
	in.Entities[0].Traffic.WritesPerSecond = model.Ptr(5000.0)
	v := facts(t, in)[0]
	if !near(model.Deref(v.HotHashWriteBytesPerSecond), 10_605_000) || model.Deref(v.HashValuesNeeded) != 3 || model.Deref(v.HashValues) != 2 {
		t.Errorf("hot %v, needed %v, values %v", model.Deref(v.HotHashWriteBytesPerSecond), model.Deref(v.HashValuesNeeded), model.Deref(v.HashValues))
	}
	if len(v.HotHashEntities) != 1 || v.HotHashEntities[0] != "doc" {
		t.Errorf("hot entities %v", v.HotHashEntities)
	}
}

// A HASH that renders the item's key is unique per item; the projection ALL returns the whole item: 100 × 4,500
// bytes per search.
func TestUniqueHashAndResponse(t *testing.T) {
	t.Parallel()
	in := multiTenant(1000, model.ProjectionAll)
	in.Entities[0].Keys["tenant_id"] = "{tenant_id}#{doc_id}"
	in.AccessPatterns[0].VectorSearch.TopK = model.Ptr(int64(100))
	in.AccessPatterns[0].Equals = []string{"tenant_id", "doc_id"}
	v := facts(t, in)[0]
	if !v.HashUniquePerItem || v.HashValues != nil || v.HashValuesBasis != "unbounded" {
		t.Errorf("unique %v, values %v (%s)", v.HashUniquePerItem, v.HashValues, v.HashValuesBasis)
	}
	if model.Deref(v.Searches[0].ResponseBytes) != 450_000 || v.Entities[0].WriteBytesPerItem != 4096+4500 {
		t.Errorf("response %v, write %d", model.Deref(v.Searches[0].ResponseBytes), v.Entities[0].WriteBytesPerItem)
	}
}

// Without entities the table's items carry every index's vector; an index without HASH is one value, and a
// search of it needs nothing in equals. Two indexes on one attribute with other dimensions name each other.
func TestWithoutEntities(t *testing.T) {
	t.Parallel()
	in := &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: model.Ptr("ITEM#{item_id}")},
		Segments:     map[string]model.Segment{"item_id": {Kind: model.KindID}},
		Traffic:      model.Traffic{WritesPerSecond: model.Ptr(100.0), ItemSizeBytes: model.Ptr(int64(2000))},
		VectorIndexes: []model.VectorIndex{
			{Name: "a", VectorAttribute: "v", Dimensions: model.Ptr(int64(256)), ProjectionType: model.ProjectionAll},
			{Name: "b", VectorAttribute: "v", Dimensions: model.Ptr(int64(512)), ProjectionType: model.ProjectionAll},
		},
	}
	all := facts(t, in)
	a := all[0]
	if len(a.Entities) != 1 || !a.Entities[0].Member || model.Deref(a.HashValues) != 1 || a.HashValuesBasis != "no_hash" {
		t.Fatalf("a: %+v", a)
	}
	// 100 writes × (1,024 + 2,000) bytes, all on the one value.
	if !near(model.Deref(a.HotHashWriteBytesPerSecond), 302_400) || len(a.SharedDimensions) != 1 || a.SharedDimensions[0] != "b" {
		t.Errorf("a: hot %v, shared %v", model.Deref(a.HotHashWriteBytesPerSecond), a.SharedDimensions)
	}
}

// A search of an index the design lacks, and a vector attribute no index reads, are refused on their paths.
func TestValidate(t *testing.T) {
	t.Parallel()
	in := multiTenant(1000, model.ProjectionKeysOnly)
	in.AccessPatterns[0].VectorSearch.Index = "nope"
	in.Entities[1].VectorAttributes = []string{"other"}
	in, searches := WithoutSearches(in)
	m, _ := model.Build(in)
	errs := Validate(m, searches)
	want := map[string]bool{"access_patterns.similar.vector_search.index": false, "entities.note.vector_attributes[0]": false}
	for _, e := range errs {
		want[e.Path.String()] = true
	}
	for p, seen := range want {
		if !seen {
			t.Errorf("no error on %s: %v", p, errs)
		}
	}
}

// DynamoDB defines a search-schema attribute like a key, once per name: a type that conflicts with a key's or
// another index's, a vector attribute that is also a key or search attribute, and an INCLUDE projection
// without attributes are refused at the attribute's path, before any call.
func TestBuildRefusesWhatCreateTableRefuses(t *testing.T) {
	t.Parallel()
	in := multiTenant(1000, model.ProjectionInclude)
	in.VectorIndexes[0].InlineFilters = []model.IndexKeyAttribute{{Name: "PK", Type: "N"}}
	in.VectorIndexes = append(in.VectorIndexes, model.VectorIndex{Name: "by_summary", VectorAttribute: "tenant_id", Dimensions: model.Ptr(int64(8)),
		DistanceFunction: model.DistanceCosine, PartitionKey: &model.IndexKeyAttribute{Name: "tenant_id", Type: "B"}, ProjectionType: model.ProjectionAll})
	in, _ = WithoutSearches(in)
	_, errs := model.Build(in)
	want := map[string]string{
		"vector_indexes.by_embedding.inline_filters[0].type": `attribute "PK" is type N here but S at partition_key`,
		"vector_indexes.by_embedding.non_key_attributes":     `INCLUDE" needs at least one non-key attribute`,
		"vector_indexes.by_summary.partition_key.type":       `attribute "tenant_id" is type B here but S at vector_indexes.by_embedding.partition_key`,
	}
	for _, e := range errs {
		if fragment, ok := want[e.Path.String()]; ok && strings.Contains(e.Error(), fragment) {
			delete(want, e.Path.String())
		}
	}
	if len(want) > 0 {
		t.Errorf("missing errors %v; got %v", want, errs)
	}

	in = multiTenant(1000, model.ProjectionKeysOnly)
	in.VectorIndexes[0].VectorAttribute = "SK"
	in, _ = WithoutSearches(in)
	if _, errs := model.Build(in); len(errs) != 1 || errs[0].Path.String() != "vector_indexes.by_embedding.vector_attribute" ||
		!strings.Contains(errs[0].Error(), `"SK" is also the S attribute at sort_key`) {
		t.Errorf("a vector attribute that is the sort key: %v", errs)
	}
}
