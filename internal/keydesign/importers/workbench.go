package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
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
	pkTemplate, skTemplate *keydesign.Template
	// whole is the one entity of a table without facets.
	whole bool
}

// FromWorkbenchModel reads the table named table of a NoSQL Workbench data model.
func FromWorkbenchModel(raw []byte, table string) (*WorkbenchDesign, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var model any
	if err := dec.Decode(&model); err != nil {
		return nil, fmt.Errorf("is not a NoSQL Workbench data model: %w", err)
	}
	tables := jsonList(jsonObject(model)["DataModel"])
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
	d := &WorkbenchDesign{Design: Design{PartitionKey: keydesign.Key{Name: pk, Type: keyType(pkType)}, Segments: map[string]keydesign.Segment{}}}
	if sk, skType := keyAttribute(keys["SortKey"]); sk != "" {
		d.SortKey = &keydesign.Key{Name: sk, Type: keyType(skType)}
	}
	for _, el := range jsonList(t["GlobalSecondaryIndexes"]) {
		g := jsonObject(el)
		gsi := keydesign.GlobalSecondaryIndex{Name: jsonString(g["IndexName"])}
		gkeys := jsonObject(g["KeyAttributes"])
		for _, part := range []struct {
			v  any
			to *[]keydesign.IndexKeyAttribute
		}{{gkeys["PartitionKey"], &gsi.PartitionKey}, {gkeys["SortKey"], &gsi.SortKey}} {
			// A multi-attribute key is a list of attributes.
			attrs := jsonList(part.v)
			if attrs == nil && part.v != nil {
				attrs = []any{part.v}
			}
			for _, a := range attrs {
				if name, typ := keyAttribute(a); name != "" {
					*part.to = append(*part.to, keydesign.IndexKeyAttribute{Name: name, Type: keyType(typ)})
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
			gsi.ProjectionType = keydesign.ProjectionAll
		}
		if gsi.ProjectionType == keydesign.ProjectionInclude {
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
func renders(t *keydesign.Template, value string) bool {
	return templatePattern(t, nil).MatchString(value)
}

// facetEntity is the facet as an entity: a template per key attribute its items carry.
func (d *WorkbenchDesign) facetEntity(f *wbFacet) (keydesign.Entity, bool) {
	b := &entityBuilder{d: d, entity: f.entity, items: f.items, columns: map[string][]string{}}
	e := keydesign.Entity{Name: f.entity, Keys: map[string]string{}}
	tableKeys := []struct {
		attr, alias string
		template    *keydesign.Template
		what        string
	}{{d.PartitionKey.Name, f.pkAlias, f.pkTemplate, "PartitionKeyAlias"}}
	if d.SortKey != nil {
		tableKeys = append(tableKeys, struct {
			attr, alias string
			template    *keydesign.Template
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
			if _, err := keydesign.ParseTemplate(k.alias); err == nil {
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
			return keydesign.Entity{}, false
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

// entityBuilder infers one entity's templates; columns are the values (per sample item, "" where the item
// has none) of each placeholder it named, so a later key attribute holding the same values reuses the name.
type entityBuilder struct {
	d       *WorkbenchDesign
	entity  string
	items   []wbItem
	columns map[string][]string
}

// fromAlias is the modeler's template; the samples type its placeholders, and each sample it cannot
// render is a mismatch.
func (b *entityBuilder) fromAlias(attr string, t *keydesign.Template, alias string) string {
	names := t.Placeholders()
	values := make(map[string][]string, len(names))
	column := make(map[string][]string, len(names))
	for _, n := range names {
		column[n] = make([]string, len(b.items))
	}
	extract := templatePattern(t, nil)
	var placeholders []string
	for _, p := range t.Parts {
		if p.Placeholder != "" {
			placeholders = append(placeholders, p.Placeholder)
		}
	}
	for i, it := range b.items {
		m := extract.FindStringSubmatch(it[attr])
		if m == nil {
			continue
		}
		for j, n := range placeholders {
			values[n] = append(values[n], m[j+1])
			column[n][i] = m[j+1]
		}
	}
	for _, n := range names {
		if got := b.d.addSegment(n, b.entity, segmentOf(values[n])); got != n {
			// The modeler's name means another thing elsewhere in the model.
			t = renamePlaceholder(t, n, got)
			n = got
		}
		b.columns[n] = column[n]
	}
	b.checkSamples(attr, t, fmt.Sprintf("the alias %q cannot render it", alias))
	return t.Source
}

// infer is the template of the attribute from the values the samples hold; ok is false when none does.
func (b *entityBuilder) infer(attr, alias string) (string, bool) {
	groups := map[string][]int{}
	var shapes []string
	tokens := make([][]token, len(b.items))
	for i, it := range b.items {
		v, ok := it[attr]
		if !ok || v == "" {
			continue
		}
		tokens[i] = tokenize(v)
		s := shape(tokens[i])
		if groups[s] == nil {
			shapes = append(shapes, s)
		}
		groups[s] = append(groups[s], i)
	}
	if len(shapes) == 0 {
		return "", false
	}
	// The shape most samples have is the template; the others are mismatches.
	major := shapes[0]
	for _, s := range shapes[1:] {
		if len(groups[s]) > len(groups[major]) {
			major = s
		}
	}
	members := groups[major]
	first := tokens[members[0]]
	var aliasTokens []token
	if alias != "" && shape(tokenize(alias)) == major {
		aliasTokens = tokenize(alias)
	}
	var src strings.Builder
	lastWord, firstText := "", true
	var disagreements []string
	for pos, tok := range first {
		if tok.delim {
			src.WriteString(tok.text)
			continue
		}
		column := make([]string, len(b.items))
		var values []string
		for _, i := range members {
			column[i] = tokens[i][pos].text
			values = append(values, tokens[i][pos].text)
		}
		distinct := slices.Compact(slices.Sorted(slices.Values(values)))
		if len(distinct) == 1 && readsAsLiteral(distinct[0], firstText) {
			src.WriteString(distinct[0])
			if aliasTokens != nil && hasDelimiter(alias) && aliasTokens[pos].text != distinct[0] {
				disagreements = append(disagreements, fmt.Sprintf("the alias writes %q where the sample items hold %q", aliasTokens[pos].text, distinct[0]))
			}
			lastWord, firstText = distinct[0], false
			continue
		}
		firstText = false
		seg := segmentOf(values)
		name := b.reuse(column)
		if name == "" {
			switch {
			case aliasTokens != nil && identifier.MatchString(aliasTokens[pos].text) && !slices.Contains(values, aliasTokens[pos].text):
				name = snakeCase(aliasTokens[pos].text)
			case lastWord != "":
				name = placeholderName(snakeCase(lastWord), seg)
			default:
				name = placeholderName(snakeCase(attr), seg)
			}
			name = uniqueName(name, func(n string) bool { _, taken := b.columns[n]; return taken })
			name = b.d.addSegment(name, b.entity, seg)
			b.columns[name] = column
		}
		src.WriteString("{" + name + "}")
	}
	template := src.String()
	if hasDelimiter(alias) && aliasTokens == nil {
		disagreements = append(disagreements, "the alias has another shape than the sample items' values")
	}
	for _, why := range disagreements {
		b.d.Mismatches = append(b.d.Mismatches, Mismatch{Entity: b.entity, Attribute: attr, Value: alias, Template: template, Why: why})
	}
	var samples []string
	for _, it := range b.items {
		if v := it[attr]; v != "" && !slices.Contains(samples, v) {
			samples = append(samples, v)
		}
	}
	b.d.Inferred = append(b.d.Inferred, Inferred{Entity: b.entity, Attribute: attr, Template: template, Samples: samples})
	t, err := keydesign.ParseTemplate(template)
	if err != nil {
		// Literal text with a brace: no template of the design can hold it.
		b.d.Skipped = append(b.d.Skipped, fmt.Sprintf("entity %q: %s: the samples' values %s give no template (%v)", b.entity, attr, describe(samples), err))
		return "", false
	}
	b.checkSamples(attr, t, "a sample value of another shape than the entity's other samples")
	return template, true
}

// reuse is the name of a placeholder of the entity whose values the column repeats item by item.
func (b *entityBuilder) reuse(column []string) string {
	for _, name := range slices.Sorted(maps.Keys(b.columns)) {
		have, same, shared := b.columns[name], true, 0
		for i := range column {
			if column[i] == "" || have[i] == "" {
				continue
			}
			shared++
			same = same && column[i] == have[i]
		}
		// One shared value is no evidence: USER#1 and ORDER#1 hold two ids that happen to be equal.
		if same && shared >= 2 && len(slices.Compact(slices.Sorted(slices.Values(nonEmpty(column))))) >= 2 {
			return name
		}
	}
	return ""
}

func nonEmpty(values []string) []string {
	return slices.DeleteFunc(slices.Clone(values), func(v string) bool { return v == "" })
}

// checkSamples lists each sample value of the attribute that the template cannot render.
func (b *entityBuilder) checkSamples(attr string, t *keydesign.Template, why string) {
	pattern := templatePattern(t, b.d.Segments)
	for _, it := range b.items {
		if v, ok := it[attr]; ok && !pattern.MatchString(v) {
			b.d.Mismatches = append(b.d.Mismatches, Mismatch{Entity: b.entity, Attribute: attr, Value: v, Template: t.Source, Why: why})
		}
	}
}

// renamePlaceholder is the template with one placeholder renamed.
func renamePlaceholder(t *keydesign.Template, from, to string) *keydesign.Template {
	var b strings.Builder
	for _, p := range t.Parts {
		switch p.Placeholder {
		case "":
			b.WriteString(p.Literal)
		case from:
			b.WriteString("{" + to + "}")
		default:
			b.WriteString("{" + p.Placeholder + "}")
		}
	}
	out, err := keydesign.ParseTemplate(b.String())
	if err != nil {
		return t
	}
	return out
}

// keyAttribute reads {AttributeName, AttributeType}.
func keyAttribute(v any) (string, string) {
	a := jsonObject(v)
	return jsonString(a["AttributeName"]), jsonString(a["AttributeType"])
}

// wbItems reads TableData: each item's attributes as {"S": "c#12345"}, {"N": "42"}, {"B": "..."} (other
// types are no key value), or plain JSON strings and numbers.
func wbItems(v any) []wbItem {
	var out []wbItem
	for _, el := range jsonList(v) {
		it := wbItem{}
		for name, attr := range jsonObject(el) {
			if s, ok := scalar(attr); ok {
				it[name] = s
				continue
			}
			typed := jsonObject(attr)
			for _, t := range []string{"S", "N", "B"} {
				if s, ok := scalar(typed[t]); ok {
					it[name] = s
					break
				}
			}
		}
		if len(it) > 0 {
			out = append(out, it)
		}
	}
	return out
}

func scalar(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case json.Number:
		return s.String(), true
	}
	return "", false
}

func jsonObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func jsonList(v any) []any {
	l, _ := v.([]any)
	return l
}

func jsonString(v any) string {
	s, _ := scalar(v)
	return s
}

func jsonStrings(v any) []string {
	var out []string
	for _, el := range jsonList(v) {
		if s, ok := scalar(el); ok {
			out = append(out, s)
		}
	}
	return out
}

func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// keyText is a primary key for a message: PK="USER#1", SK="PROFILE".
func keyText(key map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(key)) {
		parts = append(parts, fmt.Sprintf("%s=%q", k, key[k]))
	}
	return strings.Join(parts, ", ")
}
