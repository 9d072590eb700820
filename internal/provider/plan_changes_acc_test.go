package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// changingTable is a live orders table with a GSI by order id that one declared pattern reads; gsi is the GSI
// block (by_order's, or none), partitionKey the table's partition-key attribute name, extra more attributes.
func changingTable(partitionKey, gsi, extra string) string {
	return fmt.Sprintf(`
resource "dynamokeys_sharded_table" "orders" {
  name                = "changes-orders"
  deletion_protection = false
  enforce             = false
  partition_key       = { name = %q, template = "CUSTOMER#{customer_id}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id" }
  }
  traffic = { writes_per_second = 100, reads_per_second = 50, item_size_bytes = 1500, item_count = 2000000 }
  global_secondary_indexes = { %s }
  access_patterns = {
    by_order = { equals = ["order_id"], reads_per_second = 20 }
  }
  %s
}
`, partitionKey, gsi, extra)
}

const byOrder = `by_order = { partition_key = [{ name = "order_id" }] }`

// planFindings are the findings the provider planned for the table (after.findings), as "rule: message".
func planFindings(t *testing.T, plan *tfjson.Plan, address string) []string {
	t.Helper()
	for _, rc := range plan.ResourceChanges {
		if rc.Address != address {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		list, _ := after["findings"].([]any)
		var out []string
		for _, raw := range list {
			f, _ := raw.(map[string]any)
			out = append(out, fmt.Sprintf("%v: %v", f["rule"], f["message"]))
		}
		return out
	}
	t.Fatalf("no change of %s in the plan", address)
	return nil
}

// bundleResults are the rule ids and messages the policy bundle reports on a plan, by address.
func bundleResults(t *testing.T, plan *tfjson.Plan) map[string][]string {
	t.Helper()
	raw, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	deny, warn, err := policy.EvaluatePlan(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, r := range slices.Concat(deny, warn) {
		out[r.Address] = append(out[r.Address], r.Msg)
	}
	return out
}

// TestAccPlanChangesOfALiveTable applies a table on dynoxide, then plans changes of it with the real CLI: a
// GSI rebuilt (its key changed), a GSI dropped that a declared pattern alone reads, the partition key
// renamed (a replacement), TTL moved to another attribute, and a destroy. The provider's diagnostics on each plan name the change with its
// figures (2,000,000 items of 1,500 bytes: 4,000,000 index write units, $2.50 on demand), the policy bundle
// reports the same rules with the same messages on the same plan JSON, and the planned findings, which the
// state keeps, hold none of them; a change of tags alone is silent.
//
//nolint:tparallel // the subtests change one live table in turn
func TestAccPlanChangesOfALiveTable(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	const address = "dynamokeys_sharded_table.orders"
	c := newCLIDir(t, devRequiredProviders+providerBlock(endpoint)+changingTable("pk", byOrder, ""))
	c.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	t.Cleanup(func() { c.run("destroy", "-auto-approve", "-no-color", "-input=false") })

	// sameAsBundle checks that the plan warns the change rule's finding with every part in its message, and
	// that the bundle reports that finding, word for word, on the plan's JSON.
	sameAsBundle := func(t *testing.T, human string, plan *tfjson.Plan, rule string, parts ...string) {
		t.Helper()
		var message string
		for _, line := range strings.Split(human, "\n") {
			if _, text, ok := strings.Cut(line, "Warning: "+rule+" "); ok {
				_, message, _ = strings.Cut(text, ": ")
			}
		}
		if message == "" {
			t.Fatalf("the plan does not warn %s (enforce = false):\n%s", rule, human)
		}
		for _, p := range parts {
			if !strings.Contains(message, p) {
				t.Errorf("%s says %q, without %q", rule, message, p)
			}
		}
		if bundle := bundleResults(t, plan)[address]; !slices.ContainsFunc(bundle, func(m string) bool { return strings.HasPrefix(m, rule+" "+address+": "+message) }) {
			t.Errorf("the bundle reports %q; want the provider's %s %q", bundle, rule, message)
		}
	}

	t.Run("tags only", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", byOrder, `tags = { team = "orders" }`))
		human, plan := c.plan()
		if strings.Contains(human, "DK00") {
			t.Errorf("a change of tags reports a change rule:\n%s", human)
		}
		// The item count the refresh read (the table is empty) stays through an in-place update.
		for _, rc := range plan.ResourceChanges {
			if after, _ := rc.Change.After.(map[string]any); rc.Address == address && fmt.Sprint(after["item_count"]) != "0" {
				t.Errorf("planned item_count %v, want the table's 0", after["item_count"])
			}
		}
		checkParity(t, plan)
	})

	t.Run("index rebuilt", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk",
			`by_order = { partition_key = [{ name = "order_id" }], sort_key = [{ name = "created_at" }] }`, ""))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK003", "GSI by_order is deleted and created again", "patterns by_order (20 reads/s) fail until it is ACTIVE again",
			"2,000,000 items: 4,000,000 write units (2 each), $2.5 on demand")
		// The report's section "This plan changes" is one warning of the plan, naming the table, the change
		// with its figures and the pattern it breaks.
		section := changeSection(human)
		if !strings.Contains(section, "This plan changes table changes-orders (updated in place)") ||
			!strings.Contains(section, "WARNING DK003 index-rebuilt at global_secondary_indexes.by_order: GSI by_order is deleted and created again") ||
			!strings.Contains(section, "patterns by_order (20 reads/s) fail") || !strings.Contains(section, "4,000,000 write units") {
			t.Errorf("the plan's section This plan changes:\n%s\nof the plan:\n%s", section, human)
		}
		// The change is the plan's, not the design's: it stays out of the planned findings, so that the
		// state after the apply holds none.
		for _, f := range planFindings(t, plan, address) {
			if strings.HasPrefix(f, "DK00") {
				t.Errorf("the planned findings hold the change rule's %s", f)
			}
		}
		checkParity(t, plan)
	})

	t.Run("only index dropped", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", "", ""))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK004", "GSI by_order is deleted, and patterns by_order (20 reads/s) have no other key")
		checkParity(t, plan)
	})

	t.Run("replaced", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("tenant_pk", byOrder, ""))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK001", "replaces table changes-orders (partition_key.name forces it)", "(2,000,000 items, by traffic.item_count)")
	})

	t.Run("ttl moved", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", byOrder, `ttl = { attribute_name = "expires_at" }`))
		c.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", byOrder, `ttl = { attribute_name = "ttl" }`))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK008", "moves TTL of table changes-orders from expires_at to ttl", "items that carry only expires_at no longer expire")
	})

	// The rebuild applied: the plan showed the section; the apply is consistent with the plan, and the next
	// plan has no change and no section, and the report the state keeps holds none.
	t.Run("rebuilt, applied, then silent", func(t *testing.T) {
		rebuilt := changingTable("pk", `by_order = { partition_key = [{ name = "order_id" }], sort_key = [{ name = "created_at" }] }`,
			`ttl = { attribute_name = "expires_at" }`)
		c.write(devRequiredProviders + providerBlock(endpoint) + rebuilt)
		if human, _ := c.plan(); !strings.Contains(changeSection(human), "DK003 index-rebuilt") {
			t.Fatalf("the plan does not show the rebuild under This plan changes:\n%s", human)
		}
		c.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
		human, plan := c.plan()
		if !strings.Contains(human, "No changes.") || strings.Contains(human, "This plan changes") || strings.Contains(human, "DK00") {
			t.Errorf("the plan after the apply is not empty and silent:\n%s", human)
		}
		for _, rc := range plan.ResourceChanges {
			if after, _ := rc.Change.After.(map[string]any); rc.Address == address && strings.Contains(fmt.Sprint(after["report"]), "This plan changes") {
				t.Errorf("the report kept in the state holds the plan's section:\n%v", after["report"])
			}
		}
	})

	// A vector index with other dimensions is rebuilt (nothing of it changes in place), and a table class
	// changed names the quota: the provider and the bundle give the same figures (2,000,000 items by
	// traffic.item_count).
	rebuiltGSI := `by_order = { partition_key = [{ name = "order_id" }], sort_key = [{ name = "created_at" }] }`
	vectorIndex := func(dimensions int) string {
		return fmt.Sprintf(`ttl = { attribute_name = "expires_at" }
  vector_indexes = { by_embedding = { vector_attribute = "embedding", dimensions = %d, distance_function = "COSINE", projection_type = "KEYS_ONLY" } }`, dimensions)
	}
	t.Run("vector index rebuilt", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", rebuiltGSI, vectorIndex(1024)))
		c.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", rebuiltGSI, vectorIndex(1536)))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK003", "vector index by_embedding is deleted and created again, as dimensions changed",
			"each of 2,000,000 items that carry its vector and HASH attributes")
		if section := changeSection(human); !strings.Contains(section, "DK003 index-rebuilt at vector_indexes.by_embedding") {
			t.Errorf("the section This plan changes lacks the vector index:\n%s", section)
		}
		checkParity(t, plan)
	})

	t.Run("table class changed", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", rebuiltGSI, vectorIndex(1024)+`
  table_class = "STANDARD_INFREQUENT_ACCESS"`))
		human, plan := c.plan()
		sameAsBundle(t, human, plan, "DK008", "changes the table class of table changes-orders from STANDARD to STANDARD_INFREQUENT_ACCESS",
			"DynamoDB takes 2 table class updates in a 30-day trailing period")
		checkParity(t, plan)
	})

	t.Run("destroyed", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", byOrder, ""))
		human := c.mustRun("plan", "-destroy", "-no-color", "-input=false", "-out=destroy.bin")
		if !strings.Contains(human, "DK002 table-destroyed") || !strings.Contains(human, "destroys table changes-orders and every item in it (2,000,000 items") {
			t.Errorf("the destroy plan does not warn DK002:\n%s", human)
		}
		var plan tfjson.Plan
		if err := json.Unmarshal([]byte(c.mustRun("show", "-json", "destroy.bin")), &plan); err != nil {
			t.Fatal(err)
		}
		if bundle := bundleResults(t, &plan)[address]; len(bundle) != 1 || !strings.HasPrefix(bundle[0], "DK002 "+address) {
			t.Errorf("the bundle reports %q on the destroy; want DK002 alone", bundle)
		}
	})
}

// changeSection is the warning "This plan changes" of a human plan, from its title to the end of its
// detail; "" when the plan has none.
func changeSection(human string) string {
	_, rest, ok := strings.Cut(human, "Warning: This plan changes")
	if !ok {
		return ""
	}
	section, _, _ := strings.Cut(rest, "\u2575") // the end of the diagnostic's box
	return "This plan changes" + section
}
