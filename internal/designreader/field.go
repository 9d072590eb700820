package designreader

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// reader collects what reading a design found besides the values: the paths of the values known only at
// apply (Input.Unknown, so that the rules needing them stay silent instead of failing the plan) and the
// values the provider refuses.
type reader struct {
	unknown []model.Path
	errs    []*model.FieldError
}

func (r *reader) fail(p model.Path, message string) {
	r.errs = append(r.errs, &model.FieldError{Path: slices.Clone(p), Message: message})
}

// field is a value at its path in the configuration. Reading it records an unknown value under its path and
// a value of the wrong type as an error there; a null value reads as not set.
type field struct {
	r    *reader
	v    Value
	path model.Path
}

func (r *reader) root(v Value) field {
	if v == nil {
		v = null{}
	}
	return field{r: r, v: v, path: model.Path{}}
}

// child is the value v at path, nil reading as null.
func (f field) child(v Value, step string) field {
	if v == nil {
		v = null{}
	}
	return field{r: f.r, v: v, path: append(slices.Clone(f.path), step)}
}

// at is the attribute name of an object (or the element name of a map); null when f has none.
func (f field) at(name string) field {
	var v Value
	if !f.v.IsNull() && !f.v.IsUnknown() {
		v, _ = f.v.Attribute(name)
	}
	return f.child(v, name)
}

// name is the last step of f's path: an entry's name.
func (f field) name() string { return f.path[len(f.path)-1] }

// known reports whether f has a value; an unknown one is recorded.
func (f field) known() bool {
	if f.v.IsUnknown() {
		f.r.unknown = append(f.r.unknown, slices.Clone(f.path))
		return false
	}
	return !f.v.IsNull()
}

// object reports whether f is a known object (or map) whose attributes can be read.
func (f field) object() bool {
	if !f.known() {
		return false
	}
	if _, ok := f.v.Attribute(""); !ok {
		f.r.fail(f.path, "must be an object")
		return false
	}
	return true
}

// entries are the attributes of an object or the elements of a map, sorted by name; none when f is not set.
func (f field) entries() []field {
	if !f.known() {
		return nil
	}
	entries, ok := f.v.Entries()
	if !ok {
		f.r.fail(f.path, "must be a map")
		return nil
	}
	out := make([]field, 0, len(entries))
	for _, e := range entries {
		out = append(out, f.child(e.Value, e.Name))
	}
	return out
}

// elements are the elements of a list, a set or a tuple; none when f is not set.
func (f field) elements() []field {
	if !f.known() {
		return nil
	}
	elements, ok := f.v.Elements()
	if !ok {
		f.r.fail(f.path, "must be a list")
		return nil
	}
	out := make([]field, 0, len(elements))
	for i, e := range elements {
		out = append(out, f.child(e, strconv.Itoa(i)))
	}
	return out
}

func (f field) str() string {
	if s := f.strPtr(); s != nil {
		return *s
	}
	return ""
}

func (f field) strPtr() *string {
	if !f.known() {
		return nil
	}
	s, ok := f.v.AsString()
	if !ok {
		f.r.fail(f.path, "must be a string")
		return nil
	}
	return &s
}

// defaulted is a string attribute with the default the provider's schema gives it where it is not set (the
// resource's plan holds it already; the data source's configuration and TFLint's do not). An unknown value
// stays "".
func (f field) defaulted(def string) string {
	if f.v.IsNull() {
		return def
	}
	return f.str()
}

func (f field) number() *big.Float {
	if !f.known() {
		return nil
	}
	n, ok := f.v.AsNumber()
	if !ok || n == nil {
		f.r.fail(f.path, "must be a number")
		return nil
	}
	return n
}

func (f field) int64Ptr() *int64 {
	n := f.number()
	if n == nil {
		return nil
	}
	i, err := WholeNumber(n)
	if err != nil {
		f.r.fail(f.path, err.Error())
		return nil
	}
	return &i
}

func (f field) floatPtr() *float64 {
	n := f.number()
	if n == nil {
		return nil
	}
	x, err := FiniteNumber(n)
	if err != nil {
		f.r.fail(f.path, err.Error())
		return nil
	}
	return &x
}

func (f field) boolPtr() *bool {
	if !f.known() {
		return nil
	}
	b, ok := f.v.AsBool()
	if !ok {
		f.r.fail(f.path, "must be true or false")
		return nil
	}
	return &b
}

// strings are the set elements of a list of strings; nil when the list is not set.
func (f field) strings() []string {
	var out []string
	for _, el := range f.elements() {
		if s := el.strPtr(); s != nil {
			out = append(out, *s)
		}
	}
	return out
}
