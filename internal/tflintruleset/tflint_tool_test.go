//go:build tflintcheck

// The real TFLint with the plugin on every example and on the fixtures of testdata/tflint. These tests need
// a TFLint binary and the plugin built, so they are not part of `go test ./...`: `make check-tflint` builds
// the pinned TFLint into .bin/ and the plugin into .bin/tflint-plugins, and runs them with
//
//	TFLINT=/path/to/tflint TFLINT_PLUGIN_DIR=/path/to/plugins go test -tags tflintcheck -run TestTFLint ./internal/tflintruleset

package tflintruleset

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// tflintConfig enables the plugin alone: the terraform ruleset bundled with TFLint has its own opinions on
// the examples (version constraints, unused declarations) that are not this plugin's.
const tflintConfig = `plugin "terraform" {
  enabled = false
}

plugin "dynamokeys" {
  enabled = true
}
`

// noticesConfig also asks for the notices of what only the plan knows (off by default).
var noticesConfig = strings.Replace(tflintConfig, "  enabled = true\n", "  enabled = true\n  "+UnknownInputsSetting+" = true\n", 1)

// withTerraformRules enables TFLint's own recommended rules beside the plugin, which must keep their results.
func withTerraformRules(pluginEnabled bool) string {
	return fmt.Sprintf("plugin \"terraform\" {\n  enabled = true\n  preset  = \"recommended\"\n}\n\nplugin \"dynamokeys\" {\n  enabled = %t\n}\n", pluginEnabled)
}

// tflint runs the TFLint make passes in, in dir, with the plugin of TFLINT_PLUGIN_DIR; without either the
// test fails, it never skips.
func runTFLint(t *testing.T, dir, config string, args ...string) ([]byte, int) {
	t.Helper()
	bin, plugins := os.Getenv("TFLINT"), os.Getenv("TFLINT_PLUGIN_DIR")
	if bin == "" || plugins == "" {
		t.Fatal("TFLINT and TFLINT_PLUGIN_DIR are not set: run make check-tflint, which builds the pinned TFLint and the plugin")
	}
	if _, err := os.Stat(filepath.Join(plugins, "tflint-ruleset-dynamokeys")); err != nil {
		t.Fatalf("TFLINT_PLUGIN_DIR holds no tflint-ruleset-dynamokeys: %v", err)
	}
	configFile := filepath.Join(t.TempDir(), ".tflint.hcl")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--config", configFile}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins)
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return out, exit.ExitCode()
	case err != nil:
		t.Fatalf("tflint: %v", err)
	}
	return out, 0
}

// lintJSON runs tflint --format json and returns each issue as "rule severity file:line" (the first line of
// its range, and for an issue of a called module the caller's argument), sorted.
func lintJSON(t *testing.T, dir, config string, args ...string) []string {
	t.Helper()
	out, code := runTFLint(t, dir, config, append([]string{"--format", "json"}, args...)...)
	report, errs, err := testutil.ParseTFLintJSON(out)
	if err != nil {
		t.Fatalf("tflint output is not JSON (exit %d): %v\n%s", code, err, out)
	}
	if len(errs) > 0 {
		t.Fatalf("tflint errors: %q", errs)
	}
	got := []string{}
	for _, is := range report {
		got = append(got, fmt.Sprintf("%s %s %s:%d", is.Rule, is.Severity, filepath.ToSlash(is.File), is.Line))
		if strings.HasPrefix(is.Rule, Name+"_dk") && !strings.HasPrefix(is.Message, strings.ToUpper(strings.TrimPrefix(is.Rule, Name+"_"))+" ") {
			t.Errorf("the message of %s does not start with its rule id: %s", is.Rule, is.Message)
		}
	}
	// TFLint fails on any issue, notices included (--minimum-failure-severity defaults to notice), and passes
	// without one: a configuration without a finding lints clean.
	if (len(report) > 0) != (code != 0) {
		t.Errorf("tflint exited %d with %d issues", code, len(report))
	}
	if code != 0 && code != 2 {
		t.Errorf("tflint exited %d: the run did not finish (2 is issues found)\n%s", code, out)
	}
	slices.Sort(got)
	return got
}

func assertLint(t *testing.T, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n  got  %q\n  want %q", got, want)
	}
}

// exampleIssues is what TFLint reports on each example directory. The errors are the findings that fail
// the example's plan (internal/provider/examples_test.go: daily-event-log, bestseller-product), on the line
// that sets the input; the warnings are those the plan shows too. Notices are off by default
// (exampleNotices has them).
var exampleIssues = map[string][]string{
	"examples/data-sources/dynamokeys_keydesign":        nil,
	"examples/data-sources/dynamokeys_observed_traffic": nil,
	"examples/functions/decode_design_document":         nil,
	"examples/functions/from_mcp_schema":                nil,
	"examples/functions/from_onetable_schema":           nil,
	"examples/functions/from_workbench_model":           nil,
	"examples/functions/render_key":                     nil,
	"examples/functions/shard":                          nil,
	"examples/functions/shard_keys":                     nil,
	"examples/functions/shard_suffix":                   nil,
	"examples/modules/multi-region-table":               {"dynamokeys_dk501 warning keydesign.tf:32"},
	"examples/observed-traffic":                         nil,
	"examples/provider":                                 nil,
	"examples/quickstart":                               nil,
	"examples/resources/dynamokeys_sharded_table": {
		"dynamokeys_dk602 warning resource.tf:14", "dynamokeys_dk602 warning resource.tf:17", "dynamokeys_dk902 warning resource.tf:17",
	},
	"examples/scenarios/bestseller-product": {
		"dynamokeys_dk304 error main.tf:21", "dynamokeys_dk601 warning main.tf:19", "dynamokeys_dk602 warning main.tf:19",
	},
	"examples/scenarios/daily-event-log":            {"dynamokeys_dk301 error main.tf:14", "dynamokeys_dk303 error main.tf:14"},
	"examples/scenarios/multi-tenant-vector-search": {"dynamokeys_dk602 warning main.tf:15"}, // above what a new on-demand table takes
	"examples/scenarios/order-status":               {"dynamokeys_dk302 warning main.tf:13"},
	"examples/scenarios/orders-access-patterns":     {},
	"examples/scenarios/orders-by-customer":         {"dynamokeys_dk902 warning main.tf:22"},
	"examples/scenarios/single-table-customer":      {"dynamokeys_dk109 error main.tf:34", "dynamokeys_dk110 warning main.tf:45"},
	"examples/tables/minimal":                       nil,
	"examples/tables/provisioned-autoscaled":        {"dynamokeys_dk902 warning main.tf:23"},
	"examples/tables/vector-search":                 nil,
}

// exampleNotices are the notices the examples add when asked for, one per input, on the line that sets it.
var exampleNotices = map[string][]string{
	// The table's keys (hash_key, range_key) come from the key design's outputs, which the plan computes.
	"examples/modules/multi-region-table": {"dynamokeys_unknown_inputs info table.tf:8", "dynamokeys_unknown_inputs info table.tf:9"},
	// Measured traffic comes from the dynamokeys_observed_traffic data source: the plan's to read.
	"examples/observed-traffic": {"dynamokeys_unknown_inputs info main.tf:24"},
}

// TestTFLintExamples runs TFLint on every example directory; a directory missing from exampleIssues fails.
func TestTFLintExamples(t *testing.T) {
	t.Parallel()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			if rel = filepath.ToSlash(rel); !slices.Contains(dirs, rel) {
				dirs = append(dirs, rel)
			}
		}
		return err
	})
	if err != nil || len(dirs) < 10 {
		t.Fatalf("found %d example directories: %v", len(dirs), err)
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			want, ok := exampleIssues[dir]
			if !ok {
				t.Fatalf("%s is not in exampleIssues: say what TFLint must report on it", dir)
			}
			assertLint(t, lintJSON(t, filepath.Join(root, dir), tflintConfig), want...)
			if notices, ok := exampleNotices[dir]; ok {
				assertLint(t, lintJSON(t, filepath.Join(root, dir), noticesConfig), append(slices.Clone(want), notices...)...)
			}
		})
	}
}

// TestTFLintFixtures covers what the SDK's test runner does not model: locals, tfvars files, module calls.
func TestTFLintFixtures(t *testing.T) {
	t.Parallel()
	fixture := func(name string) string { return filepath.Join("testdata", "tflint", name) }
	t.Run("variables", func(t *testing.T) {
		t.Parallel()
		// The default (2,500 writes/s) fails DK301 and DK303; the variable without a value is unknown: DK303
		// stays silent on that design and the notice names traffic.reads_per_second.
		assertLint(t, lintJSON(t, fixture("variables"), tflintConfig),
			"dynamokeys_dk301 error main.tf:13", "dynamokeys_dk303 error main.tf:13", "dynamokeys_dk302 warning main.tf:21")
		assertLint(t, lintJSON(t, fixture("variables"), noticesConfig),
			"dynamokeys_dk301 error main.tf:13", "dynamokeys_dk303 error main.tf:13",
			"dynamokeys_dk302 warning main.tf:21", "dynamokeys_unknown_inputs info main.tf:25")
		// --var-file values replace the default and set the missing one: the first design is calm (DK301's
		// warning case), the second now reads 100,000 strong reads/s on two keys.
		assertLint(t, lintJSON(t, fixture("variables"), tflintConfig, "--var-file", "calm.tfvars"),
			"dynamokeys_dk301 warning main.tf:13",
			"dynamokeys_dk302 warning main.tf:21", "dynamokeys_dk303 error main.tf:21",
			"dynamokeys_dk601 warning main.tf:25", "dynamokeys_dk602 warning main.tf:25")
	})
	t.Run("locals", func(t *testing.T) {
		t.Parallel()
		assertLint(t, lintJSON(t, fixture("locals"), tflintConfig), "dynamokeys_dk301 error main.tf:8", "dynamokeys_dk303 error main.tf:8")
	})
	t.Run("modules", func(t *testing.T) {
		t.Parallel()
		// The called module's design is hot with the caller's rate: TFLint reports it on the caller's argument.
		// The two instances of copies report alike: once.
		assertLint(t, lintJSON(t, fixture("modules"), tflintConfig), "dynamokeys_dk301 error main.tf:3", "dynamokeys_dk303 error main.tf:3",
			"dynamokeys_dk301 error main.tf:9", "dynamokeys_dk303 error main.tf:9")
	})
	t.Run("aws", func(t *testing.T) {
		t.Parallel()
		assertLint(t, lintJSON(t, fixture("aws"), tflintConfig),
			"dynamokeys_dk302 warning main.tf:8", "dynamokeys_dk302 warning main.tf:37")
		assertLint(t, lintJSON(t, fixture("aws"), noticesConfig),
			"dynamokeys_dk302 warning main.tf:8", "dynamokeys_dk302 warning main.tf:37", "dynamokeys_unknown_inputs info main.tf:49")
	})
	t.Run("aws vector indexes", func(t *testing.T) {
		t.Parallel()
		// DK504 on the table's billing_mode; DK506 (8,192 dimensions) and DK509 (the HASH is the table's only
		// key) on the aws_dynamodb_vector_index.
		assertLint(t, lintJSON(t, fixture("aws_vectors"), tflintConfig),
			"dynamokeys_dk504 error main.tf:4", "dynamokeys_dk506 error main.tf:19", "dynamokeys_dk509 warning main.tf:28")
	})
	t.Run("count and for_each", func(t *testing.T) {
		t.Parallel()
		dir := fixture("instances")
		assertLint(t, lintJSON(t, dir, noticesConfig),
			// for_each: each instance with its own key attribute.
			"dynamokeys_dk301 warning main.tf:13", "dynamokeys_dk302 warning main.tf:13",
			// count = 2: both instances report alike, once.
			"dynamokeys_dk302 warning main.tf:25",
			// count not known: nothing to check, and the notice on the count.
			"dynamokeys_unknown_inputs info main.tf:34",
			// for_each over rates: the hot instance's errors, the calm one's warning.
			"dynamokeys_dk301 error main.tf:49", "dynamokeys_dk301 warning main.tf:49", "dynamokeys_dk303 error main.tf:49",
			// A data block is not expanded: each.value is unknown.
			"dynamokeys_dk301 warning main.tf:61", "dynamokeys_unknown_inputs info main.tf:67",
			// count = "2", converted as TFLint converts it; both files' blocks start at line 1.
			"dynamokeys_dk302 warning counted.tf:5",
			// A for_each whose keys are known and values not still names its instances.
			"dynamokeys_dk302 warning unknown_values.tf:5",
			// An instance's finding on an index, on the index's line of a multi-line attribute.
			"dynamokeys_dk501 warning lines.tf:12")
		// (unknown_values.tf's data block has count = 0: nothing to check, nothing reported.)
		out, _ := runTFLint(t, dir, noticesConfig, "--format", "compact")
		for _, want := range []string{
			`(instance aws_dynamodb_table.by_key["events"])`,
			`(instances aws_dynamodb_table.copies[0], aws_dynamodb_table.copies[1])`,
			`the count of aws_dynamodb_table.per_region is not known before the plan`,
			`(instance dynamokeys_sharded_table.daily["hot"]) (dynamokeys_dk303)`,
			`TFLint does not expand the for_each of a data block`,
			`(instances aws_dynamodb_table.counted[0], aws_dynamodb_table.counted[1])`,
			`(instances aws_dynamodb_table.unknown_values["first"], aws_dynamodb_table.unknown_values["second"])`,
		} {
			if !strings.Contains(string(out), want) {
				t.Errorf("TFLint's output does not contain %s:\n%s", want, out)
			}
		}
	})
	t.Run("custom policy_dirs", func(t *testing.T) {
		t.Parallel()
		// orders breaks the organisation's rule; scratch's provider configuration (an alias) has no
		// policy_dirs; the invoices module's table uses the root's default configuration, reported on the
		// caller's name; the drafts module is passed the alias; the AWS table gets the built-in rules only.
		assertLint(t, lintJSON(t, fixture("custom"), tflintConfig), "dynamokeys_custom error main.tf:13", "dynamokeys_custom error main.tf:32")
		// --chdir: the relative path is still read from the root module's directory (TFLint names the files
		// from the directory it started in).
		assertLint(t, lintJSON(t, ".", tflintConfig, "--chdir", fixture("custom")),
			"dynamokeys_custom error testdata/tflint/custom/main.tf:13", "dynamokeys_custom error testdata/tflint/custom/main.tf:32")
	})
	t.Run("misspelled attributes", func(t *testing.T) {
		t.Parallel()
		// Each misspelling at its own line, at every depth of the three block types and the provider's, in
		// merge(...), a for expression, locals and each.value, beside what the provider would say of the
		// design Terraform would send it.
		misspelledAt := func(lines ...string) []string {
			var out []string
			for _, l := range lines {
				out = append(out, UnknownAttributeRule+" error "+l)
			}
			return out
		}
		assertLint(t, lintJSON(t, fixture("misspelled"), tflintConfig), append(misspelledAt(
			"main.tf:5", "main.tf:12", "main.tf:14", "main.tf:17", "main.tf:22", "main.tf:28", "main.tf:30",
			"main.tf:41", "main.tf:43", "main.tf:49", "locals.tf:3", "locals.tf:8"),
			// Without its granularity, the time segment is one the provider refuses.
			"dynamokeys_invalid_design error main.tf:11")...)
		out, _ := runTFLint(t, fixture("misspelled"), tflintConfig, "--format", "compact")
		for _, want := range []string{
			"`writes_per_secnd` is not an attribute of `traffic`; did you mean `writes_per_second`?",
			"`backfill_writes_per_second` is not an attribute of `migration`; did you mean `backfill_write_units_per_second`?",
			"`stratgy` is not an attribute of `migration.from.sharding`; did you mean `strategy`?",
			"`item_szie_bytes` is not an attribute of `entities[*].traffic`; did you mean `item_size_bytes`?",
		} {
			if !strings.Contains(string(out), want) {
				t.Errorf("TFLint's output does not contain %s:\n%s", want, out)
			}
		}
		// The same files spelled right report none of them: the design is valid, and the rules it hid speak.
		right := t.TempDir()
		for _, name := range []string{"main.tf", "locals.tf"} {
			text, err := os.ReadFile(filepath.Join(fixture("misspelled"), name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(right, name), []byte(fixtureSpelledRight.Replace(string(text))), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		assertLint(t, lintJSON(t, right, tflintConfig), "dynamokeys_dk806 warning main.tf:16", "dynamokeys_dk501 warning main.tf:17")
	})
	t.Run("rule disabled by id", func(t *testing.T) {
		t.Parallel()
		config := tflintConfig + "\nrule \"dynamokeys_dk301\" {\n  enabled = false\n}\n"
		assertLint(t, lintJSON(t, fixture("locals"), config), "dynamokeys_dk303 error main.tf:8")
	})
}

// fixtureSpelledRight corrects every misspelling of testdata/tflint/misspelled.
var fixtureSpelledRight = strings.NewReplacer(
	"enforec", "enforce", "granularty", "granularity", "writes_per_secnd", "writes_per_second", "cardnality", "cardinality",
	"conditon", "condition", "stratgy", "strategy", "backfill_writes_per_second", "backfill_write_units_per_second",
	"item_szie_bytes", "item_size_bytes", "recovery_period_in_dyas", "recovery_period_in_days", "raed", "read",
	"max_lenght", "max_length", "reads_per_secnod", "reads_per_second",
)

// TestTFLintSARIF checks the SARIF TFLint writes with the plugin's issues: each result names the rule, the
// level and the file and line.
func TestTFLintSARIF(t *testing.T) {
	t.Parallel()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out, code := runTFLint(t, filepath.Join(root, "examples", "scenarios", "daily-event-log"), tflintConfig, "--format", "sarif")
	if code == 0 {
		t.Errorf("tflint exited 0 on a failing design")
	}
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &sarif); err != nil {
		t.Fatalf("not SARIF: %v\n%s", err, out)
	}
	var got []string
	for _, run := range sarif.Runs {
		for _, r := range run.Results {
			for _, l := range r.Locations {
				got = append(got, fmt.Sprintf("%s %s %s:%d", r.RuleID, r.Level, l.PhysicalLocation.ArtifactLocation.URI, l.PhysicalLocation.Region.StartLine))
			}
		}
	}
	assertLint(t, got, "dynamokeys_dk301 error main.tf:14", "dynamokeys_dk303 error main.tf:14")
}

// TestTFLintLanguageServer opens a file with a hot design in `tflint --langserver` and waits for the
// diagnostics it publishes: the editor's view of the same issues, on the same line.
func TestTFLintLanguageServer(t *testing.T) {
	t.Parallel()
	hot := "data \"dynamokeys_keydesign\" \"events\" {\n" +
		"  partition_key = { name = \"pk\", template = \"DAY#{day}\" }\n" +
		"  segments      = { day = { kind = \"time\", granularity = \"day\" } }\n" +
		"  traffic       = { writes_per_second = 2500 }\n" +
		"}\n"
	t.Run("hot design", func(t *testing.T) {
		t.Parallel()
		// LSP lines count from 0: the partition_key line is the second.
		dir := t.TempDir()
		if got, want := langserverDiagnostics(t, dir, dir, map[string]string{"main.tf": hot}, "main.tf"), []string{"DK301 line 1", "DK303 line 1"}; !slices.Equal(got, want) {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
	t.Run("a reference being typed", func(t *testing.T) {
		t.Parallel()
		// var.na is half typed in a queue beside the design, and in a table: the design's diagnostics stay,
		// the table gets one issue on the reference, and the run goes on.
		typing := hot + "\nresource \"aws_sqs_queue\" \"jobs\" {\n  count = var.na\n  name  = \"${var.na}_jobs\"\n}\n" +
			"\nresource \"aws_dynamodb_table\" \"orders\" {\n  name     = var.na\n  hash_key = \"status\"\n}\n"
		dir := t.TempDir()
		got := langserverDiagnostics(t, dir, dir, map[string]string{"main.tf": typing}, "main.tf")
		if want := []string{"DK301 line 1", "DK302 line 13", "DK303 line 1", "dynamokeys: line 12"}; !slices.Equal(got, want) {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
	t.Run("a misspelled attribute being typed", func(t *testing.T) {
		t.Parallel()
		// Terraform would plan this design without traffic: the editor shows why, on the attribute.
		typing := strings.Replace(hot, "writes_per_second", "writes_per_secnd", 1)
		dir := t.TempDir()
		if got, want := langserverDiagnostics(t, dir, dir, map[string]string{"main.tf": typing}, "main.tf"), []string{"DK301 line 1", "dynamokeys: line 3"}; !slices.Equal(got, want) {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
	t.Run("policy_dirs from an editor started elsewhere", func(t *testing.T) {
		t.Parallel()
		// An editor starts the server in its own directory; the relative policy directory is the workspace's.
		workspace := t.TempDir()
		rule, err := os.ReadFile(filepath.Join("testdata", "tflint", "custom", "policies", "naming.rego"))
		if err != nil {
			t.Fatal(err)
		}
		table := "provider \"dynamokeys\" {\n  policy = { policy_dirs = [\"policies\"] }\n}\n\n" +
			"resource \"dynamokeys_sharded_table\" \"orders\" {\n" +
			"  name          = \"orders\"\n" +
			"  partition_key = { name = \"pk\", template = \"CUSTOMER#{customer_id}\" }\n" +
			"  segments      = { customer_id = { kind = \"id\" } }\n" +
			"}\n"
		files := map[string]string{"main.tf": table, "policies/naming.rego": string(rule)}
		if got, want := langserverDiagnostics(t, t.TempDir(), workspace, files, "main.tf"), []string{"ORG001 line 5"}; !slices.Equal(got, want) {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
}

// langserverDiagnostics starts `tflint --langserver` in serverDir on the workspace dir holding files (and the
// plugin's .tflint.hcl), opens the file open and returns its diagnostics as "first-word line N", sorted.
func langserverDiagnostics(t *testing.T, serverDir, dir string, files map[string]string, open string) []string {
	t.Helper()
	bin, plugins := os.Getenv("TFLINT"), os.Getenv("TFLINT_PLUGIN_DIR")
	if bin == "" || plugins == "" {
		t.Fatal("TFLINT and TFLINT_PLUGIN_DIR are not set: run make check-tflint, which builds the pinned TFLint and the plugin")
	}
	files[".tflint.hcl"] = tflintConfig
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// An editor names the configuration file when it starts the server elsewhere than the workspace.
	cmd := exec.Command(bin, "--langserver", "--config", filepath.Join(dir, ".tflint.hcl"))
	cmd.Dir = serverDir
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins)
	// Its own process group: the plugin processes the server starts outlive a kill of the server alone.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the server and its plugins, by process group
		_ = cmd.Wait()
	}()
	send := func(msg map[string]any) {
		msg["jsonrpc"] = "2.0"
		body, _ := json.Marshal(msg)
		if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatal(err)
		}
	}
	reader := bufio.NewReader(stdout)
	receive := func() map[string]any {
		length := 0
		for {
			line, err := reader.ReadString('\n')
			if err != nil {
				t.Fatalf("the language server closed its output: %v", err)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(reader, body); err != nil {
			t.Fatal(err)
		}
		var msg map[string]any
		if err := json.Unmarshal(body, &msg); err != nil {
			t.Fatalf("not JSON-RPC: %v: %s", err, body)
		}
		return msg
	}
	uri := "file://" + filepath.ToSlash(dir)
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": uri, "capabilities": map[string]any{}}})
	for msg := receive(); msg["id"] != float64(1); msg = receive() {
	}
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri + "/" + open, "languageId": "terraform", "version": 1, "text": files[open],
	}}})
	// The server publishes diagnostics for every file it lints; the open file's carry the plugin's issues. A
	// lint the plugin aborts publishes nothing at all (the editor shows no diagnostic of the file), and
	// the test waits until go test's -timeout.
	for {
		msg := receive()
		if msg["method"] != "textDocument/publishDiagnostics" {
			continue
		}
		params, _ := msg["params"].(map[string]any)
		diagnostics, _ := params["diagnostics"].([]any)
		if params["uri"] != uri+"/"+open || len(diagnostics) == 0 {
			continue
		}
		var got []string
		for _, raw := range diagnostics {
			d, _ := raw.(map[string]any)
			message, _ := d["message"].(string)
			start, _ := d["range"].(map[string]any)["start"].(map[string]any)
			got = append(got, fmt.Sprintf("%s line %v", strings.Fields(message)[0], start["line"]))
		}
		slices.Sort(got)
		return got
	}
}

// TestTFLintRealWorld holds the plugin to the constructs of real repositories (testdata/tflint/realworld):
// a run is never aborted, a clean configuration exits 0, the notices are opt-in and one per input, and
// TFLint's own rules keep their results.
func TestTFLintRealWorld(t *testing.T) {
	t.Parallel()
	fixture := func(name string) string { return filepath.Join("testdata", "tflint", "realworld", name) }
	t.Run("undeclared references", func(t *testing.T) {
		t.Parallel()
		// The queue's undeclared variable is not this plugin's to report; the status table keeps its
		// finding; typing gets one issue naming both expressions it could not read; the data block one, and
		// DK301's warning, which reads only the template.
		// The counted table's count cannot be evaluated: not checked, one issue on the count.
		want := []string{
			"dynamokeys_dk302 warning main.tf:12", "dynamokeys_unreadable_input warning main.tf:21",
			"dynamokeys_unreadable_input warning main.tf:34", "dynamokeys_dk301 warning main.tf:32",
			"dynamokeys_unreadable_input warning main.tf:39",
		}
		assertLint(t, lintJSON(t, fixture("undeclared"), tflintConfig), want...)
		assertLint(t, lintJSON(t, fixture("undeclared"), noticesConfig), want...)
		out, _ := runTFLint(t, fixture("undeclared"), tflintConfig, "--format", "compact")
		for _, want := range []string{`2 expressions of aws_dynamodb_table.typing`, `line 21: Reference to undeclared input variable`, `line 23: Reference to undeclared local value`} {
			if !strings.Contains(string(out), want) {
				t.Errorf("TFLint's output does not contain %s:\n%s", want, out)
			}
		}
	})
	t.Run("TFLint's own rules keep their results", func(t *testing.T) {
		t.Parallel()
		var without, with []string
		for _, is := range lintJSON(t, fixture("undeclared"), withTerraformRules(false)) {
			without = append(without, is)
		}
		for _, is := range lintJSON(t, fixture("undeclared"), withTerraformRules(true)) {
			if strings.HasPrefix(is, "terraform_") {
				with = append(with, is)
			}
		}
		if len(without) == 0 || !slices.Equal(with, without) {
			t.Errorf("TFLint's own issues with the plugin %q, without it %q", with, without)
		}
	})
	t.Run("a reusable module's optional table", func(t *testing.T) {
		t.Parallel()
		// The status GSI of the dynamic block is found though the table's name and keys are the caller's
		// (null defaults); the table whose count is not known is not checked. No notice unless asked.
		assertLint(t, lintJSON(t, fixture("optional"), tflintConfig), "dynamokeys_dk302 warning main.tf:46")
		assertLint(t, lintJSON(t, fixture("optional"), noticesConfig), "dynamokeys_dk302 warning main.tf:46",
			"dynamokeys_unknown_inputs info main.tf:37", "dynamokeys_unknown_inputs info main.tf:39", "dynamokeys_unknown_inputs info main.tf:54")
		// Without the status index and with the table off, the module lints clean: exit 0.
		assertLint(t, lintJSON(t, fixture("optional"), tflintConfig, "--var", "create_table=false", "--var", "enabled=false"))
	})
	t.Run("module calls", func(t *testing.T) {
		t.Parallel()
		// The called module's findings on the caller's argument that makes them: the six LSIs on lsi_names,
		// the day-named key on hash_key; the notice once, on the argument whose value is not known.
		assertLint(t, lintJSON(t, fixture("module-caller"), noticesConfig, "--call-module-type=local"),
			"dynamokeys_dk201 error main.tf:10", "dynamokeys_dk301 warning main.tf:17", "dynamokeys_unknown_inputs info main.tf:9")
		assertLint(t, lintJSON(t, fixture("module-caller"), tflintConfig, "--call-module-type=local"),
			"dynamokeys_dk201 error main.tf:10", "dynamokeys_dk301 warning main.tf:17")
		// Linted on its own, the module has nothing to report: every input is its caller's.
		assertLint(t, lintJSON(t, fixture("module-caller/modules/table"), tflintConfig))
	})
	t.Run("for_each from a JSON file", func(t *testing.T) {
		t.Parallel()
		// log_level is few-valued; timestamp of type N holds epoch values (no DK301); the environment index
		// is reported once for the three instances.
		assertLint(t, lintJSON(t, fixture("json-tables"), tflintConfig), "dynamokeys_dk302 warning main.tf:9", "dynamokeys_dk302 warning main.tf:18")
		out, _ := runTFLint(t, fixture("json-tables"), tflintConfig, "--format", "compact")
		for _, want := range []string{`(instance aws_dynamodb_table.per_entry["audit"])`, `(instances aws_dynamodb_table.per_entry["audit"], aws_dynamodb_table.per_entry["metrics"], aws_dynamodb_table.per_entry["sessions"])`} {
			if !strings.Contains(string(out), want) {
				t.Errorf("TFLint's output does not contain %s:\n%s", want, out)
			}
		}
	})
	t.Run("Terraform 0.12-era syntax", func(t *testing.T) {
		t.Parallel()
		// list() no longer exists: one issue on the table that calls it; the modern table's role-named key.
		assertLint(t, lintJSON(t, fixture("legacy"), tflintConfig), "dynamokeys_unreadable_input warning main.tf:11", "dynamokeys_dk302 warning main.tf:24")
	})
}
