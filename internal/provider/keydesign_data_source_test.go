package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

const shardedEventLog = `
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800 }
}
`

// TestKeydesignDataSourceReads plans designs together, each a data source of its own (a test case each cost
// some twelve CLI runs):
//   - events: the shards, suffixes, capacity and routing a day-bucketed event log needs, and no per-Region
//     cost without replicas;
//   - unmeasured: without traffic, the demand is null, and nothing is found;
//   - defaults: types and projections left out come back as the values the table gets (S, ALL), so a module
//     can pass them on as they are; given values are kept;
//   - later: an input unknown at plan time defers the read: the computed attributes are unknown in the plan,
//     known after apply, and nothing fails;
//   - global_events: a global table (globalEventLog): each Region's partitions take the 1,800 writes/s of all
//     three, so the key needs 3 shards (one Region alone needs 1), and every Region pays for all of them:
//     1,800 × 2,628,000 s / 10^6 × $0.625 = $2,956.50 of table writes a month each.
func TestKeydesignDataSourceReads(t *testing.T) {
	t.Parallel()
	events, unmeasured, defaults, global := "data.dynamokeys_keydesign.events", "data.dynamokeys_keydesign.unmeasured",
		"data.dynamokeys_keydesign.defaults", "data.dynamokeys_keydesign.global_events"
	region := func(name string) tfjsonpath.Path {
		return tfjsonpath.New("cost").AtMapKey("replica_regions").AtMapKey(name)
	}
	config := shardedEventLog + strings.Replace(minimalDesign, `"orders"`, `"unmeasured"`, 1) + `
data "dynamokeys_keydesign" "defaults" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", type = "N" }
  segments      = { customer_id = { kind = "id" } }
  local_secondary_indexes = {
    by_total = { sort_key = { name = "total" } }
  }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status" }], sort_key = [{ name = "created", type = "N" }], projection_type = "KEYS_ONLY" }
  }
}

resource "terraform_data" "measured" {
  input = 4000
}
data "dynamokeys_keydesign" "later" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id" }
  traffic       = { writes_per_second = terraform_data.measured.output }
}
output "later_shards" {
  value = data.dynamokeys_keydesign.later.shard_count
}
` + strings.Replace(globalEventLog, `"events"`, `"global_events"`, 1)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("later_shards")}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(events, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(4)),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("shard_width"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("shard_suffixes"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("0"), knownvalue.StringExact("1"), knownvalue.StringExact("2"), knownvalue.StringExact("3")})),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("partition_key_template"), knownvalue.StringExact("DAY#{day}#SHARD#{shard}")),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("capacity"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"write_units_per_write": knownvalue.Float64Exact(1),
					"read_units_per_read":   knownvalue.Float64Exact(0.5),
					"peak_write_units":      knownvalue.Float64Exact(2500),
					"peak_read_units":       knownvalue.Float64Exact(200),
					"hot_key_share":         knownvalue.Float64Exact(1),
					"hot_key_write_units":   knownvalue.Float64Exact(2500),
					"hot_key_read_units":    knownvalue.Float64Exact(200),
					"per_shard_write_units": knownvalue.Float64Exact(625),
					"per_shard_read_units":  knownvalue.Float64Exact(50),
					"read_fanout":           knownvalue.Int64Exact(4),
					"required_shard_count":  knownvalue.Int64Exact(4),
				})),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("routing"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"algorithm":      knownvalue.StringExact("sha256-be32-mod"),
					"count":          knownvalue.Int64Exact(4),
					"width":          knownvalue.Int64Exact(1),
					"source":         knownvalue.StringExact("event_id"),
					"scheme_version": knownvalue.Int64Exact(1),
				})),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("report"), knownvalue.StringRegexp(expectError(`per shard #+\.+\| 625 WCU`))),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("cost").AtMapKey("replica_regions"), knownvalue.Null()),
				statecheck.ExpectKnownValue(events, tfjsonpath.New("cost").AtMapKey("all_regions"), knownvalue.Null()),

				statecheck.ExpectKnownValue(unmeasured, tfjsonpath.New("capacity").AtMapKey("peak_write_units"), knownvalue.Null()),
				statecheck.ExpectKnownValue(unmeasured, tfjsonpath.New("capacity").AtMapKey("hot_key_share"), knownvalue.Float64Exact(0)),
				statecheck.ExpectKnownValue(unmeasured, tfjsonpath.New("routing").AtMapKey("algorithm"), knownvalue.StringExact("none")),
				statecheck.ExpectKnownValue(unmeasured, tfjsonpath.New("findings"), knownvalue.ListSizeExact(0)),

				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("partition_key").AtMapKey("type"), knownvalue.StringExact("S")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("sort_key").AtMapKey("type"), knownvalue.StringExact("N")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("local_secondary_indexes").AtMapKey("by_total").AtMapKey("projection_type"), knownvalue.StringExact("ALL")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("local_secondary_indexes").AtMapKey("by_total").AtMapKey("sort_key").AtMapKey("type"), knownvalue.StringExact("S")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("global_secondary_indexes").AtMapKey("by_status").AtMapKey("partition_key").AtSliceIndex(0).AtMapKey("type"), knownvalue.StringExact("S")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("global_secondary_indexes").AtMapKey("by_status").AtMapKey("sort_key").AtSliceIndex(0).AtMapKey("type"), knownvalue.StringExact("N")),
				statecheck.ExpectKnownValue(defaults, tfjsonpath.New("global_secondary_indexes").AtMapKey("by_status").AtMapKey("projection_type"), knownvalue.StringExact("KEYS_ONLY")),

				statecheck.ExpectKnownOutputValue("later_shards", knownvalue.Int64Exact(5)), // 4,000 WCU / (1,000 × 0.8)

				statecheck.ExpectKnownValue(global, tfjsonpath.New("shard_count"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(global, tfjsonpath.New("capacity").AtMapKey("hot_key_write_units"), knownvalue.Float64Exact(1800)),
				statecheck.ExpectKnownValue(global, tfjsonpath.New("capacity").AtMapKey("hot_key_read_units"), knownvalue.Float64Exact(50)),
				statecheck.ExpectKnownValue(global, region("us-east-2").AtMapKey("on_demand").AtMapKey("table_writes"), knownvalue.Float64Exact(2956.5)),
				statecheck.ExpectKnownValue(global, region("us-east-1").AtMapKey("write_share"), knownvalue.Float64Func(func(v float64) error {
					if v < 0.3333 || v > 0.3334 {
						return fmt.Errorf("write share %v, want a third", v)
					}
					return nil
				})),
				statecheck.ExpectKnownValue(global, region("us-west-2").AtMapKey("prices"),
					knownvalue.StringRegexp(expectError(`^estimates, not confirmed list prices, for write request units`))),
				statecheck.ExpectKnownValue(global, tfjsonpath.New("cost").AtMapKey("prices"),
					knownvalue.StringRegexp(expectError(`^confirmed list prices \(sources as of \d{4}-\d\d-\d\d\) for write request units`))),
				statecheck.ExpectKnownValue(global, tfjsonpath.New("cost").AtMapKey("all_regions").AtMapKey("on_demand"), knownvalue.Float64Func(func(v float64) error {
					if v < 3*2972.92 || v > 3*2972.94 {
						return fmt.Errorf("all Regions on-demand %v, want 3 × $2,972.93", v)
					}
					return nil
				})),
				statecheck.ExpectKnownValue(global, tfjsonpath.New("report"),
					knownvalue.StringRegexp(regexp.MustCompile(`us-east-1 +600 writes/s made here \(33\.3%\) \+ 1,200/s replicated`))),
			},
		}},
	})
}

// The design_document attribute is the analyzed design, encoded, versioned, with the provider's version and
// no address (the provider cannot know it); decode_design_document and Terraform's own functions read it
// back; the plan is unknown while an input is.
func TestKeydesignDataSourceDesignDocument(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id" }
  traffic       = { writes_per_second = 2500 }
}
locals {
  document = jsondecode(provider::dynamokeys::decode_design_document(data.dynamokeys_keydesign.events.design_document))
}
output "document" {
  value = local.document
}
output "same_without_the_function" {
  value = jsondecode(trimprefix(data.dynamokeys_keydesign.events.design_document, "dk1:")) == local.document
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("same_without_the_function", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("document", knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"schema_version":   knownvalue.Int64Exact(1),
					"provider_version": knownvalue.StringExact("test"),
					"kind":             knownvalue.StringExact("keydesign"),
					"address":          knownvalue.StringExact(""),
					"prior":            knownvalue.Null(),
					"derived": knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"required_shards": knownvalue.Int64Exact(4),
						"shard_count":     knownvalue.Int64Exact(4),
					}),
				})),
			},
		}, {
			Config: `
resource "terraform_data" "measured" {
  input = 2500
}
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id" }
  traffic       = { writes_per_second = terraform_data.measured.output }
}
output "document" {
  value = data.dynamokeys_keydesign.events.design_document
}
output "decoded" {
  value = provider::dynamokeys::decode_design_document(data.dynamokeys_keydesign.events.design_document)
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownOutputValue("document"), plancheck.ExpectUnknownOutputValue("decoded"),
			}},
		}},
	})
}

func TestKeydesignDataSourceBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, config, expect string
	}{
		{"braces in literal text", `partition_key = { name = "pk", template = "DAY}#{day}" }
  segments = { day = { kind = "time", granularity = "day" } }`, `partition_key.template: template "DAY}#{day}" is malformed at character 4`},
		{"bad placeholder name", `partition_key = { name = "pk", template = "T#{Tenant}" }`, `partition_key.template: .*\[a-z\]\[a-z0-9_\]\*`},
		{"negative traffic", `partition_key = { name = "pk", template = "C#{id}" }
  segments = { id = { kind = "id" } }
  traffic = { writes_per_second = -5 }`, `traffic.writes_per_second: must be a finite number ≥ 0`},
		{"utilisation above one", `partition_key = { name = "pk", template = "C#{id}" }
  segments = { id = { kind = "id" } }
  target_utilization = 1.2`, `target_utilization: must be in \(0, 1\]`},
		{"unknown kind", `partition_key = { name = "pk", template = "C#{id}" }
  segments = { id = { kind = "uuid" } }`, `segments\["id"\].kind value must be one of`},
		{"unknown granularity", `partition_key = { name = "pk", template = "D#{d}" }
  segments = { d = { kind = "time", granularity = "fortnight" } }`, `segments\["d"\].granularity value must be one of`},
		{"time without granularity", `partition_key = { name = "pk", template = "D#{d}" }
  segments = { d = { kind = "time" } }`, `segments.d.granularity: a time segment needs a granularity`},
		{"unknown consistency", `partition_key = { name = "pk", template = "C#{id}" }
  segments = { id = { kind = "id" } }
  traffic = { read_consistency = "linearizable" }`, `traffic.read_consistency value must be one of`},
		{"enum without values", `partition_key = { name = "pk", template = "S#{status}" }
  segments = { status = { kind = "enum" } }`, `segments.status.values: an enum segment needs at least one value`},
		{"zero shards", `partition_key = { name = "pk", template = "S#{id}#{shard}" }
  segments = { id = { kind = "id" } }
  sharding = { strategy = "calculated", source = "id", count = 0 }`, `sharding.count: must be between 1 and 100000`},
	}
	cases := make([]errorCase, len(tests))
	for i, tt := range tests {
		cases[i] = errorCaseOf(tt.name, "data \"dynamokeys_keydesign\" \""+caseLabel(i)+"\" {\n  "+tt.config+"\n}\n", tt.expect)
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}

func TestAttributePath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   model.Path
		want path.Path
	}{
		{model.Path{"traffic", "writes_per_second"}, path.Root("traffic").AtName("writes_per_second")},
		{model.Path{"segments", "day", "granularity"}, path.Root("segments").AtMapKey("day").AtName("granularity")},
		{model.Path{"global_secondary_indexes", "by.customer", "partition_key", "1", "type"},
			path.Root("global_secondary_indexes").AtMapKey("by.customer").AtName("partition_key").AtListIndex(1).AtName("type")},
		{model.Path{"segments", "segments", "values", "0"}, path.Root("segments").AtMapKey("segments").AtName("values").AtListIndex(0)},
		{model.Path{}, path.Empty()},
	}
	for _, tt := range tests {
		if got := attributePath(tt.in); !got.Equal(tt.want) {
			t.Errorf("attributePath(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestFindingDiagnosticsFollowEnforce(t *testing.T) {
	t.Parallel()
	findings := []policy.Finding{
		{Rule: "DK303", Name: "hot-key-demand", Severity: policy.SeverityError, Message: "busiest key needs 2,500 WCU",
			Path: model.Path{"traffic", "writes_per_second"}, Remediation: "shard the key", DocsURL: "https://example.test/DK303"},
		{Rule: "DK302", Name: "low-cardinality-partition-key", Severity: policy.SeverityWarning, Message: "few values"},
	}
	enforced := findingDiagnostics(findings, true)
	if enforced.ErrorsCount() != 1 || enforced.WarningsCount() != 1 {
		t.Fatalf("enforced: %d errors, %d warnings; want 1 and 1", enforced.ErrorsCount(), enforced.WarningsCount())
	}
	withPath, ok := enforced.Errors()[0].(diag.DiagnosticWithPath)
	// Terraform places nested paths by their last name, so the diagnostic sits on the top-level attribute
	// and the text names the full path.
	if !ok || !withPath.Path().Equal(path.Root("traffic")) {
		t.Errorf("error diagnostic is not on traffic: %v", enforced.Errors()[0])
	}
	if got := enforced.Errors()[0].Summary(); got != "DK303 hot-key-demand: busiest key needs 2,500 WCU" {
		t.Errorf("summary = %q", got)
	}
	if detail := enforced.Errors()[0].Detail(); detail != "traffic.writes_per_second: busiest key needs 2,500 WCU\n\nRemedy: shard the key\n\nSee https://example.test/DK303" {
		t.Errorf("detail = %q", detail)
	}
	relaxed := findingDiagnostics(findings, false)
	if relaxed.ErrorsCount() != 0 || relaxed.WarningsCount() != 2 {
		t.Errorf("enforce = false: %d errors, %d warnings; want 0 and 2", relaxed.ErrorsCount(), relaxed.WarningsCount())
	}
}

func TestDiagnosticPathStopsAtTheElement(t *testing.T) {
	tests := []struct {
		in   model.Path
		want path.Path
	}{
		{model.Path{"global_secondary_indexes", "by_customer", "partition_key", "0", "type"}, path.Root("global_secondary_indexes").AtMapKey("by_customer")},
		{model.Path{"global_secondary_indexes", "by_customer"}, path.Root("global_secondary_indexes").AtMapKey("by_customer")},
		{model.Path{"segments", "day", "granularity"}, path.Root("segments").AtMapKey("day")},
		{model.Path{"sharding", "count"}, path.Root("sharding")},
		{model.Path{"partition_key", "template"}, path.Root("partition_key")},
		{model.Path{"name"}, path.Root("name")},
		{nil, path.Empty()},
	}
	for _, tt := range tests {
		if got := diagnosticPath(tt.in); !got.Equal(tt.want) {
			t.Errorf("diagnosticPath(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
