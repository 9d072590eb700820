package policy

import (
	"strings"
	"testing"
)

// TestMetadataTextIsWholeSentences catches METADATA text that YAML cut short (an unquoted " #" starts a
// comment) or that was left unfinished: every description, remedy and case ends a sentence, and its
// parentheses and backticks are balanced. The rule reference, the plan's diagnostics and SARIF show this text.
func TestMetadataTextIsWholeSentences(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range e.Catalogue() {
		fields := map[string]string{"title": r.Title, "description": r.Description, "remediation": r.Remediation, "aws_dynamodb_table": r.AWSTable}
		for _, c := range r.Cases {
			fields["cases."+c.Name+".when"] = c.When
			fields["cases."+c.Name+".remediation"] = c.Remediation
		}
		for field, text := range fields {
			// Titles and cases' "when" are phrases; the rest are sentences.
			sentence := field != "title" && !strings.HasSuffix(field, ".when")
			if problem := unfinishedText(text, sentence); problem != "" {
				t.Errorf("%s METADATA %s %s: %q", r.ID, field, problem, text)
			}
		}
	}
}

// unfinishedText says what is wrong with a METADATA text, or "" when nothing is; sentence asks for a final
// full stop (or ? or !).
func unfinishedText(text string, sentence bool) string {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return ""
	case strings.Count(text, "(") != strings.Count(text, ")"):
		return "has unbalanced parentheses"
	case strings.Count(text, "`")%2 != 0:
		return "has an unclosed backtick"
	case sentence && !strings.ContainsAny(text[len(text)-1:], ".?!"):
		return "does not end a sentence"
	}
	return ""
}

func TestUnfinishedText(t *testing.T) {
	for text, want := range map[string]string{
		"Pick one delimiter (usually":                                  "has unbalanced parentheses",
		"Pick one delimiter (usually #) and one case (usually UPPER).": "",
		"Use `shard":      "has an unclosed backtick",
		"Use more shards": "does not end a sentence",
		"Is the key hot?": "",
	} {
		if got := unfinishedText(text, true); got != want {
			t.Errorf("unfinishedText(%q) = %q, want %q", text, got, want)
		}
	}
}
