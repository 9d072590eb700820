package importers

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Reading the JSON of a NoSQL Workbench model: its values are untyped, so each is read as what it should be.

// keyAttribute reads a key attribute, {AttributeName, AttributeType}: its name, "" when v holds none, and
// its type as the model wrote it, nil when it wrote none.
func keyAttribute(v any) (string, any) {
	a := jsonObject(v)
	return jsonString(a["AttributeName"]), a["AttributeType"]
}

// wbValue is one attribute of a sample item: its value as text, and its DynamoDB type ("" for a plain JSON
// string or number, whose type the model does not say).
type wbValue struct {
	text, typ string
}

// wbItem is one sample item; where names it in messages (TableData[3]).
type wbItem struct {
	where string
	attrs map[string]wbValue
}

// key is the item's value of a key attribute: ok is false when the item has none, or one of a type no key
// attribute holds (BOOL, M, ...).
func (it wbItem) key(attr string) (string, bool) {
	v, ok := it.attrs[attr]
	if !ok || v.typ != "" && !validKeyType(v.typ) {
		return "", false
	}
	return v.text, true
}

// wbAttribute reads an item's attribute: {"S": "c#12345"}, {"N": "42"}, {"B": "..."}, another DynamoDB
// type ({"BOOL": true}, {"M": {...}}), or a plain JSON value.
func wbAttribute(v any) wbValue {
	switch x := v.(type) {
	case string:
		return wbValue{text: x}
	case json.Number:
		return wbValue{text: x.String()}
	case bool:
		return wbValue{text: jsonText(x), typ: "BOOL"}
	case nil:
		return wbValue{text: "null", typ: "NULL"}
	case []any:
		return wbValue{text: jsonText(x), typ: "L"}
	case map[string]any:
		for _, t := range []string{model.KeyTypeString, model.KeyTypeNumber, model.KeyTypeBinary} {
			if s, ok := scalar(x[t]); ok {
				return wbValue{text: s, typ: t}
			}
		}
		if len(x) == 1 {
			for t, inner := range x {
				return wbValue{text: jsonText(inner), typ: t}
			}
		}
	}
	return wbValue{text: jsonText(v), typ: "M"}
}

func scalar(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case json.Number:
		return s.String(), true
	}
	return "", false
}

// emptyJSON says whether the model wrote nothing there: no value, "", {} or [].
func emptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func jsonObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func jsonList(v any) []any {
	l, _ := v.([]any)
	return l
}

func jsonString(v any) string {
	s, _ := scalar(v)
	return s
}

// jsonText is a value as the model wrote it, for a message: at most 60 characters.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if r := []rune(string(b)); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return string(b)
}

// names reads a list of attribute names at where; what is no name is listed in Skipped.
func (d *Design) names(v any, where string) []string {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.skip("%s is %s, not a list of attribute names: read past", where, jsonText(v))
		return nil
	}
	var out []string
	for i, el := range list {
		if s, ok := scalar(el); ok && s != "" {
			out = append(out, s)
			continue
		}
		d.skip("%s[%d] is %s, not an attribute name: read past", where, i, jsonText(el))
	}
	return out
}

func jsonStrings(v any) []string {
	var out []string
	for _, el := range jsonList(v) {
		if s, ok := scalar(el); ok {
			out = append(out, s)
		}
	}
	return out
}

func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// keyText is a primary key for a message: PK="USER#1", SK="PROFILE".
func keyText(key map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(key)) {
		parts = append(parts, fmt.Sprintf("%s=%q", k, key[k]))
	}
	return strings.Join(parts, ", ")
}
