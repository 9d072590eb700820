package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// smallTableMetadata is what an import of smallTable cannot read back: the design metadata.
var smallTableMetadata = []string{
	"partition_key.template", "sort_key.template", "segments", "sharding", "traffic", "target_utilization", "enforce",
	"shard_count", "routing", "findings", "ok", "report", "design_document", "timeouts",
}

const testKeyARN = "arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab"

// streamOf reads the live stream setting.
func streamOf(api *dynamodb.Client, name string) (bool, dtypes.StreamViewType, error) {
	out, err := api.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return false, "", err
	}
	s := out.Table.StreamSpecification
	if s == nil || !aws.ToBool(s.StreamEnabled) {
		return false, "", nil
	}
	return true, s.StreamViewType, nil
}

func checkStream(api *dynamodb.Client, name string, enabled bool, view dtypes.StreamViewType) resource.TestCheckFunc {
	return func(*terraform.State) error {
		on, got, err := streamOf(api, name)
		if err != nil {
			return err
		}
		if on != enabled || got != view {
			return fmt.Errorf("table %s stream enabled=%v view=%s, want %v %s", name, on, got, enabled, view)
		}
		return nil
	}
}

// TestAccShardedTableStream: create with a stream, change its view type (off then on, new ARN, in one apply),
// turn it off, restore it after it is disabled out of band, and import it.
func TestAccShardedTableStream(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "stream-orders"
	config := func(stream string) string {
		return smallTable(endpoint, name, "deletion_protection = false\n  "+stream)
	}
	arnChanges := statecheck.CompareValue(compare.ValuesDiffer())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: config(`stream = { enabled = true, view_type = "NEW_IMAGE" }`),
				Check:  checkStream(api, name, true, dtypes.StreamViewTypeNewImage),
				ConfigStateChecks: []statecheck.StateCheck{
					arnChanges.AddStateValue(smallAddress, tfjsonpath.New("stream_arn")),
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("stream_label"), knownvalue.NotNull()),
				},
			},
			{
				Config: config(`stream = { enabled = true, view_type = "NEW_AND_OLD_IMAGES" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(smallAddress, tfjsonpath.New("stream_arn")),
				}},
				Check:             checkStream(api, name, true, dtypes.StreamViewTypeNewAndOldImages),
				ConfigStateChecks: []statecheck.StateCheck{arnChanges.AddStateValue(smallAddress, tfjsonpath.New("stream_arn"))},
			},
			{
				// Unchanged: the ARN is kept, not planned unknown.
				Config: config(`stream = { enabled = true, view_type = "NEW_AND_OLD_IMAGES" }` + "\n  tags = { team = \"orders\" }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("stream_arn"), knownvalue.NotNull()),
				}},
			},
			{
				Config: config(`stream = { enabled = false }` + "\n  tags = { team = \"orders\" }"),
				Check:  checkStream(api, name, false, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("stream_arn"), knownvalue.Null()),
				},
			},
			{
				// Enabled again, then disabled outside Terraform: the next plan restores it.
				Config: config(`stream = { enabled = true, view_type = "KEYS_ONLY" }` + "\n  tags = { team = \"orders\" }"),
				Check: func(*terraform.State) error {
					_, err := api.UpdateTable(t.Context(), &dynamodb.UpdateTableInput{TableName: aws.String(name),
						StreamSpecification: &dtypes.StreamSpecification{StreamEnabled: aws.Bool(false)}})
					return err
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: config(`stream = { enabled = true, view_type = "KEYS_ONLY" }` + "\n  tags = { team = \"orders\" }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				Check: checkStream(api, name, true, dtypes.StreamViewTypeKeysOnly),
			},
			{
				ResourceName: smallAddress, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: smallTableMetadata,
			},
		},
	})
}

// TestAccShardedTableEncryptionAndOnDemandCaps: a customer managed key and on-demand caps on create, caps
// changed and removed in place, and both read back by import. Switching keys is not implemented by the local
// server; the UpdateTable it sends is unit-tested in internal/dynamo.
func TestAccShardedTableEncryptionAndOnDemandCaps(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "encrypted-orders"
	config := func(extra string) string {
		return smallTable(endpoint, name, "deletion_protection = false\n  server_side_encryption = { enabled = true, kms_key_arn = \""+testKeyARN+"\" }\n  "+extra)
	}
	caps := func(read, write int64) resource.TestCheckFunc {
		return func(*terraform.State) error {
			out, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err != nil {
				return err
			}
			o := out.Table.OnDemandThroughput
			gotRead, gotWrite := int64(-1), int64(-1)
			if o != nil {
				gotRead, gotWrite = aws.ToInt64(o.MaxReadRequestUnits), aws.ToInt64(o.MaxWriteRequestUnits)
			}
			uncapped := func(n int64) int64 { // DynamoDB answers -1 for no cap, the local server 0
				if n <= 0 {
					return -1
				}
				return n
			}
			if gotRead, gotWrite = uncapped(gotRead), uncapped(gotWrite); gotRead != read || gotWrite != write {
				return fmt.Errorf("on-demand caps read=%d write=%d, want %d %d", gotRead, gotWrite, read, write)
			}
			if e := out.Table.SSEDescription; e == nil || e.SSEType != dtypes.SSETypeKms {
				return fmt.Errorf("encryption = %+v, want KMS", e)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: config(`on_demand_throughput = { max_read_request_units = 2000, max_write_request_units = 500 }`),
				Check:  caps(2000, 500),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("server_side_encryption").AtMapKey("kms_key_arn"), knownvalue.StringExact(testKeyARN)),
				},
			},
			{
				Config: config(`on_demand_throughput = { max_write_request_units = 800 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				Check: caps(-1, 800),
			},
			{
				ResourceName: smallAddress, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: smallTableMetadata,
			},
			{
				Config: config(""),
				Check:  caps(-1, -1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("on_demand_throughput"), knownvalue.Null()),
				},
			},
		},
	})
}

func TestTableSettingsBadInput(t *testing.T) {
	t.Parallel()
	var cases []errorCase
	for _, tt := range []badInput{
		{"stream without view type", `stream = { enabled = true }`, `stream\.view_type is required when stream\.enabled = true`},
		{"unknown view type", `stream = { enabled = true, view_type = "EVERYTHING" }`, `stream\.view_type value must be one of`},
		{"key alias", `server_side_encryption = { enabled = true, kms_key_arn = "alias/orders" }`, `must be a KMS key ARN`},
		{"zero warm units", `warm_throughput = { read_units_per_second = 0 }`, `warm_throughput\.read_units_per_second of the table must be at least 1 unit`},
		{"zero index cap", `global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status" }], on_demand_throughput = { max_write_request_units = 0 } }
  }`, `on_demand_throughput\.max_write_request_units of GSI by_status must be at least 1 unit`},
		{"recovery period too long", `point_in_time_recovery = { enabled = true, recovery_period_in_days = 36 }`, `recovery_period_in_days must be from 1 to 35 days, got 36`},
		{"old bool form of point-in-time recovery", `point_in_time_recovery = true`, `point_in_time_recovery`},
		{"autoscaling on an on-demand table", `autoscaling = { read = { min = 5, max = 100 } }`, `autoscaling of the table describes an application autoscaling target of provisioned capacity`},
		{"autoscaling min above max", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 5
  autoscaling = { read = { min = 50, max = 10 } }`, `autoscaling\.read of the table needs 1 <= min <= max, got min 50 and max 10`},
		{"index autoscaling on an on-demand table", `global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status" }], autoscaling = { write = { min = 1, max = 10 } } }
  }`, `autoscaling of GSI by_status describes an application autoscaling target`},
		{"unknown Contributor Insights mode", `contributor_insights = { mode = "ALL_KEYS" }`, `contributor_insights\.mode value must be one of`},
		{"autoscaling max below the peak", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 5
  autoscaling = { write = { min = 5, max = 400 } }
  traffic = { writes_per_second = 500 }`, `DK603 provisioned-capacity: autoscaling\.write\.max is 400 units but peak write demand is 500`},
		{"fractional cap", `on_demand_throughput = { max_read_request_units = 10.5 }`, `max_read_request_units must be a whole number`},
	} {
		cases = append(cases, errorCaseOf(tt.name, fmt.Sprintf("resource \"dynamokeys_sharded_table\" %q {\n  name = \"settings-%02d\"\n  %s\n}\n",
			caseLabel(len(cases)), len(cases), withDefaults(tt.attrs)), tt.expect))
	}
	// A cap below the peak throttles the requests above it, which may be what the cap is for: DK601 warns,
	// even where error findings fail the plan.
	cases = append(cases, errorCase{name: "on-demand cap below the peak", config: `resource "dynamokeys_sharded_table" "capped" {
  name = "settings-capped"
  on_demand_throughput = { max_write_request_units = 400 }
  traffic = { writes_per_second = 500 }
  enforce = true
  ` + withDefaults("") + `
}`, expect: `DK601 table-quota: peak write demand is 500 units/s, above on_demand_throughput\.max_write_request_units = 400`, warns: true})
	expectEachError(t, providerBlock("http://127.0.0.1:1"), cases)
}

// TestFlattenWarmThroughputKeepsASatisfiedConfiguration: DynamoDB reports the table's actual warm throughput,
// often more than configured (it never shrinks); that is no change. Less than configured is one.
func TestFlattenWarmThroughputKeepsASatisfiedConfiguration(t *testing.T) {
	ctx := t.Context()
	configured := func(read, write int64) shardedTableModel {
		var m shardedTableModel
		m.WarmThroughput, _ = types.ObjectValue(warmAttrTypes, map[string]attr.Value{
			"read_units_per_second": int64Value(&read), "write_units_per_second": int64Value(&write)})
		m.Stream, m.ServerSideEncryption, m.OnDemandThroughput = types.ObjectNull(streamAttrTypes), types.ObjectNull(encryptionAttrTypes), types.ObjectNull(onDemandAttrTypes)
		return m
	}
	var diags diag.Diagnostics
	warmer := configured(10000, 3000)
	flattenTableSettings(ctx, &dynamo.Table{Warm: &dynamo.Throughput{Read: aws.Int64(12000), Write: aws.Int64(4000)}}, &warmer, &diags)
	if want := configured(10000, 3000); !warmer.WarmThroughput.Equal(want.WarmThroughput) {
		t.Errorf("a warmer table changed the state: %v", warmer.WarmThroughput)
	}
	colder := configured(20000, 3000)
	flattenTableSettings(ctx, &dynamo.Table{Warm: &dynamo.Throughput{Read: aws.Int64(12000), Write: aws.Int64(4000)}}, &colder, &diags)
	if want := configured(12000, 3000); !colder.WarmThroughput.Equal(want.WarmThroughput) {
		t.Errorf("a colder table must read back its real read units: %v", colder.WarmThroughput)
	}
	unmanaged := configured(1, 1)
	unmanaged.WarmThroughput = types.ObjectNull(warmAttrTypes)
	flattenTableSettings(ctx, &dynamo.Table{Warm: &dynamo.Throughput{Read: aws.Int64(12000), Write: aws.Int64(4000)}}, &unmanaged, &diags)
	if !unmanaged.WarmThroughput.IsNull() || !unmanaged.Stream.IsNull() || !unmanaged.ServerSideEncryption.IsNull() {
		t.Errorf("defaults the configuration does not mention must stay null: %+v", unmanaged)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}

// TestUpgradeStateV0PointInTimeRecovery sends version 0 state (point_in_time_recovery as a bool) through the
// provider's UpgradeResourceState, as Terraform does after a provider upgrade.
func TestUpgradeStateV0PointInTimeRecovery(t *testing.T) {
	for _, tt := range []struct {
		v0   string
		want string
	}{
		{`true`, `{"enabled":true,"recovery_period_in_days":null}`},
		{`false`, `null`},
		{`null`, `null`},
	} {
		raw := fmt.Sprintf(`{"id":"orders","name":"orders","point_in_time_recovery":%s,"deletion_protection":true,"read_capacity":5,`+
			`"partition_key":{"name":"pk","type":"S","template":null}}`, tt.v0)
		attrs := upgradedState(t, 0, []byte(raw))
		got, _ := json.Marshal(attrs["point_in_time_recovery"])
		if string(got) != tt.want {
			t.Errorf("point_in_time_recovery %s upgraded to %s, want %s", tt.v0, got, tt.want)
		}
		if attrs["read_capacity"] != json.Number("5") || attrs["deletion_protection"] != true {
			t.Errorf("other attributes did not pass through the upgrade: %v", attrs)
		}
	}
}

// TestAccAutoscaledCapacityIsNotReverted: an autoscaler (here: UpdateTable out of band, as
// application autoscaling does) raises the read capacity of an autoscaled table and GSI; the next plan is
// empty, while a change of the capacity Terraform owns is still planned. dynalite reports index throughput,
// which dynoxide does not.
func TestAccAutoscaledCapacityIsNotReverted(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make testacc) to run it against a local DynamoDB server")
	}
	server, err := localddb.Start(localddb.Dynalite, localddb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	api := testAPI(t, server.Endpoint)
	name := "autoscaled-orders"
	config := func(write int) string {
		return providerBlock(server.Endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments            = { customer_id = { kind = "id" } }
  billing_mode        = "PROVISIONED"
  read_capacity       = 5
  write_capacity      = %d
  autoscaling         = { read = { min = 5, max = 100 } }
  global_secondary_indexes = {
    by_status = {
      partition_key  = [{ name = "status", cardinality = 1000 }]
      read_capacity  = 5
      write_capacity = 5
      autoscaling    = { read = { min = 5, max = 100 } }
    }
  }
}`, name, write)
	}
	scaleReads := func(*terraform.State) error {
		_, err := api.UpdateTable(t.Context(), &dynamodb.UpdateTableInput{TableName: aws.String(name),
			ProvisionedThroughput: &dtypes.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(50), WriteCapacityUnits: aws.Int64(5)},
			GlobalSecondaryIndexUpdates: []dtypes.GlobalSecondaryIndexUpdate{{Update: &dtypes.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("by_status"), ProvisionedThroughput: &dtypes.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(50), WriteCapacityUnits: aws.Int64(5)}}}},
		})
		return err
	}
	reads := func(table, index int64) resource.TestCheckFunc {
		return func(*terraform.State) error {
			out, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err != nil {
				return err
			}
			gotTable := aws.ToInt64(out.Table.ProvisionedThroughput.ReadCapacityUnits)
			gotIndex := aws.ToInt64(out.Table.GlobalSecondaryIndexes[0].ProvisionedThroughput.ReadCapacityUnits)
			if gotTable != table || gotIndex != index {
				return fmt.Errorf("read capacity table=%d index=%d, want %d and %d", gotTable, gotIndex, table, index)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(5), Check: scaleReads},
			{
				Config: config(5),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: reads(50, 50),
			},
			{
				// Writes are not autoscaled: a change is applied, and the autoscaler's reads stay.
				Config: config(8),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(reads(50, 50), func(*terraform.State) error {
					out, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
					if err != nil {
						return err
					}
					if got := aws.ToInt64(out.Table.ProvisionedThroughput.WriteCapacityUnits); got != 8 {
						return fmt.Errorf("write capacity %d, want the configured 8", got)
					}
					return nil
				}),
			},
		},
	})
	// The AWS provider's idiom, ignore_changes on the capacities without an autoscaling range, plans clean too.
	name = "ignored-capacity"
	ignored := strings.Replace(strings.ReplaceAll(config(5), "autoscaling", "# autoscaling"), "autoscaled-orders", name, 1)
	ignored = strings.Replace(ignored, "  global_secondary_indexes = {", `  lifecycle {
    ignore_changes = [read_capacity, global_secondary_indexes["by_status"].read_capacity]
  }
  global_secondary_indexes = {`, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: ignored, Check: scaleReads},
			{
				Config: ignored,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: reads(50, 50),
			},
		},
	})
}

// TestAccSettingsWithoutEndpointSupport: dynoxide has neither point-in-time recovery nor Contributor
// Insights; asking for them does not fail the apply (it warns: the warning texts are unit-tested with
// updatePITR, the UpdateContributorInsights calls in internal/dynamo), the rest of each table is managed,
// and the next plan is empty (the settings are kept as configured since the endpoint does not report them).
// The two tables are one configuration: a test case each cost some twelve CLI runs.
func TestAccSettingsWithoutEndpointSupport(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	pitr, insights := "pitr-orders", "insights-orders"
	const insightsAddress = "dynamokeys_sharded_table.insights"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, pitr, insights),
		Steps: []resource.TestStep{{
			Config: smallTable(endpoint, pitr, `deletion_protection = false
  point_in_time_recovery = { enabled = true, recovery_period_in_days = 7 }`) +
				strings.Replace(smallTableResource(insights, `deletion_protection = false
  contributor_insights = { mode = "THROTTLED_KEYS" }
  global_secondary_indexes = {
    by_status = {
      partition_key        = [{ name = "status", cardinality = 1000 }]
      contributor_insights = { mode = "ACCESSED_AND_THROTTLED_KEYS" }
      on_demand_throughput = { max_write_request_units = 100 }
    }
  }`), `"dynamokeys_sharded_table" "t"`, `"dynamokeys_sharded_table" "insights"`, 1),
			Check: checkTable(api, insights, []string{"by_status"}, map[string]string{}, "PAY_PER_REQUEST"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("point_in_time_recovery").AtMapKey("recovery_period_in_days"), knownvalue.Int64Exact(7)),
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
				statecheck.ExpectKnownValue(insightsAddress, tfjsonpath.New("contributor_insights").AtMapKey("mode"), knownvalue.StringExact("THROTTLED_KEYS")),
				statecheck.ExpectKnownValue(insightsAddress, tfjsonpath.New("global_secondary_indexes").AtMapKey("by_status").AtMapKey("on_demand_throughput").AtMapKey("max_write_request_units"), knownvalue.Int64Exact(100)),
			},
		}},
	})
}

// TestAccTableSettingUnknownAtPlan: a cap known only at apply (from another resource) leaves the design
// outputs unknown at plan, so the apply is consistent and the cap is applied.
func TestAccTableSettingUnknownAtPlan(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "unknown-cap-orders"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{{
			Config: `
resource "terraform_data" "cap" {
  input = 500
}
` + smallTable(endpoint, name, `deletion_protection = false
  on_demand_throughput = { max_write_request_units = terraform_data.cap.output }
  traffic = { writes_per_second = 100 }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(smallAddress, tfjsonpath.New("design_document")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("on_demand_throughput").AtMapKey("max_write_request_units"), knownvalue.Int64Exact(500)),
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("design_document"), knownvalue.StringRegexp(regexp.MustCompile(`"on_demand_throughput":\{"read":null,"write":500\}`))),
			},
		}},
	})
}
