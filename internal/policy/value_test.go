package policy

import (
	"bytes"
	"encoding/json"
	"sync"
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

// chain is a recursive type that no other test converts, so that the goroutines below build its encoder.
type chain struct {
	Name string `json:"name"`
	Next *chain `json:"next"`
}

// Conversions of a type whose encoder is being built on another goroutine wait for it (the provider
// evaluates designs concurrently from its first request on).
func TestToValueConcurrentFirstUse(t *testing.T) {
	doc := &chain{Name: "a", Next: &chain{Name: "b"}}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.ValueFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 64 {
		wg.Go(func() {
			<-start
			got, err := ToValue(doc)
			if err != nil || got.Compare(want) != 0 {
				t.Errorf("ToValue = %v, %v", got, err)
			}
		})
	}
	close(start)
	wg.Wait()
}
