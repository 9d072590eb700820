package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// guideShellRunMarker marks a shell block of a docs page that TestAccGuideShellBlocks runs as written.
const guideShellRunMarker = "runs in TestAccGuideShellBlocks"

// TestAccGuideShellBlocks holds every shell block of the docs pages to one of two marks: "runs in
// TestAccGuideShellBlocks", and then it runs here, as written, with bash from the root of a copy of the
// repository (the tracked files), a terraform on PATH and no AWS setting from the environment; or
// "illustrative: why" for commands that need a cloud account, a published release or the reader's own
// configuration.
func TestAccGuideShellBlocks(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the guides' commands with a Terraform CLI and a local DynamoDB server; set TF_ACC=1")
	}
	t.Parallel()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var run []docsBlock
	for _, b := range docsBlocks(t, root) {
		if b.Lang != "shell" && b.Lang != "sh" && b.Lang != "bash" {
			continue
		}
		why, illustrative := strings.CutPrefix(b.Marker, "illustrative:")
		switch {
		case b.Marker == guideShellRunMarker:
			run = append(run, b)
		case illustrative && strings.TrimSpace(why) != "":
		default:
			t.Errorf("%s:%d: a shell block is marked <!-- %s --> or <!-- illustrative: why -->, not %q", b.File, b.Line, guideShellRunMarker, b.Marker)
		}
	}
	if len(run) == 0 {
		t.Fatal("no shell block of the guides runs; the local-development guide's quickstart should")
	}
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(tf, filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") && !strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") && !strings.HasPrefix(kv, "DYNAMODB_ENDPOINT=") {
			env = append(env, kv)
		}
	}
	// GOFLAGS=-trimpath: `make build` builds with -trimpath, so with it `go run` in the copy reuses the build
	// cache that providerBuild filled instead of compiling the module again under the copy's path.
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TF_IN_AUTOMATION=1", "NO_COLOR=1", "GOFLAGS=-trimpath")
	provider, err := providerBuild()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range run {
		t.Run(fmt.Sprintf("%s:%d", b.File, b.Line), func(t *testing.T) {
			repo := copyTrackedFiles(t, root)
			// The block's `make build` finds this binary up to date (same sources, same flags): the block runs
			// against the build every other test uses, through the dev overrides the guide writes.
			if err := copyFile(provider, filepath.Join(repo, filepath.Base(provider))); err != nil {
				t.Fatal(err)
			}
			// No deadline of its own: `go test -timeout` bounds the run, and a slow block says where it is.
			defer testutil.Watch(fmt.Sprintf("running the shell block %s:%d", b.File, b.Line))()
			cmd := exec.CommandContext(t.Context(), "bash", "-euo", "pipefail", "-c", b.Text)
			cmd.Dir, cmd.Env = repo, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("the block failed: %v\n%s\n%s", err, b.Text, out)
			}
		})
	}
}

// copyFile copies an executable file.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755) //nolint:gosec // an executable, for the test's own use
}

// copyTrackedFiles copies the repository's tracked files into a temporary directory, with the installed npm
// servers linked rather than installed again.
func copyTrackedFiles(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("listing the tracked files: %v", err)
	}
	repo := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(filepath.Join(root, name))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	modules := filepath.Join("tools", "dynamodb-local", "node_modules")
	if _, err := os.Stat(filepath.Join(root, modules)); err == nil {
		if err := os.Symlink(filepath.Join(root, modules), filepath.Join(repo, modules)); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}
