package provider

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// exampleExpectations says what planning each example must show: "" for a clean plan, else a pattern
// the failed plan's output must match.
var exampleExpectations = map[string]string{
	"examples/scenarios/daily-event-log":    `(?s)DK301 time-bucket-partition-key.*DK303 hot-key-demand.*use at least 4 shards`,
	"examples/scenarios/bestseller-product": `(?s)DK304 hot-item: one item takes 12,000 RCU`,
}

// TestAccExamplesPlan plans every example directory with the real CLI and a fresh provider build, against
// a local DynamoDB server. (That the examples are terraform fmt clean is checked by make lint.)
func TestAccExamplesPlan(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	tf, rc := devCLIConfig(t, work)

	var dirs []string
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") && !strings.HasSuffix(path, "import-by-string-id.tf") {
			dir := filepath.Dir(path)
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return err
	})
	if err != nil || len(dirs) < 10 {
		t.Fatalf("found %d example directories: %v", len(dirs), err)
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			copyDir := filepath.Join(work, strings.ReplaceAll(rel, string(filepath.Separator), "_"))
			if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			// The import block needs an existing table; the import itself is covered by the lifecycle test.
			_ = os.Remove(filepath.Join(copyDir, "import-by-string-id.tf"))
			if prepare, ok := examplePreparers[rel]; ok {
				prepare(t, copyDir)
			}
			// Provider-less examples (functions, data sources) still need the provider declared.
			if _, err := os.Stat(filepath.Join(copyDir, "versions.tf")); err != nil && !fileContains(t, copyDir, "required_providers") {
				_ = os.WriteFile(filepath.Join(copyDir, "versions.tf"), []byte("terraform {\n  required_providers {\n    dynamokeys = { source = \"dynamokeys/dynamokeys\" }\n  }\n}\n"), 0o600)
			}
			cmd := exec.Command(tf, "plan", "-no-color", "-input=false", "-refresh=false")
			cmd.Dir = copyDir
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "AWS_ENDPOINT_URL_DYNAMODB="+endpoint,
				"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1", "TF_VAR_endpoint="+endpoint)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			want := exampleExpectations[rel]
			switch {
			case want == "" && err != nil:
				t.Errorf("plan failed: %v\n%s", err, out.String())
			case want != "" && err == nil:
				t.Errorf("plan passed; it should fail with %s\n%s", want, out.String())
			case want != "" && !regexp.MustCompile(want).MatchString(out.String()):
				t.Errorf("plan output does not match %s:\n%s", want, out.String())
			}
		})
	}
}

func fileContains(t *testing.T, dir, needle string) bool {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && strings.Contains(string(b), needle) {
			return true
		}
	}
	return false
}
