package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// ordersKeys is the orders table of the access-patterns guide: orders under their customer, by date then id,
// with a GSI by order id and one by status and warehouse (status alone has three values: DK302).
const ordersKeys = `
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_date}#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_date  = { kind = "time", granularity = "day", monotonic = false }
    order_id    = { kind = "id" }
    status      = { kind = "enum", values = ["PENDING", "PAID", "SHIPPED"] }
  }
  global_secondary_indexes = {
    by_order  = { partition_key = [{ name = "order_id" }] }
    by_status = { partition_key = [{ name = "status" }, { name = "warehouse_id" }], sort_key = [{ name = "order_date" }], projection_type = "INCLUDE", non_key_attributes = ["total"] }
  }`

// ordersWithPatterns is the orders design named name with the access patterns given, its findings' messages
// (output messages_<name>), its report (report_<name>) and its rules (namedFindingRules).
func ordersWithPatterns(name, patterns string) string {
	return fmt.Sprintf(`
data "dynamokeys_keydesign" %[1]q {
%[2]s
  access_patterns = {
%[3]s
  }
  enforce = false
}
output "messages_%[1]s" {
  value = [for f in data.dynamokeys_keydesign.%[1]s.findings : "${f.rule} ${f.path}: ${f.message}"]
}
output "report_%[1]s" {
  value = data.dynamokeys_keydesign.%[1]s.report
}
`, name, ordersKeys, patterns) + namedFindingRules(name)
}

// TestAccKeyDesignAccessPatterns plans four designs together (a test case each cost some twelve CLI runs):
//   - well_modeled: the guide's final design serves every pattern with one Query, and the report's table says
//     which key serves each;
//   - broken: each pattern breaks one rule, and exactly those rules are reported, each on its pattern and
//     naming it;
//   - events: a sharded table read without the shard source fans out, and an index no pattern reads is
//     reported;
//   - unknown: values not known at plan time are no error; the findings come once they are known.
func TestAccKeyDesignAccessPatterns(t *testing.T) {
	t.Parallel()
	config := ordersWithPatterns("well_modeled", `
    order_by_id        = { equals = ["order_id"], reads_per_second = 300 }
    orders_of_customer = { equals = ["customer_id"], sort = { on = "order_date", condition = "between" }, reads_per_second = 200, items = 25, attributes = ["total"] }
    pending_orders     = { index = "by_status", equals = ["status", "warehouse_id"], sort = { on = "order_date", condition = ">=" }, reads_per_second = 50, items = 100, attributes = ["total", "customer_id"] }`) +
		ordersWithPatterns("broken", `
    orders_by_status = { equals = ["status"], reads_per_second = 5, index = "by_order" }
    orders_by_id_day = { index = "table", equals = ["customer_id"], sort = { on = "order_id", condition = "=" }, reads_per_second = 10 }
    strong_status    = { index = "by_status", equals = ["status", "warehouse_id"], consistency = "strong", reads_per_second = 1 }
    status_address   = { index = "by_status", equals = ["status", "warehouse_id"], attributes = ["address"], reads_per_second = 1 }
    hot_pending      = { index = "by_status", equals = ["status", "warehouse_id"], hot_key_share = 1, items = 2000, reads_per_second = 40 }`) + `
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" }, device_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id", count = 16 }
  global_secondary_indexes = { by_device = { partition_key = [{ name = "device_id" }] } }
  access_patterns = {
    events_of_day = { equals = ["day"], reads_per_second = 10, items = 50 }
    one_event     = { equals = ["day", "event_id"], reads_per_second = 100 }
  }
  enforce = false
}
output "messages_events" {
  value = [for f in data.dynamokeys_keydesign.events.findings : "${f.rule} ${f.path}: ${f.message}"]
}
` + namedFindingRules("events") + `
resource "terraform_data" "later" {
  input = { rate = 50, index = "by_missing" }
}
data "dynamokeys_keydesign" "unknown" {
` + ordersKeys + `
  access_patterns = {
    pending = { index = "by_status", equals = ["status", "warehouse_id"], reads_per_second = terraform_data.later.output.rate }
    unknown_index = { index = terraform_data.later.output.index == "x" ? "table" : "by_order", equals = ["order_id"], reads_per_second = 1 }
  }
}
` + namedFindingRules("unknown")
	var checks []statecheck.StateCheck
	checks = append(checks, expectNamedRules("well_modeled", true)...)
	checks = append(checks, statecheck.ExpectKnownOutputValue("report_well_modeled", knownvalue.StringRegexp(regexp.MustCompile(
		`(?s)Access patterns\n.*order_by_id\s+GSI by_order\s+1\s+150\s+ok\n.*orders_of_customer\s+table key\s+1\s+700\s+ok\n.*pending_orders\s+GSI by_status\s+1\s+625\s+ok`))))
	checks = append(checks, expectNamedRules("broken", false, "DK801:error", "DK802:error", "DK804:error", "DK805:warning", "DK807:error", "DK808:warning")...)
	checks = append(checks, statecheck.ExpectKnownOutputValue("messages_broken", knownvalue.SetExact([]knownvalue.Check{
		knownvalue.StringRegexp(regexp.MustCompile(`^DK801 access_patterns\.orders_by_status: pattern "orders_by_status" asks index "by_order", whose partition key needs order_id; the query knows status, so only a Scan can answer it: a GSI with partition key \[status\] serves it$`)),
		knownvalue.StringRegexp(regexp.MustCompile(`^DK802 access_patterns\.orders_by_id_day: pattern "orders_by_id_day": the condition is on \{order_id\}, but \{order_date\} comes before it`)),
		knownvalue.StringRegexp(regexp.MustCompile(`^DK804 access_patterns\.strong_status\.consistency: pattern "strong_status" asks GSI "by_status" for strong reads`)),
		knownvalue.StringRegexp(regexp.MustCompile(`^DK805 access_patterns\.status_address\.attributes: pattern "status_address" needs address, which index "by_status" \(projection INCLUDE\)`)),
		// 2,000 items of 1 KB: 500 units halved, 250 RCU per call, 40 calls/s, all on one status.
		knownvalue.StringRegexp(regexp.MustCompile(`^DK807 access_patterns\.hot_pending: pattern "hot_pending" puts 10,000 RCU/s on one partition of index "by_status"`)),
		knownvalue.StringRegexp(regexp.MustCompile(`^DK808 access_patterns\.hot_pending\.items: pattern "hot_pending" reads 2,000 items of 1,024 bytes`)),
	})))
	checks = append(checks, expectNamedRules("events", true, "DK803:warning", "DK806:warning")...)
	checks = append(checks, statecheck.ExpectKnownOutputValue("messages_events", knownvalue.SetExact([]knownvalue.Check{
		// 50 KB per shard: 13 units halved = 6.5 RCU per Query, 16 Queries per call.
		knownvalue.StringExact(`DK803 access_patterns.events_of_day: pattern "events_of_day" queries all 16 shards of the table's key per call ` +
			`(the query does not know the shard source {event_id}): 16x the reads, 104 RCU per call instead of 6.5, 1,040 RCU/s`),
		knownvalue.StringExact(`DK806 global_secondary_indexes.by_device: no access pattern reads GSI "by_device" (2 declared), yet writes to the table also write it`),
	})))
	checks = append(checks, statecheck.ExpectKnownOutputValue("ok_unknown", knownvalue.Bool(true)))
	unitSteps(t, resource.TestStep{
		Config:            config,
		ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("ok_unknown")}},
		ConfigStateChecks: checks,
	})
}

// accessPatternBadInputs are rejected at plan with a diagnostic on the pattern's attribute.
var accessPatternBadInputs = []badInput{
	{"pattern naming an unknown index", `access_patterns = { q = { index = "by_day", equals = ["customer_id"], reads_per_second = 1 } }`,
		`access_patterns\.q\.index: names no key of this design: use "table"`},
	{"pattern knowing an unknown segment", `access_patterns = { q = { equals = ["customer_id", "region"], reads_per_second = 1 } }`,
		`access_patterns\.q\.equals\[1\]: "region" is neither a segment of a key template nor a key attribute`},
	{"sort condition on a key without sort key", `global_secondary_indexes = { by_region = { partition_key = [{ name = "region" }] } }
  access_patterns = { q = { index = "by_region", equals = ["region"], sort = { on = "order_id", condition = "=" }, reads_per_second = 1 } }`,
		`access_patterns\.q\.sort: index "by_region" has no sort key`},
	{"begins_with on a number sort key", `global_secondary_indexes = { by_region = { partition_key = [{ name = "region" }], sort_key = [{ name = "seq", type = "N" }] } }
  access_patterns = { q = { index = "by_region", equals = ["region"], sort = { on = "seq", condition = "begins_with" }, reads_per_second = 1 } }`,
		`access_patterns\.q\.sort\.condition: begins_with works on string and binary keys only`},
	{"pattern with zero reads", `access_patterns = { q = { equals = ["customer_id"], reads_per_second = 0 } }`,
		`access_patterns\.q\.reads_per_second: must be a number of calls per second above 0, got 0`},
	{"pattern with negative items", `access_patterns = { q = { equals = ["customer_id"], reads_per_second = 1, items = -2 } }`,
		`access_patterns\.q\.items: must be between 1 and`},
	{"unknown sort condition", `access_patterns = { q = { equals = ["customer_id"], sort = { on = "order_id", condition = "like" }, reads_per_second = 1 } }`,
		`access_patterns\["q"\]\.sort\.condition value must be one of`},
}

func init() { tableBadInputs = append(tableBadInputs, accessPatternBadInputs...) }

// TestAccShardedTableAccessPatternsTouchNothing: declaring access patterns on a live table updates the design
// outputs only; the table stays the one created.
func TestAccShardedTableAccessPatternsTouchNothing(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "patterns-orders"
	created := &tableCreation{}
	// config is the table with the access_patterns line patterns (none when empty).
	config := func(patterns string) string {
		return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "customer", template = "CUSTOMER#{customer_id}" }
  sort_key            = { name = "order_key", template = "ORDER#{order_id}" }
  segments            = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  %s
}`, name, patterns)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				Config: config(""),
				Check:  created.record(api, name),
			},
			{
				Config: config(`access_patterns     = { orders_of_customer = { equals = ["customer_id"], reads_per_second = 40, items = 10 } }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("report"),
						knownvalue.StringRegexp(regexp.MustCompile(`orders_of_customer\s+table key\s+1\s+60\s+ok`))),
				},
				Check: created.unchanged(api, name, "customer", "order_key"),
			},
			{
				// Changing a pattern again plans an update and nothing else.
				Config: config(`access_patterns     = { orders_of_customer = { equals = ["customer_id"], reads_per_second = 80, items = 10 } }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
				}},
				Check: created.unchanged(api, name, "customer", "order_key"),
			},
		},
	})
}
