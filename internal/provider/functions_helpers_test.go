package provider

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// functionsAvailable fails a function test on a CLI older than 1.8 (provider functions need Terraform ≥ 1.8;
// scripts/terraform-cli.sh builds OpenTofu 1.12): an old CLI is a broken test setup, not a reason to skip.
var functionsAvailable = []tfversion.TerraformVersionCheck{tfversion.RequireAbove(tfversion.Version1_8_0)}

type nodeVector struct {
	ID     string `json:"id"`
	Count  int64  `json:"count"`
	Shard  int64  `json:"shard"`
	Suffix string `json:"suffix"`
}

// nodeVectors loads the routing vectors Node.js computed (scripts/routing-vectors.js), keeping the ids an
// HCL string literal can hold without escapes beyond Go's %q.
func nodeVectors(t *testing.T) []nodeVector {
	t.Helper()
	raw, err := os.ReadFile("../keydesign/model/testdata/routing_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []nodeVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out []nodeVector
	for _, v := range file.Vectors {
		// HCL normalises string literals to Unicode NFC, so an id with combining marks reaches the function
		// in its composed form; keydesign's own tests cover those ids byte for byte.
		if strings.IndexFunc(v.ID, func(r rune) bool { return unicode.Is(unicode.Mn, r) }) >= 0 ||
			strings.Contains(v.ID, "${") || strings.Contains(v.ID, "%{") || len(v.ID) > 300 ||
			strings.IndexFunc(v.ID, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			continue
		}
		out = append(out, v)
	}
	return out
}

// expectError compiles a diagnostic pattern that tolerates Terraform's line wrapping: every space matches
// any run of whitespace, and . matches newlines.
func expectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(pattern, " ", `\s+`))
}
