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
//   - a key attribute's type is the type OneTable writes its field as: a string (and a binary, which it
//     writes as base64 text) S, a number N, a date N, or S with isoDates;
//   - each placeholder is a segment typed from its field: an enum its values, a number a number, a boolean
//     an enum of true and false, a date a time in milliseconds, a generated UUID or ULID an id of their
//     characters, anything else an id;
//   - each saved query that names an index and its hash value is an access pattern on the models whose
//     templates render that value (or on its model), with its sort operation; Scans are listed in Skipped.
//
// What names a key, an index, a projection or a type and cannot be read is listed in Skipped with why; a
// key the table cannot have (a field type OneTable does not know, a key field that DynamoDB stores as
// another type than S, N or B, a key attribute two models write as two types) is an error.

// oneTablePlaceholder is ${name}, ${name:size} or ${name:size:pad}.
var oneTablePlaceholder = lazyregexp.New(`\$\{([^}:]+)(?::(\d+)(?::([^}]*))?)?\}`)

// oneTableOperations are the sort operations of a saved query, as conditions of the design.
var oneTableOperations = map[string]string{
	"Equal": model.SortEqual, "Less than": model.SortLess, "Less than or equal": model.SortLessEqual,
	"Greater than": model.SortGreater, "Greater than or equal": model.SortGreaterEqual,
	"Begins with": model.SortBeginsWith, "Between": model.SortBetween,
}

// oneTableTypes are the field types OneTable knows; it refuses a schema with another.
var oneTableTypes = []string{"array", "arraybuffer", "binary", "boolean", "buffer", "date", "number", "object", "set", "string"}

// oneTableStored is what DynamoDB stores the values of the field types that no key attribute can hold as.
var oneTableStored = map[string]string{"boolean": "BOOL", "array": "L", "object": "M", "set": "a set (SS, NS or BS)"}

type oneTableIndex struct {
	name       string
	hash, sort string
	local      bool
}

// oneTableKeyType is the type a model writes a key attribute as, and where, for messages.
type oneTableKeyType struct {
	typ, where string
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
	d := &Design{PartitionKey: model.Key{Name: pk}, Segments: map[string]model.Segment{}}
	params := jsonObject(s["params"])
	typeField := jsonString(params["typeField"])
	if typeField == "" {
		if !emptyJSON(params["typeField"]) {
			d.skip("params.typeField is %s, not a field name: read as _type", jsonText(params["typeField"]))
		}
		typeField = "_type"
	}
	isoDates, ok := params["isoDates"].(bool)
	if !ok && params["isoDates"] != nil {
		d.skip("params.isoDates is %s, not true or false: read as false, dates as numbers", jsonText(params["isoDates"]))
	}

	idx := []oneTableIndex{{name: "primary", hash: pk, sort: jsonString(primary["sort"])}}
	if idx[0].sort != "" {
		d.SortKey = &model.Key{Name: idx[0].sort}
	} else if !emptyJSON(primary["sort"]) {
		// A sort key the schema names wrongly would leave a table of another key.
		return nil, fmt.Errorf("indexes.primary.sort is %s: it names the table's sort key attribute", jsonText(primary["sort"]))
	}
	for _, name := range slices.Sorted(maps.Keys(indexes)) {
		if name == "primary" {
			continue
		}
		index, ok, err := d.oneTableIndex(name, indexes[name], idx[0])
		if err != nil {
			return nil, err
		}
		if ok {
			idx = append(idx, index)
		}
	}

	types := map[string]oneTableKeyType{}
	entityOf := map[string]string{}
	for _, modelName := range slices.Sorted(maps.Keys(models)) {
		fields, ok := models[modelName].(map[string]any)
		if !ok && models[modelName] != nil {
			d.skip("model %q is %s, not a map of fields: it is left out", modelName, jsonText(models[modelName]))
			continue
		}
		m := oneTableModel{d: d, model: modelName, entity: uniqueEntityName(d, snakeCase(modelName)), fields: fields,
			typeField: typeField, tableISODates: isoDates}
		e, ok, err := m.asEntity(idx, types)
		if err != nil {
			return nil, err
		}
		if ok {
			d.Entities = append(d.Entities, e)
			entityOf[modelName] = e.Name
		}
	}
	keyTypes := map[string]string{}
	for attr, t := range types {
		keyTypes[attr] = t.typ
	}
	d.typeKeys(keyTypes)
	names, _ := d.keyAttributes()
	for _, attr := range names {
		if _, ok := keyTypes[attr]; !ok {
			d.skip("no model has a field of %s, a key attribute: it is typed S", attr)
		}
	}
	queries := jsonObject(s["queries"])
	for _, name := range slices.Sorted(maps.Keys(queries)) {
		ap, why := d.oneTableQuery(name, jsonObject(queries[name]), idx, models, entityOf)
		if why != "" {
			d.skip("query %q: %s", name, why)
			continue
		}
		ap.Name = uniqueName(ap.Name, func(n string) bool {
			return slices.ContainsFunc(d.AccessPatterns, func(p model.AccessPattern) bool { return p.Name == n })
		})
		d.AccessPatterns = append(d.AccessPatterns, ap)
	}
	return d, nil
}

// oneTableIndex reads a secondary index: a GSI goes into the design; a local index is read for its keys'
// types alone; ok is false for an index left out.
func (d *Design) oneTableIndex(name string, v any, primary oneTableIndex) (oneTableIndex, bool, error) {
	g := jsonObject(v)
	index := oneTableIndex{name: name, hash: jsonString(g["hash"]), sort: jsonString(g["sort"])}
	switch t := g["type"]; {
	case t == "local":
		d.skip("index %q: a local secondary index; add it as local_secondary_indexes", name)
		index.local = true
		return index, index.sort != "", nil
	case !emptyJSON(t) && t != "global":
		// OneTable creates every index whose type is not "local" as a global one.
		d.skip("index %q: its type %s is not \"local\": read as a global index, as OneTable does", name, jsonText(t))
	}
	if index.hash == "" {
		d.skip("index %q: it has no hash attribute", name)
		return index, false, nil
	}
	if index.sort == "" && !emptyJSON(g["sort"]) {
		d.skip("index %q: its sort is %s, not an attribute name: the index is left out", name, jsonText(g["sort"]))
		return index, false, nil
	}
	gsi := model.GlobalSecondaryIndex{Name: name, PartitionKey: []model.IndexKeyAttribute{{Name: index.hash}}, ProjectionType: model.ProjectionAll}
	if index.sort != "" {
		gsi.SortKey = []model.IndexKeyAttribute{{Name: index.sort}}
	}
	switch p := g["project"].(type) {
	case nil:
	case string:
		switch strings.ToLower(p) {
		case "all":
		case "keys":
			gsi.ProjectionType = model.ProjectionKeysOnly
		default:
			return index, false, fmt.Errorf("indexes.%s.project is %q: a projection is \"all\", \"keys\" or a list of attributes", name, p)
		}
	case []any:
		gsi.ProjectionType = model.ProjectionInclude
		// The keys are projected whether listed or not.
		gsi.NonKeyAttributes = slices.DeleteFunc(d.names(p, fmt.Sprintf("index %q: project", name)), func(a string) bool {
			return a == index.hash || a == index.sort || a == primary.hash || a == primary.sort
		})
	default:
		return index, false, fmt.Errorf("indexes.%s.project is %s: a projection is \"all\", \"keys\" or a list of attributes", name, jsonText(p))
	}
	d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, gsi)
	return index, true, nil
}

type oneTableModel struct {
	d             *Design
	model, entity string
	fields        map[string]any
	typeField     string
	tableISODates bool
}

// field is the field that holds the attribute: the field of that name, or the one that maps to it; why
// says why there is none ("no field" when the model writes no such attribute).
func (m *oneTableModel) field(attr string) (string, map[string]any, string, error) {
	if v, ok := m.fields[attr]; ok {
		f, isField := v.(map[string]any)
		if !isField {
			return "", nil, fmt.Sprintf("its field %s is %s, not a field definition", attr, jsonText(v)), nil
		}
		if jsonString(f["map"]) == "" {
			return attr, f, "", nil
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.fields)) {
		f := jsonObject(m.fields[name])
		mapped, packed, _ := strings.Cut(jsonString(f["map"]), ".")
		if mapped != attr {
			continue
		}
		if packed != "" {
			// OneTable refuses this too: a packed attribute is a map.
			return "", nil, "", fmt.Errorf("models.%s.%s.map is %q: it packs the key attribute %s into a map, and %s", m.model, name, jsonString(f["map"]), attr, keyTypeRule)
		}
		return name, f, "", nil
	}
	if len(m.fields) == 0 {
		return "", nil, "it has no fields", nil
	}
	return "", nil, "no field", nil
}

// fieldType is a field's type as OneTable reads it: in any case, string when the field gives none.
func (m *oneTableModel) fieldType(name string, f map[string]any) (string, error) {
	v := f["type"]
	if v == nil {
		return "string", nil
	}
	s, _ := v.(string)
	if t := strings.ToLower(s); slices.Contains(oneTableTypes, t) {
		return t, nil
	}
	return "", fmt.Errorf("models.%s.%s.type is %s: a field's type is one of %s", m.model, name, jsonText(v), strings.Join(oneTableTypes, ", "))
}

// keyType is the type OneTable writes the key attribute attr as, from the field name that holds it.
func (m *oneTableModel) keyType(attr, name string, f map[string]any) (string, error) {
	t, err := m.fieldType(name, f)
	if err != nil {
		return "", err
	}
	switch t {
	case "string", "binary", "buffer", "arraybuffer":
		// OneTable writes binary values as base64 text.
		return model.KeyTypeString, nil
	case "number":
		return model.KeyTypeNumber, nil
	case "date":
		// Epoch milliseconds, or seconds for a TTL, unless dates are ISO strings.
		if m.isoDates(f) && f["ttl"] != true {
			return model.KeyTypeString, nil
		}
		return model.KeyTypeNumber, nil
	}
	return "", fmt.Errorf("models.%s.%s.type is %q, which DynamoDB stores as %s: the field holds the key attribute %s, and %s",
		m.model, name, t, oneTableStored[t], attr, keyTypeRule)
}

// asEntity is the model as an entity; ok is false when a key of the table is unknown. Each key attribute's
// type goes into types, which two models must not write as two types.
func (m *oneTableModel) asEntity(idx []oneTableIndex, types map[string]oneTableKeyType) (model.Entity, bool, error) {
	e := model.Entity{Name: m.entity, Keys: map[string]string{}}
	written := map[string]oneTableKeyType{}
	for i, index := range idx {
		for _, attr := range []string{index.hash, index.sort} {
			_, typed := written[attr]
			if _, done := e.Keys[attr]; attr == "" || done || index.local && (attr != index.sort || typed) {
				continue
			}
			name, f, why, err := m.field(attr)
			if err != nil {
				return e, false, err
			}
			if why == "" && !typed {
				typ, err := m.keyType(attr, name, f)
				if err != nil {
					return e, false, err
				}
				written[attr] = oneTableKeyType{typ: typ, where: fmt.Sprintf("models.%s.%s", m.model, name)}
			}
			if index.local {
				// The design leaves local indexes out: their keys are read for their types alone.
				continue
			}
			var template string
			if why == "" {
				if template, why, err = m.template(attr, name, f); err != nil {
					return e, false, err
				}
			}
			switch {
			case why == "":
				e.Keys[attr] = template
			case i == 0:
				if why == "no field" {
					why = fmt.Sprintf("no field holds %s, a key attribute of the table", attr)
				}
				m.d.skip("model %q: %s: it is left out", m.model, why)
				return model.Entity{}, false, nil
			case why != "no field":
				m.d.skip("model %q: %s: it is in no index %q", m.model, why, index.name)
			}
		}
	}
	for _, attr := range slices.Sorted(maps.Keys(written)) {
		w := written[attr]
		if have, ok := types[attr]; ok && have.typ != w.typ {
			return e, false, fmt.Errorf("%s writes %s as %s, where %s writes it as %s: a key attribute has one type", w.where, attr, w.typ, have.where, have.typ)
		}
		if _, ok := types[attr]; !ok {
			types[attr] = w
		}
	}
	return e, true, nil
}

// template is the template of the key attribute in the model's field name; why says why there is none.
func (m *oneTableModel) template(attr, name string, f map[string]any) (string, string, error) {
	switch v := f["value"].(type) {
	case nil:
		// The field itself is the key attribute's value.
		seg, err := m.segment(name, f, "")
		if err != nil {
			return "", "", err
		}
		return "{" + m.d.addSegment(snakeCase(name), m.entity, seg) + "}", "", nil
	case string:
		return m.valueTemplate(attr, v)
	case bool:
		return "", fmt.Sprintf("%s's value is computed by code (value: %v), so its template is unknown", attr, v), nil
	default:
		return "", fmt.Sprintf("%s's value is %s, neither a value template nor true, so its template is unknown", attr, jsonText(v)), nil
	}
}

// valueTemplate is a value template (account#${name}) as a template of the design; why says why it is none.
func (m *oneTableModel) valueTemplate(attr, value string) (string, string, error) {
	var b strings.Builder
	last := 0
	for _, loc := range oneTablePlaceholder.FindAllStringSubmatchIndex(value, -1) {
		b.WriteString(value[last:loc[0]])
		last = loc[1]
		ref := value[loc[2]:loc[3]]
		if ref == m.typeField {
			// The type field holds the model's name.
			b.WriteString(m.model)
			continue
		}
		var size, pad string
		if loc[4] >= 0 {
			size = value[loc[4]:loc[5]]
		}
		if loc[6] >= 0 {
			pad = value[loc[6]:loc[7]]
		}
		f, isField := m.fields[ref].(map[string]any)
		if !isField {
			m.d.skip("model %q: %s's value template %q names ${%s}, which is no field of the model: read as an id", m.model, attr, value, ref)
		}
		seg, err := m.segment(ref, f, pad)
		if err != nil {
			return "", "", err
		}
		if n, err := strconv.ParseInt(size, 10, 64); err == nil && n > 0 {
			seg.MaxLength = ptr(n)
		}
		b.WriteString("{" + m.d.addSegment(snakeCase(ref), m.entity, seg) + "}")
	}
	b.WriteString(value[last:])
	src := b.String()
	if src == "" {
		return "", fmt.Sprintf("%s's value template is empty", attr), nil
	}
	if _, err := model.ParseTemplate(src); err != nil {
		return "", fmt.Sprintf("%s's value %q is no key template (%v)", attr, value, err), nil
	}
	return src, "", nil
}

// isoDates says whether OneTable writes the date field's values as ISO strings.
func (m *oneTableModel) isoDates(f map[string]any) bool {
	if iso, ok := f["isoDates"].(bool); ok {
		return iso
	}
	return m.tableISODates
}

// segment is what the field name holds (f is nil when the model has no such field); pad is the padding
// of a fixed-width placeholder (0 by default).
func (m *oneTableModel) segment(name string, f map[string]any, pad string) (model.Segment, error) {
	if f == nil {
		return model.Segment{Kind: model.KindID}, nil
	}
	t, err := m.fieldType(name, f)
	if err != nil {
		return model.Segment{}, err
	}
	if values := jsonStrings(f["enum"]); len(values) > 0 {
		return model.Segment{Kind: model.KindEnum, Values: slices.Compact(values)}, nil
	}
	generate := jsonString(f["generate"])
	if generate == "" {
		generate = jsonString(f["uuid"])
	}
	switch strings.ToLower(generate) {
	case "uuid":
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(36)), Characters: ptr("0-9a-f-")}, nil
	case "ulid":
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(26)), Characters: ptr("0-9A-Z")}, nil
	}
	switch t {
	case "number":
		// A number padded with anything but a digit is text.
		if pad == "" || pad >= "0" && pad <= "9" {
			return model.Segment{Kind: model.KindNumber}, nil
		}
	case "boolean":
		return model.Segment{Kind: model.KindEnum, Values: []string{"true", "false"}}, nil
	case "date":
		// ISO strings to the millisecond (2026-01-05T10:30:15.123Z), else an epoch number.
		if m.isoDates(f) {
			return model.Segment{Kind: model.KindTime, Granularity: "millisecond", MaxLength: ptr(int64(len("2006-01-02T15:04:05.000Z")))}, nil
		}
		return model.Segment{Kind: model.KindTime, Granularity: "millisecond"}, nil
	}
	return model.Segment{Kind: model.KindID}, nil
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
	i := slices.IndexFunc(idx, func(x oneTableIndex) bool { return x.name == indexName && !x.local })
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
	operation := jsonString(q["operation"])
	condition := oneTableOperations[operation]
	switch {
	case sortValue == "":
		return ap, ""
	case index.sort == "":
		d.skip("query %q: its sort %q is read past: index %q has no sort key", name, sortValue, index.name)
		return ap, ""
	case condition == "":
		d.skip("query %q: its operation %q is no sort operation (%s): its sort %q is read past",
			name, operation, strings.Join(slices.Sorted(maps.Keys(oneTableOperations)), ", "), sortValue)
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
