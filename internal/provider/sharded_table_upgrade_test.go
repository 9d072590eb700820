package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// testdata/upgrade_v1 holds a table configuration and the state the provider wrote for it at state version
// 1 (before design_document was encoded and the repeated attributes removed): applied with the build of
// that version against dynoxide, the state file copied as it was.
const upgradeFixture = "testdata/upgrade_v1"

// stateFileInstance reads the one resource instance of a Terraform state file: its schema version and its
// attributes as stored.
func stateFileInstance(t *testing.T, file string) (int64, map[string]json.RawMessage) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Instances []struct {
				SchemaVersion int64                      `json:"schema_version"`
				Attributes    map[string]json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &state); err != nil || len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 {
		t.Fatalf("state file %s: %v\n%s", file, err, raw)
	}
	instance := state.Resources[0].Instances[0]
	return instance.SchemaVersion, instance.Attributes
}

// protocolServer is the provider's protocol 6 server, as Terraform talks to it, and its schemas.
func protocolServer(t *testing.T) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return server, schemas
}

// upgradedState sends stored state of a version through the provider's UpgradeResourceState, as Terraform
// does after a provider upgrade, and returns it decoded with the current schema, which fails on an attribute
// the schema does not have.
func upgradedState(t *testing.T, version int64, raw []byte) map[string]any {
	t.Helper()
	ctx := t.Context()
	server, schemas := protocolServer(t)
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "dynamokeys_sharded_table", Version: version, RawState: &tfprotov6.RawState{JSON: raw}})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("upgrade of %s: %v %+v", raw, err, resp.Diagnostics)
	}
	value, err := resp.UpgradedState.Unmarshal(schemas.ResourceSchemas["dynamokeys_sharded_table"].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	state, err := stateJSON(value)
	if err != nil {
		t.Fatal(err)
	}
	attrs, _ := state.(map[string]any)
	return attrs
}

// TestUpgradeStateV1 upgrades the version 1 state fixture: the removed attributes are gone, design_document
// is the encoding of the JSON it held, and every other attribute is as it was stored.
func TestUpgradeStateV1(t *testing.T) {
	version, v1 := stateFileInstance(t, filepath.Join(upgradeFixture, "state_v1.json"))
	if version != 1 {
		t.Fatalf("the fixture's schema_version is %d, want 1", version)
	}
	raw, _ := json.Marshal(v1)
	got := upgradedState(t, 1, raw)

	var document string
	if err := json.Unmarshal(v1["design_document"], &document); err != nil || !strings.HasPrefix(document, "{") {
		t.Fatalf("the fixture's design_document is not the plain JSON of version 1: %.40q", document)
	}
	if want := model.EncodeAttribute([]byte(document)); got["design_document"] != want {
		t.Errorf("design_document upgraded to %.60q…, want %.60q…", got["design_document"], want)
	}
	for name, stored := range v1 {
		if slices.Contains(removedDesignFacts, name) {
			if _, ok := got[name]; ok {
				t.Errorf("%s survived the upgrade", name)
			}
			continue
		}
		if name == "design_document" {
			continue
		}
		var want any
		dec := json.NewDecoder(strings.NewReader(string(stored)))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(withoutAddedNulls(got[name], want), want) {
			t.Errorf("%s changed in the upgrade: %v, was %v", name, got[name], want)
		}
	}
}

// withoutAddedNulls is got without the null attributes that a later schema added to its objects (absent
// from was): an attribute added since is null after the upgrade, and no other change is allowed.
func withoutAddedNulls(got, was any) any {
	switch g := got.(type) {
	case map[string]any:
		w, ok := was.(map[string]any)
		if !ok {
			return got
		}
		out := map[string]any{}
		for k, v := range g {
			if _, existed := w[k]; !existed && v == nil {
				continue
			}
			out[k] = withoutAddedNulls(v, w[k])
		}
		return out
	case []any:
		w, ok := was.([]any)
		if !ok || len(w) != len(g) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = withoutAddedNulls(g[i], w[i])
		}
		return out
	}
	return got
}

// TestAccProviderUpgradeShowsNoChanges: a table whose state an earlier version wrote (state version 1)
// plans no changes with this build and the same configuration. The table is created with this build, its
// state file replaced by the fixture the earlier build wrote for the same configuration; the plan upgrades
// the state, refreshes it (the design document is computed again) and must be empty, and the state a
// refresh-only apply saves is the current version.
func TestAccProviderUpgradeShowsNoChanges(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	config, err := os.ReadFile(filepath.Join(upgradeFixture, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture leaves the endpoint to the environment; the provider served in this process reads this
	// process's, so the endpoint goes in the block.
	const unconfigured = `provider "dynamokeys" {}`
	if !bytes.Contains(config, []byte(unconfigured)) {
		t.Fatalf("%s/main.tf no longer holds %s", upgradeFixture, unconfigured)
	}
	configured := strings.Replace(string(config), unconfigured, providerBlock(endpoint), 1)
	c := newCLIDir(t, configured)
	c.mustRun("apply", "-no-color", "-input=false", "-auto-approve")
	t.Cleanup(func() { c.run("destroy", "-no-color", "-input=false", "-auto-approve") })

	v1, err := os.ReadFile(filepath.Join(upgradeFixture, "state_v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "terraform.tfstate"), v1, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := c.run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 || !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after the upgrade is not empty (exit %d):\n%s", code, out)
	}

	c.mustRun("apply", "-refresh-only", "-no-color", "-input=false", "-auto-approve")
	version, attrs := stateFileInstance(t, filepath.Join(c.dir, "terraform.tfstate"))
	var document string
	_ = json.Unmarshal(attrs["design_document"], &document)
	if version != shardedTableSchemaVersion || !strings.HasPrefix(document, model.AttributeEncoding) {
		t.Errorf("state version %d, design_document %.20q…; want version %d and an encoded document", version, document, shardedTableSchemaVersion)
	}
	if out, code := c.run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after the refresh is not empty (exit %d):\n%s", code, out)
	}

	// Resource identity (Terraform ≥ 1.12, OpenTofu ≥ 1.12): the refresh of the upgraded state, which had
	// none, records it; the table forgotten and imported again by an import block naming only its identity
	// plans no change after the import.
	t.Run("identity", func(t *testing.T) {
		t.Parallel() // after the steps above; the table is destroyed when this ends
		skipBelowCLI(t, 1, 12, "resource identity", identityCLIs)
		c := *c
		c.t = t
		identity := stateFileIdentity(t, filepath.Join(c.dir, "terraform.tfstate"))
		if identity["name"] != "upgrade-orders" || identity["region"] != "us-east-1" || identity["account_id"] == nil || identity["account_id"] == "" {
			t.Fatalf("identity after the upgrade and refresh: %v; want the account, us-east-1 and the name", identity)
		}
		c.mustRun("state", "rm", "-no-color", "dynamokeys_sharded_table.orders")
		c.write(configured + `
import {
  to       = dynamokeys_sharded_table.orders
  identity = { name = "upgrade-orders" }
}
`)
		out := c.mustRun("apply", "-no-color", "-input=false", "-auto-approve")
		if !strings.Contains(out, "1 imported") {
			t.Errorf("the apply did not import the table:\n%s", out)
		}
		if got := stateFileIdentity(t, filepath.Join(c.dir, "terraform.tfstate")); fmt.Sprint(got) != fmt.Sprint(identity) {
			t.Errorf("identity after the import %v; want %v", got, identity)
		}
		if out, code := c.run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
			t.Fatalf("the plan after the import by identity is not empty (exit %d):\n%s", code, out)
		}
	})
}

// stateFileIdentity is the identity the state file records for its one resource instance.
func stateFileIdentity(t *testing.T, file string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Instances []struct {
				Identity map[string]any `json:"identity"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &state); err != nil || len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 {
		t.Fatalf("state file: %v\n%s", err, raw)
	}
	return state.Resources[0].Instances[0].Identity
}

// identityCLIs are the CLIs with resource identity.
const identityCLIs = "Terraform ≥ 1.12 or OpenTofu ≥ 1.12 (make test-opentofu runs OpenTofu 1.12)"

// stepNeedsCLI is a test step's SkipFunc for a feature that came with CLI major.minor: it skips the step
// with a log line saying why.
func stepNeedsCLI(t *testing.T, major, minor int, feature string) func() (bool, error) {
	t.Helper()
	return func() (bool, error) {
		ok, version, err := testutil.CLIAtLeast(major, minor)
		if err == nil && !ok {
			t.Logf("step skipped: %s needs Terraform or OpenTofu ≥ %d.%d; the CLI under test is %s %s", feature, major, minor, testutil.CLIName(), version)
		}
		return !ok, err
	}
}

// skipBelowCLI skips a test of a feature the CLI under test does not have, saying which, what it needs and
// what the CLI is.
func skipBelowCLI(t *testing.T, major, minor int, feature, needs string) {
	t.Helper()
	ok, version, err := testutil.CLIAtLeast(major, minor)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skipf("%s needs %s; the CLI under test is %s %s", feature, needs, testutil.CLIName(), version)
	}
}
