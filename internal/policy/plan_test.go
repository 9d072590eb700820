package policy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// planExpectations are the rule ids each plan fixture must produce, as "deny:DK101@address" and
// "warn:DK302@address"; unreadable resources and non-plans warn with their own message.
var planExpectations = map[string][]string{
	"sharded_create.json": {
		"deny:DK301@dynamokeys_sharded_table.events_hot", "deny:DK303@dynamokeys_sharded_table.events_hot",
		"warn:DK302@data.dynamokeys_keydesign.orders_by_status",
	},
	"sharded_unknown.json": {"warn:@dynamokeys_sharded_table.events_unknown"},
	"sharded_update.json":  {"deny:DK402@dynamokeys_sharded_table.events_live"},
	"aws_create.json": {
		"deny:DK101@aws_dynamodb_table.flags", "deny:DK202@aws_dynamodb_table.flags",
		"warn:DK302@aws_dynamodb_table.flags", // a boolean, "enabled": two values
		"warn:DK302@aws_dynamodb_table.orders_by_status", "warn:DK301@aws_dynamodb_table.events_by_day",
		// (Its GSI by_created is keyed on createdAt of type N: epoch values, each its own key, no DK301.)
	},
	// The update adds GSI by_x to the live table orders: its backfill (DK009), unsized without an item count.
	"aws_update.json": {"deny:DK108@aws_dynamodb_table.orders", "warn:DK009@aws_dynamodb_table.orders"},
	// A table whose partition key (and the attribute that defines it) comes from another resource: the LSI
	// rule still runs, and one warning names what was not checked; the known table beside it is checked whole.
	"aws_unknown_keys.json": {
		"deny:DK202@aws_dynamodb_table.keyed_later", "warn:@aws_dynamodb_table.keyed_later",
		"warn:DK302@aws_dynamodb_table.orders_by_status",
	},
	"broken.json": {"warn:@aws_dynamodb_table.broken"},
	// hashicorp/aws 5: changes of live tables. scratch (tagged disposable, replaced) and quiet (tags, PITR on,
	// a capacity raised inside its autoscaler's range) report nothing; the destroyed sessions only DK002.
	"aws_changes_v5.json": {
		"deny:DK001@aws_dynamodb_table.events", "deny:DK005@aws_dynamodb_table.global",
		"deny:DK007@aws_dynamodb_table.inventory", "deny:DK007@aws_dynamodb_table.inventory",
		"warn:DK003@aws_dynamodb_table.orders", "warn:DK008@aws_dynamodb_table.orders", "warn:DK009@aws_dynamodb_table.orders",
		"warn:DK002@aws_dynamodb_table.sessions", "warn:DK006@aws_dynamodb_table.carts",
		"warn:DK008@aws_dynamodb_table.billing",
	},
	// hashicorp/aws 6.28: a standalone GSI replaced and one deleted, a replica resource deleted (their tables
	// not otherwise in the plan), a key_schema table switched to on-demand, a table with PITR turned on.
	"aws_changes_v6.json": {
		"warn:DK003@aws_dynamodb_global_secondary_index.ledger_by_account", "warn:DK004@aws_dynamodb_global_secondary_index.ledger_by_entry",
		"deny:DK005@aws_dynamodb_table_replica.ledger_eu", "warn:DK008@aws_dynamodb_table.accounts",
	},
	// hashicorp/aws 6 with the aws_dynamodb_vector_index of terraform-provider-aws PR #49375: a vector index
	// replaced (its dimensions changed) and one deleted, a table's class changed, a table's read capacity
	// lowered with a GSI rebuilt; live dynamokeys_observed_traffic data sources of docs and orders give the
	// item counts (changeFigures asserts the messages).
	"aws_changes_vector.json": {
		"warn:DK003@aws_dynamodb_vector_index.docs_by_embedding", "warn:DK004@aws_dynamodb_vector_index.docs_by_title",
		"warn:DK008@aws_dynamodb_table.docs", "warn:DK003@aws_dynamodb_table.orders", "warn:DK008@aws_dynamodb_table.orders",
	},
	// hashicorp/aws 6 with the aws_dynamodb_vector_index of terraform-provider-aws PR #49375, created with its
	// table: docs (a tenant HASH, on-demand, a sort key) is clean; notes is PROVISIONED and its index's HASH is
	// the table's only key; media has six indexes, two on one attribute with other dimensions and one of 8,192;
	// legacy_by_vector's table is not in the plan (checked alone: 0 dimensions, and a warning of what was not).
	// The findings in an index carry the index resource's address, the table's (billing mode, count) the table's.
	"aws_vector_create.json": {
		"deny:DK504@aws_dynamodb_table.notes", "warn:DK509@aws_dynamodb_vector_index.notes_by_note",
		"deny:DK505@aws_dynamodb_table.media", "deny:DK506@aws_dynamodb_vector_index.media_v1",
		"deny:DK506@aws_dynamodb_vector_index.media_v2", "deny:DK506@aws_dynamodb_vector_index.media_v3",
		"deny:DK506@aws_dynamodb_vector_index.legacy_by_vector", "warn:@aws_dynamodb_vector_index.legacy_by_vector",
	},
	// hashicorp/aws 6: key_schema GSIs beside classic ones, standalone aws_dynamodb_global_secondary_index
	// resources joined by table_name and through the configuration, and one whose table is not in the plan.
	"aws_v6.json": {
		"deny:DK108@aws_dynamodb_table.orders_v6",
		// audit_v6's name is known only after apply: DK107 was not checked on it, and the warning says so.
		"warn:@aws_dynamodb_table.audit_v6",
		// The findings on the standalone GSIs carry their own addresses, not their tables'.
		"deny:DK101@aws_dynamodb_global_secondary_index.events_by_flag", "deny:DK107@aws_dynamodb_global_secondary_index.events_x",
		"warn:DK302@aws_dynamodb_global_secondary_index.events_by_flag", "warn:DK302@aws_dynamodb_global_secondary_index.events_by_state",
		"deny:DK108@aws_dynamodb_global_secondary_index.audit_by_keys",
		"warn:DK302@aws_dynamodb_global_secondary_index.legacy_by_status", "warn:@aws_dynamodb_global_secondary_index.legacy_by_status",
	},
	// Global tables: MRSC in two Regions, MRSC with an LSI and TTL, a clean MRSC table with a witness, and an
	// eventual table whose aws_dynamodb_table_replica repeats a replica block's Region.
	"aws_global.json": {
		"deny:DK604@aws_dynamodb_table.ledger",
		"deny:DK605@aws_dynamodb_table.sessions", "deny:DK605@aws_dynamodb_table.sessions",
		"deny:DK606@aws_dynamodb_table.catalog",
	},
	"aws_v6_classic.json": {
		"deny:DK108@aws_dynamodb_table.orders_v6",
		"deny:DK101@aws_dynamodb_table.events_v6", "deny:DK107@aws_dynamodb_table.events_v6",
		"warn:DK302@aws_dynamodb_table.events_v6", "warn:DK302@aws_dynamodb_table.events_v6",
		"deny:DK108@aws_dynamodb_table.audit_v6", "warn:DK302@aws_dynamodb_table.legacy",
	},
	// hashicorp/aws 6 with what it computes unknown (the witness, a table's GSI list when its indexes are
	// standalone, the keys of a key_schema GSI): only the key the configuration takes from another resource
	// warns.
	"aws_v6_computed.json": {"warn:@aws_dynamodb_table.keyed_later"},
	"not_a_plan.json":      {"warn:@"},
}

func loadPlan(t *testing.T, name string) ast.Value {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "plans", name))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.ValueFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type entryPointResult struct {
	Msg     string `json:"msg"`
	Rule    string `json:"rule"`
	Address string `json:"address"`
}

// TestPlanAdapterEntryPoints is `opa eval data.dynamokeys.conftest.deny` / `.warn` on every fixture,
// through OPA's Go packages and the embedded bundle.
func TestPlanAdapterEntryPoints(t *testing.T) {
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	compiler := ast.NewCompiler().WithCapabilities(Capabilities())
	if compiler.Compile(modules); compiler.Failed() {
		t.Fatal(compiler.Errors)
	}
	query, err := rego.New(rego.Query("deny := data.dynamokeys.conftest.deny; warn := data.dynamokeys.conftest.warn"),
		rego.Compiler(compiler), rego.StrictBuiltinErrors(true)).PrepareForEval(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			rs, err := query.Eval(t.Context(), rego.EvalParsedInput(loadPlan(t, name)))
			if err != nil {
				t.Fatalf("evaluation error (the adapter must never fail on a plan): %v", err)
			}
			var got []string
			for _, kind := range []string{"deny", "warn"} {
				raw, _ := json.Marshal(rs[0].Bindings[kind])
				var results []entryPointResult
				if err := json.Unmarshal(raw, &results); err != nil {
					t.Fatal(err)
				}
				for _, r := range results {
					got = append(got, kind+":"+r.Rule+"@"+r.Address)
					if r.Rule != "" && (!strings.HasPrefix(r.Msg, r.Rule+" "+r.Address+": ") || !strings.Contains(r.Msg, "(remedy: ")) {
						t.Errorf("message %q lacks the rule id, address or remedy", r.Msg)
					}
				}
			}
			slices.Sort(got)
			want = slices.Clone(want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

// TestStrictCompile is `opa check --strict` on the bundle.
func TestStrictCompile(t *testing.T) {
	modules, err := BundleModules(true)
	if err != nil {
		t.Fatal(err)
	}
	compiler := ast.NewCompiler().WithCapabilities(Capabilities()).WithStrict(true)
	if compiler.Compile(modules); compiler.Failed() {
		t.Fatal(compiler.Errors)
	}
}

// changeFigures are parts of the messages the change rules give on aws_changes_vector.json, by address: the
// item counts come from the dynamokeys_observed_traffic data sources of the tables in the plan's prior state.
var changeFigures = map[string][]string{
	"aws_dynamodb_vector_index.docs_by_embedding": {"vector index by_embedding is deleted and created again",
		// 1,048,576 items of at least 1,536 × 4 bytes: 6 GB.
		"each of 1,048,576 items that carry its vector and HASH attributes: 6 GB (6,144 bytes each, at least)"},
	"aws_dynamodb_vector_index.docs_by_title": {"vector index by_title is deleted: vector searches on it fail from the apply on"},
	"aws_dynamodb_table.orders": {
		// 2,000,000 entries of at least 1 write unit at the index's 50 WCU: 40,000 seconds.
		"GSI by_sku is deleted and created again", "an entry for each of 2,000,000 items: 2,000,000 write units (1 each, at least), 11.1 hours at the index's 50 WCU",
		"lowers read_capacity of table orders from 500 to 200: DynamoDB takes 4 decreases", "27 a day at most",
	},
	"aws_dynamodb_table.docs": {"changes the table class of table docs from STANDARD to STANDARD_INFREQUENT_ACCESS: DynamoDB takes 2 table class updates in a 30-day trailing period"},
}

// TestChangeFiguresOfTheAWSProvidersVectorIndexes: the change rules on a plan of the AWS provider's vector
// indexes and tables name each change with its figures, the item counts joined from observed traffic.
func TestChangeFiguresOfTheAWSProvidersVectorIndexes(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "plans", "aws_changes_vector.json"))
	if err != nil {
		t.Fatal(err)
	}
	deny, warn, err := EvaluatePlan(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	messages := map[string]string{}
	for _, r := range slices.Concat(deny, warn) {
		messages[r.Address] += r.Msg + "\n"
	}
	for address, parts := range changeFigures {
		for _, p := range parts {
			if !strings.Contains(messages[address], p) {
				t.Errorf("%s: the messages\n%s lack %q", address, messages[address], p)
			}
		}
	}
}
