package keydesign

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
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
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got["schema_version"] != float64(model.DocumentSchemaVersion) || model.DocumentSchemaVersion != 1 || got["provider_version"] != "1.2.3" {
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

// TestAttributeIsOneEncodedLine: the attribute is the prefix and the compact JSON, a single line that is not
// JSON (so Terraform does not render it field by field), and decodes to the same JSON.
func TestAttributeIsOneEncodedLine(t *testing.T) {
	doc := analyze(t, dailyEventLog())
	value, err := doc.Attribute()
	if err != nil {
		t.Fatal(err)
	}
	js, _ := doc.AttributeJSON()
	if want := "dk1:" + string(js); value != want {
		t.Fatalf("attribute %q\nwant %q", value, want)
	}
	if strings.ContainsAny(value, "\n\r") || json.Valid([]byte(value)) {
		t.Errorf("the attribute must be one line of non-JSON text: %q", value)
	}
	decoded, err := model.DecodeAttribute(value)
	if err != nil || string(decoded) != string(js) {
		t.Errorf("DecodeAttribute = %s, %v; want %s", decoded, err, js)
	}
}

// TestDecodeAttribute: the decoder reads the encoded form and the plain JSON earlier versions recorded, and
// says what is wrong with anything else.
func TestDecodeAttribute(t *testing.T) {
	for _, c := range []struct{ value, want, err string }{
		{value: `dk1:{"schema_version":1}`, want: `{"schema_version":1}`},
		{value: `{"schema_version":1}`, want: `{"schema_version":1}`},
		{value: "", err: `starts neither with "dk1:" nor with a JSON object`},
		{value: "[1]", err: "starts neither"},
		{value: "{not json", err: "starts neither"},
		{value: "dk2:{}", err: "starts neither"},
		{value: "dk1:e30=", err: "is not a JSON object"},
		{value: "dk1:[1]", err: "is not a JSON object"},
		{value: "dk1:{oops", err: "is not a JSON object"},
	} {
		got, err := model.DecodeAttribute(c.value)
		switch {
		case c.err == "" && (err != nil || string(got) != c.want):
			t.Errorf("DecodeAttribute(%q) = %s, %v; want %s", c.value, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("DecodeAttribute(%q) error %v; want one containing %q", c.value, err, c.err)
		}
	}
}
