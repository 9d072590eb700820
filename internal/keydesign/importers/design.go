// Package importers turns the data models that single-table designs are drawn in (NoSQL Workbench's data
// model, dynamodb-onetable's schema) into the inputs of a design with entities, as keydesign reads them.
// It is pure Go: the models are JSON text, the output keydesign's types.
package importers

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Design is one table of a model as design inputs: the table's keys and GSIs, a segment per placeholder,
// the entities with their templates and the reads the model names. Skipped says, per line, what of the
// model is no input of the design, and why.
type Design struct {
	PartitionKey           model.Key
	SortKey                *model.Key
	GlobalSecondaryIndexes []model.GlobalSecondaryIndex
	Segments               map[string]model.Segment
	Entities               []model.Entity
	AccessPatterns         []model.AccessPattern
	Skipped                []string
}

// typeKeys types the table's and the GSIs' key attributes as types says, S where it says nothing.
func (d *Design) typeKeys(types map[string]string) {
	keyType := func(name string) string { return cmp.Or(types[name], model.KeyTypeString) }
	d.PartitionKey.Type = keyType(d.PartitionKey.Name)
	if d.SortKey != nil {
		d.SortKey.Type = keyType(d.SortKey.Name)
	}
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		for j := range g.PartitionKey {
			g.PartitionKey[j].Type = keyType(g.PartitionKey[j].Name)
		}
		for j := range g.SortKey {
			g.SortKey[j].Type = keyType(g.SortKey[j].Name)
		}
	}
}

// keyAttributes are the names of the table's and the GSIs' key attributes, each once, with their types.
func (d *Design) keyAttributes() ([]string, map[string]string) {
	var names []string
	types := map[string]string{}
	add := func(name, typ string) {
		if _, ok := types[name]; !ok {
			names = append(names, name)
			types[name] = typ
		}
	}
	add(d.PartitionKey.Name, d.PartitionKey.Type)
	if d.SortKey != nil {
		add(d.SortKey.Name, d.SortKey.Type)
	}
	for _, g := range d.GlobalSecondaryIndexes {
		for _, a := range slices.Concat(g.PartitionKey, g.SortKey) {
			add(a.Name, a.Type)
		}
	}
	return names, types
}

// skip lists what of the model is no input of the design, or is read as something else, with why.
func (d *Design) skip(format string, args ...any) {
	// A template read twice (two mappings give an attribute one template) says the same once.
	if line := fmt.Sprintf(format, args...); !slices.Contains(d.Skipped, line) {
		d.Skipped = append(d.Skipped, line)
	}
}

// keyTypeRule ends the error of a key attribute of another type than DynamoDB's key types.
const keyTypeRule = "a key attribute's type is S, N or B"

// validKeyType says whether t is a type DynamoDB gives a key attribute.
func validKeyType(t string) bool {
	return t == model.KeyTypeString || t == model.KeyTypeNumber || t == model.KeyTypeBinary
}

// projectionRule ends the error of an index projection DynamoDB does not know.
const projectionRule = "a projection is ALL, KEYS_ONLY or INCLUDE"

// projectionType is DynamoDB's name of a projection, written in any case; ok is false for another.
func projectionType(p string) (string, bool) {
	p = strings.ToUpper(p)
	return p, p == model.ProjectionAll || p == model.ProjectionKeysOnly || p == model.ProjectionInclude
}

// snakeCase turns a model's name (TenantId, playerID, GSI1PK, Order Items) into a name of the design:
// [a-z][a-z0-9_]*, words split where the case changes.
func snakeCase(name string) string {
	runes := []rune(name)
	var b strings.Builder
	underscore := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	for i, r := range runes {
		switch {
		case unicode.IsUpper(r):
			prevLower := i > 0 && unicode.IsLower(runes[i-1])
			// The last capital of an acronym starts the next word: HTTPServer is http_server.
			acronymEnd := i > 0 && unicode.IsUpper(runes[i-1]) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if prevLower || acronymEnd {
				underscore()
			}
			b.WriteRune(unicode.ToLower(r))
		case r < unicode.MaxASCII && (unicode.IsLower(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		default:
			underscore()
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || out[0] < 'a' || out[0] > 'z' {
		out = strings.TrimSuffix("v_"+out, "_")
	}
	return out
}

// uniqueName is name, else name_2, name_3, ... the first that taken does not hold.
func uniqueName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s_%d", name, i); !taken(n) {
			return n
		}
	}
}

// addSegment puts a segment into the design's shared map under name, or under another name when name
// already holds a segment that cannot hold both: a segment means the same in every entity. It returns the
// name the segment has.
func (d *Design) addSegment(name, entity string, s model.Segment) string {
	have, ok := d.Segments[name]
	if !ok {
		d.Segments[name] = s
		return name
	}
	if merged, ok := mergeSegments(have, s); ok {
		d.Segments[name] = merged
		return name
	}
	renamed := uniqueName(entity+"_"+name, func(n string) bool {
		other, ok := d.Segments[n]
		if !ok {
			return false
		}
		_, merges := mergeSegments(other, s)
		return !merges
	})
	if have, ok := d.Segments[renamed]; ok {
		s, _ = mergeSegments(have, s)
	}
	d.Segments[renamed] = s
	return renamed
}

// mergeSegments is a segment that holds the values of both, when one kind can: an id holds numbers too.
func mergeSegments(a, b model.Segment) (model.Segment, bool) {
	switch {
	case a.Kind == b.Kind:
	case a.Kind == model.KindID && b.Kind == model.KindNumber, a.Kind == model.KindNumber && b.Kind == model.KindID:
		return model.Segment{Kind: model.KindID}, true
	default:
		return model.Segment{}, false
	}
	out := a
	switch a.Kind {
	case model.KindEnum:
		out.Values = slices.Clone(a.Values)
		for _, v := range b.Values {
			if !slices.Contains(out.Values, v) {
				out.Values = append(out.Values, v)
			}
		}
	case model.KindTime:
		if a.Granularity != b.Granularity {
			return model.Segment{}, false
		}
	}
	if a.Characters == nil || b.Characters == nil || *a.Characters != *b.Characters {
		out.Characters = nil
	}
	if a.MaxLength == nil || b.MaxLength == nil {
		out.MaxLength = nil
	} else {
		out.MaxLength = ptr(max(*a.MaxLength, *b.MaxLength))
	}
	return out, true
}

func ptr[T any](v T) *T { return &v }

// uniqueEntityName is the entity's name in the design, suffixed when two of the model's names read alike.
func uniqueEntityName(d *Design, name string) string {
	return uniqueName(name, func(n string) bool {
		return slices.ContainsFunc(d.Entities, func(e model.Entity) bool { return e.Name == n })
	})
}
