package keydesign

import "encoding/json"

// DocumentSchemaVersion is the version of the document's shape, carried as schema_version. Bump it when a
// field is renamed or removed or changes meaning; adding a field keeps it (contributing/design-document.md).
const DocumentSchemaVersion = 1

// AttributeJSON is the document as the design_document attribute carries it: the same JSON the policies
// evaluate, without prior. The prior state's document inside a planned value would make every plan differ
// from the state it planned against; the plan adapter takes the prior from the resource change's before
// value instead.
func (d *Document) AttributeJSON() (string, error) {
	c := *d
	c.Prior = nil
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
