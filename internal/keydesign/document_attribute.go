package keydesign

import (
	"encoding/json"
	"errors"
	"strings"
)

// DocumentSchemaVersion is the version of the document's shape, carried as schema_version. Bump it when a
// field is renamed or removed or changes meaning; adding a field keeps it (contributing/design-document.md).
const DocumentSchemaVersion = 1

// AttributeEncoding starts every design_document value: encoding 1 is this prefix followed by the document's
// compact JSON. Terraform renders a string that is valid JSON as a structured diff of every field, hundreds
// of lines per table; with the prefix the string is not JSON, and the document is one line of a plan while
// the plan JSON still carries all of it (contributing/design-document.md, "Encoding"). Compact JSON holds no
// raw line break, so the line never becomes a heredoc.
const AttributeEncoding = "dk1:"

// AttributeJSON is the document as the design_document attribute carries it, before encoding: the same JSON
// the policies evaluate, without prior. The prior state's document inside a planned value would make every
// plan differ from the state it planned against; the plan adapter takes the prior from the resource
// change's before value instead.
func (d *Document) AttributeJSON() ([]byte, error) {
	c := *d
	c.Prior = nil
	return json.Marshal(&c)
}

// Attribute is the value of the design_document attribute: AttributeJSON, encoded.
func (d *Document) Attribute() (string, error) {
	js, err := d.AttributeJSON()
	if err != nil {
		return "", err
	}
	return EncodeAttribute(js), nil
}

// EncodeAttribute encodes a document's compact JSON as the design_document attribute carries it.
func EncodeAttribute(js []byte) string {
	return AttributeEncoding + string(js)
}

// DecodeAttribute returns the JSON a design_document value holds. It also reads the plain JSON that
// providers before the encoding recorded, so a state or a plan of an older version stays readable.
func DecodeAttribute(value string) ([]byte, error) {
	encoded, ok := strings.CutPrefix(value, AttributeEncoding)
	if !ok {
		if strings.HasPrefix(strings.TrimSpace(value), "{") && json.Valid([]byte(value)) {
			return []byte(value), nil
		}
		return nil, errors.New(`not a design document: it starts neither with "` + AttributeEncoding + `" nor with a JSON object`)
	}
	js := []byte(encoded)
	if !strings.HasPrefix(encoded, "{") || !json.Valid(js) {
		return nil, errors.New("not a design document: the text after " + AttributeEncoding + " is not a JSON object")
	}
	return js, nil
}
