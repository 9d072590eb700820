package policy

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// vectorPlanRules are the vector rules the plan adapter can judge on aws_dynamodb_vector_index without
// templates or traffic: billing mode, count, dimensions, a HASH that is the table's only key.
var vectorPlanRules = map[string]bool{"DK504": true, "DK505": true, "DK506": true, "DK509": true}

// TestVectorPlanParity: conftest on the AWS provider's plan with aws_dynamodb_vector_index creates
// (aws_vector_create.json) reports, for each table and the vector indexes joined to it, the vector rule ids
// the engine reports on the dynamokeys design of the same table (what dynamokeys_sharded_table and
// dynamokeys_keydesign evaluate), where both can judge.
func TestVectorPlanParity(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "plans", "aws_vector_create.json"))
	if err != nil {
		t.Fatal(err)
	}
	deny, warn, err := EvaluatePlan(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	// The table each address of the plan belongs to.
	tables := map[string]string{"aws_dynamodb_table.docs": "docs", "aws_dynamodb_vector_index.docs_by_tenant": "docs",
		"aws_dynamodb_table.notes": "notes", "aws_dynamodb_vector_index.notes_by_note": "notes", "aws_dynamodb_table.media": "media"}
	for i := 1; i <= 6; i++ {
		tables["aws_dynamodb_vector_index.media_v"+strconv.Itoa(i)] = "media"
	}
	fromPlan := map[string][]string{}
	for _, r := range slices.Concat(deny, warn) {
		if table := tables[r.Address]; table != "" && vectorPlanRules[r.Rule] {
			fromPlan[table] = append(fromPlan[table], r.Rule+" "+indexOf(r.Address))
		}
	}
	for name, in := range vectorDesigns() {
		findings, err := e.Evaluate(t.Context(), analyzed(t, in))
		if err != nil {
			t.Fatal(err)
		}
		var fromDesign []string
		for _, f := range findings {
			if !vectorPlanRules[f.Rule] {
				continue
			}
			where := ""
			if len(f.Path) > 1 && f.Path[0] == "vector_indexes" {
				where = f.Path[1]
			}
			fromDesign = append(fromDesign, f.Rule+" "+where)
		}
		slices.Sort(fromDesign)
		slices.Sort(fromPlan[name])
		if !slices.Equal(fromDesign, fromPlan[name]) {
			t.Errorf("%s: the design reports %q, conftest on the plan %q", name, fromDesign, fromPlan[name])
		}
	}
	// Between them the tables fire every rule the plan can judge: the comparison is not of empty lists.
	fired := map[string]bool{}
	for _, ids := range fromPlan {
		for _, id := range ids {
			fired[strings.Fields(id)[0]] = true
		}
	}
	if !maps.Equal(fired, vectorPlanRules) {
		t.Errorf("conftest fired %v, want each of %v", slices.Sorted(maps.Keys(fired)), slices.Sorted(maps.Keys(vectorPlanRules)))
	}
}

// indexOf is the index name of a vector index resource of the fixture (its name after the table's prefix),
// "" for a table.
func indexOf(address string) string {
	name, ok := strings.CutPrefix(address, "aws_dynamodb_vector_index.")
	if !ok {
		return ""
	}
	return name[strings.IndexByte(name, '_')+1:]
}

// vectorDesigns are the fixture's tables as dynamokeys designs: the same keys, billing mode and vector
// indexes, with the templates a design gives (an id per item where the table's key is one).
func vectorDesigns() map[string]*model.Input {
	dims := func(n int64) *int64 { return &n }
	tmpl := func(s string) *string { return &s }
	id := map[string]model.Segment{"id": {Kind: model.KindID}, "part": {Kind: model.KindID}}
	index := func(name, attribute string, dimensions int64, hash string) model.VectorIndex {
		v := model.VectorIndex{Name: name, VectorAttribute: attribute, Dimensions: dims(dimensions), DistanceFunction: "COSINE", ProjectionType: "KEYS_ONLY"}
		if hash != "" {
			v.PartitionKey = &model.IndexKeyAttribute{Name: hash, Type: "S"}
		}
		return v
	}
	media := &model.Input{Kind: "sharded_table", TableName: "media", BillingMode: "PAY_PER_REQUEST", Segments: id,
		PartitionKey: model.Key{Name: "mediaId", Type: "S", Template: tmpl("M#{id}")}, SortKey: &model.Key{Name: "part", Type: "S", Template: tmpl("{part}")}}
	for i, v := range []struct {
		attribute  string
		dimensions int64
	}{{"embedding", 1024}, {"embedding", 1536}, {"thumbnail", 8192}, {"caption", 512}, {"audio", 256}, {"transcript", 768}} {
		media.VectorIndexes = append(media.VectorIndexes, index("v"+strconv.Itoa(i+1), v.attribute, v.dimensions, ""))
	}
	return map[string]*model.Input{
		"docs": {Kind: "sharded_table", TableName: "docs", BillingMode: "PAY_PER_REQUEST", Segments: map[string]model.Segment{
			"tenant": {Kind: model.KindID}, "id": {Kind: model.KindID},
		}, PartitionKey: model.Key{Name: "tenantId", Type: "S", Template: tmpl("T#{tenant}")}, SortKey: &model.Key{Name: "docId", Type: "S", Template: tmpl("{id}")},
			VectorIndexes: []model.VectorIndex{index("by_tenant", "embedding", 1024, "tenantId")}},
		"notes": {Kind: "sharded_table", TableName: "notes", BillingMode: "PROVISIONED", ReadCapacity: dims(10), WriteCapacity: dims(10), Segments: id,
			PartitionKey: model.Key{Name: "noteId", Type: "S", Template: tmpl("N#{id}")}, VectorIndexes: []model.VectorIndex{index("by_note", "embedding", 256, "noteId")}},
		"media": media,
	}
}
