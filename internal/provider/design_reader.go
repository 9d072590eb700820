package provider

import (
	"maps"
	"math/big"
	"reflect"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/designreader"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The design attributes are read into model.Input by internal/designreader, which the TFLint ruleset reads
// HCL with too; this is its adapter to the framework's values.

// readDesign reads the design of the data source's configuration.
func readDesign(m designInputModel) (*model.Input, diag.Diagnostics) {
	in, errs := designreader.Design(modelValue(m))
	return in, fieldErrorDiagnostics(errs)
}

// readTableDesign reads the design of a resource's plan or state: the design attributes and the table's settings.
func readTableDesign(m shardedTableModel) (*model.Input, diag.Diagnostics) {
	in, errs := designreader.Table(modelValue(m))
	return in, fieldErrorDiagnostics(errs)
}

// modelValue is a model struct as the object of its attributes, each under its tfsdk name (the attributes
// of embedded structs included), so that an attribute is named once, in its tag.
func modelValue(m any) designreader.Value {
	attrs := modelAttributes{}
	var collect func(v reflect.Value)
	collect = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				collect(v.Field(i)) // its exported fields are readable, as encoding/json reads them
				continue
			}
			if !f.IsExported() {
				continue
			}
			if a, ok := v.Field(i).Interface().(attr.Value); ok && f.Tag.Get("tfsdk") != "" && f.Tag.Get("tfsdk") != "-" {
				attrs[f.Tag.Get("tfsdk")] = a
			}
		}
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Struct {
		collect(v)
	}
	return attrs
}

// modelAttributes are the attributes of a block, by name.
type modelAttributes map[string]attr.Value

func (modelAttributes) IsNull() bool                 { return false }
func (modelAttributes) IsUnknown() bool              { return false }
func (modelAttributes) AsString() (string, bool)     { return "", false }
func (modelAttributes) AsNumber() (*big.Float, bool) { return nil, false }
func (modelAttributes) AsBool() (bool, bool)         { return false, false }
func (modelAttributes) Elements() ([]designreader.Value, bool) {
	return nil, false
}

func (m modelAttributes) Attribute(name string) (designreader.Value, bool) {
	return frameworkValueOf(m[name]), true
}

func (m modelAttributes) Entries() ([]designreader.Entry, bool) { return entriesOf(m), true }

// frameworkValue is a value of the design schema: a string, number, bool, object, map, list or set.
type frameworkValue struct{ v attr.Value }

// frameworkValueOf is v for the reader; nil (an attribute the model does not have) reads as null.
func frameworkValueOf(v attr.Value) designreader.Value {
	if v == nil {
		return nil
	}
	return frameworkValue{v}
}

func (f frameworkValue) IsNull() bool    { return f.v.IsNull() }
func (f frameworkValue) IsUnknown() bool { return f.v.IsUnknown() }

func (f frameworkValue) AsString() (string, bool) {
	s, ok := f.v.(types.String)
	return s.ValueString(), ok
}

func (f frameworkValue) AsNumber() (*big.Float, bool) {
	n, ok := f.v.(types.Number)
	return n.ValueBigFloat(), ok
}

func (f frameworkValue) AsBool() (bool, bool) {
	b, ok := f.v.(types.Bool)
	return b.ValueBool(), ok
}

func (f frameworkValue) Attribute(name string) (designreader.Value, bool) {
	switch v := f.v.(type) {
	case types.Object:
		return frameworkValueOf(v.Attributes()[name]), true
	case types.Map:
		return frameworkValueOf(v.Elements()[name]), true
	}
	return nil, false
}

func (f frameworkValue) Entries() ([]designreader.Entry, bool) {
	switch v := f.v.(type) {
	case types.Object:
		return entriesOf(v.Attributes()), true
	case types.Map:
		return entriesOf(v.Elements()), true
	}
	return nil, false
}

func (f frameworkValue) Elements() ([]designreader.Value, bool) {
	var elements []attr.Value
	switch v := f.v.(type) {
	case types.List:
		elements = v.Elements()
	case types.Set:
		elements = v.Elements()
	default:
		return nil, false
	}
	out := make([]designreader.Value, 0, len(elements))
	for _, e := range elements {
		out = append(out, frameworkValueOf(e))
	}
	return out, true
}

func entriesOf(values map[string]attr.Value) []designreader.Entry {
	out := make([]designreader.Entry, 0, len(values))
	for _, name := range slices.Sorted(maps.Keys(values)) {
		out = append(out, designreader.Entry{Name: name, Value: frameworkValueOf(values[name])})
	}
	return out
}
