package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// smallTable renders a minimal table with its provider block; extra goes inside the resource block.
func smallTable(endpoint, name, extra string) string {
	return providerBlock(endpoint) + smallTableResource(name, extra)
}

func smallTableResource(name, extra string) string {
	return fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name          = %[1]q
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id" }
  }
  %[2]s
}
`, name, extra)
}

// unreachableProviderBlock configures the provider against an endpoint nothing listens on, without retries:
// for tests whose plan must fail before any API call.
func unreachableProviderBlock(endpoint string) string {
	return fmt.Sprintf(`
provider "dynamokeys" {
  region      = "us-east-1"
  endpoint    = %[1]q
  access_key  = "test"
  secret_key  = "test"
  max_retries = 0
}
`, endpoint)
}

const smallAddress = "dynamokeys_sharded_table.t"

func TestAccShardedTableDeletionProtection(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "protected-orders"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: smallTable(endpoint, name, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
				},
			},
			{
				Config:      smallTable(endpoint, name, ""),
				Destroy:     true,
				ExpectError: expectError(`Table has deletion protection.*Set deletion_protection = false and apply, then destroy`),
			},
			{
				Config:      smallTable(endpoint, name+"-renamed", ""),
				ExpectError: expectError(`Replacement blocked by deletion protection`),
			},
			{
				// The table survived both attempts; turning protection off lets the test's destroy run.
				Config: smallTable(endpoint, name, "deletion_protection = false"),
				Check: func(*terraform.State) error {
					out, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
					if err != nil {
						return err
					}
					if aws.ToBool(out.Table.DeletionProtectionEnabled) {
						return fmt.Errorf("deletion protection is still on")
					}
					return nil
				},
			},
		},
	})
}

func TestAccShardedTableDrift(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "drifting-orders"
	config := smallTable(endpoint, name, `deletion_protection = false
  tags = { owner = "orders" }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{Config: config},
			{
				// Deleted outside Terraform: the refresh drops it and the plan creates it again.
				PreConfig: func() {
					if _, err := api.DeleteTable(t.Context(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionCreate),
				}},
			},
			{
				// An index and a tag added outside Terraform show in the plan, which removes them.
				PreConfig: func() {
					ctx := t.Context()
					_, err := api.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(name),
						AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("rogue"), AttributeType: types.ScalarAttributeTypeS}},
						GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
							IndexName: aws.String("rogue_index"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("rogue"), KeyType: types.KeyTypeHash}},
							Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
					if err != nil {
						t.Fatal(err)
					}
					out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: out.Table.TableArn,
						Tags: []types.Tag{{Key: aws.String("rogue"), Value: aws.String("yes")}}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("global_secondary_indexes"), knownvalue.Null()),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{"owner": knownvalue.StringExact("orders")})),
				}},
				Check: checkTable(api, name, nil, map[string]string{"owner": "orders"}, "PAY_PER_REQUEST"),
			},
		},
	})
}

// TestAccShardedTableKeyChangeReplaces: a template change is design metadata (an in-place update that leaves
// the table as it was created), while a key attribute change replaces the table: DK001 stops that plan
// until the table is tagged disposable.
func TestAccShardedTableKeyChangeReplaces(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "replaced-orders"
	created := &tableCreation{}
	// rekeyed is the table with its partition key attribute renamed, which replaces it.
	rekeyed := func(extra string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "customer", template = "CUSTOMER#{customer_id}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments            = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  %s
}`, name, extra)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: smallTable(endpoint, name, "deletion_protection = false"),
				Check:  created.record(api, name),
			},
			{
				// The sort key template changes (with its migration), its attribute does not: an update of
				// metadata only.
				Config: providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key            = { name = "sk", template = "O#{order_id}" }
  segments            = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  migration           = { phase = "dual_write", from = { sort_key_template = "ORDER#{order_id}" } }
}`, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("sort_key").AtMapKey("template"), knownvalue.StringExact("O#{order_id}")),
				}},
				Check: created.unchanged(api, name, "pk", "sk"),
			},
			{
				// A replacement deletes every item: DK001 stops the plan.
				Config:      rekeyed(""),
				ExpectError: regexp.MustCompile(`DK001 table-replaced: this plan replaces table replaced-orders\s+\(partition_key.name forces it\)`),
			},
			{
				// Tagged disposable, it is replaced.
				Config: rekeyed(`tags = { "dynamokeys:disposable" = "true" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(checkKeySchema(api, name, "customer", "sk"), created.replaced(api, name)),
			},
		},
	})
}

// TestAccShardedTableTemplateChangeTouchesNothing: a partition key template change (with its migration) and a
// traffic change update the design outputs in state and leave the table alone (same TableId, same keys).
func TestAccShardedTableTemplateChangeTouchesNothing(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "metadata-orders"
	created := &tableCreation{}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{Config: smallTable(endpoint, name, "deletion_protection = false"), Check: created.record(api, name)},
			{
				Config: providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments            = { tenant_id = { kind = "id" }, order_id = { kind = "id" }, customer_id = { kind = "id" } }
  traffic             = { writes_per_second = 100 }
  migration           = { phase = "dual_write", from = { partition_key_template = "CUSTOMER#{customer_id}" } }
}`, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("partition_key").AtMapKey("template"), knownvalue.StringExact("TENANT#{tenant_id}")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`writes 100/s = 100 WCU`))),
				},
				// The live table is the one step 1 created, with the same key attributes.
				Check: created.unchanged(api, name, "pk", "sk"),
			},
		},
	})
}

// TestAccShardedTableShardSchemeChange: changing the shard count of a live table without bumping
// scheme_version fails the plan (DK402); with the bump but no migration it fails too (DK406), and with a
// migration from the old count it applies.
func TestAccShardedTableShardSchemeChange(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "sharded-events"
	config := func(count, version int, extra ...string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments            = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding            = { strategy = "calculated", source = "event_id", count = %d, scheme_version = %d }
  traffic             = { writes_per_second = 2500 }
  %s
}`, name, count, version, strings.Join(extra, "\n"))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{Config: config(4, 1)},
			{Config: config(8, 1), ExpectError: expectError(`DK402 shard-scheme-change: the shard count changes from 4 to 8 while scheme_version stays 1`)},
			{Config: config(8, 2), ExpectError: expectError(`DK406 key-change-without-migration: the keys change against the prior state and no migration is\s+declared`)},
			{
				Config: config(8, 2, `migration = { phase = "dual_write", from = { sharding = { strategy = "calculated", source = "event_id", count = 4 } } }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("routing").AtMapKey("scheme_version"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(8)),
				},
			},
		},
	})
}

// TestShardedTableBadInput: each mistake fails the plan, so no table is created. It needs no server: the
// provider points at a closed port with no retries, so a plan that called DynamoDB would fail with a
// connection error instead of the expected diagnostic.
func TestShardedTableBadInput(t *testing.T) {
	t.Parallel()
	const closedEndpoint = "http://127.0.0.1:1"
	tests := []struct {
		name, table, extra, expect string
	}{
		{"provisioned without capacities", "bad-provisioned", `billing_mode = "PROVISIONED"`, `Missing provisioned capacity`},
		{"capacities with on-demand", "bad-ondemand", `read_capacity = 5
  write_capacity = 5`, `Capacity without PROVISIONED billing`},
		{"ttl without attribute", "bad-ttl", `ttl = { enabled = true }`, `Missing TTL attribute`},
		{"gsi without partition key", "bad-gsi", `global_secondary_indexes = { by_x = { partition_key = [] } }`, `DK108 gsi-key-schema`},
		{"invalid table name", "bad table!", ``, `DK107 names: table name "bad table!"`},
		{"vector index INCLUDE without attributes", "bad-vector-include",
			`vector_indexes = { by_embedding = { vector_attribute = "embedding", dimensions = 4, distance_function = "COSINE", projection_type = "INCLUDE" } }`,
			`vector_indexes.by_embedding.non_key_attributes: projection_type = "INCLUDE" needs at least one non-key attribute`},
		{"vector search attribute with the sort key's name and another type", "bad-vector-type",
			`vector_indexes = { by_embedding = { vector_attribute = "embedding", dimensions = 4, distance_function = "COSINE", inline_filters = [{ name = "sk", type = "N" }] } }`,
			`vector_indexes.by_embedding.inline_filters\[0\].type: attribute "sk" is type N here but S at sort_key`},
		{"vector attribute that is a key", "bad-vector-attribute",
			`vector_indexes = { by_embedding = { vector_attribute = "pk", dimensions = 4, distance_function = "COSINE" } }`,
			`vector_indexes.by_embedding.vector_attribute: attribute "pk" is also the S attribute at partition_key`},
	}
	var cases []errorCase
	for i, tt := range tests {
		cases = append(cases, errorCaseOf(tt.name, strings.Replace(smallTableResource(tt.table, "deletion_protection = false\n  "+tt.extra),
			`"dynamokeys_sharded_table" "t"`, `"dynamokeys_sharded_table" "`+caseLabel(i)+`"`, 1), tt.expect))
	}
	cases = append(cases, errorCaseOf("lsi without table sort key", `
resource "dynamokeys_sharded_table" "lsi_without_sort_key" {
  name                    = "bad-lsi"
  deletion_protection     = false
  partition_key           = { name = "pk", template = "C#{id}" }
  segments                = { id = { kind = "id" } }
  local_secondary_indexes = { by_created = { sort_key = { name = "created", type = "N" } } }
}`, `DK202 lsi-needs-sort-key`))
	expectEachError(t, unreachableProviderBlock(closedEndpoint), cases)
}

// TestAccShardedTableWaitersOnDynalite: dynalite keeps tables CREATING, UPDATING and DELETING for a while;
// the waiters must see them through (status ACTIVE in state, table gone after destroy).
func TestAccShardedTableWaitersOnDynalite(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: waits for dynalite transitions")
	}
	testAccDynoxide(t) // skips without TF_ACC
	server, err := localddb.Start(localddb.Dynalite, localddb.Options{CreateTableMs: 1500, UpdateTableMs: 1500, DeleteTableMs: 1500})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	api := testAPI(t, server.Endpoint)
	name := "waiting-orders"
	config := func(billing string) string {
		return smallTable(server.Endpoint, name, "deletion_protection = false\n  "+billing)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
				},
			},
			{
				Config: config(`billing_mode = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 10`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("read_capacity"), knownvalue.Int64Exact(10)),
				},
			},
		},
	})
}

// TestAccShardedTableUnknownAtPlan: a name, traffic and a vector index's dimensions and projected attributes
// known only at apply plan without error, with the design outputs unknown, and apply creates the table with
// its index.
func TestAccShardedTableUnknownAtPlan(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, "late-orders"),
		Steps: []resource.TestStep{{
			Config: providerBlock(endpoint) + `
resource "terraform_data" "late" {
  input = { name = "late-orders", writes = 500, dimensions = 8, projected = ["title"] }
}
resource "dynamokeys_sharded_table" "t" {
  name                = terraform_data.late.output.name
  deletion_protection = false
  partition_key       = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments            = { customer_id = { kind = "id" } }
  traffic             = { writes_per_second = terraform_data.late.output.writes }
  vector_indexes = {
    by_embedding = {
      vector_attribute   = "embedding"
      dimensions         = terraform_data.late.output.dimensions
      distance_function  = "COSINE"
      projection_type    = "INCLUDE"
      non_key_attributes = terraform_data.late.output.projected
    }
  }
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(smallAddress, tfjsonpath.New("report")),
				plancheck.ExpectUnknownValue(smallAddress, tfjsonpath.New("shard_count")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("report"), knownvalue.StringRegexp(regexp.MustCompile(`writes 500/s = 500 WCU`))),
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
			},
			Check: checkVectorIndexes(api, "late-orders", map[string]string{"by_embedding": "embedding 8 COSINE INCLUDE title"}),
		}},
	})
}

// TestAccShardedTableSortKeyAndLSIChangesReplace: the replacing plan modifiers name the attribute that
// forces the replacement: removing the sort key, changing an LSI.
func TestAccShardedTableSortKeyAndLSIChangesReplace(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "replace-paths"
	config := func(sortKey, lsi string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments            = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  tags                = { "dynamokeys:disposable" = "true" } # replaced on purpose (DK001)
  %s
  %s
}`, name, sortKey, lsi)
	}
	withSortKey := `sort_key = { name = "sk", template = "ORDER#{order_id}" }`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{Config: config(withSortKey, `local_secondary_indexes = { by_total = { sort_key = { name = "total", type = "N" } } }`)},
			{
				// The same LSI written with its default projection spelled out is no change.
				Config: config(withSortKey, `local_secondary_indexes = { by_total = { sort_key = { name = "total", type = "N" }, projection_type = "ALL" } }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				Config: config(withSortKey, `local_secondary_indexes = { by_total = { sort_key = { name = "total", type = "N" }, projection_type = "KEYS_ONLY" } }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
			{
				Config: config("", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: checkKeySchema(api, name, "pk", ""),
			},
		},
	})
}
