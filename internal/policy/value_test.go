package policy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestToValueMatchesJSON: the direct conversion gives the same value as a JSON round trip.
func TestToValueMatchesJSON(t *testing.T) {
	doc := analyzed(t, tableDesign())
	prior := analyzed(t, tableDesign())
	doc.Prior = prior
	assertToValueMatchesJSON(t, doc)
}

// assertToValueMatchesJSON checks that the direct conversion gives the same value as a JSON round trip,
// and returns it.
func assertToValueMatchesJSON(t *testing.T, v any) ast.Value {
	t.Helper()
	direct, err := ToValue(v)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	viaJSON, err := ast.ValueFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if direct.Compare(viaJSON) != 0 {
		t.Errorf("ToValue differs from the JSON encoding:\n%v\n%v", direct, viaJSON)
	}
	return direct
}
