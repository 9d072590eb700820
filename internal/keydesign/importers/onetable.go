package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// A dynamodb-onetable schema (format onetable:1.x: indexes, models, params, queries) as the inputs of a
// design with entities. Its value templates are key templates, one to one with ours.
//
// The mapping:
//   - indexes.primary is the table's key; every other index with a hash attribute a GSI, its project (all,
//     keys or a list of attributes) its projection; a local index is no input of the function;
//   - each model is an entity: a field whose attribute (the field's name, or its map) is a key attribute
//     gives that key's template, its value template (account#${name}) or, without one, the field itself;
//     ${_type} (params.typeField) is the model's name, ${field:N} and ${field:N:pad} a placeholder of N
//     characters; a value computed by code (value: true) is unknown, and said so in Skipped;
//   - each placeholder is a segment typed from its field: an enum its values, a number a number, a boolean
//     an enum of true and false, a date a time in milliseconds, a generated UUID or ULID an id of their
//     characters, anything else an id;
//   - each saved query that names an index and its hash value is an access pattern on the models whose
//     templates render that value (or on its model), with its sort operation; Scans are listed in Skipped.

// oneTablePlaceholder is ${name}, ${name:size} or ${name:size:pad}.
var oneTablePlaceholder = lazyregexp.New(`\$\{([^}:]+)(?::(\d+)(?::([^}]*))?)?\}`)

// oneTableOperations are the sort operations of a saved query, as conditions of the design.
var oneTableOperations = map[string]string{
	"Equal": model.SortEqual, "Less than": model.SortLess, "Less than or equal": model.SortLessEqual,
	"Greater than": model.SortGreater, "Greater than or equal": model.SortGreaterEqual,
	"Begins with": model.SortBeginsWith, "Between": model.SortBetween,
}

type oneTableIndex struct {
	name       string
	hash, sort string
}

// FromOneTableSchema reads a OneTable schema.
func FromOneTableSchema(raw []byte) (*Design, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema any
	if err := dec.Decode(&schema); err != nil {
		return nil, fmt.Errorf("is not a OneTable schema: %w", err)
	}
	s := jsonObject(schema)
	indexes := jsonObject(s["indexes"])
	primary := jsonObject(indexes["primary"])
	pk := jsonString(primary["hash"])
	if pk == "" {
		return nil, fmt.Errorf("is not a OneTable schema: it has no indexes.primary.hash, the table's partition key attribute")
	}
	models := jsonObject(s["models"])
	if len(models) == 0 {
		return nil, fmt.Errorf("is not a OneTable schema: it has no models")
	}
	params := jsonObject(s["params"])
	typeField := jsonString(params["typeField"])
	if typeField == "" {
		typeField = "_type"
	}
	isoDates, _ := params["isoDates"].(bool)

	d := &Design{PartitionKey: model.Key{Name: pk}, Segments: map[string]model.Segment{}}
	idx := []oneTableIndex{{name: "primary", hash: pk, sort: jsonString(primary["sort"])}}
	if idx[0].sort != "" {
		d.SortKey = &model.Key{Name: idx[0].sort}
	}
	for _, name := range slices.Sorted(maps.Keys(indexes)) {
		if name == "primary" {
			continue
		}
		g := jsonObject(indexes[name])
		if t := jsonString(g["type"]); t == "local" {
			d.Skipped = append(d.Skipped, fmt.Sprintf("index %q: a local secondary index; add it as local_secondary_indexes", name))
			continue
		}
		hash, sort := jsonString(g["hash"]), jsonString(g["sort"])
		if hash == "" {
			d.Skipped = append(d.Skipped, fmt.Sprintf("index %q: it has no hash attribute", name))
			continue
		}
		gsi := model.GlobalSecondaryIndex{Name: name, PartitionKey: []model.IndexKeyAttribute{{Name: hash}}, ProjectionType: model.ProjectionAll}
		if sort != "" {
			gsi.SortKey = []model.IndexKeyAttribute{{Name: sort}}
		}
		switch p := g["project"].(type) {
		case string:
			if strings.EqualFold(p, "keys") {
				gsi.ProjectionType = model.ProjectionKeysOnly
			}
		case []any:
			gsi.ProjectionType = model.ProjectionInclude
			gsi.NonKeyAttributes = slices.DeleteFunc(jsonStrings(p), func(a string) bool { return a == hash || a == sort || a == pk || a == idx[0].sort })
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, gsi)
		idx = append(idx, oneTableIndex{name: name, hash: hash, sort: sort})
	}

	// numeric[attr] stays true while every template of the attribute is one number placeholder.
	numeric := map[string]bool{}
	entityOf := map[string]string{}
	for _, modelName := range slices.Sorted(maps.Keys(models)) {
		m := oneTableModel{d: d, model: modelName, entity: uniqueEntityName(d, snakeCase(modelName)), fields: jsonObject(models[modelName]),
			typeField: typeField, isoDates: isoDates}
		e, ok := m.asEntity(idx, numeric)
		if ok {
			d.Entities = append(d.Entities, e)
			entityOf[modelName] = e.Name
		}
	}
	d.typeKeys(numeric)
	queries := jsonObject(s["queries"])
	for _, name := range slices.Sorted(maps.Keys(queries)) {
		ap, why := d.oneTableQuery(name, jsonObject(queries[name]), idx, models, entityOf)
		if why != "" {
			d.Skipped = append(d.Skipped, fmt.Sprintf("query %q: %s", name, why))
			continue
		}
		ap.Name = uniqueName(ap.Name, func(n string) bool {
			return slices.ContainsFunc(d.AccessPatterns, func(p model.AccessPattern) bool { return p.Name == n })
		})
		d.AccessPatterns = append(d.AccessPatterns, ap)
	}
	return d, nil
}

type oneTableModel struct {
	d             *Design
	model, entity string
	fields        map[string]any
	typeField     string
	isoDates      bool
}

// field is the field that holds the attribute: the field of that name, or the one that maps to it.
func (m *oneTableModel) field(attr string) (string, map[string]any, bool) {
	if f, ok := m.fields[attr].(map[string]any); ok && jsonString(f["map"]) == "" {
		return attr, f, true
	}
	for _, name := range slices.Sorted(maps.Keys(m.fields)) {
		f := jsonObject(m.fields[name])
		// A packed map (data.status) keeps its attribute's name before the dot.
		if mapped, _, _ := strings.Cut(jsonString(f["map"]), "."); mapped == attr {
			return name, f, true
		}
	}
	return "", nil, false
}

// asEntity is the model as an entity; ok is false when a key of the table is unknown.
func (m *oneTableModel) asEntity(idx []oneTableIndex, numeric map[string]bool) (model.Entity, bool) {
	e := model.Entity{Name: m.entity, Keys: map[string]string{}}
	for i, index := range idx {
		for _, attr := range []string{index.hash, index.sort} {
			if attr == "" {
				continue
			}
			if _, done := e.Keys[attr]; done {
				continue
			}
			template, isNumber, why := m.template(attr)
			if why != "" {
				if i == 0 {
					m.d.Skipped = append(m.d.Skipped, fmt.Sprintf("model %q: %s: it is left out", m.model, why))
					return model.Entity{}, false
				}
				if why != "no field" {
					m.d.Skipped = append(m.d.Skipped, fmt.Sprintf("model %q: %s: it is in no index %q", m.model, why, index.name))
				}
				continue
			}
			e.Keys[attr] = template
			if seen, ok := numeric[attr]; ok {
				numeric[attr] = seen && isNumber
			} else {
				numeric[attr] = isNumber
			}
		}
	}
	return e, true
}

// template is the template of the key attribute in the model, and whether it is one number placeholder;
// why says why there is none ("no field" when the model writes no such attribute).
func (m *oneTableModel) template(attr string) (string, bool, string) {
	name, f, ok := m.field(attr)
	if !ok {
		if len(m.fields) > 0 {
			return "", false, "no field"
		}
		return "", false, "it has no fields"
	}
	switch v := f["value"].(type) {
	case nil:
		// The field itself is the key attribute's value.
		seg := m.segment(f, "")
		n := m.d.addSegment(snakeCase(name), m.entity, seg)
		return "{" + n + "}", seg.Kind == model.KindNumber, ""
	case string:
		return m.valueTemplate(attr, v)
	default:
		return "", false, fmt.Sprintf("%s's value is computed by code (value: %v), so its template is unknown", attr, v)
	}
}

// valueTemplate is a value template (account#${name}) as a template of the design.
func (m *oneTableModel) valueTemplate(attr, value string) (string, bool, string) {
	var b strings.Builder
	last, placeholders := 0, 0
	isNumber := false
	for _, loc := range oneTablePlaceholder.FindAllStringSubmatchIndex(value, -1) {
		b.WriteString(value[last:loc[0]])
		last = loc[1]
		ref := value[loc[2]:loc[3]]
		if ref == m.typeField {
			// The type field holds the model's name.
			b.WriteString(m.model)
			continue
		}
		placeholders++
		var size, pad string
		if loc[4] >= 0 {
			size = value[loc[4]:loc[5]]
		}
		if loc[6] >= 0 {
			pad = value[loc[6]:loc[7]]
		}
		seg := m.segment(jsonObject(m.fields[ref]), pad)
		if n, err := strconv.ParseInt(size, 10, 64); err == nil && n > 0 {
			seg.MaxLength = ptr(n)
		}
		name := m.d.addSegment(snakeCase(ref), m.entity, seg)
		b.WriteString("{" + name + "}")
		isNumber = loc[0] == 0 && loc[1] == len(value) && seg.Kind == model.KindNumber
	}
	b.WriteString(value[last:])
	src := b.String()
	if src == "" {
		return "", false, fmt.Sprintf("%s's value template is empty", attr)
	}
	if _, err := model.ParseTemplate(src); err != nil {
		return "", false, fmt.Sprintf("%s's value %q is no key template (%v)", attr, value, err)
	}
	return src, isNumber && placeholders == 1, ""
}

// segment is what a field holds; pad is the padding of a fixed-width placeholder (0 by default).
func (m *oneTableModel) segment(f map[string]any, pad string) model.Segment {
	if values := jsonStrings(f["enum"]); len(values) > 0 {
		return model.Segment{Kind: model.KindEnum, Values: slices.Compact(values)}
	}
	generate := jsonString(f["generate"])
	if generate == "" {
		generate = jsonString(f["uuid"])
	}
	switch strings.ToLower(generate) {
	case "uuid":
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(36)), Characters: ptr("0-9a-f-")}
	case "ulid":
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(26)), Characters: ptr("0-9A-Z")}
	}
	switch strings.ToLower(jsonString(f["type"])) {
	case "number":
		// A number padded with anything but a digit is text.
		if pad == "" || pad >= "0" && pad <= "9" {
			return model.Segment{Kind: model.KindNumber}
		}
	case "boolean":
		return model.Segment{Kind: model.KindEnum, Values: []string{"true", "false"}}
	case "date":
		// ISO strings to the millisecond (2026-01-05T10:30:15.123Z), else an epoch number.
		if m.isoDates {
			return model.Segment{Kind: model.KindTime, Granularity: "millisecond", MaxLength: ptr(int64(len("2006-01-02T15:04:05.000Z")))}
		}
		return model.Segment{Kind: model.KindTime, Granularity: "millisecond"}
	}
	return model.Segment{Kind: model.KindID}
}

// oneTableQuery is a saved query as an access pattern; why says why it is none.
func (d *Design) oneTableQuery(name string, q map[string]any, idx []oneTableIndex, models map[string]any, entityOf map[string]string) (model.AccessPattern, string) {
	if strings.EqualFold(jsonString(q["type"]), "Scan") {
		return model.AccessPattern{}, "a Scan; dynamokeys checks the reads that use a key"
	}
	indexName := jsonString(q["index"])
	if indexName == "" {
		return model.AccessPattern{}, "it names no index"
	}
	i := slices.IndexFunc(idx, func(x oneTableIndex) bool { return x.name == indexName })
	if i < 0 {
		return model.AccessPattern{}, fmt.Sprintf("its index %q is not among the schema's indexes (or is local)", indexName)
	}
	index := idx[i]
	hash := jsonString(q["hash"])
	if hash == "" {
		return model.AccessPattern{}, "it names no hash value, the partition key it reads"
	}
	ap := model.AccessPattern{Name: snakeCase(name)}
	if index.name != "primary" {
		ap.Index = ptr(index.name)
	}
	queryModel := jsonString(q["model"])
	if _, ok := models[queryModel]; queryModel != "" && !ok {
		return model.AccessPattern{}, fmt.Sprintf("its model %q is not among the schema's models", queryModel)
	}
	var entity *model.Entity
	for k := range d.Entities {
		e := &d.Entities[k]
		template, ok := e.Keys[index.hash]
		if !ok {
			continue
		}
		if queryModel != "" && e.Name != entityOf[queryModel] {
			continue
		}
		t, err := model.ParseTemplate(template)
		if err != nil || !templatePattern(t, d.Segments).MatchString(hash) {
			continue
		}
		ap.Entities = append(ap.Entities, e.Name)
		if entity == nil {
			entity = e
		}
	}
	if entity == nil {
		return model.AccessPattern{}, fmt.Sprintf("no model's %s template on index %q renders its hash %q", index.hash, index.name, hash)
	}
	placeholders := func(attr string) []string {
		t, err := model.ParseTemplate(entity.Keys[attr])
		if err != nil {
			return nil
		}
		return t.Placeholders()
	}
	ap.Equals = placeholders(index.hash)
	sortValue := jsonString(q["sort"])
	condition := oneTableOperations[jsonString(q["operation"])]
	if index.sort == "" || sortValue == "" || condition == "" {
		return ap, ""
	}
	for _, p := range placeholders(index.sort) {
		if slices.Contains(ap.Equals, p) {
			continue
		}
		if condition == model.SortEqual {
			ap.Equals = append(ap.Equals, p)
			continue
		}
		ap.Sort = &model.SortCondition{On: p, Condition: condition}
		break
	}
	return ap, ""
}
