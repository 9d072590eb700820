package policies

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DecodeData decodes a data file strictly: the generator of the Bundle literal reads data.json with it.
func DecodeData(raw []byte) (Data, error) {
	var d Data
	err := decodeStrict(raw, &d)
	return d, err
}

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
