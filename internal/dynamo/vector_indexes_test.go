package dynamo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func vectorTable() Table {
	return Table{
		Name: "docs", BillingMode: BillingPayPerRequest,
		PartitionKey: KeyAttribute{Name: "pk", Type: "S"},
		GSIs:         []Index{{Name: "by_owner", PartitionKey: []KeyAttribute{{Name: "owner", Type: "S"}}}},
		VectorIndexes: []VectorIndex{{Name: "by_embedding", VectorAttribute: "embedding", Dimensions: 4, DistanceFunction: "COSINE",
			PartitionKey: &KeyAttribute{Name: "tenant_id", Type: "S"}, InlineFilters: []KeyAttribute{{Name: "category", Type: "S"}, {Name: "year", Type: "N"}},
			ProjectionType: "INCLUDE", NonKeyAttributes: []string{"title"}}},
	}
}

func TestCreateTableSendsVectorIndexesAndDefinesTheirSearchAttributes(t *testing.T) {
	in := expandCreateTable(vectorTable())
	var defs []string
	for _, d := range in.AttributeDefinitions {
		defs = append(defs, aws.ToString(d.AttributeName)+":"+string(d.AttributeType))
	}
	if got := strings.Join(defs, ","); got != "category:S,owner:S,pk:S,tenant_id:S,year:N" {
		t.Errorf("attribute definitions = %s: the HASH and inline filters are defined with their types, the vector attribute never", got)
	}
	if len(in.VectorIndexes) != 1 {
		t.Fatalf("vector indexes = %+v", in.VectorIndexes)
	}
	v := in.VectorIndexes[0]
	if aws.ToString(v.IndexName) != "by_embedding" || aws.ToString(v.VectorAttribute.AttributeName) != "embedding" || aws.ToInt64(v.Dimensions) != 4 ||
		v.DistanceFunction != types.VectorDistanceFunctionCosine || v.Projection.ProjectionType != types.ProjectionTypeInclude ||
		!slices.Equal(v.Projection.NonKeyAttributes, []string{"title"}) {
		t.Errorf("vector index = %+v", v)
	}
	var schema []string
	for _, e := range v.SearchSchema {
		schema = append(schema, aws.ToString(e.AttributeName)+":"+string(e.SearchSchemaElementType))
	}
	if got := strings.Join(schema, ","); got != "tenant_id:HASH,category:INLINE_FILTER,year:INLINE_FILTER" {
		t.Errorf("search schema = %s", got)
	}
	plain := vectorTable()
	plain.VectorIndexes[0].PartitionKey, plain.VectorIndexes[0].InlineFilters, plain.VectorIndexes[0].ProjectionType = nil, nil, "KEYS_ONLY"
	plain.VectorIndexes[0].NonKeyAttributes = nil
	if x := expandCreateTable(plain).VectorIndexes[0]; x.SearchSchema != nil || x.Projection.NonKeyAttributes != nil {
		t.Errorf("an index searched as a whole sends no search schema: %+v", x)
	}
}

func TestFlattenReadsVectorIndexesWithTheirAttributeTypes(t *testing.T) {
	d := &types.TableDescription{TableName: aws.String("docs"), TableStatus: types.TableStatusActive,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("tenant_id"), AttributeType: "B"}, {AttributeName: aws.String("year"), AttributeType: "N"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		VectorIndexes: []types.VectorIndexDescription{{IndexName: aws.String("by_embedding"), Dimensions: aws.Int64(1024),
			DistanceFunction: types.VectorDistanceFunctionEuclidean, VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("embedding")},
			Projection:   &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			SearchSchema: []types.SearchSchemaElement{{AttributeName: aws.String("year"), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter}, {AttributeName: aws.String("tenant_id"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}},
			IndexStatus:  types.IndexStatusCreating, Backfilling: aws.Bool(true), ItemCount: aws.Int64(7), IndexSizeBytes: aws.Int64(99)}},
	}
	got := flattenTable(d).VectorIndexes
	want := []VectorIndex{{Name: "by_embedding", VectorAttribute: "embedding", Dimensions: 1024, DistanceFunction: "EUCLIDEAN",
		PartitionKey: &KeyAttribute{Name: "tenant_id", Type: "B"}, InlineFilters: []KeyAttribute{{Name: "year", Type: "N"}},
		ProjectionType: "KEYS_ONLY", Status: "CREATING", Backfilling: true}}
	if len(got) != 1 || !sameVectorIndex(got[0], want[0]) || got[0].Status != "CREATING" || !got[0].Backfilling {
		t.Errorf("flattened = %+v, want %+v", got, want)
	}
	if indexesSettled(Table{VectorIndexes: got}) {
		t.Error("an index still backfilling is not ready")
	}
	got[0].Status, got[0].Backfilling = "ACTIVE", false
	if !indexesSettled(Table{VectorIndexes: got}) {
		t.Error("an ACTIVE index done backfilling is ready")
	}
}

func TestDiffVectorIndexesRebuildsAChangedIndexAndKeepsTheRest(t *testing.T) {
	old := vectorTable()
	old.VectorIndexes = append(old.VectorIndexes, VectorIndex{Name: "gone", VectorAttribute: "embedding", Dimensions: 4, DistanceFunction: "COSINE"})
	want := vectorTable()
	// The same filters in another order, and ALL given and defaulted: no change.
	want.VectorIndexes[0].InlineFilters = []KeyAttribute{{Name: "year", Type: "N"}, {Name: "category", Type: "S"}}
	want.VectorIndexes[0].ProjectionType = ""
	old.VectorIndexes[0].ProjectionType, old.VectorIndexes[0].NonKeyAttributes = "ALL", nil
	want.VectorIndexes[0].NonKeyAttributes = nil
	if deletes, creates := diffVectorIndexes(old, want); len(creates) != 0 || len(deletes) != 1 || deletes[0].Name != "gone" {
		t.Errorf("deletes %+v creates %+v: only the removed index goes; order of filters and a defaulted projection are no change", deletes, creates)
	}
	for name, change := range map[string]func(v *VectorIndex){
		"dimensions":        func(v *VectorIndex) { v.Dimensions = 8 },
		"distance function": func(v *VectorIndex) { v.DistanceFunction = "DOT_PRODUCT" },
		"vector attribute":  func(v *VectorIndex) { v.VectorAttribute = "other" },
		"HASH removed":      func(v *VectorIndex) { v.PartitionKey = nil },
		"HASH type":         func(v *VectorIndex) { v.PartitionKey = &KeyAttribute{Name: "tenant_id", Type: "N"} },
		"inline filter":     func(v *VectorIndex) { v.InlineFilters = v.InlineFilters[:1] },
		"projection":        func(v *VectorIndex) { v.ProjectionType = "KEYS_ONLY" },
	} {
		changed := vectorTable()
		change(&changed.VectorIndexes[0])
		deletes, creates := diffVectorIndexes(vectorTable(), changed)
		if len(deletes) != 1 || len(creates) != 1 || deletes[0].Name != "by_embedding" || creates[0].Name != "by_embedding" {
			t.Errorf("%s: deletes %+v creates %+v, want the index deleted and created again under its name", name, deletes, creates)
		}
	}
}

// vectorFake is a DynamoDB endpoint that keeps one table's indexes as DynamoDB does: an index created on a
// live table is CREATING and backfilling for a few DescribeTable calls, a deleted one DELETING for one, and
// a second index create or delete while one is in progress is refused with LimitExceededException.
type vectorFake struct {
	mu      sync.Mutex
	actions []string
	defs    map[string][]string // the AttributeDefinitions each create sent
	gsis    map[string]int      // name -> describes left until ACTIVE
	vectors map[string]int
	gone    map[string]int // name -> describes left until gone
}

func (f *vectorFake) busy() bool {
	for _, m := range []map[string]int{f.gsis, f.vectors, f.gone} {
		for _, left := range m {
			if left > 0 {
				return true
			}
		}
	}
	return false
}

func (f *vectorFake) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	var in struct {
		AttributeDefinitions []struct{ AttributeName, AttributeType string }
		VectorIndexUpdates   []struct {
			Create *struct{ IndexName string }
			Delete *struct{ IndexName string }
		}
		GlobalSecondaryIndexUpdates []struct {
			Create *struct{ IndexName string }
			Delete *struct{ IndexName string }
		}
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	switch strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.") {
	case "UpdateTable":
		if f.busy() {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprint(w, `{"__type":"com.amazonaws.dynamodb.v20120810#LimitExceededException","message":"Only 1 online index can be created or deleted simultaneously per table"}`)
			return
		}
		var defs []string
		for _, d := range in.AttributeDefinitions {
			defs = append(defs, d.AttributeName+":"+d.AttributeType)
		}
		for _, u := range in.VectorIndexUpdates {
			if u.Create != nil {
				f.actions = append(f.actions, "create vector "+u.Create.IndexName)
				f.vectors[u.Create.IndexName], f.defs[u.Create.IndexName] = 2, defs
			}
			if u.Delete != nil {
				f.actions = append(f.actions, "delete vector "+u.Delete.IndexName)
				delete(f.vectors, u.Delete.IndexName)
				f.gone[u.Delete.IndexName] = 1
			}
		}
		for _, u := range in.GlobalSecondaryIndexUpdates {
			if u.Create != nil {
				f.actions = append(f.actions, "create GSI "+u.Create.IndexName)
				f.gsis[u.Create.IndexName], f.defs[u.Create.IndexName] = 1, defs
			}
		}
		_, _ = fmt.Fprint(w, `{}`)
	case "DescribeTable":
		var vectors, gsis []string
		for name, left := range f.vectors {
			status := `"IndexStatus":"ACTIVE"`
			if left > 0 {
				status = `"IndexStatus":"CREATING","Backfilling":true`
				f.vectors[name]--
			}
			vectors = append(vectors, fmt.Sprintf(`{"IndexName":%q,"Dimensions":4,"DistanceFunction":"COSINE","VectorAttribute":{"AttributeName":"embedding"},%s}`, name, status))
		}
		for name, left := range f.gone {
			if left > 0 {
				vectors = append(vectors, fmt.Sprintf(`{"IndexName":%q,"IndexStatus":"DELETING"}`, name))
				f.gone[name]--
			}
		}
		for name, left := range f.gsis {
			status := "ACTIVE"
			if left > 0 {
				status = "CREATING"
				f.gsis[name]--
			}
			gsis = append(gsis, fmt.Sprintf(`{"IndexName":%q,"IndexStatus":%q}`, name, status))
		}
		_, _ = fmt.Fprintf(w, `{"Table":{"TableName":"docs","TableStatus":"ACTIVE","VectorIndexes":[%s],"GlobalSecondaryIndexes":[%s]}}`,
			strings.Join(vectors, ","), strings.Join(gsis, ","))
	default:
		_, _ = fmt.Fprint(w, `{}`)
	}
}

// TestUpdateTableBuildsOneIndexAtATime: a changed vector index is deleted and created again under its name,
// after the GSI the same apply adds, and before the new vector index; no call is made while an index is still
// building or backfilling, which DynamoDB refuses.
func TestUpdateTableBuildsOneIndexAtATime(t *testing.T) {
	f := &vectorFake{defs: map[string][]string{}, gsis: map[string]int{"by_owner": 0}, vectors: map[string]int{"by_embedding": 0}, gone: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	var sleeps []time.Duration
	zero := 0
	c := NewClient(Config{Region: "us-east-1", Endpoint: srv.URL, AccessKey: "a", SecretKey: "b", MaxRetries: &zero, Polling: recordingPolling(&sleeps)})

	old, want := vectorTable(), vectorTable()
	want.VectorIndexes[0].Dimensions = 8
	want.VectorIndexes = append(want.VectorIndexes, VectorIndex{Name: "by_summary", VectorAttribute: "summary_vector", Dimensions: 4,
		DistanceFunction: "DOT_PRODUCT", PartitionKey: &KeyAttribute{Name: "region", Type: "S"}})
	want.GSIs = append(want.GSIs, Index{Name: "by_status", PartitionKey: []KeyAttribute{{Name: "status", Type: "S"}}})
	if _, _, err := c.UpdateTable(t.Context(), old, want); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.actions, ", "); got != "delete vector by_embedding, create GSI by_status, create vector by_embedding, create vector by_summary" {
		t.Errorf("index calls: %s", got)
	}
	if got := strings.Join(f.defs["by_summary"], ","); got != "category:S,owner:S,pk:S,region:S,status:S,tenant_id:S,year:N" {
		t.Errorf("definitions of the last create = %s: the table's keys and every index's search attributes as that call leaves it, no vector attribute", got)
	}
	if got := strings.Join(f.defs["by_status"], ","); got != "owner:S,pk:S,status:S" {
		t.Errorf("definitions of the GSI create = %s: only what exists after that call", got)
	}
}

// TestCreateTableFailsWhenTheEndpointIgnoresVectorIndexes: a store without vector search (DynamoDB Local
// answers so) creates the table and drops VectorIndexes without an error; CreateTable says so, with the table
// it created, instead of a state that shows indexes the table lacks.
func TestCreateTableFailsWhenTheEndpointIgnoresVectorIndexes(t *testing.T) {
	var sleeps []time.Duration
	c, _ := newFakeDynamoDB(t, func(op string, _ int) (int, string) {
		switch op {
		case "CreateTable":
			return http.StatusOK, `{"TableDescription":{"TableName":"docs","TableStatus":"ACTIVE"}}`
		case "DescribeTable":
			return http.StatusOK, `{"Table":{"TableName":"docs","TableStatus":"ACTIVE"}}`
		}
		return http.StatusOK, `{}`
	}, recordingPolling(&sleeps))
	created, warnings, err := c.CreateTable(t.Context(), vectorTable())
	if created == nil || len(warnings) > 0 || err == nil || !strings.Contains(err.Error(), "created table docs without its vector indexes by_embedding") {
		t.Errorf("created %+v, warnings %v, err %v; want the table and an error naming the missing index", created, warnings, err)
	}
}
