package tflintruleset

import (
	"maps"
	"math/big"
	"slices"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// reader reads statically evaluated attribute values (cty values, where a variable without a default or
// another resource's attribute is unknown) into the domain's Go types, recording the path of each unknown
// value the way the provider records the unknowns of a plan. A value of the wrong type is left unset: it is
// `terraform validate`'s to report, not a key-design rule's.
type reader struct {
	unknown []model.Path
	// invalid are the values the provider refuses beyond their type (an observation given for another
	// index than its key), which TFLint reports as the provider would.
	invalid []*model.FieldError
}

func extend(p model.Path, steps ...string) model.Path {
	return append(append(model.Path(nil), p...), steps...)
}

// known reports whether v has a value; an unknown v (or one holding an unknown) is recorded under p.
func (r *reader) known(v cty.Value, p model.Path) bool {
	if !v.IsKnown() {
		r.unknown = append(r.unknown, slices.Clone(p))
		return false
	}
	return !v.IsNull()
}

// whollyKnown reports whether v and everything in it is known; otherwise p is recorded as unknown, as the
// provider records a setting it reads as one fact.
func (r *reader) whollyKnown(v cty.Value, p model.Path) bool {
	if !v.IsWhollyKnown() {
		r.unknown = append(r.unknown, slices.Clone(p))
		return false
	}
	return !v.IsNull()
}

// attr is the attribute name of an object or map value, null when absent.
func attr(v cty.Value, name string) cty.Value {
	if !v.IsKnown() || v.IsNull() {
		if !v.IsKnown() {
			return cty.DynamicVal
		}
		return cty.NullVal(cty.DynamicPseudoType)
	}
	t := v.Type()
	switch {
	case t.IsObjectType():
		if t.HasAttribute(name) {
			return v.GetAttr(name)
		}
	case t.IsMapType():
		if key := cty.StringVal(name); v.HasIndex(key).True() {
			return v.Index(key)
		}
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// entries are the name/value pairs of an object or map, sorted by name; nil when v is not one.
func entries(v cty.Value) (names []string, values []cty.Value) {
	if !v.IsKnown() || v.IsNull() {
		return nil, nil
	}
	if t := v.Type(); !t.IsObjectType() && !t.IsMapType() {
		return nil, nil
	}
	all := v.AsValueMap()
	names = slices.Sorted(maps.Keys(all))
	for _, k := range names {
		values = append(values, all[k])
	}
	return names, values
}

// elements are the elements of a list, tuple or set; nil when v is not one.
func elements(v cty.Value) []cty.Value {
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	if t := v.Type(); !t.IsListType() && !t.IsTupleType() && !t.IsSetType() {
		return nil
	}
	return v.AsValueSlice()
}

func (r *reader) str(v cty.Value, p model.Path) string {
	if s := r.strPtr(v, p); s != nil {
		return *s
	}
	return ""
}

func (r *reader) strPtr(v cty.Value, p model.Path) *string {
	if !r.known(v, p) {
		return nil
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil || !s.IsKnown() || s.IsNull() {
		return nil
	}
	out := s.AsString()
	return &out
}

func (r *reader) number(v cty.Value, p model.Path) *big.Float {
	if !r.known(v, p) {
		return nil
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil || !n.IsKnown() || n.IsNull() {
		return nil
	}
	return n.AsBigFloat()
}

func (r *reader) int64Ptr(v cty.Value, p model.Path) *int64 {
	n := r.number(v, p)
	if n == nil || !n.IsInt() {
		return nil
	}
	i, acc := n.Int64()
	if acc != big.Exact {
		return nil
	}
	return &i
}

func (r *reader) floatPtr(v cty.Value, p model.Path) *float64 {
	n := r.number(v, p)
	if n == nil {
		return nil
	}
	f, _ := n.Float64()
	return &f
}

func (r *reader) boolPtr(v cty.Value, p model.Path) *bool {
	if !r.known(v, p) {
		return nil
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil || !b.IsKnown() || b.IsNull() {
		return nil
	}
	out := b.True()
	return &out
}

func (r *reader) strings(v cty.Value, p model.Path) []string {
	if !r.known(v, p) {
		return nil
	}
	var out []string
	for i, el := range elements(v) {
		if s := r.strPtr(el, extend(p, strconv.Itoa(i))); s != nil {
			out = append(out, *s)
		}
	}
	return out
}
