package importers

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Reading the JSON of a NoSQL Workbench model: its values are untyped, so each is read as what it should be.

// keyAttribute reads {AttributeName, AttributeType}.
func keyAttribute(v any) (string, string) {
	a := jsonObject(v)
	return jsonString(a["AttributeName"]), jsonString(a["AttributeType"])
}

// wbItems reads TableData: each item's attributes as {"S": "c#12345"}, {"N": "42"}, {"B": "..."} (other
// types are no key value), or plain JSON strings and numbers.
func wbItems(v any) []wbItem {
	var out []wbItem
	for _, el := range jsonList(v) {
		it := wbItem{}
		for name, attr := range jsonObject(el) {
			if s, ok := scalar(attr); ok {
				it[name] = s
				continue
			}
			typed := jsonObject(attr)
			for _, t := range []string{"S", "N", "B"} {
				if s, ok := scalar(typed[t]); ok {
					it[name] = s
					break
				}
			}
		}
		if len(it) > 0 {
			out = append(out, it)
		}
	}
	return out
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
