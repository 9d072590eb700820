package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// parityDesigns are the designs of the parity test, as dynamokeys_keydesign bodies (enforce = false is
// added, so that a design with error findings still plans). Between them, the resources below and the
// examples, every rule of the catalogue fires.
var parityDesigns = map[string]string{
	// A migration whose declared backfill rate throttles the new shards (DK408).
	"migration_backfill_throttles": `partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id", count = 4, scheme_version = 2 }
  traffic       = { writes_per_second = 2500, item_count = 10000000 }
  migration     = { phase = "dual_write", from = { partition_key_template = "DAY#{day}", sharding = { strategy = "none" } }, backfill_write_units_per_second = 2000 }`,
	"clean": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  traffic       = { writes_per_second = 100, reads_per_second = 200 }`,
	"time_bucket_over_partition": `partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  traffic       = { writes_per_second = 2500 }`,
	"time_bucket_quiet": `partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  traffic       = { writes_per_second = 100 }`,
	"status_partition_key": `partition_key = { name = "status", template = "{status}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { status = { kind = "enum", values = ["pending", "paid", "shipped"] }, order_id = { kind = "id" } }
  traffic       = { writes_per_second = 100 }`,
	"lsi_unbounded": `partition_key = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key      = { name = "sk", template = "DOC#{doc_id}" }
  segments      = { tenant_id = { kind = "id" }, doc_id = { kind = "id" } }
  local_secondary_indexes = { by_updated = { sort_key = { name = "updated", type = "N" }, projection_type = "KEYS_ONLY" } }
  traffic       = { writes_per_second = 50 }`,
	"lsi_over_limit": `partition_key = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key      = { name = "sk", template = "DOC#{doc_id}" }
  segments      = { tenant_id = { kind = "id" }, doc_id = { kind = "id" } }
  local_secondary_indexes = { by_updated = { sort_key = { name = "updated", type = "N" } } }
  traffic       = { writes_per_second = 50, max_items_per_partition_key = 20000000 }`,
	"lsi_near_limit": `partition_key = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key      = { name = "sk", template = "DOC#{doc_id}" }
  segments      = { tenant_id = { kind = "id" }, doc_id = { kind = "id" } }
  local_secondary_indexes = { by_updated = { sort_key = { name = "updated", type = "N" } } }
  traffic       = { writes_per_second = 50, max_items_per_partition_key = 4500000 }`,
	"lsi_hot_key": `partition_key = { name = "pk", template = "TENANT#{tenant_id}" }
  sort_key      = { name = "sk", template = "DOC#{doc_id}" }
  segments      = { tenant_id = { kind = "id" }, doc_id = { kind = "id" } }
  local_secondary_indexes = { by_updated = { sort_key = { name = "updated", type = "N" } } }
  traffic       = { writes_per_second = 3000, hot_key_share = 0.5, max_items_per_partition_key = 1000 }`,
	"bool_key": `partition_key = { name = "enabled", type = "BOOL" }`,
	"partition_key_too_long": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id", max_length = 3000 } }`,
	"sort_key_too_long": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id", max_length = 2000 } }`,
	"undeclared_placeholder": `partition_key = { name = "pk", template = "TENANT#{tenant}" }`,
	"number_key_with_text": `partition_key = { name = "pk", type = "N", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }`,
	"mixed_conventions": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "order-{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }`,
	"short_index_name": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  global_secondary_indexes = { g = { partition_key = [{ name = "region" }] } }`,
	"gsi_five_partition_attributes": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  global_secondary_indexes = { by_five = { partition_key = [{ name = "a" }, { name = "b" }, { name = "c" }, { name = "d" }, { name = "e" }] } }`,
	"six_lsis": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  traffic       = { max_items_per_partition_key = 100 }
  local_secondary_indexes = {
    l1 = { sort_key = { name = "a1" } }
    l2 = { sort_key = { name = "a2" } }
    l3 = { sort_key = { name = "a3" } }
    l4 = { sort_key = { name = "a4" } }
    l5 = { sort_key = { name = "a5" } }
    l6 = { sort_key = { name = "a6" } }
  }`,
	"lsi_without_sort_key": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  traffic       = { max_items_per_partition_key = 100 }
  local_secondary_indexes = { by_created = { sort_key = { name = "created" } } }`,
	"hot_item": `partition_key = { name = "pk", template = "PRODUCT#{product_id}" }
  segments      = { product_id = { kind = "id" } }
  traffic       = { reads_per_second = 30000, hottest_item_reads_per_second = 24000, read_consistency = "strong" }`,
	"monotonic_sort_key_under_busy_key": `partition_key = { name = "pk", template = "DEVICE#{device_id}" }
  sort_key      = { name = "sk", template = "TS#{ts}" }
  segments      = { device_id = { kind = "id" }, ts = { kind = "time", granularity = "second" } }
  traffic       = { writes_per_second = 1000, hot_key_share = 0.7 }`,
	"random_sharding": `partition_key = { name = "pk", template = "CANDIDATE#{candidate}#{shard}" }
  segments      = { candidate = { kind = "id" } }
  sharding      = { strategy = "random", count = 4 }
  traffic       = { writes_per_second = 3000, hot_key_share = 0.5 }`,
	"sharding_without_placeholder": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "order_id", count = 4 }`,
	"too_many_shards": `partition_key = { name = "pk", template = "DAY#{day}#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id", count = 200 }
  traffic       = { writes_per_second = 1000 }`,
	"calculated_without_source": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}#{shard}" }
  segments      = { customer_id = { kind = "id" } }
  sharding      = { strategy = "calculated", count = 4 }`,
	"gsi_time_bucketed": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" }, day = { kind = "time", granularity = "day" } }
  global_secondary_indexes = { by_day = { partition_key = [{ name = "day" }] } }
  traffic       = { writes_per_second = 500 }`,
	"gsi_hot_partition": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  global_secondary_indexes = { by_region = { partition_key = [{ name = "region", cardinality = 2 }] } }
  traffic       = { writes_per_second = 3000 }`,
	"projection_limit": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  global_secondary_indexes = {
    by_a = { partition_key = [{ name = "customer_id" }], projection_type = "INCLUDE", non_key_attributes = [for i in range(60) : "a${i}"] }
    by_b = { partition_key = [{ name = "region_id" }], projection_type = "INCLUDE", non_key_attributes = [for i in range(60) : "b${i}"] }
  }`,
	"gsi_count": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  global_secondary_indexes = { for i in range(21) : "by_${i}" => { partition_key = [{ name = "attr${i}" }] } }`,
	"table_quota": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  traffic       = { writes_per_second = 50000, reads_per_second = 1000 }`,
	"cold_table": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  traffic       = { writes_per_second = 5000 }`,
	// Global tables: MRSC in two Regions (DK604), MRSC with an LSI, TTL and transactional writes (DK605),
	// write shares summing to 0.8 (DK606), and the busiest key's global write demand (DK301, DK303 say so).
	"mrsc_two_regions": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {} }, consistency = "strong" }`,
	"mrsc_features": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  sort_key      = { name = "sk", template = "LINE#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  local_secondary_indexes = { by_date = { sort_key = { name = "created" } } }
  traffic       = { writes_per_second = 10, transactional_writes = true }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {} }, witness = "us-west-2", consistency = "strong", ttl_deletes_per_second = 1 }`,
	"replica_shares": `partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  traffic       = { writes_per_second = 1500 }
  replicas      = { regions = { "us-east-1" = { write_share = 0.5 }, "eu-west-1" = { write_share = 0.3 } } }`,
	"index_write_cost": `partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customer_id" }], projection_type = "ALL" }
    by_status   = { partition_key = [{ name = "status" }], projection_type = "KEYS_ONLY" }
  }
  traffic       = { writes_per_second = 200, average_writes_per_second = 50, item_size_bytes = 2500 }`,
	// Access patterns: DK801, DK802 and DK806 (by_region is read by no pattern).
	"access_patterns_scan_and_sort": `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_date}#{order_id}" }
  segments      = { customer_id = { kind = "id" }, order_date = { kind = "time", granularity = "day", monotonic = false }, order_id = { kind = "id" } }
  global_secondary_indexes = { by_region = { partition_key = [{ name = "region" }, { name = "store" }] } }
  access_patterns = {
    order_by_id     = { equals = ["order_id"], reads_per_second = 100 }
    orders_by_id    = { equals = ["customer_id"], sort = { on = "order_id", condition = "between" }, reads_per_second = 20 }
    recent_orders   = { equals = ["customer_id"], sort = { on = "order_date", condition = ">" }, reads_per_second = 20, items = 10 }
  }`,
	// Access patterns on a GSI: DK804, DK805, DK807, DK808.
	"access_patterns_gsi": `partition_key = { name = "pk", template = "PRODUCT#{product_id}" }
  segments      = { product_id = { kind = "id" } }
  global_secondary_indexes = {
    by_category = { partition_key = [{ name = "category", cardinality = 500 }], sort_key = [{ name = "rank", type = "N" }], projection_type = "KEYS_ONLY" }
  }
  access_patterns = {
    top_products  = { equals = ["category"], sort = { on = "rank", condition = "<=" }, reads_per_second = 1500, items = 20, attributes = ["price"], hot_key_share = 0.5, item_size_bytes = 2048 }
    full_category = { index = "by_category", equals = ["category"], reads_per_second = 2, items = 5000, consistency = "strong" }
  }`,
	// Entities of a single table: DK109 (an invoice can write an order's key); the day bucket both write
	// is one hot collection (DK301, DK303).
	"entities_colliding": `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { day = { kind = "time", granularity = "day" }, order_id = { kind = "id" }, invoice_id = { kind = "id" } }
  entities = {
    order   = { keys = { PK = "DAY#{day}", SK = "ORDER#{order_id}" }, traffic = { writes_per_second = 600 } }
    invoice = { keys = { PK = "DAY#{day}", SK = "ORDER#{invoice_id}" }, traffic = { writes_per_second = 700 } }
  }`,
	// DK110: the orders of a customer, read without a sort condition, return the profile too.
	"entities_sort_overlap": `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { customer_id = { kind = "id" }, order_id = { kind = "id" } }
  entities = {
    customer = { keys = { PK = "CUSTOMER#{customer_id}", SK = "PROFILE" }, traffic = { writes_per_second = 10, max_items_per_partition_key = 1 } }
    order    = { keys = { PK = "CUSTOMER#{customer_id}", SK = "ORDER#{order_id}" }, traffic = { writes_per_second = 100 } }
  }
  access_patterns = {
    orders_of_customer = { entities = ["order"], equals = ["customer_id"], items = 20, reads_per_second = 50 }
    profile            = { entities = ["customer"], equals = ["customer_id"], reads_per_second = 50 }
  }`,
	// DK111: a number-typed index key whose template has a prefix.
	"entities_index_key_type": `partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments      = { customer_id = { kind = "id" }, total = { kind = "number" } }
  global_secondary_indexes = { GSI1 = { partition_key = [{ name = "GSI1PK" }], sort_key = [{ name = "GSI1SK", type = "N" }] } }
  entities = {
    customer = { keys = { PK = "CUSTOMER#{customer_id}", SK = "PROFILE", GSI1PK = "CUSTOMERS", GSI1SK = "TOTAL#{total}" } }
  }`,
	// Access patterns on a write-sharded key: DK803.
	"access_patterns_fanout": `partition_key = { name = "pk", template = "DAY#{day}#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding      = { strategy = "calculated", source = "event_id", count = 8 }
  access_patterns = {
    events_of_day = { equals = ["day"], reads_per_second = 5, items = 100 }
    one_event     = { equals = ["day", "event_id"], reads_per_second = 50 }
  }`,
}

// parityTables are dynamokeys_sharded_table bodies planned for creation (never applied).
var parityTables = map[string]string{
	"provisioned_below_demand": `name           = "orders-provisioned"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 10
  partition_key  = { name = "pk", template = "ORDER#{order_id}" }
  segments       = { order_id = { kind = "id" } }
  traffic        = { writes_per_second = 100, reads_per_second = 100 }`,
	"bad_name": `name          = "bad table!"
  partition_key = { name = "pk", template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id" } }`,
	"provisioned_costing_more": `name           = "orders-spiky"
  billing_mode   = "PROVISIONED"
  read_capacity  = 1000
  write_capacity = 500
  partition_key  = { name = "pk", template = "ORDER#{order_id}" }
  segments       = { order_id = { kind = "id" } }
  traffic        = { writes_per_second = 400, average_writes_per_second = 10, reads_per_second = 800, average_reads_per_second = 20 }
  pricing        = { region = "eu-west-1" }`,
	"hot_day": `name          = "events-hot"
  partition_key = { name = "pk", template = "DAY#{day}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments      = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  traffic       = { writes_per_second = 2500, reads_per_second = 400 }`,
}

// withEnforceOff adds enforce = false to a block body, replacing any enforce it has.
func withEnforceOff(body string) string {
	return regexp.MustCompile(`(?m)^\s*enforce\s*=.*$`).ReplaceAllString(body, "") + "\n  enforce = false"
}

// exampleBlocks are the dynamokeys_keydesign and dynamokeys_sharded_table blocks of the examples, renamed
// after their directory and with enforce = false.
func exampleBlocks(t *testing.T) (string, int) {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "examples", "*", "*", "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "examples", "quickstart", "*.tf"))
	block := regexp.MustCompile(`(?ms)^(data|resource) "(dynamokeys_keydesign|dynamokeys_sharded_table)" "([a-z_]+)" \{\n(.*?)^\}`)
	var out strings.Builder
	n := 0
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := strings.NewReplacer("-", "_", string(filepath.Separator), "_").Replace(filepath.Base(filepath.Dir(f)))
		for _, m := range block.FindAllStringSubmatch(string(src), -1) {
			if strings.Contains(m[4], "var.") || strings.Contains(m[4], "local.") {
				continue // a module's block needs the module's inputs, a block on locals its file; its own example test plans it
			}
			fmt.Fprintf(&out, "%s %q %q {\n%s\n}\n", m[1], m[2], "example_"+dir+"_"+m[3], withEnforceOff(m[4]))
			n++
		}
	}
	return out.String(), n
}

// parityRules are the (rule, severity) pairs each address reported, as "DK301:error".
type parityRules map[string][]string

func (p parityRules) add(address, rule, severity string) {
	if !slices.Contains(p[address], rule+":"+severity) {
		p[address] = append(p[address], rule+":"+severity)
		slices.Sort(p[address])
	}
}

// providerReported reads the findings attribute of every dynamokeys_sharded_table the plan creates or
// updates and of every dynamokeys_keydesign data source read while planning: what the provider reported.
func providerReported(plan *tfjson.Plan) parityRules {
	out := parityRules{}
	read := func(address string, values map[string]any) {
		out[address] = []string{}
		findings, _ := values["findings"].([]any)
		for _, raw := range findings {
			f, _ := raw.(map[string]any)
			out.add(address, fmt.Sprint(f["rule"]), fmt.Sprint(f["severity"]))
		}
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Type == "dynamokeys_sharded_table" && (rc.Change.Actions.Create() || rc.Change.Actions.Update()) {
			after, _ := rc.Change.After.(map[string]any)
			read(rc.Address, after)
		}
	}
	if plan.PriorState != nil && plan.PriorState.Values != nil && plan.PriorState.Values.RootModule != nil {
		for _, r := range plan.PriorState.Values.RootModule.Resources {
			if r.Type == "dynamokeys_keydesign" && r.Mode == tfjson.DataResourceMode {
				read(r.Address, r.AttributeValues)
			}
		}
	}
	return out
}

// conftestOnPlan runs the real conftest on a plan's JSON; the bundlecheck build (make check-bundle) sets it.
var conftestOnPlan func(planJSON []byte) (deny, warn []policy.PlanResult, err error)

// parityCheck is the plan check of the parity test: the bundle's conftest entry points on the plan's JSON
// report, for every dynamokeys resource and data source, exactly the (rule, severity) pairs the provider
// reported, and nothing else. fired collects the rules seen; the plan must hold at least minDesigns designs.
type parityCheck struct {
	fired      map[string]bool
	minDesigns int
	// tflint, when set, is what the TFLint ruleset reported on the same configuration before the plan
	// (tflintReported): the same rule ids for every block, since every input here is literal.
	tflint *tflintParity
}

func (c parityCheck) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	planJSON, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	provider := providerReported(req.Plan)
	if len(provider) < c.minDesigns {
		resp.Error = fmt.Errorf("the plan holds %d dynamokeys designs, want at least %d", len(provider), c.minDesigns)
		return
	}
	var problems []string
	compare := func(tool string, deny, warn []policy.PlanResult) {
		got := parityRules{}
		for a := range provider {
			got[a] = []string{}
		}
		// Every design here has enforce = false, so the bundle, like the provider, reports error findings as
		// warn results (their severity stays error) and denies nothing.
		for kind, results := range map[string][]policy.PlanResult{"deny": deny, "warn": warn} {
			for _, r := range results {
				switch {
				case model.IsChangeRule(r.Rule):
					continue // the provider's are diagnostics of the plan, not planned findings (see above)
				case r.Rule == "":
					problems = append(problems, fmt.Sprintf("%s reported a result without a rule: %s", tool, r.Msg))
					continue
				case kind == "deny":
					problems = append(problems, fmt.Sprintf("%s denied %s %s although its design has enforce = false", tool, r.Rule, r.Address))
				}
				got.add(r.Address, r.Rule, r.Severity)
			}
		}
		for _, a := range slices.Sorted(maps.Keys(got)) {
			if !slices.Equal(got[a], provider[a]) {
				problems = append(problems, fmt.Sprintf("%s: the provider reported %v, %s %v", a, provider[a], tool, got[a]))
			}
		}
	}
	deny, warn, err := policy.EvaluatePlan(ctx, planJSON)
	if err != nil {
		resp.Error = err
		return
	}
	compare("the bundle through OPA", deny, warn)
	if conftestOnPlan != nil {
		deny, warn, err := conftestOnPlan(planJSON)
		if err != nil {
			resp.Error = err
			return
		}
		compare("conftest", deny, warn)
	}
	for _, rules := range provider {
		for _, r := range rules {
			c.fired[strings.SplitN(r, ":", 2)[0]] = true
		}
	}
	if c.tflint != nil {
		problems = append(problems, compareTFLint(provider, *c.tflint)...)
	}
	if len(problems) > 0 {
		resp.Error = fmt.Errorf("the bundle, TFLint and the provider disagree:\n%s", strings.Join(problems, "\n"))
	}
}

// parityLiveTable is a table applied on dynoxide and then changed, for DK402, DK406 and DK407, which need
// prior state; extra adds attributes (a scheme version, a migration).
func parityLiveTable(count int, extra string) string {
	return fmt.Sprintf(`
resource "dynamokeys_sharded_table" "live" {
  name                = "parity-live"
  deletion_protection = false
  enforce             = false
  partition_key       = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments            = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding            = { strategy = "calculated", source = "event_id", count = %d }
  traffic             = { writes_per_second = 2500, reads_per_second = 400 }
  %s
}
`, count, extra)
}

// The change rules (DK001–DK009) judge a plan, not a design: the provider reports them as the plan's
// diagnostics and keeps them out of the planned findings, so no parity plan puts them there.
// TestAccPlanChangesOfALiveTable compares them with the bundle's on real plans of a live table, and the AWS
// provider's plan fixtures cover the rest (TestPlanAdapterEntryPoints).
// TestAccPolicyParity plans every parity design, the examples and tables planned for creation with the
// real Terraform CLI, then applies a table and changes its shard count (DK402 needs the prior state), and
// checks each plan with parityCheck. Together the plans must fire every rule of the catalogue. The TFLint
// ruleset, run on the first configuration before any plan, must report the rule ids the provider reports on
// each block (DK402 aside: it needs the prior state, which only a plan has): one verdict per table wherever
// it is asked. That both read a block into the same design is TestBothAdaptersReadTheSameDesign's to check.
func TestAccPolicyParity(t *testing.T) {
	t.Parallel()
	endpoint := testAccDynoxide(t)
	var config strings.Builder
	config.WriteString(providerBlock(endpoint))
	for _, name := range slices.Sorted(maps.Keys(parityDesigns)) {
		fmt.Fprintf(&config, "data \"dynamokeys_keydesign\" %q {\n  %s\n}\n", name, withEnforceOff(parityDesigns[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(parityTables)) {
		fmt.Fprintf(&config, "resource \"dynamokeys_sharded_table\" %q {\n  %s\n}\n", name, withEnforceOff(parityTables[name]))
	}
	examples, n := exampleBlocks(t)
	if n < 5 {
		t.Fatalf("found %d dynamokeys blocks in examples/, want the scenarios, the data source, the resource and the quickstart", n)
	}
	config.WriteString(examples)
	designs := len(parityDesigns) + len(parityTables) + n

	fired := map[string]bool{}
	tflint := tflintReported(t, config.String())
	if len(tflint.skipped) > 2 {
		t.Errorf("%d parity designs call a function, which only the real TFLint evaluates: keep them few", len(tflint.skipped))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             config.String(),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					parityCheck{fired: fired, minDesigns: designs, tflint: &tflint},
				}},
			},
			{Config: providerBlock(endpoint) + parityLiveTable(4, "")},
			{
				// DK402 and DK406 need the prior state: the table is applied with 4 shards, then planned with 8.
				Config:             providerBlock(endpoint) + parityLiveTable(8, ""),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dynamokeys_sharded_table.live", plancheck.ResourceActionUpdate),
					parityCheck{fired: fired, minDesigns: 1},
				}},
			},
			{
				// DK407: the new count declared straight in read_new, readers switched before any backfill.
				Config: providerBlock(endpoint) + parityLiveTable(8, `migration = { phase = "read_new",
    from = { sharding = { strategy = "calculated", source = "event_id", count = 4 } } }`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					parityCheck{fired: fired, minDesigns: 1},
				}},
			},
		},
	})
	if designs < 30 {
		t.Errorf("%d designs, want at least 30", designs)
	}
	engine, err := policy.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d designs planned; the provider, the bundle and TFLint agree on them (TFLint on %d, the others need the real tool); %d of %d rules fired",
		designs, len(tflint.reported)-len(tflint.skipped), len(fired), len(engine.Catalogue()))
	for _, r := range engine.Catalogue() {
		if !fired[r.ID] && !model.IsChangeRule(r.ID) {
			t.Errorf("no parity design fires %s %s: add one", r.ID, r.Name)
		}
	}
}
