package keydesign

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestAttributeJSONIsTheDocumentWithoutPrior: design_document carries the analyzed document, versioned,
// with every field the policies read, and without the prior state's document (which would make every plan
// of the resource differ from its state).
func TestAttributeJSONIsTheDocumentWithoutPrior(t *testing.T) {
	prior := analyze(t, dailyEventLog())
	in := dailyEventLog()
	in.Prior = prior
	doc := analyze(t, in)
	doc.ProviderVersion = "1.2.3"
	raw, err := doc.AttributeJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if got["schema_version"] != float64(DocumentSchemaVersion) || DocumentSchemaVersion != 1 || got["provider_version"] != "1.2.3" {
		t.Errorf("schema_version %v, provider_version %v", got["schema_version"], got["provider_version"])
	}
	if v, ok := got["prior"]; !ok || v != nil {
		t.Errorf("prior = %v (present %v); want null", v, ok)
	}
	if doc.Prior != prior {
		t.Error("AttributeJSON changed the document it serialized")
	}
	// Apart from prior, the attribute is the document the engine evaluates.
	withoutPrior := *doc
	withoutPrior.Prior = nil
	full, _ := json.Marshal(&withoutPrior)
	var want map[string]any
	_ = json.Unmarshal(full, &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("attribute %s\ndocument %s", raw, full)
	}
	if derived, _ := got["derived"].(map[string]any); derived["required_shards"] != float64(4) {
		t.Errorf("derived facts missing: %v", got["derived"])
	}
}
