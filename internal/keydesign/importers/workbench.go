package importers

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A NoSQL Workbench data model (versions 1.0 to 3.0: ModelName, ModelMetadata and DataModel, a list of
// tables with TableName, KeyAttributes, GlobalSecondaryIndexes, TableData and TableFacets) as the inputs
// of a design with entities.
//
// The mapping:
//   - KeyAttributes and each GSI's KeyAttributes are the design's key attributes, typed as the model types
//     them;
//   - each facet is an entity (a table without facets is one entity, its TableData its samples); its sample
//     items are its own TableData and the table's items that its alias templates, else its NonKeyAttributes,
//     select;
//   - a key template is the facet's alias where the alias is written as one (TENANT#<TenantId>, {id},
//     ${id}), else inferred from the values its sample items hold (Inferred lists these, with the values);
//     an alias written like a value (USER#UserId) names the inferred placeholders and is checked against the
//     samples; a GSI key's template is always inferred;
//   - every sample item that its facet's templates cannot render, and every alias that disagrees with the
//     samples, is a Mismatch; a sample primary key that two facets hold is a Collision.
//
// The model is read leniently: an unknown field or version is read past, so any model Workbench opens
// converts. What names a key, an index, a projection, a type, an alias or a facet and cannot be read is
// listed in Skipped, and a sample item's key value of another type than its attribute's is a Mismatch; a key
// type other than S, N and B, and two types of one attribute, are errors: no table holds such keys.

// WorkbenchDesign is one table of a Workbench model as design inputs, with what the model says about
// itself.
type WorkbenchDesign struct {
	Design
	Inferred   []Inferred
	Mismatches []Mismatch
	Collisions []Collision
}

// Inferred is a template that the modeler did not write: inferred from the samples' values.
type Inferred struct {
	Entity, Attribute, Template string
	Samples                     []string
}

// Mismatch is a sample value that its entity's template cannot render, or an alias that disagrees with
// the samples.
type Mismatch struct {
	Entity, Attribute, Value, Template, Why string
}

// Collision is a sample primary key that the samples of two or more entities hold.
type Collision struct {
	Entities []string
	Key      map[string]string
}

type wbFacet struct {
	name, entity           string
	pkAlias, skAlias       string
	nonKeyAttributes       []string
	items                  []wbItem
	pkTemplate, skTemplate *model.Template
	// whole is the one entity of a table without facets.
	whole bool
}

// wbKeyType is one place the model types a key attribute: where, for messages, and the AttributeType as
// written (nil when it writes none). index is the index whose key it is ("" for the table's); keyOf says,
// for an attribute definition of NonKeyAttributes, which index the attribute is a key of.
type wbKeyType struct {
	where, name, index, keyOf string
	typ                       any
	// inDesign is false for the keys of an index the design leaves out (an LSI).
	inDesign bool
}

// wbReader reads one table of a model.
type wbReader struct {
	d     *WorkbenchDesign
	table string
	types []wbKeyType
}

// FromWorkbenchModel reads the table named table of a NoSQL Workbench data model.
func FromWorkbenchModel(raw []byte, table string) (*WorkbenchDesign, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var workbench any
	if err := dec.Decode(&workbench); err != nil {
		return nil, fmt.Errorf("is not a NoSQL Workbench data model: %w", err)
	}
	tables := jsonList(jsonObject(workbench)["DataModel"])
	if len(tables) == 0 {
		return nil, fmt.Errorf("is not a NoSQL Workbench data model: it has no DataModel list of tables")
	}
	var names []string
	var t map[string]any
	named := 0
	for _, el := range tables {
		name := jsonString(jsonObject(el)["TableName"])
		names = append(names, name)
		if name == table {
			named++
			if t == nil {
				t = jsonObject(el)
			}
		}
	}
	if t == nil {
		return nil, fmt.Errorf("has no table %q: its tables are %s", table, quoted(names))
	}
	if named > 1 {
		return nil, fmt.Errorf("has %d tables named %q: which one to read is unknown; name each table once", named, table)
	}
	d := &WorkbenchDesign{Design: Design{Segments: map[string]model.Segment{}}}
	r := &wbReader{d: d, table: table}
	if err := r.tableKeys(jsonObject(t["KeyAttributes"])); err != nil {
		return nil, err
	}
	if err := r.indexes(t); err != nil {
		return nil, err
	}
	r.attributeDefinitions(t["NonKeyAttributes"])
	if err := r.typeKeys(); err != nil {
		return nil, err
	}

	tableItems := r.items(t["TableData"], "TableData")
	facets := r.facets(t["TableFacets"])
	if len(facets) == 0 {
		// A table without facets is one entity, its items the samples.
		facets = []*wbFacet{{name: table, items: tableItems, whole: true}}
	} else {
		d.assignTableItems(facets, tableItems)
	}
	for _, f := range facets {
		f.entity = uniqueEntityName(&d.Design, snakeCase(f.name))
		if e, ok := d.facetEntity(f); ok {
			d.Entities = append(d.Entities, e)
		}
	}
	d.collisions(facets)
	return d, nil
}

// tableKeys reads the table's KeyAttributes.
func (r *wbReader) tableKeys(keys map[string]any) error {
	pk, pkType := keyAttribute(keys["PartitionKey"])
	if pk == "" {
		return fmt.Errorf("table %q: KeyAttributes.PartitionKey has no AttributeName", r.table)
	}
	r.d.PartitionKey = model.Key{Name: pk}
	r.types = append(r.types, wbKeyType{where: "KeyAttributes.PartitionKey", name: pk, typ: pkType, inDesign: true})
	sk, skType := keyAttribute(keys["SortKey"])
	switch {
	case sk != "":
		r.d.SortKey = &model.Key{Name: sk}
		r.types = append(r.types, wbKeyType{where: "KeyAttributes.SortKey", name: sk, typ: skType, inDesign: true})
	case !emptyJSON(keys["SortKey"]):
		// A sort key the model names wrongly would leave a table of another key.
		return fmt.Errorf("table %q: KeyAttributes.SortKey is %s: it has no AttributeName", r.table, jsonText(keys["SortKey"]))
	}
	return nil
}

// indexes reads the GSIs, and the LSIs, which the design leaves out but whose key types are checked.
func (r *wbReader) indexes(t map[string]any) error {
	seen := map[string]bool{}
	for _, kind := range []string{"GlobalSecondaryIndexes", "LocalSecondaryIndexes"} {
		v := t[kind]
		list, ok := v.([]any)
		if !ok && v != nil {
			r.d.skip("%s is %s, not a list of indexes: no index of it is read", kind, jsonText(v))
		}
		for i, el := range list {
			g := jsonObject(el)
			name := jsonString(g["IndexName"])
			if name == "" {
				r.d.skip("%s[%d] has no IndexName: the index is left out", kind, i)
				continue
			}
			if seen[name] {
				return fmt.Errorf("table %q: two indexes are named %q: an index's name is its own", r.table, name)
			}
			seen[name] = true
			what := fmt.Sprintf("GSI %q", name)
			if kind == "LocalSecondaryIndexes" {
				what = fmt.Sprintf("LSI %q", name)
			}
			gsi, why := r.indexKeys(what, jsonObject(g["KeyAttributes"]), kind == "GlobalSecondaryIndexes")
			if why != "" {
				r.d.skip("%s: %s: the index is left out", what, why)
				continue
			}
			if kind == "LocalSecondaryIndexes" {
				r.d.skip("%s: a local secondary index; add it as local_secondary_indexes", what)
				continue
			}
			gsi.Name = name
			if err := r.projection(&gsi, jsonObject(g["Projection"])); err != nil {
				return err
			}
			r.d.GlobalSecondaryIndexes = append(r.d.GlobalSecondaryIndexes, gsi)
		}
	}
	return nil
}

// indexKeys reads an index's KeyAttributes; why says why it has none the design can hold.
func (r *wbReader) indexKeys(what string, keys map[string]any, inDesign bool) (model.GlobalSecondaryIndex, string) {
	var gsi model.GlobalSecondaryIndex
	var types []wbKeyType
	for _, part := range []struct {
		name string
		to   *[]model.IndexKeyAttribute
	}{{"PartitionKey", &gsi.PartitionKey}, {"SortKey", &gsi.SortKey}} {
		v := keys[part.name]
		// A multi-attribute key is a list of attributes.
		attrs, multi := v.([]any)
		if !multi && !emptyJSON(v) {
			attrs = []any{v}
		}
		for j, a := range attrs {
			where := "KeyAttributes." + part.name
			if multi {
				where += fmt.Sprintf("[%d]", j)
			}
			name, typ := keyAttribute(a)
			if name == "" {
				return gsi, fmt.Sprintf("%s is %s: it has no AttributeName", where, jsonText(a))
			}
			*part.to = append(*part.to, model.IndexKeyAttribute{Name: name})
			types = append(types, wbKeyType{where: what + ": " + where, name: name, index: what, typ: typ, inDesign: inDesign})
		}
	}
	if len(gsi.PartitionKey) == 0 {
		return gsi, "KeyAttributes.PartitionKey has no AttributeName"
	}
	r.types = append(r.types, types...)
	return gsi, ""
}

// projection reads a GSI's Projection.
func (r *wbReader) projection(gsi *model.GlobalSecondaryIndex, projection map[string]any) error {
	what := fmt.Sprintf("GSI %q", gsi.Name)
	switch v := projection["ProjectionType"]; {
	case emptyJSON(v):
		r.d.skip("%s: it has no Projection.ProjectionType: read as ALL", what)
		gsi.ProjectionType = model.ProjectionAll
	default:
		s, _ := v.(string)
		p, ok := projectionType(s)
		if !ok {
			return fmt.Errorf("table %q: %s: Projection.ProjectionType is %s: %s", r.table, what, jsonText(v), projectionRule)
		}
		gsi.ProjectionType = p
	}
	attrs := r.d.names(projection["NonKeyAttributes"], what+": Projection.NonKeyAttributes")
	switch {
	case gsi.ProjectionType == model.ProjectionInclude:
		gsi.NonKeyAttributes = attrs
	case len(attrs) > 0:
		r.d.skip("%s: its Projection.NonKeyAttributes %s are read past: they are for an INCLUDE projection, and this one is %s",
			what, strings.Join(attrs, ", "), gsi.ProjectionType)
	}
	return nil
}

// attributeDefinitions reads the types that the table's NonKeyAttributes give the key attributes of its
// indexes; the other attributes' types are no input of the design.
func (r *wbReader) attributeDefinitions(v any) {
	list, ok := v.([]any)
	if !ok && v != nil {
		r.d.skip("NonKeyAttributes is %s, not a list of attribute definitions: read past", jsonText(v))
	}
	keyOf := map[string]string{}
	for _, k := range slices.Backward(r.types) {
		keyOf[k.name] = cmp.Or(k.index, "the table")
	}
	for i, el := range list {
		name, typ := keyAttribute(el)
		if name == "" {
			r.d.skip("NonKeyAttributes[%d] is %s, not an attribute definition: read past", i, jsonText(el))
			continue
		}
		if of, ok := keyOf[name]; ok {
			r.types = append(r.types, wbKeyType{where: fmt.Sprintf("NonKeyAttributes[%d]", i), name: name, keyOf: of, typ: typ})
		}
	}
}

// typeKeys types the key attributes as the model does: each AttributeType is S, N or B, and every place
// that types one attribute gives it one type; an attribute typed nowhere is S.
func (r *wbReader) typeKeys() error {
	types := map[string]string{}
	first := map[string]string{}
	for _, k := range r.types {
		if emptyJSON(k.typ) {
			continue
		}
		t, _ := k.typ.(string)
		if !validKeyType(t) {
			if k.keyOf != "" {
				return fmt.Errorf("table %q: %s.AttributeType is %s: %s is a key attribute of %s, and %s",
					r.table, k.where, jsonText(k.typ), k.name, k.keyOf, keyTypeRule)
			}
			return fmt.Errorf("table %q: %s.AttributeType is %s: %s", r.table, k.where, jsonText(k.typ), keyTypeRule)
		}
		if have, ok := types[k.name]; ok && have != t {
			return fmt.Errorf("table %q: %s types %s as %s, where %s types it %s: an attribute has one type",
				r.table, k.where, k.name, t, first[k.name], have)
		}
		if _, ok := types[k.name]; !ok {
			types[k.name], first[k.name] = t, k.where
		}
	}
	for _, k := range r.types {
		if _, ok := types[k.name]; !ok && k.inDesign {
			types[k.name] = model.KeyTypeString
			r.d.skip("%s has no AttributeType: %s is typed S", k.where, k.name)
		}
	}
	r.d.typeKeys(types)
	return nil
}

// facets reads TableFacets.
func (r *wbReader) facets(v any) []*wbFacet {
	list, ok := v.([]any)
	if !ok && v != nil {
		r.d.skip("TableFacets is %s, not a list of facets: the table is read as one entity", jsonText(v))
	}
	var facets []*wbFacet
	for i, el := range list {
		f, ok := el.(map[string]any)
		if !ok {
			r.d.skip("TableFacets[%d] is %s, not a facet: read past", i, jsonText(el))
			continue
		}
		name := jsonString(f["FacetName"])
		if name == "" {
			name = fmt.Sprintf("facet_%d", i+1)
			r.d.skip("TableFacets[%d] has no FacetName: its entity is named %s", i, name)
		}
		what := fmt.Sprintf("facet %q", name)
		facet := &wbFacet{name: name, nonKeyAttributes: r.d.names(f["NonKeyAttributes"], what+": NonKeyAttributes"),
			items: r.items(f["TableData"], what+": TableData")}
		alias, ok := f["KeyAttributeAlias"].(map[string]any)
		if !ok && f["KeyAttributeAlias"] != nil {
			r.d.skip("%s: its KeyAttributeAlias is %s, not the aliases of its keys: read past", what, jsonText(f["KeyAttributeAlias"]))
		}
		facet.pkAlias, facet.pkTemplate = r.alias(what, "PartitionKeyAlias", alias["PartitionKeyAlias"])
		facet.skAlias, facet.skTemplate = r.alias(what, "SortKeyAlias", alias["SortKeyAlias"])
		if r.d.SortKey == nil && facet.skAlias != "" {
			r.d.skip("%s: its SortKeyAlias %q is read past: the table has no sort key", what, facet.skAlias)
			facet.skAlias, facet.skTemplate = "", nil
		}
		facets = append(facets, facet)
	}
	return facets
}

// alias reads one of a facet's aliases: its text, and its template when it is written as one.
func (r *wbReader) alias(what, field string, v any) (string, *model.Template) {
	alias, ok := scalar(v)
	if !ok && v != nil {
		r.d.skip("%s: its %s is %s, not text: read past", what, field, jsonText(v))
	}
	t, err := aliasTemplate(alias)
	if err != nil {
		r.d.skip("%s: its %s %q is written as a template but is none (%v): its key is inferred from the sample items", what, field, alias, err)
	}
	return alias, t
}

// items reads a TableData list at where; what is no item is listed in Skipped.
func (r *wbReader) items(v any, where string) []wbItem {
	list, ok := v.([]any)
	if !ok && v != nil {
		r.d.skip("%s is %s, not a list of items: read past", where, jsonText(v))
	}
	var out []wbItem
	for i, el := range list {
		obj, ok := el.(map[string]any)
		if !ok || len(obj) == 0 {
			r.d.skip("%s[%d] is %s, not an item: read past", where, i, jsonText(el))
			continue
		}
		it := wbItem{where: fmt.Sprintf("%s[%d]", where, i), attrs: make(map[string]wbValue, len(obj))}
		for name, attr := range obj {
			it.attrs[name] = wbAttribute(attr)
		}
		out = append(out, it)
	}
	return out
}

// primaryKey is an item's primary key, as one comparable string, and as a map; missing names the key
// attribute of which the item holds no S, N or B value ("" when it holds all).
func (d *WorkbenchDesign) primaryKey(it wbItem) (string, map[string]string, string) {
	names := []string{d.PartitionKey.Name}
	if d.SortKey != nil {
		names = append(names, d.SortKey.Name)
	}
	key := map[string]string{}
	var id strings.Builder
	for _, name := range names {
		v, ok := it.key(name)
		if !ok || v == "" {
			return "", nil, name
		}
		key[name] = v
		id.WriteString(v + "\x00")
	}
	return id.String(), key, ""
}

// assignTableItems gives the table's own TableData (Workbench 3.0 keeps the items there) to the facets
// that select them: the facets whose alias templates render the item's key, else the one facet whose
// NonKeyAttributes the item holds the most of. An item already in a facet's TableData stays there.
func (d *WorkbenchDesign) assignTableItems(facets []*wbFacet, items []wbItem) {
	// held are the keys the facets' items hold, each with the TableData item that holds it ("" for a
	// facet's own).
	held := map[string]string{}
	for _, f := range facets {
		for _, it := range f.items {
			if id, _, missing := d.primaryKey(it); missing == "" {
				held[id] = ""
			}
		}
	}
	for _, it := range items {
		id, key, missing := d.primaryKey(it)
		if missing != "" {
			d.skip("%s: it holds no S, N or B value of %s, a key attribute of the table: no facet can hold it", it.where, missing)
			continue
		}
		if first, ok := held[id]; ok {
			if first != "" {
				d.skip("%s: it has the key of %s (%s): one item is read", it.where, first, keyText(key))
			}
			continue
		}
		held[id] = it.where
		var byTemplate []*wbFacet
		for _, f := range facets {
			if f.pkTemplate == nil || d.SortKey != nil && f.skTemplate == nil {
				continue
			}
			if renders(f.pkTemplate, key[d.PartitionKey.Name]) && (d.SortKey == nil || renders(f.skTemplate, key[d.SortKey.Name])) {
				byTemplate = append(byTemplate, f)
			}
		}
		if len(byTemplate) > 0 {
			for _, f := range byTemplate {
				f.items = append(f.items, it)
			}
			continue
		}
		best, bestCount, tie := (*wbFacet)(nil), 0, false
		for _, f := range facets {
			n := 0
			for _, a := range f.nonKeyAttributes {
				if _, ok := it.attrs[a]; ok {
					n++
				}
			}
			switch {
			case n > bestCount:
				best, bestCount, tie = f, n, false
			case n == bestCount && n > 0:
				tie = true
			}
		}
		if best == nil || tie {
			d.skip("the TableData item %s: no facet's aliases or attributes select it", keyText(key))
			continue
		}
		best.items = append(best.items, it)
	}
}

// renders says whether the template, its placeholders ids, renders the value.
func renders(t *model.Template, value string) bool {
	return templatePattern(t, nil).MatchString(value)
}

// facetEntity is the facet as an entity: a template per key attribute its items carry.
func (d *WorkbenchDesign) facetEntity(f *wbFacet) (model.Entity, bool) {
	b := &entityBuilder{d: d, entity: f.entity, items: f.items, columns: map[string][]string{}}
	e := model.Entity{Name: f.entity, Keys: map[string]string{}}
	tableKeys := []struct {
		attr, alias string
		template    *model.Template
		what        string
	}{{d.PartitionKey.Name, f.pkAlias, f.pkTemplate, "PartitionKeyAlias"}}
	if d.SortKey != nil {
		tableKeys = append(tableKeys, struct {
			attr, alias string
			template    *model.Template
			what        string
		}{d.SortKey.Name, f.skAlias, f.skTemplate, "SortKeyAlias"})
	}
	for _, k := range tableKeys {
		var template string
		var ok bool
		if k.template != nil {
			template = b.fromAlias(k.attr, k.template, k.alias)
			ok = true
		} else {
			template, ok = b.infer(k.attr, k.alias)
		}
		if !ok && k.alias != "" && (f.pkTemplate != nil || f.skTemplate != nil) {
			// A facet whose other alias is a template writes templates: a word beside it (PROFILE) is literal.
			if _, err := model.ParseTemplate(k.alias); err == nil {
				template, ok = k.alias, true
			}
		}
		if !ok {
			why := fmt.Sprintf("facet %q: its %s %q is no template and no sample item holds %s: write the alias as a template "+
				"(USER#<UserId>) or add sample items", f.name, k.what, k.alias, k.attr)
			if f.whole {
				why = fmt.Sprintf("the table has no facets and no sample items: there is no entity to read %s from", k.attr)
			}
			d.Skipped = append(d.Skipped, why)
			return model.Entity{}, false
		}
		e.Keys[k.attr] = template
	}
	// An index key attribute that is also a table key holds the table template's value.
	for _, g := range d.GlobalSecondaryIndexes {
		for _, a := range slices.Concat(g.PartitionKey, g.SortKey) {
			if _, set := e.Keys[a.Name]; set {
				continue
			}
			if template, ok := b.infer(a.Name, ""); ok {
				e.Keys[a.Name] = template
			}
		}
	}
	d.checkKeyValues(e, f.items)
	return e, true
}

// checkKeyValues lists each sample item of the entity that DynamoDB would refuse: one without a key
// attribute of the table, or with a key value of another type than its attribute's.
func (d *WorkbenchDesign) checkKeyValues(e model.Entity, items []wbItem) {
	names, types := d.keyAttributes()
	for _, it := range items {
		for _, attr := range names {
			v, ok := it.attrs[attr]
			var why string
			switch {
			case !ok && (attr == d.PartitionKey.Name || d.SortKey != nil && attr == d.SortKey.Name):
				why = fmt.Sprintf("%s has no %s: every item holds the table's key attributes", it.where, attr)
			case !ok || v.typ == "" || v.typ == types[attr]:
				continue
			case !validKeyType(v.typ):
				why = fmt.Sprintf("a sample value of type %s: %s", v.typ, keyTypeRule)
			default:
				why = fmt.Sprintf("a sample value of type %s where %s is of type %s", v.typ, attr, types[attr])
			}
			d.Mismatches = append(d.Mismatches, Mismatch{Entity: e.Name, Attribute: attr, Value: v.text, Template: e.Keys[attr], Why: why})
		}
	}
}

// collisions are the sample primary keys that two or more facets hold.
func (d *WorkbenchDesign) collisions(facets []*wbFacet) {
	holders := map[string][]string{}
	keys := map[string]map[string]string{}
	var order []string
	for _, f := range facets {
		for _, it := range f.items {
			id, key, missing := d.primaryKey(it)
			if missing != "" || slices.Contains(holders[id], f.entity) {
				continue
			}
			if holders[id] == nil {
				order = append(order, id)
			}
			holders[id] = append(holders[id], f.entity)
			keys[id] = key
		}
	}
	for _, id := range order {
		if len(holders[id]) > 1 {
			d.Collisions = append(d.Collisions, Collision{Entities: holders[id], Key: keys[id]})
		}
	}
}
