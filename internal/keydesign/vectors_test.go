package keydesign

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A vector search is analysed by the vectors stage, not matched with the table's keys: the Document states it
// under derived.vector_indexes and nowhere in the access patterns (no Scan finding for a search).
func TestVectorSearchesLeaveThePatterns(t *testing.T) {
	t.Parallel()
	in := &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: model.Ptr("DOC#{doc_id}")},
		Segments:     map[string]model.Segment{"doc_id": {Kind: model.KindID}, "tenant_id": {Kind: model.KindID, Cardinality: model.Ptr(int64(100))}},
		Traffic:      model.Traffic{WritesPerSecond: model.Ptr(10.0)},
		VectorIndexes: []model.VectorIndex{{Name: "by_embedding", VectorAttribute: "embedding", Dimensions: model.Ptr(int64(8)),
			DistanceFunction: model.DistanceCosine, PartitionKey: &model.IndexKeyAttribute{Name: "tenant_id", Type: "S"}}},
		AccessPatterns: []model.AccessPattern{
			{Name: "by_id", Equals: []string{"doc_id"}},
			{Name: "similar", Equals: []string{"tenant_id"}, VectorSearch: &model.VectorSearch{Index: "by_embedding", TopK: model.Ptr(int64(5))}},
		},
	}
	doc, errs := Analyze(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(doc.AccessPatterns) != 1 || len(doc.Derived.AccessPatterns) != 1 || doc.AccessPatterns[0].Name != "by_id" {
		t.Errorf("patterns %+v", doc.AccessPatterns)
	}
	v := doc.Derived.VectorIndexes
	// Without entities the table's item carries the vector and, as the segment says, the tenant: 100 values,
	// 10 writes of 32 + 1,024 bytes a second, a hundredth on the busiest.
	if len(v) != 1 || model.Deref(v[0].HashValues) != 100 || math.Abs(model.Deref(v[0].HotHashWriteBytesPerSecond)-105.6) > 1e-9 ||
		len(v[0].Searches) != 1 || !v[0].Searches[0].HashGiven {
		t.Fatalf("vector indexes %+v", v)
	}
	raw, err := json.Marshal(doc)
	if err != nil || !strings.Contains(string(raw), `"vector_indexes":[{"name":"by_embedding"`) {
		t.Errorf("document JSON %s, %v", raw, err)
	}
	// Without vector indexes the Document has none, as before.
	in.VectorIndexes, in.AccessPatterns = nil, in.AccessPatterns[:1]
	doc, _ = Analyze(in)
	if raw, _ := json.Marshal(doc); strings.Contains(string(raw), "vector_indexes") {
		t.Error("vector_indexes stated without vector indexes")
	}
}
