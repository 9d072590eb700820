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

// hasFinding reports whether one of the findings starts with the rule id and contains every part.
func hasFinding(findings []string, rule string, parts ...string) bool {
	for _, f := range findings {
		if !strings.HasPrefix(f, rule) {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(f, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestAccPlanChangesOfALiveTable applies a table on dynoxide, then plans changes of it with the real CLI: a
// GSI rebuilt (its key changed), a GSI dropped that a declared pattern alone reads, the partition key
// renamed (a replacement), and a destroy. The provider's findings on each plan (its diagnostics for the
// replacement and the destroy) name the change with its figures (2,000,000 items of 1,500 bytes: 4,000,000
// index write units, $2.50 on demand), and the policy bundle reports the same rules, with the same messages,
// on the same plan JSON; a change of tags alone is silent.
func TestAccPlanChangesOfALiveTable(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	const address = "dynamokeys_sharded_table.orders"
	c := newCLIDir(t, endpoint, devRequiredProviders+providerBlock(endpoint)+changingTable("pk", byOrder, ""))
	c.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	t.Cleanup(func() { c.run("destroy", "-auto-approve", "-no-color", "-input=false") })

	t.Run("tags only", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", byOrder, `tags = { team = "orders" }`))
		_, plan := c.plan()
		for _, f := range planFindings(t, plan, address) {
			if strings.HasPrefix(f, "DK00") {
				t.Errorf("a change of tags reports %s", f)
			}
		}
		checkParity(t, plan)
	})

	t.Run("index rebuilt", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk",
			`by_order = { partition_key = [{ name = "order_id" }], sort_key = [{ name = "created_at" }] }`, ""))
		_, plan := c.plan()
		findings := planFindings(t, plan, address)
		if !hasFinding(findings, "DK003", "GSI by_order is deleted and created again", "patterns by_order (20 reads/s) fail until it is ACTIVE again",
			"2,000,000 items: 4,000,000 write units (2 each), $2.5 on demand") {
			t.Errorf("the plan's findings %q lack DK003 with the backfill and the pattern", findings)
		}
		if bundle := bundleResults(t, plan)[address]; !hasFinding(bundle, "DK003", "4,000,000 write units") {
			t.Errorf("the bundle reports %q; want DK003 with the same backfill", bundle)
		}
		checkParity(t, plan)
	})

	t.Run("only index dropped", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("pk", "", ""))
		_, plan := c.plan()
		findings := planFindings(t, plan, address)
		if !hasFinding(findings, "DK004", "GSI by_order is deleted, and patterns by_order (20 reads/s) have no other key") {
			t.Errorf("the plan's findings %q lack the DK004 error", findings)
		}
		checkParity(t, plan)
	})

	t.Run("replaced", func(t *testing.T) {
		c.write(devRequiredProviders + providerBlock(endpoint) + changingTable("tenant_pk", byOrder, ""))
		// Terraform plans a replacement's new table as a create, without the state: the provider's verdict on the
		// replacement is a diagnostic of its first planning pass (the one with the state), not a finding of
		// the planned table.
		human, plan := c.plan()
		const want = "this plan replaces table changes-orders (partition_key.name forces it): DynamoDB deletes the table with every item in it (2,000,000 items, by traffic.item_count) and creates an empty one"
		if !strings.Contains(human, "Warning: DK001 table-replaced: "+want) {
			t.Errorf("the plan does not warn DK001 (enforce = false):\n%s", human)
		}
		if bundle := bundleResults(t, plan)[address]; !slices.ContainsFunc(bundle, func(m string) bool { return strings.HasPrefix(m, "DK001 "+address+": "+want) }) {
			t.Errorf("the bundle reports %q; want the provider's DK001", bundle)
		}
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
