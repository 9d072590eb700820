package tflintruleset

import (
	"maps"
	"math/big"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/designreader"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The design attributes of a dynamokeys block are read into model.Input by internal/designreader, as the
// provider reads them from a plan; this is its adapter to the cty values TFLint evaluates.

// ReadDesign reads a block's statically evaluated attributes (a variable without a value, or another
// resource's attribute, is unknown); table reads a dynamokeys_sharded_table's settings too.
func ReadDesign(values map[string]cty.Value, table bool) (*model.Input, []*model.FieldError) {
	root := ctyValue{cty.ObjectVal(values)}
	if table {
		return designreader.Table(root)
	}
	return designreader.Design(root)
}

// ctyValue is an evaluated value. TFLint does not convert it to the attribute's type as Terraform would, so
// the reader's questions are answered with Terraform's conversions: 5 reads as "5", and an object as a map.
type ctyValue struct{ v cty.Value }

func ctyValueOf(v cty.Value) designreader.Value {
	if v == cty.NilVal {
		return nil
	}
	return ctyValue{v}
}

func (c ctyValue) IsNull() bool    { return c.v.IsKnown() && c.v.IsNull() }
func (c ctyValue) IsUnknown() bool { return !c.v.IsKnown() }

// as is c converted to typ, false when it cannot be or holds nothing to read.
func (c ctyValue) as(typ cty.Type) (cty.Value, bool) {
	v, err := convert.Convert(c.v, typ)
	return v, err == nil && v.IsKnown() && !v.IsNull()
}

func (c ctyValue) AsString() (string, bool) {
	if v, ok := c.as(cty.String); ok {
		return v.AsString(), true
	}
	return "", false
}

func (c ctyValue) AsNumber() (*big.Float, bool) {
	if v, ok := c.as(cty.Number); ok {
		return v.AsBigFloat(), true
	}
	return nil, false
}

func (c ctyValue) AsBool() (bool, bool) {
	if v, ok := c.as(cty.Bool); ok {
		return v.True(), true
	}
	return false, false
}

func (c ctyValue) Attribute(name string) (designreader.Value, bool) {
	if !objectOrMap(c.v) {
		return nil, false
	}
	return ctyValue{attribute(c.v, name)}, true
}

func (c ctyValue) Entries() ([]designreader.Entry, bool) {
	if !objectOrMap(c.v) {
		return nil, false
	}
	all := c.v.AsValueMap()
	out := make([]designreader.Entry, 0, len(all))
	for _, name := range slices.Sorted(maps.Keys(all)) {
		out = append(out, designreader.Entry{Name: name, Value: ctyValueOf(all[name])})
	}
	return out, true
}

func (c ctyValue) Elements() ([]designreader.Value, bool) {
	all, ok := elements(c.v)
	if !ok {
		return nil, false
	}
	out := make([]designreader.Value, 0, len(all))
	for _, v := range all {
		out = append(out, ctyValueOf(v))
	}
	return out, true
}

func objectOrMap(v cty.Value) bool {
	return v.IsKnown() && !v.IsNull() && (v.Type().IsObjectType() || v.Type().IsMapType())
}

// attribute is the named attribute of an object, or element of a map; null when it has none.
func attribute(v cty.Value, name string) cty.Value {
	switch {
	case !objectOrMap(v):
	case v.Type().IsObjectType():
		if v.Type().HasAttribute(name) {
			return v.GetAttr(name)
		}
	default:
		if el, ok := v.AsValueMap()[name]; ok {
			return el
		}
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// elements are the elements of a known list, set or tuple; ok is false when v is none of them.
func elements(v cty.Value) ([]cty.Value, bool) {
	if !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	if t := v.Type(); !t.IsListType() && !t.IsSetType() && !t.IsTupleType() {
		return nil, false
	}
	return v.AsValueSlice(), true
}
