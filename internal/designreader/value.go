// Package designreader maps the configuration of a dynamokeys design (a dynamokeys_keydesign or
// dynamokeys_sharded_table block) to model.Input, once, whatever holds the values: the provider reads the
// framework's values of a plan, the TFLint ruleset the cty values it evaluates from HCL, each through a
// small adapter to Value. Paths, defaults, unknown values and refusals are decided here only.
package designreader

import "math/big"

// Value is one configuration value as its source holds it. The reader asks for a value's content only when
// it is known and not null.
type Value interface {
	IsNull() bool
	// IsUnknown reports a value known only at apply: the value itself, not one it holds.
	IsUnknown() bool
	// AsString, AsNumber and AsBool are the value as that type, converted the way Terraform converts a value
	// to its attribute's type (5 is "5"); ok is false when it cannot be.
	AsString() (s string, ok bool)
	AsNumber() (n *big.Float, ok bool)
	AsBool() (b bool, ok bool)
	// Attribute is an object's attribute, or a map's element, of that name; nil when there is none. ok is
	// false when the value is neither an object nor a map.
	Attribute(name string) (v Value, ok bool)
	// Entries are an object's attributes or a map's elements, sorted by name; ok is false when the value is
	// neither.
	Entries() (entries []Entry, ok bool)
	// Elements are a list's, a set's or a tuple's elements in order; ok is false when the value is none of them.
	Elements() (elements []Value, ok bool)
}

// Entry is one attribute of an object, or one element of a map.
type Entry struct {
	Name  string
	Value Value
}

// null is the value of an attribute a block or an object does not have.
type null struct{}

func (null) IsNull() bool                   { return true }
func (null) IsUnknown() bool                { return false }
func (null) AsString() (string, bool)       { return "", false }
func (null) AsNumber() (*big.Float, bool)   { return nil, false }
func (null) AsBool() (bool, bool)           { return false, false }
func (null) Attribute(string) (Value, bool) { return nil, false }
func (null) Entries() ([]Entry, bool)       { return nil, false }
func (null) Elements() ([]Value, bool)      { return nil, false }

// whollyKnown reports whether v and every value in it are known.
func whollyKnown(v Value) bool {
	if v.IsUnknown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	if entries, ok := v.Entries(); ok {
		for _, e := range entries {
			if e.Value != nil && !whollyKnown(e.Value) {
				return false
			}
		}
	}
	if elements, ok := v.Elements(); ok {
		for _, e := range elements {
			if e != nil && !whollyKnown(e) {
				return false
			}
		}
	}
	return true
}
