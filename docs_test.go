package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// makeTargetRule is a rule line of the GNUmakefile: "name:" or "name: prerequisites".
	makeTargetRule = regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`)
	// goTestFunc is the declaration of a Go test.
	goTestFunc = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)
	// codeSpan is inline code in Markdown; fenced blocks are read line by line.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// makeCommand is "make target" at the start of a command (a code span or a line of a code block).
	makeCommand = regexp.MustCompile(`(?:^|[;&|]\s*|#\s*or:\s*)make ([a-z][a-z0-9-]*)`)
	// testName is a Go test named in prose or in a -run pattern. A name right after -run or "|", or followed
	// by "(" or "|" or "*", is a prefix of the tests it selects.
	testName = regexp.MustCompile(`(-run '?\^?|\|)?\b(Test[A-Z][A-Za-z0-9_]*)([(|*]?)`)
)

// TestMarkdownNamesExist keeps the documentation true of the code: every `make` target that a Markdown file
// of the repository names (in inline code or a code block) is a rule of the GNUmakefile, and every Go test
// it names (TestX, or TestX( / TestX| as the prefix of a -run pattern) is declared in a _test.go file.
func TestMarkdownNamesExist(t *testing.T) {
	makefile, err := os.ReadFile("GNUmakefile")
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for _, m := range makeTargetRule.FindAllStringSubmatch(string(makefile), -1) {
		targets = append(targets, m[1])
	}
	var tests []string
	for _, file := range trackedFiles(t, "*_test.go") {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goTestFunc.FindAllStringSubmatch(string(src), -1) {
			tests = append(tests, m[1])
		}
	}
	for _, file := range trackedFiles(t, "*.md") {
		for lineNo, code := range codeOf(t, file) {
			for _, m := range makeCommand.FindAllStringSubmatch(code, -1) {
				if !slices.Contains(targets, m[1]) {
					t.Errorf("%s:%d names `make %s`, which is not a target of the GNUmakefile", file, lineNo, m[1])
				}
			}
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range testName.FindAllStringSubmatch(string(src), -1) {
			name, prefix := m[2], m[1] != "" || m[3] != ""
			found := slices.ContainsFunc(tests, func(test string) bool { return test == name || prefix && strings.HasPrefix(test, name) })
			if !found {
				t.Errorf("%s names the Go test %s, which no _test.go file declares", file, name)
			}
		}
	}
}

// trackedFiles are the files git tracks that match pattern (generated docs/ included: they are committed).
func trackedFiles(t *testing.T, pattern string) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "--", pattern).Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git work tree)", err)
	}
	return strings.Fields(string(out))
}

// codeOf is the code of a Markdown file by line number: each inline code span, and each line of a fenced
// code block.
func codeOf(t *testing.T, file string) map[int]string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code := map[int]string{}
	fenced := false
	for i, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced = !fenced
		case fenced:
			code[i+1] = strings.TrimSpace(line)
		default:
			var spans []string
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				spans = append(spans, m[1])
			}
			code[i+1] = strings.Join(spans, "\n")
		}
	}
	return code
}

// TestReadmeNamesEveryPage keeps the front page current: every resource, data source, function and guide
// of docs/ (a page per piece, generated from the provider's schema and templates/) is linked from README.md
// by its registry URL, so a new piece that the README does not mention fails here.
func TestReadmeNamesEveryPage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, kind := range []string{"resources", "data-sources", "functions", "guides", "list-resources"} {
		files, err := filepath.Glob(filepath.Join("docs", kind, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			pages++
			url := registryDocs + "/" + kind + "/" + strings.TrimSuffix(filepath.Base(f), ".md") + ")"
			if !strings.Contains(string(readme), url) {
				t.Errorf("README.md does not link %s (%s): add it to the pieces table or the list of guides", f, strings.TrimSuffix(url, ")"))
			}
		}
	}
	if pages < 20 {
		t.Errorf("found %d pages under docs/; the provider has more", pages)
	}
}
