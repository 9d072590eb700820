package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// queryAccountTables are the tables of the account the query test lists: two the audit flags, one clean
// table tagged for a team, and a scratch table the filters leave out.
var queryAccountTables = []auditedTable{
	{name: "orders-prod", pk: "order_status", sk: "order_id"},
	{name: "events-prod", pk: "event_date", sk: "event_id", tags: map[string]string{"team": "payments"}},
	{name: "customers-prod", pk: "customer_id", sk: "order_id", gsiPK: "email", tags: map[string]string{"team": "payments"}},
	{name: "scratch-dev", pk: "id"},
}

// queryResult is one `list_resource_found` message of `terraform query -json`.
type queryResult struct {
	Type              string `json:"type"`
	Message           string `json:"@message"`
	ListResourceFound struct {
		Address     string         `json:"address"`
		DisplayName string         `json:"display_name"`
		Identity    map[string]any `json:"identity"`
	} `json:"list_resource_found"`
}

// TestAccQueryGeneratesAQuietImport drives a current Terraform (≥ 1.14: `terraform query`) as a user adopting
// an account's tables would: `terraform query` with each filter of the list resource and `limit`,
// `-generate-config-out` for the production tables, a plan of the generated configuration that imports them
// by identity and changes nothing, the apply, and a plan with no changes after it. The adopted tables get
// the rule ids the audit gave them.
func TestAccQueryGeneratesAQuietImport(t *testing.T) {
	testAccDynoxide(t) // skips without TF_ACC
	t.Parallel()
	skipBelowCLI(t, 1, 14, "terraform query (list resources) and import by identity", "Terraform ≥ 1.14 (OpenTofu has no query command yet); make test-terraform-current runs it")
	// A dynoxide of its own: a list reads the whole account.
	server, err := localddb.Start(localddb.Dynoxide, localddb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	api := testAPI(t, server.Endpoint)
	for _, table := range queryAccountTables {
		if err := createAuditedTable(t.Context(), api, table); err != nil {
			t.Fatal(err)
		}
	}
	c := newCLIDir(t, devRequiredProviders+providerBlock(server.Endpoint))
	query := func(config string, args ...string) []queryResult {
		t.Helper()
		if err := os.WriteFile(filepath.Join(c.dir, "audit.tfquery.hcl"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		out := c.mustRun(append([]string{"query", "-no-color", "-json"}, args...)...)
		var results []queryResult
		for _, line := range strings.Split(out, "\n") {
			var r queryResult
			if json.Unmarshal([]byte(line), &r) == nil && r.Type == "list_resource_found" {
				results = append(results, r)
			}
		}
		return results
	}
	names := func(results []queryResult) []string {
		var out []string
		for _, r := range results {
			name, _ := r.ListResourceFound.Identity["name"].(string)
			out = append(out, name)
		}
		slices.Sort(out)
		return out
	}
	listBlock := func(config string, extra string) string {
		return `list "dynamokeys_sharded_table" "tables" {
  provider = dynamokeys
  ` + extra + `
  config {
    ` + config + `
  }
}
`
	}
	for _, tc := range []struct {
		name, config, extra string
		want                []string
	}{
		{name: "name_prefix", config: `name_prefix = "orders-"`, want: []string{"orders-prod"}},
		{name: "name_regex", config: `name_regex = "-prod$"`, want: []string{"customers-prod", "events-prod", "orders-prod"}},
		{name: "tags", config: `tags = { team = "payments" }`, want: []string{"customers-prod", "events-prod"}},
		{name: "with_findings", config: `with_findings = true`, want: []string{"events-prod", "orders-prod"}},
		{name: "limit", config: `name_regex = "-prod$"`, extra: "limit = 2", want: nil},
	} {
		got := names(query(listBlock(tc.config, tc.extra)))
		if tc.name == "limit" {
			if len(got) != 2 {
				t.Errorf("limit = 2: %d tables listed (%v), want 2", len(got), got)
			}
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: listed %v, want %v", tc.name, got, tc.want)
		}
	}

	// The audit's verdict: the rule ids in each display name ("orders-prod (1 key-design finding: DK302)").
	ruleID := regexp.MustCompile(`DK[0-9]+`)
	audited := map[string][]string{}
	prod := listBlock(`name_regex = "-prod$"`, "include_resource = true")
	for _, r := range query(prod) {
		name, _ := r.ListResourceFound.Identity["name"].(string)
		audited[name] = ruleID.FindAllString(r.ListResourceFound.DisplayName, -1)
	}
	if len(audited["orders-prod"]) == 0 || len(audited["events-prod"]) == 0 {
		t.Fatalf("the audit flags %v; want findings on orders-prod and events-prod", audited)
	}

	if err := os.WriteFile(filepath.Join(c.dir, "audit.tfquery.hcl"), []byte(prod), 0o600); err != nil {
		t.Fatal(err)
	}
	// What a user reads (the auditing guide shows it): one line per table, its identity and display name.
	human := c.mustRun("query", "-no-color")
	for _, line := range []string{
		`list\.dynamokeys_sharded_table\.tables +account_id=\d+,name=customers-prod,region=us-east-1 +customers-prod \(no key-design findings\)`,
		`list\.dynamokeys_sharded_table\.tables +account_id=\d+,name=events-prod,region=us-east-1 +events-prod \(1 key-design finding: DK301\)`,
		`list\.dynamokeys_sharded_table\.tables +account_id=\d+,name=orders-prod,region=us-east-1 +orders-prod \(1 key-design finding: DK302\)`,
		`Warning: DK302 low-cardinality-partition-key: table orders-prod`,
	} {
		if !regexp.MustCompile(`(?m)^` + line).MatchString(human) {
			t.Errorf("terraform query prints no line like %s:\n%s", line, human)
		}
	}
	c.mustRun("query", "-no-color", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(c.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(generated), "identity = {"); n != 3 {
		t.Fatalf("the generated configuration has %d import blocks by identity, want 3:\n%s", n, generated)
	}
	human, _ = c.plan()
	if !strings.Contains(human, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Errorf("the plan of the generated configuration is not a quiet import of 3 tables:\n%s", human)
	}
	c.mustRun("apply", "-no-color", "-input=false", "plan.bin")
	if out, code := c.run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
		t.Errorf("after the import, a plan exits %d, want 0 (no changes):\n%s", code, out)
	}

	// The adopted tables get the audit's rule ids.
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(c.mustRun("show", "-json")), &state); err != nil {
		t.Fatal(err)
	}
	adopted := map[string][]string{}
	for _, r := range state.Values.RootModule.Resources {
		name, _ := r.Values["name"].(string)
		adopted[name] = stateRules(r.Values["findings"])
	}
	for name, want := range audited {
		if got := adopted[name]; !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Errorf("%s: adopted with findings %v; the audit gave %v", name, got, want)
		}
	}
}
