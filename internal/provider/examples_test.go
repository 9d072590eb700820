package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// exampleExpectations says what planning each example must show: "" for a clean plan, else a pattern
// the failed plan's output must match.
var exampleExpectations = map[string]string{
	"examples/scenarios/daily-event-log":       `(?s)DK301 time-bucket-partition-key.*DK303 hot-key-demand.*use at least 4 shards`,
	"examples/scenarios/bestseller-product":    `(?s)DK304 hot-item: one item takes 12,000 RCU`,
	"examples/scenarios/single-table-customer": `(?s)DK109 entity-key-collision: entities "invoice" and "order" can write the same primary key`,
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
			// Provider-less examples (functions, data sources) get the provider declared.
			out, err := planExampleDir(tf, rc, endpoint, copyDir)
			want := exampleExpectations[rel]
			switch {
			case want == "" && err != nil:
				t.Errorf("plan failed: %v\n%s", err, out)
			case want != "" && err == nil:
				t.Errorf("plan passed; it should fail with %s\n%s", want, out)
			case want != "" && !regexp.MustCompile(want).MatchString(out):
				t.Errorf("plan output does not match %s:\n%s", want, out)
			}
		})
	}
}
