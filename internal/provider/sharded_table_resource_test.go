package provider

import (
	"context"
	"fmt"
	"slices"
	"sort"
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

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

// testAPI is an SDK client on a local endpoint, for checks and out-of-band changes.
func testAPI(t *testing.T, endpoint string) *dynamodb.Client {
	t.Helper()
	api, err := dynamo.NewClient(dynamo.Config{Region: "us-east-1", Endpoint: endpoint, AccessKey: "test", SecretKey: "test"}).API(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// checkTable compares the live table with what a step expects; nil tags: the server does not implement
// tagging, so tags are not read.
func checkTable(api *dynamodb.Client, name string, gsis []string, tags map[string]string, billing string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return err
		}
		var got []string
		for _, g := range out.Table.GlobalSecondaryIndexes {
			got = append(got, aws.ToString(g.IndexName))
		}
		sort.Strings(got)
		if !slices.Equal(got, gsis) {
			return fmt.Errorf("table %s has GSIs %v, want %v", name, got, gsis)
		}
		mode := "PROVISIONED"
		if out.Table.BillingModeSummary != nil {
			mode = string(out.Table.BillingModeSummary.BillingMode)
		}
		if mode != billing {
			return fmt.Errorf("billing mode %s, want %s", mode, billing)
		}
		if tags == nil {
			return nil
		}
		tagsOut, err := api.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.Table.TableArn})
		if err != nil {
			return err
		}
		gotTags := map[string]string{}
		for _, tag := range tagsOut.Tags {
			gotTags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
		}
		if fmt.Sprint(gotTags) != fmt.Sprint(tags) {
			return fmt.Errorf("tags %v, want %v", gotTags, tags)
		}
		return nil
	}
}

func checkTableGone(api *dynamodb.Client, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := api.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err == nil {
				return fmt.Errorf("table %s still exists", name)
			}
			if !strings.Contains(err.Error(), "ResourceNotFoundException") {
				return err
			}
		}
		return nil
	}
}

// tableCreation remembers the TableId DynamoDB gave a table, so that later steps can tell an update in place
// (same id) from a replacement (a new id; the name and ARN stay the same).
type tableCreation struct{ id string }

func describeTable(api *dynamodb.Client, name string) (*types.TableDescription, error) {
	out, err := api.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	if aws.ToString(out.Table.TableId) == "" {
		return nil, fmt.Errorf("table %s has no TableId", name)
	}
	return out.Table, nil
}

// record stores the table's id.
func (c *tableCreation) record(api *dynamodb.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		c.id = aws.ToString(table.TableId)
		return nil
	}
}

// unchanged checks that the table is still the recorded one, with the given key attributes.
func (c *tableCreation) unchanged(api *dynamodb.Client, name, hashKey, rangeKey string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if err := checkKeySchema(api, name, hashKey, rangeKey)(s); err != nil {
			return err
		}
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		if got := aws.ToString(table.TableId); c.id == "" || got != c.id {
			return fmt.Errorf("table %s has TableId %s, want %q: it was replaced, not updated in place", name, got, c.id)
		}
		return nil
	}
}

// replaced checks that the table has a new id: it was deleted and created again.
func (c *tableCreation) replaced(api *dynamodb.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		if got := aws.ToString(table.TableId); c.id == "" || got == c.id {
			return fmt.Errorf("table %s still has TableId %q: it was not replaced", name, got)
		}
		return nil
	}
}

// checkKeySchema compares the live table's key attributes with hashKey and rangeKey ("" for none).
func checkKeySchema(api *dynamodb.Client, name, hashKey, rangeKey string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		table, err := describeTable(api, name)
		if err != nil {
			return err
		}
		got := map[types.KeyType]string{}
		for _, k := range table.KeySchema {
			got[k.KeyType] = aws.ToString(k.AttributeName)
		}
		if got[types.KeyTypeHash] != hashKey || got[types.KeyTypeRange] != rangeKey {
			return fmt.Errorf("table %s has keys HASH=%q RANGE=%q, want %q and %q", name, got[types.KeyTypeHash], got[types.KeyTypeRange], hashKey, rangeKey)
		}
		return nil
	}
}

// tableConfig renders a dynamokeys_sharded_table for the lifecycle test.
func tableConfig(endpoint, name, gsis, tags, billing string) string {
	return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "events" {
  name                = %[1]q
  deletion_protection = false
  %[4]s

  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800, max_items_per_partition_key = 100000 }

  local_secondary_indexes = {
    by_created = { sort_key = { name = "created", type = "N" }, projection_type = "KEYS_ONLY" }
  }
  global_secondary_indexes = {
%[2]s
  }
  ttl  = { attribute_name = "expires_at" }
  tags = %[3]s
}
`, name, gsis, tags, billing)
}

const (
	gsiByCustomer = `    by_customer = {
      partition_key = [{ name = "customerId", cardinality = 1000000 }]
      sort_key      = [{ name = "created", type = "N" }]
      %s
    }
`
	gsiByTenantRegion = `    by_tenant_region = {
      partition_key      = [{ name = "tenantId", cardinality = 5000 }, { name = "region", cardinality = 20 }]
      sort_key           = [{ name = "status" }, { name = "created", type = "N" }]
      projection_type    = "INCLUDE"
      non_key_attributes = ["total", "currency"]
      %s
    }
`
	gsiByStatus = `    by_status_code = {
      partition_key   = [{ name = "statusCode", cardinality = 500000 }]
      projection_type = "KEYS_ONLY"
      %s
    }
`
)

func gsiBlock(templates ...string) string {
	var b strings.Builder
	for _, t := range templates {
		fmt.Fprintf(&b, t, "")
	}
	return b.String()
}

func gsiBlockProvisioned(templates ...string) string {
	var b strings.Builder
	for _, t := range templates {
		fmt.Fprintf(&b, t, "read_capacity = 5\n      write_capacity = 5")
	}
	return b.String()
}

// designMetadata is what an import cannot read back: it lives only in the configuration.
var designMetadata = []string{
	"partition_key.template", "sort_key.template", "segments", "sharding", "traffic", "target_utilization", "enforce",
	"shard_count", "routing", "findings", "ok", "report", "design_document",
	"global_secondary_indexes.by_customer.partition_key.0.cardinality",
	"global_secondary_indexes.by_tenant_region.partition_key.0.cardinality",
	"global_secondary_indexes.by_tenant_region.partition_key.1.cardinality",
	"timeouts",
}

// TestAccShardedTableLifecycle: create with 2 GSIs (one multi-attribute), an LSI, TTL and tags; import;
// add and remove a GSI; change tags; switch billing mode; every apply followed by an empty plan; destroy.
// It runs against dynoxide and DynamoDB Local; DynamoDB Local refuses tagging, so there the table has none.
func TestAccShardedTableLifecycle(t *testing.T) {
	forEachServer(t, testAccShardedTableLifecycle)
}

func testAccShardedTableLifecycle(t *testing.T, server testServer) {
	t.Helper()
	endpoint := server.endpoint
	api := testAPI(t, endpoint)
	name := "lifecycle-events"
	address := "dynamokeys_sharded_table.events"
	tags := func(hcl string, want map[string]string) (string, map[string]string) {
		if !server.tagging {
			return "null", nil
		}
		return hcl, want
	}
	tags1, want1 := tags(`{ team = "data", env = "test" }`, map[string]string{"team": "data", "env": "test"})
	tags2, want2 := tags(`{ team = "platform" }`, map[string]string{"team": "platform"})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: tableConfig(endpoint, name, gsiBlock(gsiByCustomer, gsiByTenantRegion), tags1, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(address, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(4)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(address, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("arn"), knownvalue.StringRegexp(expectError(`table/lifecycle-events$`))),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("routing").AtMapKey("count"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(address, tfjsonpath.New("ok"), knownvalue.Bool(true)),
				},
				Check: checkTable(api, name, []string{"by_customer", "by_tenant_region"}, want1, "PAY_PER_REQUEST"),
			},
			{
				ResourceName:            address,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: designMetadata,
			},
			{
				// The same through an import block (plannable import). The plan imports the table and fills in
				// the design metadata from the configuration: an update of metadata only, no DK402.
				ResourceName:       address,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithID,
				ImportStateId:      name,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(address, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(4)),
					plancheck.ExpectKnownValue(address, tfjsonpath.New("ok"), knownvalue.Bool(true)),
				}},
			},
			{
				// By identity (Terraform ≥ 1.12, OpenTofu ≥ 1.12): the import block names the account, the
				// Region and the name the state's identity holds, and the import gives the same identity on
				// this server too (DynamoDB Local's ARNs name the Region ddblocal; the identity names the
				// provider's).
				ResourceName:       address,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				SkipFunc:           stepNeedsCLI(t, 1, 12, "import by resource identity"),
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config: tableConfig(endpoint, name, gsiBlock(gsiByCustomer, gsiByStatus), tags2, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				Check: checkTable(api, name, []string{"by_customer", "by_status_code"}, want2, "PAY_PER_REQUEST"),
			},
			{
				Config: tableConfig(endpoint, name, gsiBlockProvisioned(gsiByCustomer, gsiByStatus), tags2,
					`billing_mode = "PROVISIONED"
  read_capacity  = 500
  write_capacity = 3000`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				Check: checkTable(api, name, []string{"by_customer", "by_status_code"}, want2, "PROVISIONED"),
			},
		},
	})
}
