package provider

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// docsBlock is one fenced code block of a hand-written docs page (templates/).
type docsBlock struct {
	File, Lang, Text string
	Line             int
	// Marker is the HTML comment on the line before the fence (invisible on the rendered page), e.g.
	// "not planned: needs the AWS provider" or "planned with: examples/tables/minimal".
	Marker string
}

var docsMarker = regexp.MustCompile(`^<!--\s*(.*?)\s*-->$`)

// docsBlocks reads every fenced block of the templates, with its language and marker.
func docsBlocks(t *testing.T, root string) []docsBlock {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "templates", "*.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "templates", "*", "*.tmpl"))
	// The front page's examples too: a new user copies them first.
	more = append(more, filepath.Join(root, "README.md"))
	var blocks []docsBlock
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		var cur *docsBlock
		prev := ""
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			switch {
			case cur == nil && strings.HasPrefix(line, "```"):
				cur = &docsBlock{File: rel, Lang: strings.TrimPrefix(line, "```"), Line: n}
				if m := docsMarker.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
					cur.Marker = m[1]
				}
			case cur != nil && strings.HasPrefix(line, "```"):
				blocks = append(blocks, *cur)
				cur = nil
			case cur != nil:
				cur.Text += line + "\n"
			}
			prev = line
		}
	}
	return blocks
}

// TestAccDocsTerraformBlocksPlan plans every Terraform block written into a docs page (the examples/ files
// the pages include are planned by TestAccExamplesPlan). A block is planned alone, or after the files of the
// directory or the previous block its "planned with:" marker names; a block that cannot be planned here says
// why in a "not planned:" marker and is still checked to be terraform fmt clean.
func TestAccDocsTerraformBlocksPlan(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	tf, rc := devCLIConfig(t, work)
	blocks := docsBlocks(t, root)
	planned := 0
	for i, b := range blocks {
		if b.Lang != "terraform" {
			continue
		}
		name := fmt.Sprintf("%s:%d", b.File, b.Line)
		fmtCmd := exec.Command(tf, "fmt", "-")
		fmtCmd.Stdin = strings.NewReader(b.Text)
		if out, err := fmtCmd.Output(); err != nil || string(out) != b.Text {
			t.Errorf("%s: the block is not terraform fmt clean (%v):\n%s", name, err, out)
		}
		if reason, ok := strings.CutPrefix(b.Marker, "not planned:"); ok {
			if strings.TrimSpace(reason) == "" {
				t.Errorf("%s: a not planned: marker says why", name)
			}
			continue
		}
		dir := filepath.Join(work, fmt.Sprintf("block%02d", i))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		text := b.Text
		switch with, _ := strings.CutPrefix(b.Marker, "planned with:"); {
		case b.Marker == "":
		case strings.TrimSpace(with) == "previous block":
			text = previousTerraformBlock(t, blocks, i) + text
		case strings.HasPrefix(b.Marker, "planned with:"):
			if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, strings.TrimSpace(with)))); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// As in TestAccExamplesPlan: the import block needs an existing table.
			_ = os.Remove(filepath.Join(dir, "import-by-string-id.tf"))
		default:
			t.Errorf("%s: unknown marker %q (want \"not planned: why\" or \"planned with: examples/... | previous block\")", name, b.Marker)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "docs_block.tf"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		planned++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if out, err := planExampleDir(tf, rc, endpoint, dir); err != nil {
				t.Errorf("plan failed: %v\n%s", err, out)
			}
		})
	}
	if planned < 3 {
		t.Errorf("planned %d docs blocks; the pages have more", planned)
	}
}

func previousTerraformBlock(t *testing.T, blocks []docsBlock, i int) string {
	t.Helper()
	for j := i - 1; j >= 0; j-- {
		if blocks[j].File == blocks[i].File && blocks[j].Lang == "terraform" {
			return blocks[j].Text
		}
	}
	t.Fatalf("%s:%d: planned with the previous block, but none precedes it", blocks[i].File, blocks[i].Line)
	return ""
}

// planExampleDir plans a directory with the dev build of the provider against a local endpoint, declaring
// the provider when the directory does not.
func planExampleDir(tf, rc, endpoint, dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "versions.tf")); err != nil && !dirMentions(dir, "required_providers") {
		versions := "terraform {\n  required_providers {\n    dynamokeys = { source = \"dynamokeys/dynamokeys\" }\n  }\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "versions.tf"), []byte(versions), 0o600); err != nil {
			return "", err
		}
	}
	cmd := exec.Command(tf, "plan", "-no-color", "-input=false", "-refresh=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "AWS_ENDPOINT_URL_DYNAMODB="+endpoint,
		"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1", "TF_VAR_endpoint="+endpoint)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func dirMentions(dir, needle string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && bytes.Contains(b, []byte(needle)) {
			return true
		}
	}
	return false
}
