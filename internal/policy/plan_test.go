package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// planExpectations are the rule ids each plan fixture must produce, as "deny:DK101@address" and
// "warn:DK302@address"; unreadable resources and non-plans warn with their own message.
var planExpectations = map[string][]string{
	"sharded_create.json": {
		"deny:DK301@dynamokeys_sharded_table.events_hot", "deny:DK303@dynamokeys_sharded_table.events_hot",
	},
	"sharded_unknown.json": {},
	"sharded_update.json":  {"deny:DK402@dynamokeys_sharded_table.events_live"},
	"aws_create.json": {
		"deny:DK101@aws_dynamodb_table.flags", "deny:DK202@aws_dynamodb_table.flags",
		"warn:DK302@aws_dynamodb_table.orders_by_status", "warn:DK301@aws_dynamodb_table.events_by_day",
	},
	"aws_update.json": {"deny:DK108@aws_dynamodb_table.orders"},
	"broken.json":     {"warn:@aws_dynamodb_table.broken"},
	"not_a_plan.json": {"warn:@"},
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
		rego.Compiler(compiler), rego.StrictBuiltinErrors(true)).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			rs, err := query.Eval(context.Background(), rego.EvalParsedInput(loadPlan(t, name)))
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

// goTool builds (once, cached in .bin/) and returns a pinned tool from scripts/go-tool.sh.
func goTool(t *testing.T, name string) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" && os.Getenv("DYNAMOKEYS_TOOLS") == "" {
		t.Skipf("builds %s from the Go module proxy: runs in make test (TF_ACC=1) or with DYNAMOKEYS_TOOLS=1", name)
	}
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "go-tool.sh"), name)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

type conftestFile struct {
	Filename string           `json:"filename"`
	Failures []conftestResult `json:"failures"`
	Warnings []conftestResult `json:"warnings"`
}

type conftestResult struct {
	Msg      string         `json:"msg"`
	Metadata map[string]any `json:"metadata"`
}

// TestConftestOnPlanFixtures runs the real conftest on every fixture and checks exit codes and rule ids.
func TestConftestOnPlanFixtures(t *testing.T) {
	conftest := goTool(t, "conftest")
	root, _ := testutil.RepoRoot()
	for name, want := range planExpectations {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(conftest, "test", "--no-color", "--policy", filepath.Join(root, "policies"), "--namespace", "dynamokeys.conftest",
				"--output", "json", filepath.Join("testdata", "plans", name))
			out, err := cmd.Output()
			wantDeny := slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "deny:") })
			code := 0
			if exitErr, ok := err.(*exec.ExitError); ok {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if wantDeny != (code == 1) {
				t.Errorf("exit code %d with deny expected = %v\n%s", code, wantDeny, out)
			}
			var files []conftestFile
			if err := json.Unmarshal(out, &files); err != nil || len(files) != 1 {
				t.Fatalf("conftest --output json: %v\n%s", err, out)
			}
			var got []string
			for kind, results := range map[string][]conftestResult{"deny": files[0].Failures, "warn": files[0].Warnings} {
				for _, r := range results {
					rule, _ := r.Metadata["rule"].(string)
					address, _ := r.Metadata["address"].(string)
					got = append(got, kind+":"+rule+"@"+address)
				}
			}
			slices.Sort(got)
			want = slices.Clone(want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("conftest found %v\nwant %v", got, want)
			}
		})
	}
	t.Run("sarif", func(t *testing.T) {
		out, _ := exec.Command(conftest, "test", "--no-color", "--policy", filepath.Join(root, "policies"), "--namespace", "dynamokeys.conftest",
			"--output", "sarif", filepath.Join("testdata", "plans", "aws_create.json")).Output()
		var sarif struct {
			Runs []struct {
				Results []struct {
					RuleID  string `json:"ruleId"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &sarif); err != nil || len(sarif.Runs) == 0 {
			t.Fatalf("conftest --output sarif: %v\n%s", err, out)
		}
		found := false
		for _, r := range sarif.Runs[0].Results {
			found = found || strings.HasPrefix(r.Message.Text, "DK101 aws_dynamodb_table.flags")
		}
		if !found {
			t.Errorf("SARIF lacks the DK101 result: %s", out)
		}
	})
}

// TestRegalLint runs Regal on the bundle with the exceptions justified in .regal/config.yaml.
func TestRegalLint(t *testing.T) {
	regal := goTool(t, "regal")
	root, _ := testutil.RepoRoot()
	cmd := exec.Command(regal, "lint", "--config-file", filepath.Join(".regal", "config.yaml"), "policies")
	cmd.Dir = root // the config's ignore paths are relative to the repository
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("regal lint: %v\n%s", err, out)
	}
}
