package policy

import (
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// TestGoAndRegoFormatAlike pins the two copies of number formatting together: messages are formatted in Rego
// (lib.fmt, lib.expand for ${limit} in METADATA text) and the same texts in Go (keydesign.FormatNumber in
// schema descriptions and reports, ExpandLimits in diagnostics and the rule reference). Both must exist,
// since conftest and OPA run the Rego alone; each case is evaluated by both and must read the same.
func TestGoAndRegoFormatAlike(t *testing.T) {
	lib, err := policies.FS.ReadFile("lib/lib.rego")
	if err != nil {
		t.Fatal(err)
	}
	limits, err := policies.FS.ReadFile("data.rego")
	if err != nil {
		t.Fatal(err)
	}
	eval := func(query string) any {
		t.Helper()
		rs, err := rego.New(rego.Query(query), rego.Module("lib/lib.rego", string(lib)), rego.Module("data.rego", string(limits))).Eval(t.Context())
		if err != nil || len(rs) != 1 || len(rs[0].Expressions) != 1 {
			t.Fatalf("%s: %v (%v)", query, err, rs)
		}
		return rs[0].Expressions[0].Value
	}
	for _, n := range []float64{0, 1, 7, 999, 1000, 1024, 2500, 40000, 40001, 1234567, 216000000, 12345678901,
		0.5, 1.25, 2.04, 3.9, 999.99, 1000.5, 1234.56} {
		rego := eval(fmt.Sprintf("data.dynamokeys.lib.fmt(%v)", n))
		if goText := report.FormatNumber(n); rego != goText {
			t.Errorf("%v: Rego lib.fmt gives %q, Go report.FormatNumber gives %q", n, rego, goText)
		}
	}
	for _, text := range []string{
		"A partition serves ${partition_write_units} WCU and ${partition_read_units} RCU.",
		"An item collection holds at most ${max_item_collection_bytes} bytes; keys ${max_partition_key_bytes} B.",
		"No placeholder here.",
	} {
		rego := eval(fmt.Sprintf("data.dynamokeys.lib.expand(%q)", text))
		if goText := ExpandLimits(text); rego != goText {
			t.Errorf("%q: Rego lib.expand gives %q, Go ExpandLimits gives %q", text, rego, goText)
		}
	}
}
