package policy

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// bundleArchive returns the release bundle archive to check and its version: the one named by
// DYNAMOKEYS_BUNDLE_ARCHIVE and DYNAMOKEYS_BUNDLE_VERSION (scripts/check-bundle-archive.sh passes the
// goreleaser snapshot's), else one built here by scripts/policy-bundle.sh, the script goreleaser runs.
func bundleArchive(t *testing.T) (string, string) {
	t.Helper()
	if archive := os.Getenv("DYNAMOKEYS_BUNDLE_ARCHIVE"); archive != "" {
		return archive, os.Getenv("DYNAMOKEYS_BUNDLE_VERSION")
	}
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	version, out := "0.0.0-test", t.TempDir()
	if b, err := exec.Command("bash", filepath.Join(root, "scripts", "policy-bundle.sh"), version, out).CombinedOutput(); err != nil {
		t.Fatalf("policy-bundle.sh: %v\n%s", err, b)
	}
	return filepath.Join(out, "dynamokeys-policies_"+version+".tar.gz"), version
}

// archiveEntries lists the archive's files with their content.
func archiveEntries(t *testing.T, archive string) map[string]string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return entries
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		entries[h.Name] = string(b)
	}
}

// TestPolicyBundleArchive checks the dynamokeys-policies_<version>.tar.gz release asset: its layout and
// manifest, and that `opa eval -b` on it (OPA's bundle loader and rego, as the CLI uses them) gives the
// same conftest and HCP Terraform results as the policies/ directory on every plan fixture.
func TestPolicyBundleArchive(t *testing.T) {
	archive, version := bundleArchive(t)
	if version == "" {
		t.Fatal("DYNAMOKEYS_BUNDLE_VERSION is not set")
	}
	if filepath.Base(archive) != "dynamokeys-policies_"+version+".tar.gz" {
		t.Errorf("archive name %s, want dynamokeys-policies_%s.tar.gz", filepath.Base(archive), version)
	}

	entries := archiveEntries(t, archive)
	dirModules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".manifest", "policies.hcl"}
	for name := range dirModules {
		want = append(want, strings.TrimPrefix(name, "policies/"))
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(entries)); !slices.Equal(got, want) {
		t.Errorf("archive files %v, want %v (the rules and their limits module without *_test.rego, the manifest and policies.hcl)", got, want)
	}
	// Every module is the repository's; the limits module has the bundle's version stamped in.
	for name, content := range entries {
		if !strings.HasSuffix(name, ".rego") {
			continue
		}
		repo := mustRead(t, filepath.Join("..", "..", "policies", name))
		if name == DataModulePath {
			if !strings.Contains(content, "\nversion := \""+version+"\"\n") || !strings.Contains(repo, "\nversion := \"dev\"\n") {
				t.Errorf("%s: the archive's version is not %q, or the repository's is not dev", name, version)
			}
			repo = strings.Replace(repo, "\nversion := \"dev\"\n", "\nversion := \""+version+"\"\n", 1)
		}
		if content != repo {
			t.Errorf("%s differs from policies/%s", name, name)
		}
	}

	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundle.NewReader(f).Read()
	_ = f.Close()
	if err != nil {
		t.Fatalf("OPA cannot read the archive as a bundle: %v", err)
	}
	if b.Manifest.Revision != version || b.Manifest.Roots == nil || !slices.Equal(*b.Manifest.Roots, []string{"dynamokeys"}) {
		t.Errorf("manifest revision %q, roots %v; want %q and [dynamokeys]", b.Manifest.Revision, b.Manifest.Roots, version)
	}
	if len(b.Modules) != len(dirModules) {
		t.Errorf("bundle has %d modules, policies/ %d", len(b.Modules), len(dirModules))
	}

	queries := []string{"data.dynamokeys.conftest.deny", "data.dynamokeys.conftest.warn"}
	hcpQueries := regexp.MustCompile(`query\s*=\s*"([^"]+)"`).FindAllStringSubmatch(entries["policies.hcl"], -1)
	if len(hcpQueries) != 2 {
		t.Fatalf("policies.hcl declares %d policies, want the deny and the warn query:\n%s", len(hcpQueries), entries["policies.hcl"])
	}
	for _, q := range hcpQueries {
		queries = append(queries, q[1])
	}

	// Each query is prepared once per source, each a compile of the whole bundle, and evaluated on every plan.
	ctx := t.Context()
	prepare := func(query string, opts ...func(*rego.Rego)) rego.PreparedEvalQuery {
		pq, err := rego.New(append(opts, rego.Query(query))...).PrepareForEval(ctx)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return pq
	}
	dirOpts := make([]func(*rego.Rego), 0, len(dirModules))
	for _, m := range dirModules {
		dirOpts = append(dirOpts, rego.ParsedModule(m))
	}
	type prepared struct{ archive, dir rego.PreparedEvalQuery }
	byQuery := map[string]prepared{}
	for _, query := range queries {
		byQuery[query] = prepared{archive: prepare(query, rego.LoadBundle(archive)), dir: prepare(query, dirOpts...)}
	}
	plans, err := filepath.Glob(filepath.Join("testdata", "plans", "*.json"))
	if err != nil || len(plans) < 5 {
		t.Fatalf("plan fixtures: %v %v", plans, err)
	}
	denied := 0
	for _, planFile := range plans {
		plan := loadPlan(t, filepath.Base(planFile))
		for _, query := range queries {
			input := plan
			if strings.HasPrefix(query, "data.dynamokeys.hcp.") {
				input = ast.NewObject(ast.Item(ast.StringTerm("plan"), ast.NewTerm(plan))) // HCP Terraform's input.plan
			}
			eval := func(pq rego.PreparedEvalQuery) string {
				rs, err := pq.Eval(ctx, rego.EvalParsedInput(input))
				if err != nil || len(rs) != 1 {
					t.Fatalf("%s on %s: %v (%d results)", query, planFile, err, len(rs))
				}
				out, _ := json.Marshal(rs[0].Expressions[0].Value)
				return string(out)
			}
			got, want := eval(byQuery[query].archive), eval(byQuery[query].dir)
			if got != want {
				t.Errorf("%s on %s:\narchive   %s\npolicies/ %s", query, filepath.Base(planFile), got, want)
			}
			var results []any
			_ = json.Unmarshal([]byte(got), &results)
			if strings.HasSuffix(query, ".deny") && len(results) > 0 {
				denied++
			}
		}
	}
	if denied == 0 {
		t.Error("no fixture was denied: the comparison proved nothing")
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
