package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// TestAccCostWriteUnitsMatchConsumedCapacity puts generated items into a table with an ALL GSI, a KEYS_ONLY
// GSI and an ALL LSI, asks each server for ReturnConsumedCapacity = INDEXES, and compares the units it
// reports for the table and each index with the cost model's units per write. A server that reports no
// index figures is said so in the log, and only its table units are compared.
func TestAccCostWriteUnitsMatchConsumedCapacity(t *testing.T) {
	forEachServer(t, checkConsumedWriteUnits)
}

// checkConsumedWriteUnits is TestAccCostWriteUnitsMatchConsumedCapacity on one server.
func checkConsumedWriteUnits(t *testing.T, server testServer) {
	t.Helper()
	{
		ctx := t.Context()
		api, err := dynamo.NewClient(dynamo.Config{Region: "us-east-1", Endpoint: server.endpoint, AccessKey: "test", SecretKey: "test"}).API(ctx)
		if err != nil {
			t.Fatal(err)
		}
		table := "cost-units-" + strings.ReplaceAll(t.Name(), "/", "-")
		s := func(name string) types.AttributeDefinition {
			return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
		}
		key := func(pk, sk string) []types.KeySchemaElement {
			return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
		}
		_, err = api.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("day"), s("status"), s("updated")},
			KeySchema:            key("pk", "sk"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
				{IndexName: aws.String("by_date"), KeySchema: key("day", "sk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
				{IndexName: aws.String("by_status"), KeySchema: key("status", "sk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			},
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{
				{IndexName: aws.String("by_updated"), KeySchema: key("pk", "updated"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		reportsIndexes := false
		// Sizes around the 1 KB boundaries, where a 100-byte entry overhead or a rounding difference shows.
		for i, size := range []int{200, 900, 1000, 1024, 1025, 1100, 2000, 2048, 2049, 3000, 5000, 10240} {
			item, itemBytes := generatedItem(i, size)
			out, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				t.Fatalf("put of %d bytes: %v", itemBytes, err)
			}
			want := modelUnits(t, itemBytes)
			cc := out.ConsumedCapacity
			if cc == nil || cc.Table == nil || cc.Table.CapacityUnits == nil {
				t.Logf("%s reports no table capacity for a %d-byte item: %+v", server.kind, itemBytes, cc)
				continue
			}
			if got := *cc.Table.CapacityUnits; got != want["table"] {
				t.Errorf("%d-byte item: %s reports %v table write units, the cost model %v", itemBytes, server.kind, got, want["table"])
			}
			for name, c := range cc.GlobalSecondaryIndexes {
				reportsIndexes = true
				if c.CapacityUnits != nil && *c.CapacityUnits != want[name] {
					t.Errorf("%d-byte item: %s reports %v write units for GSI %s, the cost model %v", itemBytes, server.kind, *c.CapacityUnits, name, want[name])
				}
			}
			for name, c := range cc.LocalSecondaryIndexes {
				reportsIndexes = true
				if server.kind == localddb.Dynoxide && c.CapacityUnits != nil && *c.CapacityUnits != want[name] {
					// dynoxide leaves out the LSI entry's 100-byte overhead that DynamoDB Local counts; the model
					// follows AWS's emulator.
					t.Logf("%d-byte item: dynoxide reports %v write units for LSI %s, the cost model (as DynamoDB Local) %v", itemBytes, *c.CapacityUnits, name, want[name])
					continue
				}
				if c.CapacityUnits != nil && *c.CapacityUnits != want[name] {
					t.Errorf("%d-byte item: %s reports %v write units for LSI %s, the cost model %v", itemBytes, server.kind, *c.CapacityUnits, name, want[name])
				}
			}
		}
		t.Logf("%s reports index write units with ReturnConsumedCapacity=INDEXES: %v", server.kind, reportsIndexes)
		if !reportsIndexes {
			t.Errorf("%s reported no index write units: both servers of the matrix did when this test was written", server.kind)
		}
	}
}

// generatedItem is an item of exactly size bytes as DynamoDB counts them (every attribute's name plus its
// UTF-8 string value), padded by a payload attribute.
func generatedItem(i, size int) (map[string]types.AttributeValue, int64) {
	attrs := map[string]string{
		"pk": fmt.Sprintf("CUSTOMER#%04d", i), "sk": fmt.Sprintf("ORDER#%04d", i), "day": "2026-12-01",
		"status": "pending", "updated": fmt.Sprintf("2026-12-01T00:00:%02d", i%60),
	}
	n := 0
	for k, v := range attrs {
		n += len(k) + len(v)
	}
	attrs["payload"] = strings.Repeat("x", max(1, size-n-len("payload")))
	item := map[string]types.AttributeValue{}
	total := int64(0)
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
		total += int64(len(k) + len(v))
	}
	return item, total
}

// modelUnits are the cost model's write units per write of the test table's design for an item size.
func modelUnits(t *testing.T, itemBytes int64) map[string]float64 {
	t.Helper()
	in := &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: aws.String("CUSTOMER#{customer}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: aws.String("ORDER#{order}")},
		Segments: map[string]model.Segment{"customer": {Kind: model.KindID, MaxLength: aws.Int64(4)},
			"order": {Kind: model.KindID, MaxLength: aws.Int64(4)}},
		Traffic: model.Traffic{WritesPerSecond: aws.Float64(1), ItemSizeBytes: aws.Int64(itemBytes)},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "by_date", PartitionKey: []model.IndexKeyAttribute{{Name: "day", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "sk", Type: "S"}}, ProjectionType: model.ProjectionAll},
			{Name: "by_status", PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "sk", Type: "S"}}, ProjectionType: model.ProjectionKeysOnly},
		},
		LocalSecondaryIndexes: []model.LocalSecondaryIndex{{Name: "by_updated", SortKey: model.IndexKeyAttribute{Name: "updated", Type: "S"}, ProjectionType: model.ProjectionAll}},
	}
	doc, errs := keydesign.Analyze(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := map[string]float64{"table": doc.Derived.Capacity.WriteUnitsPerWrite}
	for _, ic := range doc.Derived.Cost.Indexes {
		out[ic.Name] = ic.WriteUnitsPerWrite
	}
	return out
}
