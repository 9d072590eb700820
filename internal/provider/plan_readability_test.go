package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// cliDir is a Terraform working directory run with the real CLI and the provider served in this process
// (serveInProcess; its configurations name their endpoint in the provider block),
// for tests that read what the CLI prints or swap the state file, which terraform-plugin-testing does not
// expose.
type cliDir struct {
	t   *testing.T
	dir string
	tf  string
}

func newCLIDir(t *testing.T, config string) *cliDir {
	t.Helper()
	dir := t.TempDir()
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	c := &cliDir{t: t, dir: dir, tf: tf}
	c.write(config)
	return c
}

func (c *cliDir) write(config string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, "main.tf"), []byte(config), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// run runs a terraform command and returns its output and exit code; it fails the test when the command
// cannot start.
func (c *cliDir) run(args ...string) (string, int) {
	c.t.Helper()
	server := serveInProcess(c.t)
	defer server.stop()
	cmd := exec.Command(c.tf, args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+server.reattach, "TF_IN_AUTOMATION=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	case err != nil:
		c.t.Fatalf("terraform %v: %v", args, err)
	}
	return out.String(), 0
}

// mustRun runs a terraform command that must succeed.
func (c *cliDir) mustRun(args ...string) string {
	c.t.Helper()
	out, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("terraform %v exited with %d:\n%s", args, code, out)
	}
	return out
}

// plan saves a plan and returns what the CLI printed and the plan's JSON.
func (c *cliDir) plan() (string, *tfjson.Plan) {
	c.t.Helper()
	human := c.mustRun("plan", "-no-color", "-input=false", "-out=plan.bin")
	raw := []byte(c.mustRun("show", "-json", "plan.bin"))
	var plan tfjson.Plan
	if err := json.Unmarshal(raw, &plan); err != nil {
		c.t.Fatalf("plan JSON: %v", err)
	}
	return human, &plan
}

// planBlock is the part of a human plan that shows one resource: from its "# address will be ..." line to
// the closing brace of its block.
func planBlock(t *testing.T, human, address string) []string {
	t.Helper()
	var block []string
	for _, line := range strings.Split(human, "\n") {
		if len(block) == 0 && !strings.HasPrefix(line, "  # "+address+" ") {
			continue
		}
		block = append(block, line)
		if line == "    }" {
			return block
		}
	}
	t.Fatalf("no complete block for %s in the plan:\n%s", address, human)
	return nil
}

// topLevelLine matches the first line of a resource's top-level attribute in a plan block: its action symbol
// at indent 6, or its name (or a "# (n unchanged ...)" note) at indent 8. Deeper lines belong to the
// attribute above.
var topLevelLine = regexp.MustCompile(`^      [+~-] [a-z_]|^        [a-z_#]|^    }$`)

// attributeLines is how many lines of a plan block the top-level attribute name takes; 0 when absent.
func attributeLines(block []string, name string) int {
	start := regexp.MustCompile(`^      [+~-] ` + name + ` +=|^        ` + name + ` +=`)
	for i, line := range block {
		if !start.MatchString(line) {
			continue
		}
		n := 1
		for _, next := range block[i+1:] {
			if topLevelLine.MatchString(next) {
				break
			}
			n++
		}
		return n
	}
	return 0
}

// checkParity runs the parity test's check on a plan: the bundle reports what the provider reported.
func checkParity(t *testing.T, plan *tfjson.Plan) {
	t.Helper()
	var resp plancheck.CheckPlanResponse
	parityCheck{fired: map[string]bool{}, minDesigns: 1}.CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: plan}, &resp)
	if resp.Error != nil {
		t.Error(resp.Error)
	}
}

// readableTable has sharded keys, two GSIs, an LSI and a stream: the plan the readability test reads.
func readableTable(endpoint, name string, writes int) string {
	return devRequiredProviders + providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "orders" {
  name                = %[1]q
  deletion_protection = false
  enforce             = false
  partition_key       = { name = "pk", template = "STORE#{store_id}#DAY#{day}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    store_id = { kind = "id", max_length = 12, cardinality = 20 }
    day      = { kind = "time", granularity = "day" }
    order_id = { kind = "id", max_length = 36 }
  }
  sharding = { strategy = "calculated", source = "order_id", count = 16 }
  traffic  = { writes_per_second = %[2]d, reads_per_second = 1200, item_size_bytes = 900, max_items_per_partition_key = 10000 }
  local_secondary_indexes = {
    by_created = { sort_key = { name = "createdAt" }, projection_type = "KEYS_ONLY" }
  }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = 5 }], sort_key = [{ name = "createdAt" }] }
    by_sku    = { partition_key = [{ name = "sku", cardinality = 100000 }], projection_type = "INCLUDE", non_key_attributes = ["total"] }
  }
  stream = { enabled = true, view_type = "NEW_AND_OLD_IMAGES" }
  ttl    = { attribute_name = "expiresAt" }
  tags   = { team = "orders" }
}
`, name, writes)
}

// TestAccPlanIsReadable reads the plans a reviewer reads, printed by the real CLI: creating a table with
// sharded keys, two GSIs, an LSI and a stream shows design_document in one line and the whole block in at
// most 200; the bundle on the plan JSON reports what the provider reported; after the apply the plan is
// empty; changing only traffic shows the traffic change and the report's changed lines, and the document
// again in one line.
func TestAccPlanIsReadable(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	const address = "dynamokeys_sharded_table.orders"
	c := newCLIDir(t, readableTable(endpoint, "readable-orders", 3000))

	human, plan := c.plan()
	create := planBlock(t, human, address)
	if n := attributeLines(create, "design_document"); n < 1 || n > 3 {
		t.Errorf("design_document takes %d lines of the create plan, want 1 to 3:\n%s", n, strings.Join(create, "\n"))
	}
	if len(create) > 200 {
		t.Errorf("the create plan's block takes %d lines, want at most 200:\n%s", len(create), strings.Join(create, "\n"))
	}
	for _, removed := range removedDesignFacts {
		if attributeLines(create, removed) > 0 {
			t.Errorf("the create plan shows %s, which the resource no longer has", removed)
		}
	}
	checkParity(t, plan)
	t.Logf("create plan: %d lines for the resource block", len(create))

	c.mustRun("apply", "-no-color", "-input=false", "plan.bin")
	t.Cleanup(func() { c.run("destroy", "-no-color", "-input=false", "-auto-approve") })
	if out, code := c.run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after apply is not empty (exit %d):\n%s", code, out)
	}

	c.write(readableTable(endpoint, "readable-orders", 3500))
	human, plan = c.plan()
	update := planBlock(t, human, address)
	text := strings.Join(update, "\n")
	if !strings.Contains(update[0], "will be updated in-place") {
		t.Fatalf("want an in-place update:\n%s", text)
	}
	for _, want := range []string{
		`(?m)^      ~ traffic += \{\n          ~ writes_per_second += 3000 -> 3500$`,
		`(?m)^          -   writes 3,000/s = 3,000 WCU$`,
		`(?m)^          \+   writes 3,500/s = 3,500 WCU$`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("the update plan does not show %s:\n%s", want, text)
		}
	}
	if n := attributeLines(update, "design_document"); n != 1 {
		t.Errorf("design_document takes %d lines of the update plan, want 1:\n%s", n, text)
	}
	checkParity(t, plan)
	t.Logf("update plan: %d lines for the resource block", len(update))
}
