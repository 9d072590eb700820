package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// errorCase is one bad input of a batch: configuration blocks whose labels no other case of the batch uses,
// and the error they must get.
type errorCase struct {
	name   string // what the case is, for a failure's message
	config string // its blocks: a resource, a data source, an output, or an aliased provider and what uses it
	expect string // a regular expression (a space matches any white space) that one of its errors matches
	// warns makes the case one of a finding that is a warning: the plan succeeds, and one of the case's
	// warnings matches expect.
	warns bool
}

// planDiagnostic is a diagnostic of `terraform plan -json`, as placed and compared here.
type planDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Address  string `json:"address"`
	Range    *struct {
		Filename string `json:"filename"`
		Start    struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
	Snippet *struct {
		Code string `json:"code"`
	} `json:"snippet"`
}

// text is what an expectation is matched against: the summary, the line of configuration the diagnostic
// points at (so an expectation can name the attribute) and the detail.
func (d planDiagnostic) text() string {
	code := ""
	if d.Snippet != nil {
		code = strings.TrimSpace(d.Snippet.Code)
	}
	return d.Summary + "\n" + code + "\n" + d.Detail
}

// expectEachError plans the cases' blocks together in one configuration, after header (provider blocks and
// whatever the cases share), with the CLI and the provider served in this process, and checks that each case
// gets an error on its own lines that matches its expectation. One plan instead of one test case each: the
// CLI runs were most of the test suite's time.
//
// The CLI stops after validation when any block is invalid, so a case whose error comes later (from the
// provider's plan, read or configuration) gets none while a case before it fails validation; the cases
// without an error are planned again without the others, until each has its error. A case that gets none
// once the others are gone fails, as does an error that lies outside every case.
func expectEachError(t *testing.T, header string, cases []errorCase) {
	t.Helper()
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prefix := devRequiredProviders + header + "\n"
	pending := make([]int, len(cases))
	for i := range pending {
		pending[i] = i
	}
	for len(pending) > 0 {
		// Each case is a file of its own: Terraform parses a diagnostic's whole file again to name the block
		// it is in, so one file of every case cost a parse of all of them per diagnostic.
		files := map[string]string{"main.tf": prefix}
		fileCase := map[string]int{} // a case's file name -> its place in pending
		for n, c := range pending {
			name := caseLabel(c) + ".tf"
			files[name] = strings.TrimSpace(cases[c].config) + "\n"
			fileCase[name] = n
		}
		errors := map[int][]planDiagnostic{}
		for _, d := range planDiagnostics(t, tf, dir, files) {
			if d.Severity != "error" && d.Severity != "warning" {
				continue
			}
			at, ok := -1, false
			if d.Range != nil {
				at, ok = fileCase[d.Range.Filename]
			}
			if !ok {
				t.Fatalf("an %s outside every case:\n%s\n\nconfiguration:\n%s", d.Severity, d.text(), configText(files))
			}
			if d.Severity == "error" || cases[pending[at]].warns {
				errors[at] = append(errors[at], d)
			}
		}
		var next []int
		for n, c := range pending {
			got := errors[n]
			if i := slices.IndexFunc(got, func(d planDiagnostic) bool { return d.Severity == "error" }); cases[c].warns && i >= 0 {
				t.Errorf("%s: an error where only a warning was expected:\n%s", cases[c].name, got[i].text())
				continue
			}
			if len(got) == 0 {
				next = append(next, c)
				continue
			}
			matched := false
			var texts []string
			for _, d := range got {
				matched = matched || expectError(cases[c].expect).MatchString(d.text())
				texts = append(texts, d.text())
			}
			if !matched {
				t.Errorf("%s: its errors do not match %q:\n%s", cases[c].name, cases[c].expect, strings.Join(texts, "\n---\n"))
			}
		}
		t.Logf("planned %d cases together: %d got their errors", len(pending), len(pending)-len(next))
		if len(next) == len(pending) {
			for _, c := range next {
				t.Errorf("%s: got no error, planned without the cases that failed before it:\n%s", cases[c].name, cases[c].config)
			}
			return
		}
		pending = next
	}
}

// configText is a configuration's files, each under its name, for a failure's message.
func configText(files map[string]string) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&b, "# %s\n%s\n", name, files[name])
	}
	return b.String()
}

// planDiagnostics writes the files (name -> text) into dir, in place of the .tf files there, plans them with
// the CLI and the provider served in this process (serveInProcess: no init, no provider process to start),
// and returns the plan's diagnostics.
func planDiagnostics(t *testing.T, tf, dir string, files map[string]string) []planDiagnostic {
	t.Helper()
	server := serveInProcess(t)
	defer server.stop()
	old, err := filepath.Glob(filepath.Join(dir, "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range old {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tf, "plan", "-json", "-input=false", "-no-color", "-lock=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+server.reattach, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var diags []planDiagnostic
	lines := bufio.NewScanner(&stdout)
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var message struct {
			Type       string         `json:"type"`
			Diagnostic planDiagnostic `json:"diagnostic"`
		}
		if err := json.Unmarshal(lines.Bytes(), &message); err != nil {
			t.Fatalf("plan -json printed a line that is not JSON (%v): %s\nstderr:\n%s", err, lines.Text(), stderr.String())
		}
		if message.Type == "diagnostic" {
			diags = append(diags, message.Diagnostic)
		}
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if runErr != nil && len(diags) == 0 {
		t.Fatalf("plan failed without a diagnostic: %v\nstderr:\n%s", runErr, stderr.String())
	}
	return diags
}

// requireProviderFunctions skips a test whose configuration calls provider functions where the CLI has none
// (Terraform below 1.8), as functionsAvailable does for a resource.Test.
func requireProviderFunctions(t *testing.T) {
	t.Helper()
	ok, version, err := testutil.CLIAtLeast(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skipf("the CLI is %s: provider functions need 1.8 or later", version)
	}
}

// expectEachFunctionError plans the provider function calls together (expectEachError), each the value of
// an output of its own, after skipping where the CLI has no provider functions.
func expectEachFunctionError(t *testing.T, calls []functionErrorCase) {
	t.Helper()
	requireProviderFunctions(t)
	cases := make([]errorCase, len(calls))
	for i, c := range calls {
		cases[i] = errorCaseOf(c.name, fmt.Sprintf("output %q { value = provider::dynamokeys::%s }", caseLabel(i), c.call), c.expect)
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}

// functionErrorCase is a provider function call that must fail the plan, with the error it must get.
type functionErrorCase struct{ name, call, expect string }

// caseLabel is the label of case i's blocks in a batch.
func caseLabel(i int) string { return fmt.Sprintf("case_%02d", i) }

// errorCaseOf is the case of a bad input that must fail the plan.
func errorCaseOf(name, config, expect string) errorCase {
	return errorCase{name: name, config: config, expect: expect}
}
