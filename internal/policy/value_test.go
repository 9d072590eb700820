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
	direct, err := ToValue(doc)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(doc)
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
}
