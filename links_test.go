package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// registryDocs is where the Terraform Registry shows docs/ of the latest release.
const registryDocs = "https://registry.terraform.io/providers/dynamokeys/dynamokeys/latest/docs"

var (
	// linkTarget is the target of an inline Markdown link or image.
	linkTarget = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// linkHeading is a Markdown heading, whose anchor a link may name.
	linkHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*$`)
)

// TestLinksResolve keeps every link working where the page is read. docs/ is read on the Terraform
// Registry, so its pages link to each other registry-style (a relative path without ".md"), and each such
// link names a page of docs/ and a heading of it. README.md, CONTRIBUTING.md and contributing/ are read on
// the repository host: their relative links name files of the repository, never a page of docs/ (whose
// registry-style links would not resolve there); they reach the docs through registry URLs, each of which
// names a page of docs/.
func TestLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("docs/*/*.md")
	for _, page := range append(pages, more...) {
		for _, target := range markdownLinks(t, page) {
			if external(target) {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			switch {
			case file == "":
				checkAnchor(t, page, page, anchor)
			case strings.HasSuffix(file, ".md"):
				t.Errorf("%s: link %s: docs/ pages link registry-style, without .md", page, target)
			default:
				checkAnchor(t, page, path.Join(path.Dir(page), file)+".md", anchor)
			}
		}
	}
	hostPages, _ := filepath.Glob("contributing/*.md")
	for _, page := range append([]string{"README.md", "CONTRIBUTING.md"}, hostPages...) {
		for _, target := range markdownLinks(t, page) {
			file, anchor, _ := strings.Cut(target, "#")
			switch {
			case strings.HasPrefix(target, registryDocs):
				name := strings.Trim(strings.TrimPrefix(file, registryDocs), "/")
				if name == "" {
					name = "index"
				}
				checkAnchor(t, page, "docs/"+name+".md", anchor)
			case external(target):
			case file == "":
				checkAnchor(t, page, page, anchor)
			default:
				resolved := path.Join(path.Dir(page), file)
				if strings.HasPrefix(resolved, "docs/") && strings.HasSuffix(resolved, ".md") {
					t.Errorf("%s: link %s: link the page on the registry (%s/...), where its own links work", page, target, registryDocs)
					continue
				}
				if strings.HasSuffix(resolved, ".md") {
					checkAnchor(t, page, resolved, anchor)
				} else if _, err := os.Stat(resolved); err != nil {
					t.Errorf("%s: link %s: %v", page, target, err)
				}
			}
		}
	}
}

func external(target string) bool {
	return strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:")
}

// markdownLinks returns the link targets of a Markdown file outside code blocks and code spans.
func markdownLinks(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	fenced := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		line = regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "")
		for _, m := range linkTarget.FindAllStringSubmatch(line, -1) {
			links = append(links, m[1])
		}
	}
	return links
}

// checkAnchor reports a link from page to a file that does not exist, or to an anchor none of its
// headings (or <a id> anchors) has (as the registry and the repository host derive them: lower case, spaces to hyphens,
// punctuation dropped).
func checkAnchor(t *testing.T, page, target, anchor string) {
	t.Helper()
	b, err := os.ReadFile(target)
	if err != nil {
		t.Errorf("%s: link to %s: no such page", page, target)
		return
	}
	if anchor == "" {
		return
	}
	for _, m := range linkHeading.FindAllStringSubmatch(string(b), -1) {
		if headingAnchor(m[1]) == anchor {
			return
		}
	}
	if strings.Contains(string(b), `<a id="`+anchor+`">`) { // tfplugindocs anchors the nested schema blocks
		return
	}
	t.Errorf("%s: link to %s#%s: no heading of that page has this anchor", page, target, anchor)
}

func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}
