package policy

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// ToValue converts a Go value to an OPA value the way encoding/json would encode it (json tags,
// omitempty, nil pointers and slices as null), without the JSON round trip: the document is converted once
// per evaluation and the round trip cost more than the rules.
func ToValue(v any) (ast.Value, error) {
	return toValue(reflect.ValueOf(v))
}

func toValue(v reflect.Value) (ast.Value, error) {
	switch v.Kind() {
	case reflect.Invalid:
		return ast.Null{}, nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ast.Null{}, nil
		}
		return toValue(v.Elem())
	case reflect.Bool:
		return ast.Boolean(v.Bool()), nil
	case reflect.String:
		return ast.String(v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return ast.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return ast.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			// JSON has no form for these, and OPA panics comparing them.
			return nil, fmt.Errorf("the number %v cannot be evaluated: every number of a design document must be finite", f)
		}
		return ast.Number(strconv.FormatFloat(f, 'f', -1, 64)), nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return ast.Null{}, nil
		}
		terms := make([]*ast.Term, v.Len())
		for i := range terms {
			el, err := toValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			terms[i] = ast.NewTerm(el)
		}
		return ast.NewArray(terms...), nil
	case reflect.Map:
		if v.IsNil() {
			return ast.Null{}, nil
		}
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key type %s is not string", v.Type().Key())
		}
		obj := ast.NewObject()
		iter := v.MapRange()
		for iter.Next() {
			el, err := toValue(iter.Value())
			if err != nil {
				return nil, err
			}
			obj.Insert(ast.StringTerm(iter.Key().String()), ast.NewTerm(el))
		}
		return obj, nil
	case reflect.Struct:
		return structToValue(v)
	}
	return nil, fmt.Errorf("cannot convert %s to a policy value", v.Type())
}

// structField is how one field of a struct type converts: its JSON key as a term, built once per type.
type structField struct {
	index     int
	name      string
	key       *ast.Term
	omitEmpty bool
	// promote is an embedded struct without a tag, whose fields are promoted as encoding/json does.
	promote bool
}

// structFields caches the fields of each struct type converted: reading the tags of every field on every
// conversion cost more than the conversion once documents carried lists of structs (access patterns).
var structFields sync.Map // reflect.Type → []structField

func fieldsOf(t reflect.Type) []structField {
	if cached, ok := structFields.Load(t); ok {
		if fields, ok := cached.([]structField); ok {
			return fields
		}
	}
	fields := make([]structField, 0, t.NumField())
	for i := range t.NumField() {
		field := t.Field(i)
		if !field.IsExported() {
			continue
		}
		tag := field.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = field.Name
		}
		fields = append(fields, structField{index: i, name: field.Name, key: ast.StringTerm(name),
			omitEmpty: strings.Contains(opts, "omitempty"), promote: field.Anonymous && tag == "" && field.Type.Kind() == reflect.Struct})
	}
	structFields.Store(t, fields)
	return fields
}

func structToValue(v reflect.Value) (ast.Value, error) {
	fields := fieldsOf(v.Type())
	obj := ast.NewObjectWithCapacity(len(fields))
	for _, field := range fields {
		fv := v.Field(field.index)
		if field.promote {
			inner, err := structToValue(fv)
			if err != nil {
				return nil, err
			}
			if fields, ok := inner.(ast.Object); ok {
				fields.Foreach(func(k, v *ast.Term) { obj.Insert(k, v) })
			}
			continue
		}
		if field.omitEmpty && fv.IsZero() {
			continue
		}
		el, err := toValue(fv)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", v.Type().Name(), field.name, err)
		}
		obj.Insert(field.key, ast.NewTerm(el))
	}
	return obj, nil
}
