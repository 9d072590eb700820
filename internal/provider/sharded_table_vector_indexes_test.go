package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

// The vector indexes of the lifecycle test. byEmbedding has every part of an index: a HASH, inline filters
// of two types and an INCLUDE projection.
const (
	byEmbedding = `by_embedding = {
      vector_attribute   = "embedding"
      dimensions         = %d
      distance_function  = "COSINE"
      partition_key      = { name = "tenant_id" }
      inline_filters     = [{ name = "category" }, { name = "year", type = "N" }]
      projection_type    = "INCLUDE"
      non_key_attributes = ["title"]
    }`
	bySummary = `by_summary = { vector_attribute = "summary_vector", dimensions = 8, distance_function = "EUCLIDEAN", projection_type = "KEYS_ONLY" }`
)

// vectorIndexesTable is the small table with the given vector indexes and extra attributes.
func vectorIndexesTable(endpoint, name string, indexes []string, extra ...string) string {
	return providerBlock(endpoint) + smallTableResource(name, fmt.Sprintf("deletion_protection = false\n  vector_indexes = {\n    %s\n  }\n  %s",
		strings.Join(indexes, "\n    "), strings.Join(extra, "\n  ")))
}

// TestAccShardedTableVectorIndexes drives the vector indexes of one table through their lifecycle with the
// real CLI: created with the table, one changed (deleted and created again under its name, the table kept)
// while another is added to the live table, one deleted, import, a provisioned table refused before any call,
// and an index deleted outside Terraform, which the plan creates again. terraform-plugin-testing plans again after every
// apply and fails on any change, so each step also shows that a refresh reads the indexes back as configured.
// It runs on dynoxide only: DynamoDB Local and dynalite have no vector indexes. Both create a table and drop
// its VectorIndexes without an error, report none in DescribeTable, and refuse an UpdateTable that carries only
// VectorIndexUpdates (a ValidationException: "Nothing to update", and a list of the updates dynalite knows).
// TestAccShardedTableVectorIndexesWithoutEndpointSupport shows what the resource makes of that.
func TestAccShardedTableVectorIndexes(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "vector-docs"
	created := &tableCreation{}
	embedding := func(dimensions int) string { return fmt.Sprintf(byEmbedding, dimensions) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: vectorIndexesTable(endpoint, name, []string{embedding(4)}),
				Check: resource.ComposeAggregateTestCheckFunc(created.record(api, name),
					checkVectorIndexes(api, name, map[string]string{"by_embedding": "embedding 4 COSINE HASH tenant_id INLINE_FILTER category INLINE_FILTER year INCLUDE title"}),
					checkAttributeDefinitions(api, name, "category:S pk:S sk:S tenant_id:S year:N")),
			},
			{
				// A changed index is an in-place update of its entry: the index is deleted and created again
				// under its name. Another is added. The table stays the one step 1 created.
				Config: vectorIndexesTable(endpoint, name, []string{embedding(16), bySummary}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("vector_indexes").AtMapKey("by_embedding").AtMapKey("dimensions"), knownvalue.Int64Exact(16)),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(created.unchanged(api, name, "pk", "sk"),
					checkVectorIndexes(api, name, map[string]string{
						"by_embedding": "embedding 16 COSINE HASH tenant_id INLINE_FILTER category INLINE_FILTER year INCLUDE title",
						"by_summary":   "summary_vector 8 EUCLIDEAN KEYS_ONLY",
					})),
			},
			{
				Config: vectorIndexesTable(endpoint, name, []string{embedding(16)}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(created.unchanged(api, name, "pk", "sk"),
					checkVectorIndexes(api, name, map[string]string{"by_embedding": "embedding 16 COSINE HASH tenant_id INLINE_FILTER category INLINE_FILTER year INCLUDE title"})),
			},
			{
				ResourceName: smallAddress, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: smallTableMetadata,
			},
			{
				// With enforce = false, rule DK504 only warns; DynamoDB refuses the switch, and so does the apply,
				// before any call (the next step finds the table on demand).
				Config: vectorIndexesTable(endpoint, name, []string{embedding(16)}, `enforce = false
  billing_mode = "PROVISIONED"
  read_capacity = 1
  write_capacity = 1`),
				ExpectError: expectError(`Vector indexes need an on-demand table.*Nothing was changed`),
			},
			{
				// Deleted outside Terraform: the refresh drops it, and the plan creates it again (with the code
				// that step 2 applied).
				PreConfig: func() {
					if err := checkTable(api, name, nil, nil, "PAY_PER_REQUEST")(nil); err != nil {
						t.Error(err)
					}
					if _, err := api.UpdateTable(t.Context(), &dynamodb.UpdateTableInput{TableName: aws.String(name),
						VectorIndexUpdates: []dtypes.VectorIndexUpdate{{Delete: &dtypes.DeleteVectorIndexAction{IndexName: aws.String("by_embedding")}}}}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             vectorIndexesTable(endpoint, name, []string{embedding(16)}),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("vector_indexes").AtMapKey("by_embedding").AtMapKey("vector_attribute"), knownvalue.StringExact("embedding")),
					refreshedWithout{address: smallAddress, index: "by_embedding"},
				}},
			},
		},
	})
}

// refreshedWithout checks that the plan's prior value of the resource (the refreshed state) has no vector
// index of that name: the refresh read the table as it is.
type refreshedWithout struct{ address, index string }

func (c refreshedWithout) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.address {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		if indexes, _ := before["vector_indexes"].(map[string]any); indexes[c.index] != nil {
			resp.Error = fmt.Errorf("the refreshed state of %s still has vector index %s", c.address, c.index)
		}
		return
	}
	resp.Error = fmt.Errorf("no change of %s in the plan", c.address)
}

// checkVectorIndexes compares the live table's vector indexes, each written as "vector-attribute dimensions
// distance [HASH name] [INLINE_FILTER name]... projection [attribute]...", and checks that each is ready
// (ACTIVE, not backfilling).
func checkVectorIndexes(api *dynamodb.Client, name string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		got := map[string]string{}
		for _, v := range table.VectorIndexes {
			if v.IndexStatus != dtypes.IndexStatusActive || aws.ToBool(v.Backfilling) {
				return fmt.Errorf("vector index %s is %s (backfilling %v) after the apply", aws.ToString(v.IndexName), v.IndexStatus, aws.ToBool(v.Backfilling))
			}
			parts := []string{aws.ToString(v.VectorAttribute.AttributeName), fmt.Sprint(aws.ToInt64(v.Dimensions)), string(v.DistanceFunction)}
			for _, e := range v.SearchSchema {
				parts = append(parts, string(e.SearchSchemaElementType), aws.ToString(e.AttributeName))
			}
			parts = append(parts, string(v.Projection.ProjectionType))
			got[aws.ToString(v.IndexName)] = strings.Join(append(parts, v.Projection.NonKeyAttributes...), " ")
		}
		if !maps.Equal(got, want) {
			return fmt.Errorf("vector indexes of %s = %v, want %v", name, got, want)
		}
		return nil
	}
}

// checkAttributeDefinitions compares the table's attribute definitions, written "name:type" in name order.
func checkAttributeDefinitions(api *dynamodb.Client, name, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		var got []string
		for _, d := range table.AttributeDefinitions {
			got = append(got, aws.ToString(d.AttributeName)+":"+string(d.AttributeType))
		}
		if slices.Sort(got); strings.Join(got, " ") != want {
			return fmt.Errorf("attribute definitions of %s = %v, want %s", name, got, want)
		}
		return nil
	}
}

// TestAccListReadsVectorIndexes: the list resource (terraform query with include_resource) reads a table's
// vector indexes as a refresh does, every attribute typed from the table's attribute definitions. It drives
// the ListResource RPC in-process, so any CLI will do.
func TestAccListReadsVectorIndexes(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	api := testAPI(t, endpoint)
	name := "listed-vector-docs"
	_, err := api.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: dtypes.BillingModePayPerRequest,
		AttributeDefinitions: []dtypes.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: dtypes.ScalarAttributeTypeS},
			{AttributeName: aws.String("tenant_id"), AttributeType: dtypes.ScalarAttributeTypeN}},
		KeySchema: []dtypes.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: dtypes.KeyTypeHash}},
		VectorIndexes: []dtypes.VectorIndex{{IndexName: aws.String("by_embedding"), VectorAttribute: &dtypes.VectorAttributeDefinition{AttributeName: aws.String("embedding")},
			Dimensions: aws.Int64(3), DistanceFunction: dtypes.VectorDistanceFunctionDotProduct, Projection: &dtypes.Projection{ProjectionType: dtypes.ProjectionTypeAll},
			SearchSchema: []dtypes.SearchSchemaElement{{AttributeName: aws.String("tenant_id"), SearchSchemaElementType: dtypes.SearchSchemaElementTypeHash}}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = api.DeleteTable(context.WithoutCancel(t.Context()), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	server, schemas := listServer(t, endpoint)
	got := listTables(t, server, schemas, map[string]tftypes.Value{"name_regex": tftypes.NewValue(tftypes.String, "^"+name+"$")}, true, 0)
	if len(got) != 1 || got[0].resource == nil {
		t.Fatalf("listed %+v; want the table with its resource", got)
	}
	indexes, _ := got[0].resource["vector_indexes"].(map[string]any)
	want := `map[by_embedding:map[dimensions:3 distance_function:DOT_PRODUCT inline_filters:<nil> non_key_attributes:<nil> ` +
		`partition_key:map[name:tenant_id type:N] projection_type:ALL vector_attribute:embedding]]`
	if fmt.Sprint(indexes) != want {
		t.Errorf("vector_indexes = %v\nwant %s", indexes, want)
	}
}

// TestAccShardedTableVectorIndexesWithoutEndpointSupport: DynamoDB Local has no vector indexes and creates
// the table without them, silently. The apply fails saying so, and the table is recorded as tainted (destroyed
// after the test), instead of a state that shows an index the table lacks.
func TestAccShardedTableVectorIndexesWithoutEndpointSupport(t *testing.T) {
	endpoint := testAccDynamoDBLocal(t)
	api := testAPI(t, endpoint)
	name := "unsupported-vector-docs"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{{
			Config:      vectorIndexesTable(endpoint, name, []string{bySummary}),
			ExpectError: expectError(`created table unsupported-vector-docs without its vector indexes by_summary: it does not implement vector indexes`),
		}},
	})
}

// TestFlattenVectorIndexesKeepsTheConfiguredForm: DescribeTable's inline filters in another order, and no
// projected attributes where the configuration wrote an empty list, read back as configured (no change in the
// plan); a filter the configuration lacks reads back as DynamoDB reports it (a change).
func TestFlattenVectorIndexesKeepsTheConfiguredForm(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var diags diag.Diagnostics
	filter := func(name, typ string) indexKeyModel {
		return indexKeyModel{Name: types.StringValue(name), Type: types.StringValue(typ)}
	}
	filters := func(fs ...indexKeyModel) types.List {
		l, d := types.ListValueFrom(ctx, searchSchemaType, fs)
		diags.Append(d...)
		return l
	}
	configured := vectorIndexModel{VectorAttribute: types.StringValue("embedding"), Dimensions: int64Value(aws.Int64(4)),
		DistanceFunction: types.StringValue("COSINE"), PartitionKey: types.ObjectNull(searchSchemaType.AttrTypes),
		InlineFilters: filters(filter("year", "N"), filter("category", "S")), ProjectionType: types.StringValue("KEYS_ONLY"),
		NonKeyAttributes: types.ListValueMust(types.StringType, nil)}
	prior, d := types.MapValueFrom(ctx, vectorIndexType, map[string]vectorIndexModel{"by_embedding": configured})
	diags.Append(d...)
	reported := dynamo.VectorIndex{Name: "by_embedding", VectorAttribute: "embedding", Dimensions: 4, DistanceFunction: "COSINE",
		InlineFilters: []dynamo.KeyAttribute{{Name: "category", Type: "S"}, {Name: "year", Type: "N"}}, ProjectionType: "KEYS_ONLY"}
	got, d := flattenVectorIndexes(ctx, []dynamo.VectorIndex{reported}, prior)
	diags.Append(d...)
	if !got.Equal(prior) {
		t.Errorf("read back %v\nwant the configured %v", got, prior)
	}
	reported.InlineFilters = append(reported.InlineFilters, dynamo.KeyAttribute{Name: "region", Type: "S"})
	got, d = flattenVectorIndexes(ctx, []dynamo.VectorIndex{reported}, prior)
	diags.Append(d...)
	var back map[string]vectorIndexModel
	diags.Append(got.ElementsAs(ctx, &back, false)...)
	if want := filters(filter("category", "S"), filter("year", "N"), filter("region", "S")); !back["by_embedding"].InlineFilters.Equal(want) {
		t.Errorf("inline filters %v, want DynamoDB's %v", back["by_embedding"].InlineFilters, want)
	}
	if none, d := flattenVectorIndexes(ctx, nil, types.MapNull(vectorIndexType)); d.HasError() || !none.IsNull() {
		t.Errorf("a table without vector indexes reads back %v, want null", none)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}

// TestRefuseVectorIndexes: what DynamoDB refuses of vector indexes is an error on its attribute, whatever the
// rules' enforce; a table DynamoDB takes has none.
func TestRefuseVectorIndexes(t *testing.T) {
	t.Parallel()
	index := func(name, attribute string, dimensions int64) dynamo.VectorIndex {
		return dynamo.VectorIndex{Name: name, VectorAttribute: attribute, Dimensions: dimensions, DistanceFunction: "COSINE"}
	}
	tests := []struct {
		name    string
		table   dynamo.Table
		summary string
		at      string
	}{
		{"on demand", dynamo.Table{BillingMode: dynamo.BillingPayPerRequest, VectorIndexes: []dynamo.VectorIndex{index("a", "e", 4), index("b", "e", 4)}}, "", ""},
		{"provisioned", dynamo.Table{BillingMode: dynamo.BillingProvisioned, VectorIndexes: []dynamo.VectorIndex{index("a", "e", 4)}},
			"Vector indexes need an on-demand table", "billing_mode"},
		{"six", dynamo.Table{BillingMode: dynamo.BillingPayPerRequest, VectorIndexes: []dynamo.VectorIndex{index("a", "a", 4), index("b", "b", 4),
			index("c", "c", 4), index("d", "d", 4), index("e", "e", 4), index("f", "f", 4)}}, "Too many vector indexes", "vector_indexes"},
		{"dimensions", dynamo.Table{BillingMode: dynamo.BillingPayPerRequest, VectorIndexes: []dynamo.VectorIndex{index("a", "e", 4097)}},
			"Vector dimensions out of range", `vector_indexes["a"].dimensions`},
		{"shared attribute", dynamo.Table{BillingMode: dynamo.BillingPayPerRequest, VectorIndexes: []dynamo.VectorIndex{index("a", "e", 4), index("b", "e", 8)}},
			"Vector indexes on one attribute with other dimensions", `vector_indexes["b"].dimensions`},
	}
	for _, tt := range tests {
		diags := refuseVectorIndexes(tt.table)
		if tt.summary == "" {
			if diags.HasError() {
				t.Errorf("%s: %v", tt.name, diags)
			}
			continue
		}
		if len(diags) != 1 || diags[0].Summary() != tt.summary {
			t.Errorf("%s: %v, want one error %q", tt.name, diags, tt.summary)
			continue
		}
		if at, ok := diags[0].(diag.DiagnosticWithPath); !ok || at.Path().String() != tt.at {
			t.Errorf("%s: at %v, want %s", tt.name, diags[0], tt.at)
		}
	}
}
