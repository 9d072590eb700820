package policies

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestDataFileMatchesTheGoView: every key of the data file has a Go field and every Go field a key (unknown
// keys already fail the decoding), and no limit reads as zero.
func TestDataFileMatchesTheGoView(t *testing.T) {
	var raw struct {
		Limits map[string]any `json:"limits"`
	}
	if err := json.Unmarshal(DataJSON, &raw); err != nil {
		t.Fatal(err)
	}
	encoded, err := json.Marshal(Bundle.Limits)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(encoded, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := slices.Sorted(maps.Keys(back)), slices.Sorted(maps.Keys(raw.Limits)); !slices.Equal(got, want) {
		t.Errorf("Go fields %v\ndata file keys %v", got, want)
	}
	for key, v := range back {
		if v == 0.0 || v == "" {
			t.Errorf("limits.%s is zero or empty", key)
		}
	}
	if Bundle.Version != "dev" || Bundle.DocsBase == "" {
		t.Errorf("version %q (the repository's is dev; the release script stamps it), docs_base %q", Bundle.Version, Bundle.DocsBase)
	}
}

func TestDecodeStrictRefusesUnknownAndTrailingData(t *testing.T) {
	var d Data
	for _, raw := range []string{`{"limits": {"partition_write_unit": 1}}`, `{"version": "dev"} {}`, `{"version": 1}`} {
		if err := decodeStrict([]byte(raw), &d); err == nil {
			t.Errorf("decodeStrict(%s) accepted it", raw)
		}
	}
}
