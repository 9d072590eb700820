package report

import (
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// vectorIndex is an index on embedding (1,024 dimensions: 4,096 bytes a vector) with HASH tenant_id, whose
// one member, doc, writes 4,216 bytes an item (the vector and 120 bytes of KEYS_ONLY projection).
func vectorIndex(name string, values int64, writes float64) model.VectorIndexDoc {
	total := writes * 4216
	return model.VectorIndexDoc{Name: name, VectorAttribute: "embedding", Dimensions: model.Ptr(int64(1024)), VectorBytes: 4096,
		DistanceFunction: "COSINE", ProjectionType: "KEYS_ONLY", PartitionKey: &model.IndexKeyDoc{Name: "tenant_id", Type: "S"},
		HashValues: model.Ptr(values), HashValuesBasis: "template",
		Entities: []model.VectorEntityDoc{
			{Entity: "doc", HasHash: true, Member: true, HashTemplate: "{tenant_id}", ProjectedBytes: 120, WriteBytesPerItem: 4216},
		},
		WriteBytesPerSecond: model.Ptr(total), HotHashWriteBytesPerSecond: model.Ptr(total / float64(values)), HotHashEntities: []string{"doc"},
	}
}

// TestTextShowsEachVectorIndex: each vector index with its HASH values, members, the busiest value's vector
// writes against the 10 MB/s (10,485,760 bytes) a value takes, and what its searches return against the
// 1 GB/s (1,073,741,824 bytes). Figures by hand:
//   - by_tenant: 600 writes/s × 4,216 bytes = 2,529,600 bytes/s (2.4 MB/s) over 5,000 tenants, 505.92 a
//     value (<0.1%); 2,529,600 / (10,485,760 × 0.8) = 0.30, so 1 value would do. Its search returns
//     10 × 120 = 1,200 bytes, at 20/s 24,000 bytes/s.
//   - by_flag: 5,000 writes/s × 4,216 = 21,080,000 bytes/s (20.1 MB/s) over 2 values, 10,540,000 on one
//     (10.1 MB/s, 100.5% of a value); 21,080,000 / 8,388,608 = 2.51, so 3 values.
//   - by_title: no HASH, no entity lists its vector, dimensions known only after apply.
func TestTextShowsEachVectorIndex(t *testing.T) {
	t.Parallel()
	doc := sharded()
	tenants := vectorIndex("by_tenant", 5000, 600)
	tenants.Entities = append(tenants.Entities, model.VectorEntityDoc{Entity: "note", Path: model.Path{"entities", "note"}})
	tenants.HashValuesNeeded = model.Ptr(int64(1))
	tenants.Searches = []model.VectorSearchDoc{{Pattern: "similar", TopK: model.Ptr(int64(10)), HashGiven: true, ProjectedItemBytes: 120,
		ResponseBytes: model.Ptr(int64(1200)), ReadsPerSecond: model.Ptr(20.0)}}
	flag := vectorIndex("by_flag", 2, 5000)
	flag.HashValuesNeeded = model.Ptr(int64(3))
	title := model.VectorIndexDoc{Name: "by_title", VectorAttribute: "title_embedding", DistanceFunction: "DOT_PRODUCT", ProjectionType: "ALL",
		HashValues: model.Ptr(int64(1)), HashValuesBasis: "no_hash"}
	doc.Derived.VectorIndexes = []model.VectorIndexDoc{flag, tenants, title}
	want := "\nVector indexes (a HASH value takes 10.0 MB/s of vector writes and 1.00 GB/s of search)\n" +
		"  by_flag: embedding, 1,024 dimensions (4,096 bytes a vector), COSINE, KEYS_ONLY, HASH tenant_id (S)\n" +
		"    HASH values: 2 (from the members' templates); members: doc ({tenant_id})\n" +
		"    vector writes of the busiest value: 10.1 MB/s, by doc (100.5% of a value's 10.0 MB/s)\n" +
		"    vector writes in all: 20.1 MB/s, which need 3 evenly used value(s) at 80% utilisation\n" +
		"  by_tenant: embedding, 1,024 dimensions (4,096 bytes a vector), COSINE, KEYS_ONLY, HASH tenant_id (S)\n" +
		"    HASH values: 5,000 (from the members' templates); members: doc ({tenant_id}); never indexed (no HASH attribute): note\n" +
		"    vector writes of the busiest value: 505.9 bytes/s, by doc (<0.1% of a value's 10.0 MB/s)\n" +
		"    vector writes in all: 2.4 MB/s, which need 1 evenly used value(s) at 80% utilisation\n" +
		"    search similar: top_k 10, up to 1,200 bytes a response; at 20/s it returns 24,000 bytes/s " +
		"(<0.1% of a value's 1.00 GB/s; the bytes it examines, which that limit counts, are more)\n" +
		"  by_title: title_embedding, dimensions not known, DOT_PRODUCT, ALL, no HASH (the whole index is one value)\n" +
		"    HASH values: 1 (no HASH); members not known (no entity lists the vector attribute)\n" +
		"    vector writes of the busiest value: not known (give the members' writes_per_second and the HASH a template)\n"
	got := Text(doc, nil)
	if !strings.Contains(got, want) {
		t.Errorf("report lacks the vector section:\n%s\nwant:\n%s", got, want)
	}
	if text := Text(sharded(), nil); strings.Contains(text, "Vector indexes") {
		t.Errorf("a design without vector indexes has the section:\n%s", text)
	}
}
