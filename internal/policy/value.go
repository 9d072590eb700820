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
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return ast.Null{}, nil
	}
	t, err := encoderOf(rv.Type())(&encodeState{strings: map[string]*ast.Term{}}, rv)
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

// An encoder converts one value of a given Go type to a term. encoderOf builds it once per type, as
// encoding/json does, so that a conversion reads no struct tags and switches on no kinds: a design document
// of ten entities has some 3,000 values, and the conversion of each is on every evaluation's path.
type encoder func(*encodeState, reflect.Value) (*ast.Term, error)

// encodeState is one conversion's: each distinct string becomes one term, which every place it appears in
// shares (a document repeats its names, templates and kinds).
type encodeState struct {
	strings map[string]*ast.Term
}

func (s *encodeState) stringTerm(str string) *ast.Term {
	if t, ok := s.strings[str]; ok {
		return t
	}
	t := ast.InternedTerm(str)
	s.strings[str] = t
	return t
}

var encoders sync.Map // reflect.Type → encoder

func encoderOf(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		if enc, ok := e.(encoder); ok {
			return enc
		}
	}
	// A recursive type (a struct holding a pointer to its own type, as a document holds its prior) finds
	// this indirection while its encoder is being built, and so does a conversion on another goroutine,
	// which waits for it: encoding/json's typeEncoder does the same.
	var (
		ready sync.WaitGroup
		built encoder
	)
	ready.Add(1)
	indirect := encoder(func(e *encodeState, v reflect.Value) (*ast.Term, error) {
		ready.Wait()
		return built(e, v)
	})
	if e, loaded := encoders.LoadOrStore(t, indirect); loaded {
		if enc, ok := e.(encoder); ok {
			return enc
		}
	}
	built = newEncoder(t)
	ready.Done()
	encoders.Store(t, built)
	return built
}

func newEncoder(t reflect.Type) encoder {
	switch t.Kind() {
	case reflect.Pointer:
		elem := encoderOf(t.Elem())
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return ast.InternedNullTerm, nil
			}
			return elem(e, v.Elem())
		}
	case reflect.Interface:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return ast.InternedNullTerm, nil
			}
			return encoderOf(v.Elem().Type())(e, v.Elem())
		}
	case reflect.Bool:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) { return ast.InternedTerm(v.Bool()), nil }
	case reflect.String:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) { return e.stringTerm(v.String()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) { return intTerm(v.Int()), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
			if u := v.Uint(); u <= math.MaxInt64 {
				return intTerm(int64(u)), nil
			}
			return ast.NewTerm(ast.Number(strconv.FormatUint(v.Uint(), 10))), nil
		}
	case reflect.Float32, reflect.Float64:
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) { return floatTerm(v.Float()) }
	case reflect.Slice, reflect.Array:
		elem := encoderOf(t.Elem())
		nilable := t.Kind() == reflect.Slice
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
			if nilable && v.IsNil() {
				return ast.InternedNullTerm, nil
			}
			terms := make([]*ast.Term, v.Len())
			for i := range terms {
				el, err := elem(e, v.Index(i))
				if err != nil {
					return nil, err
				}
				terms[i] = el
			}
			return ast.ArrayTerm(terms...), nil
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return func(*encodeState, reflect.Value) (*ast.Term, error) {
				return nil, fmt.Errorf("map key type %s is not string", t.Key())
			}
		}
		elem := encoderOf(t.Elem())
		return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return ast.InternedNullTerm, nil
			}
			obj := ast.NewObjectWithCapacity(v.Len())
			// One value reused for every element: MapRange's Value copies each to a new allocation.
			value := reflect.New(t.Elem()).Elem()
			iter := v.MapRange()
			for iter.Next() {
				value.SetIterValue(iter)
				el, err := elem(e, value)
				if err != nil {
					return nil, err
				}
				obj.Insert(e.stringTerm(iter.Key().String()), el)
			}
			return ast.NewTerm(obj), nil
		}
	case reflect.Struct:
		return structEncoder(t)
	}
	return func(*encodeState, reflect.Value) (*ast.Term, error) {
		return nil, fmt.Errorf("cannot convert %s to a policy value", t)
	}
}

// intTerm is the number n; small ones are OPA's interned terms.
func intTerm(n int64) *ast.Term {
	if n >= math.MinInt && n <= math.MaxInt && ast.HasInternedIntNumberTerm(int(n)) {
		return ast.InternedTerm(int(n))
	}
	return ast.NewTerm(ast.Number(strconv.FormatInt(n, 10)))
}

// floatTerm is f in the shortest form that reads back as f, as ToValue has always written it; a whole number
// the int64 form has the same digits (as an interned term when small), except -0.
func floatTerm(f float64) (*ast.Term, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		// JSON has no form for these, and OPA panics comparing them.
		return nil, fmt.Errorf("the number %v cannot be evaluated: every number of a design document must be finite", f)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f)) {
		return intTerm(int64(f)), nil
	}
	return ast.NewTerm(ast.Number(strconv.FormatFloat(f, 'f', -1, 64))), nil
}

// structField is how one field of a struct type converts: its JSON key as a term and its encoder.
type structField struct {
	index     int
	name      string
	key       *ast.Term
	encode    encoder
	omitEmpty bool
	// promote is an embedded struct without a tag, whose fields are promoted as encoding/json does.
	promote bool
}

func structEncoder(t reflect.Type) encoder {
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
		fields = append(fields, structField{index: i, name: field.Name, key: ast.InternedTerm(name), encode: encoderOf(field.Type),
			omitEmpty: strings.Contains(opts, "omitempty"), promote: field.Anonymous && tag == "" && field.Type.Kind() == reflect.Struct})
	}
	return func(e *encodeState, v reflect.Value) (*ast.Term, error) {
		obj := ast.NewObjectWithCapacity(len(fields))
		for _, field := range fields {
			fv := v.Field(field.index)
			if field.promote {
				inner, err := field.encode(e, fv)
				if err != nil {
					return nil, err
				}
				if fields, ok := inner.Value.(ast.Object); ok {
					fields.Foreach(func(k, v *ast.Term) { obj.Insert(k, v) })
				}
				continue
			}
			if field.omitEmpty && fv.IsZero() {
				continue
			}
			el, err := field.encode(e, fv)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", t.Name(), field.name, err)
			}
			obj.Insert(field.key, el)
		}
		return ast.NewTerm(obj), nil
	}
}
