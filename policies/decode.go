package policies

import (
	"bytes"
	"encoding/json"
	"errors"
)

// decodeStrict decodes raw into v and refuses unknown fields, so that a key added to the data file without
// its Go field, or a misspelt one, fails instead of reading as zero.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
