package tflintruleset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/terraform-linters/tflint-plugin-sdk/helper"
)

const ordersTable = `resource "dynamokeys_sharded_table" "orders" {
  name          = "orders"
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments = {
    customer_id = { kind = "id" }
  }
}
`

// policyDir writes the .rego files of files into a new directory.
func policyDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func providerWithDirs(dirs ...string) string {
	quoted := make([]string, len(dirs))
	for i, d := range dirs {
		quoted[i] = fmt.Sprintf("%q", d)
	}
	return fmt.Sprintf("provider \"dynamokeys\" {\n  policy = { policy_dirs = [%s] }\n}\n", strings.Join(quoted, ", "))
}

const prefixRule = `package dynamokeys.custom.naming

findings contains {"rule": "ORG001", "name": "table-prefix", "severity": "error", "path": ["name"],
	"message": sprintf("table %q does not start with prod-", [input.table.name])} if {
	not startswith(input.table.name, "prod-")
}
`

func TestCustomPolicyDirs(t *testing.T) {
	t.Parallel()
	// The provider's policy_dirs run in TFLint too, under dynamokeys_custom, on the attribute of the path.
	dir := policyDir(t, map[string]string{"naming.rego": prefixRule, "naming_test.rego": "package dynamokeys.custom.naming_test\n"})
	files := map[string]string{"main.tf": ordersTable, "provider.tf": providerWithDirs(dir)}
	assertIssues(t, files, "dynamokeys_custom Error main.tf:2,3-27 ORG001")
	got := messages(t, files)
	if want := `ORG001 table-prefix: table "orders" does not start with prod-`; len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("messages %q, want one starting %q", got, want)
	}
	// disabled_rules applies to the user's ids too.
	disabled := strings.Replace(providerWithDirs(dir), "policy_dirs", `disabled_rules = ["ORG001"], policy_dirs`, 1)
	assertIssues(t, map[string]string{"main.tf": ordersTable, "provider.tf": disabled})
}

func TestCustomPolicyProblems(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	outside := policyDir(t, map[string]string{"bad.rego": "package dynamokeys.rules.mine\n\nx := 1\n"})
	malformed := policyDir(t, map[string]string{"bad.rego": "package dynamokeys.custom.bad\n\nfindings contains {\"rule\": \"ORG002\"}\n"})
	for _, tc := range []struct {
		name, dir string
		want      []string
		message   string
	}{
		{"empty", empty, []string{"dynamokeys_custom Warning provider.tf:2,12-" + fmt.Sprint(34+len(empty)) + " dynamokeys:"}, "holds no .rego file"},
		// The built-in rules still run when the user's do not load.
		{"outside dynamokeys.custom", outside, []string{"dynamokeys_custom Error provider.tf:2,12-" + fmt.Sprint(34+len(outside)) + " dynamokeys:"}, "outside dynamokeys.custom"},
		{"malformed finding", malformed, []string{"dynamokeys_custom Error main.tf:1,1-45 dynamokeys:"}, "malformed finding"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"main.tf": ordersTable, "provider.tf": providerWithDirs(tc.dir)}
			assertIssues(t, files, tc.want...)
			if got := messages(t, files); len(got) != 1 || !strings.Contains(got[0], tc.message) {
				t.Errorf("messages %q, want one with %q", got, tc.message)
			}
		})
	}
	// A design the built-in rules fail still fails with the user's rules not loading.
	hot := map[string]string{"main.tf": fmt.Sprintf(hotDay, "2500"), "provider.tf": providerWithDirs(outside)}
	if got := lint(t, hot); len(got) != 3 {
		t.Errorf("issues %q: want DK301, DK303 and the load error", got)
	}
}

// messages returns the messages of the issues of files.
func messages(t *testing.T, files map[string]string) []string {
	t.Helper()
	var out []string
	for _, is := range runRules(t, files) {
		out = append(out, is.Message)
	}
	return out
}

func TestCustomPolicyEditedWhileTheServerRuns(t *testing.T) {
	t.Parallel()
	// One ruleset for several lints, as in `tflint --langserver`: an edited policy is compiled again, and a
	// directory that did not load is tried again.
	rs, err := NewRuleSet("test")
	if err != nil {
		t.Fatal(err)
	}
	dir := policyDir(t, map[string]string{"naming.rego": "package dynamokeys.custom.naming\n\nfindings contains {\"rule\": \"ORG001\"\n"})
	files := map[string]string{"main.tf": ordersTable, "provider.tf": providerWithDirs(dir)}
	lintOnce := func() []string {
		runner := helper.TestRunner(t, files)
		for _, r := range rs.Rules {
			if err := r.Check(runner); err != nil {
				t.Fatal(err)
			}
		}
		var out []string
		for _, is := range runner.Issues {
			out = append(out, is.Rule.Name()+" "+strings.Fields(is.Message)[0])
		}
		return out
	}
	edit := func(src string, age time.Duration) {
		name := filepath.Join(dir, "naming.rego")
		if err := os.WriteFile(name, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		// A distinct modification time even where the file system's clock is coarse.
		stamp := time.Now().Add(age)
		if err := os.Chtimes(name, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	if got := lintOnce(); !slices.Equal(got, []string{"dynamokeys_custom dynamokeys:"}) {
		t.Errorf("a policy that does not parse: %q", got)
	}
	edit(prefixRule, time.Hour)
	if got := lintOnce(); !slices.Equal(got, []string{"dynamokeys_custom ORG001"}) {
		t.Errorf("after fixing it: %q", got)
	}
	edit(strings.ReplaceAll(prefixRule, "ORG001", "ORG009"), 2*time.Hour)
	if got := lintOnce(); !slices.Equal(got, []string{"dynamokeys_custom ORG009"}) {
		t.Errorf("after editing it: %q", got)
	}
}

func TestUnknownPolicySettings(t *testing.T) {
	t.Parallel()
	// Settings not known before the plan keep their defaults, and a notice on the policy attribute says which.
	provider := "variable \"rules\" {\n  type = list(string)\n}\n\nprovider \"dynamokeys\" {\n  policy = { disabled_rules = var.rules }\n}\n"
	got := messages(t, map[string]string{"main.tf": ordersTable, "provider.tf": provider})
	if len(got) != 1 || !strings.Contains(got[0], "policy.disabled_rules not known before the plan, so the defaults were assumed") {
		t.Errorf("messages %q", got)
	}
	whole := "variable \"policy\" {\n  type = any\n}\n\nprovider \"dynamokeys\" {\n  policy = var.policy\n}\n"
	got = messages(t, map[string]string{"main.tf": ordersTable, "provider.tf": whole})
	if len(got) != 1 || !strings.HasPrefix(got[0], "dynamokeys: policy not known before the plan") {
		t.Errorf("messages %q", got)
	}
}
