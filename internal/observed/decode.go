package observed

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"time"
)

// splitDocuments reads an attribute's value as one or more command outputs: a JSON object, a JSON list of
// objects (several files joined with jsondecode/concat), or objects one after another (the CLI's outputs
// concatenated, as `cat day-*.json` gives them).
func splitDocuments(raw []byte) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0:
		return nil, errors.New("is empty: give the JSON the AWS CLI printed")
	case hasNonFinite(trimmed):
		return nil, errors.New("holds NaN or Infinity: every value must be a finite number")
	case trimmed[0] == '[':
		var docs []json.RawMessage
		if err := json.Unmarshal(trimmed, &docs); err != nil {
			return nil, fmt.Errorf("is not valid JSON: %w", err)
		}
		if len(docs) == 0 {
			return nil, errors.New("is an empty list: give at least one output of the AWS CLI")
		}
		return docs, nil
	case trimmed[0] != '{':
		return nil, errors.New("is not a JSON object: give the JSON the AWS CLI printed (--output json)")
	}
	var docs []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	for {
		var doc json.RawMessage
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("is not valid JSON: %w", err)
		}
		docs = append(docs, doc)
	}
}

// hasNonFinite tells whether the JSON holds a NaN or Infinity token (which Python's json module, and so the
// AWS CLI, prints for such floats) outside strings.
func hasNonFinite(raw []byte) bool {
	inString, escaped := false, false
	for i := range raw {
		c := raw[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (bytes.HasPrefix(raw[i:], []byte("NaN")) || bytes.HasPrefix(raw[i:], []byte("Infinity"))):
			return true
		}
	}
	return false
}

// decodeDocument reads one command output, with messages that say what is wrong with it.
func decodeDocument(doc json.RawMessage, into any) error {
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("is not a JSON object: give the JSON the AWS CLI printed (--output json)")
	}
	if err := json.Unmarshal(trimmed, into); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) && strings.HasPrefix(typeErr.Value, "number") && typeErr.Type.Kind() == reflect.Float64:
			return fmt.Errorf("holds %s (at %s), too large to be a finite number", typeErr.Value, typeErr.Field)
		case errors.As(err, &typeErr):
			return fmt.Errorf("has %s where a %s belongs (at %s): this is not the output the attribute expects", typeErr.Value, typeErr.Type, cmp.Or(typeErr.Field, "the top level"))
		}
		return fmt.Errorf("is not valid JSON: %w", err)
	}
	return nil
}

// inDocument says which of several outputs an error is in.
func inDocument(n, of int, err error) error {
	if of == 1 {
		return err
	}
	return fmt.Errorf("output %d of %d: %w", n+1, of, err)
}

// exportKinds are the two exports, by the member that marks each and the attribute that takes it.
var exportKinds = []struct{ command, member, attrs string }{
	{"get-metric-data", "MetricDataResults", AttrMetricData},
	{"get-insight-rule-report", "Contributors", AttrAccessedKeysReport + " or " + AttrThrottledKeysReport},
}

// notTheOutput says that raw lacks the member of the command's output, naming the other export when raw
// looks like it.
func notTheOutput(raw []byte, command, member string, other struct{ command, member, attrs string }) error {
	hint := ""
	if bytes.Contains(raw, []byte(`"`+other.member+`"`)) {
		hint = fmt.Sprintf(" (this looks like the output of %s: give it as %s)", other.command, other.attrs)
	}
	return fmt.Errorf("is not the output of `aws cloudwatch %s`: it has no %s%s", command, member, hint)
}

// parseTimestamp reads a timestamp as the AWS CLI prints it: ISO 8601 (the default) or epoch seconds
// (cli_timestamp_format = wire).
func parseTimestamp(raw json.RawMessage) (time.Time, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not an ISO 8601 timestamp", s)
		}
		return t, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil && f >= 0 && !math.IsInf(f, 0) {
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%s is not a timestamp", string(raw))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr[T any](v T) *T { return &v }
