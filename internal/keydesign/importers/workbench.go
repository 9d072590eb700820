package importers

import (
	"bytes"
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
// The model is read leniently: a field of another type than expected, an unknown field or version is read
// past, so any model Workbench opens converts.

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

// wbItem is one sample item: each attribute's value as text (S, N or B).
type wbItem map[string]string

type wbFacet struct {
	name, entity           string
	pkAlias, skAlias       string
	nonKeyAttributes       []string
	items                  []wbItem
	pkTemplate, skTemplate *model.Template
	// whole is the one entity of a table without facets.
	whole bool
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
	for _, el := range tables {
		name := jsonString(jsonObject(el)["TableName"])
		names = append(names, name)
		if name == table && t == nil {
			t = jsonObject(el)
		}
	}
	if t == nil {
		return nil, fmt.Errorf("has no table %q: its tables are %s", table, quoted(names))
	}
	keys := jsonObject(t["KeyAttributes"])
	pk, pkType := keyAttribute(keys["PartitionKey"])
	if pk == "" {
		return nil, fmt.Errorf("table %q: KeyAttributes.PartitionKey has no AttributeName", table)
	}
	d := &WorkbenchDesign{Design: Design{PartitionKey: model.Key{Name: pk, Type: keyType(pkType)}, Segments: map[string]model.Segment{}}}
	if sk, skType := keyAttribute(keys["SortKey"]); sk != "" {
		d.SortKey = &model.Key{Name: sk, Type: keyType(skType)}
	}
	for _, el := range jsonList(t["GlobalSecondaryIndexes"]) {
		g := jsonObject(el)
		gsi := model.GlobalSecondaryIndex{Name: jsonString(g["IndexName"])}
		gkeys := jsonObject(g["KeyAttributes"])
		for _, part := range []struct {
			v  any
			to *[]model.IndexKeyAttribute
		}{{gkeys["PartitionKey"], &gsi.PartitionKey}, {gkeys["SortKey"], &gsi.SortKey}} {
			// A multi-attribute key is a list of attributes.
			attrs := jsonList(part.v)
			if attrs == nil && part.v != nil {
				attrs = []any{part.v}
			}
			for _, a := range attrs {
				if name, typ := keyAttribute(a); name != "" {
					*part.to = append(*part.to, model.IndexKeyAttribute{Name: name, Type: keyType(typ)})
				}
			}
		}
		if gsi.Name == "" || len(gsi.PartitionKey) == 0 {
			d.Skipped = append(d.Skipped, fmt.Sprintf("GSI %q: it has no name or no partition key attribute", gsi.Name))
			continue
		}
		projection := jsonObject(g["Projection"])
		gsi.ProjectionType = strings.ToUpper(jsonString(projection["ProjectionType"]))
		if gsi.ProjectionType == "" {
			gsi.ProjectionType = model.ProjectionAll
		}
		if gsi.ProjectionType == model.ProjectionInclude {
			gsi.NonKeyAttributes = jsonStrings(projection["NonKeyAttributes"])
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, gsi)
	}

	tableItems := wbItems(t["TableData"])
	var facets []*wbFacet
	for _, el := range jsonList(t["TableFacets"]) {
		f := jsonObject(el)
		alias := jsonObject(f["KeyAttributeAlias"])
		facet := &wbFacet{name: jsonString(f["FacetName"]), pkAlias: jsonString(alias["PartitionKeyAlias"]),
			skAlias: jsonString(alias["SortKeyAlias"]), nonKeyAttributes: jsonStrings(f["NonKeyAttributes"]), items: wbItems(f["TableData"])}
		facet.pkTemplate, _ = aliasTemplate(facet.pkAlias)
		facet.skTemplate, _ = aliasTemplate(facet.skAlias)
		facets = append(facets, facet)
	}
	if len(facets) == 0 {
		// A table without facets is one entity, its items the samples.
		facets = []*wbFacet{{name: jsonString(t["TableName"]), items: tableItems, whole: true}}
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

// primaryKey is an item's primary key, as one comparable string, and as a map; ok is false when the item
// lacks a key attribute.
func (d *WorkbenchDesign) primaryKey(it wbItem) (string, map[string]string, bool) {
	key := map[string]string{d.PartitionKey.Name: it[d.PartitionKey.Name]}
	id := it[d.PartitionKey.Name]
	if d.SortKey != nil {
		key[d.SortKey.Name] = it[d.SortKey.Name]
		id += "\x00" + it[d.SortKey.Name]
	}
	for _, v := range key {
		if v == "" {
			return "", nil, false
		}
	}
	return id, key, true
}

// assignTableItems gives the table's own TableData (Workbench 3.0 keeps the items there) to the facets
// that select them: the facets whose alias templates render the item's key, else the one facet whose
// NonKeyAttributes the item holds the most of. An item already in a facet's TableData stays there.
func (d *WorkbenchDesign) assignTableItems(facets []*wbFacet, items []wbItem) {
	held := map[string]bool{}
	for _, f := range facets {
		for _, it := range f.items {
			if id, _, ok := d.primaryKey(it); ok {
				held[id] = true
			}
		}
	}
	for _, it := range items {
		id, key, ok := d.primaryKey(it)
		if !ok || held[id] {
			continue
		}
		held[id] = true
		var byTemplate []*wbFacet
		for _, f := range facets {
			if f.pkTemplate == nil || d.SortKey != nil && f.skTemplate == nil {
				continue
			}
			if renders(f.pkTemplate, it[d.PartitionKey.Name]) && (d.SortKey == nil || renders(f.skTemplate, it[d.SortKey.Name])) {
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
				if _, ok := it[a]; ok {
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
			d.Skipped = append(d.Skipped, fmt.Sprintf("the TableData item %s: no facet's aliases or attributes select it", keyText(key)))
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
	return e, true
}

// collisions are the sample primary keys that two or more facets hold.
func (d *WorkbenchDesign) collisions(facets []*wbFacet) {
	holders := map[string][]string{}
	keys := map[string]map[string]string{}
	var order []string
	for _, f := range facets {
		for _, it := range f.items {
			id, key, ok := d.primaryKey(it)
			if !ok || slices.Contains(holders[id], f.entity) {
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
