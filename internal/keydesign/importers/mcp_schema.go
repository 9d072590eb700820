package importers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// The DynamoDB MCP server's data model (its schema.json: tables, each with a table_config, a gsi_list and
// entities with pk_template, sk_template, gsi_mappings, fields and access_patterns) as the inputs of a
// design with entities. Its templates are ours ({field} placeholders in literal text); what it leaves out,
// the traffic, is the user's to add.
//
// The mapping:
//   - table_config.partition_key and sort_key, and each GSI's keys, are the design's key attributes; a key
//     whose every template is one placeholder of an integer or decimal field is of type N, else S;
//   - each placeholder is a segment: a uuid field an id of 36 characters of 0-9a-f-, an integer a number of
//     up to 20 characters (a 64-bit integer), a decimal a number of up to DynamoDB's 38 digits, a boolean an
//     enum of true and false, any other an id;
//   - each entity's templates, GSI mappings included, are its keys; a GSI key attribute that is also a table
//     key attribute keeps the entity's table template (the mapping's {sort_key} is that attribute's value);
//   - each read (GetItem, BatchGetItem, Query) is an access pattern on its entity: it knows the parameters
//     that fill a key's placeholders, and a range_condition is a sort condition on the first sort-key
//     placeholder it does not know; a Query without one reads its entity's items by the literal prefix of
//     their sort key (begins_with). Writes are not access patterns, and a Scan is what the model chose for
//     that read: both are left out, and listed in Skipped.
//
// What the design cannot hold is listed in Skipped with why; a key the table cannot have (a GSI without a
// name, an entity without a pk_template, a key placeholder whose field is no string, number, boolean or
// uuid, a projection DynamoDB does not know) is an error.

type mcpSchema struct {
	Tables []mcpTable `json:"tables"`
}

type mcpTable struct {
	TableConfig struct {
		TableName    string `json:"table_name"`
		PartitionKey any    `json:"partition_key"`
		SortKey      any    `json:"sort_key"`
	} `json:"table_config"`
	GSIList []struct {
		Name               string   `json:"name"`
		PartitionKey       any      `json:"partition_key"`
		SortKey            any      `json:"sort_key"`
		Projection         string   `json:"projection"`
		IncludedAttributes []string `json:"included_attributes"`
	} `json:"gsi_list"`
	Entities map[string]mcpEntity `json:"entities"`
}

type mcpEntity struct {
	PKTemplate  any `json:"pk_template"`
	SKTemplate  any `json:"sk_template"`
	GSIMappings []struct {
		Name       string `json:"name"`
		PKTemplate any    `json:"pk_template"`
		SKTemplate any    `json:"sk_template"`
	} `json:"gsi_mappings"`
	Fields []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"fields"`
	AccessPatterns []struct {
		PatternID      any    `json:"pattern_id"`
		Name           string `json:"name"`
		Operation      string `json:"operation"`
		IndexName      string `json:"index_name"`
		RangeCondition string `json:"range_condition"`
		ConsistentRead bool   `json:"consistent_read"`
		ReturnType     string `json:"return_type"`
		Parameters     []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"parameters"`
	} `json:"access_patterns"`
}

// mcpPlaceholder is {name} or {name:format}, as the model's templates write them.
var mcpPlaceholder = lazyregexp.New(`\{(\w+)(:[^}]*)?\}`)

// mcpKeyFieldTypes are the field types a key placeholder can hold: an array or an object renders no key.
var mcpKeyFieldTypes = []string{"string", "integer", "decimal", "boolean", "uuid"}

// names reads a key given as one attribute name or a list of them (a multi-attribute GSI key).
func mcpNames(v any) ([]string, error) {
	switch k := v.(type) {
	case nil:
		return nil, nil
	case string:
		if k == "" {
			return nil, nil
		}
		return []string{k}, nil
	case []any:
		var out []string
		for _, el := range k {
			s, ok := el.(string)
			if !ok || s == "" {
				return nil, fmt.Errorf("a key attribute list holds %v, not a name", el)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a key is %v, not an attribute name or a list of them", v)
}

// FromMCPSchema reads the table named table of a schema.json.
func FromMCPSchema(raw []byte, table string) (*Design, error) {
	var s mcpSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("is not a schema.json: %w", err)
	}
	var names []string
	var t *mcpTable
	named := 0
	for i := range s.Tables {
		names = append(names, s.Tables[i].TableConfig.TableName)
		if s.Tables[i].TableConfig.TableName == table {
			named++
			if t == nil {
				t = &s.Tables[i]
			}
		}
	}
	if t == nil {
		return nil, fmt.Errorf("has no table %q: its tables are %s", table, quoted(names))
	}
	if named > 1 {
		return nil, fmt.Errorf("has %d tables named %q: which one to read is unknown; name each table once", named, table)
	}
	pk, err := mcpNames(t.TableConfig.PartitionKey)
	if err != nil || len(pk) != 1 {
		return nil, fmt.Errorf("table %q: table_config.partition_key must name one attribute", table)
	}
	sk, err := mcpNames(t.TableConfig.SortKey)
	if err != nil || len(sk) > 1 {
		return nil, fmt.Errorf("table %q: table_config.sort_key must name one attribute", table)
	}
	d := &Design{PartitionKey: model.Key{Name: pk[0]}, Segments: map[string]model.Segment{}}
	if len(sk) == 1 {
		d.SortKey = &model.Key{Name: sk[0]}
	}
	tableKey := map[string]bool{pk[0]: true}
	if len(sk) == 1 {
		tableKey[sk[0]] = true
	}
	gsiKeys := map[string][2][]string{}
	// wholeCollection are the patterns that read every entity under one partition-key value, by position,
	// with that value's template.
	wholeCollection := map[int]string{}
	for i, g := range t.GSIList {
		if g.Name == "" {
			return nil, fmt.Errorf("table %q: gsi_list[%d] has no name", table, i)
		}
		if _, ok := gsiKeys[g.Name]; ok {
			return nil, fmt.Errorf("table %q: gsi_list names two GSIs %q: a GSI's name is its own", table, g.Name)
		}
		gpk, err := mcpNames(g.PartitionKey)
		if err != nil || len(gpk) == 0 {
			return nil, fmt.Errorf("table %q: GSI %q: partition_key must name one to four attributes", table, g.Name)
		}
		gsk, err := mcpNames(g.SortKey)
		if err != nil {
			return nil, fmt.Errorf("table %q: GSI %q: %w", table, g.Name, err)
		}
		gsiKeys[g.Name] = [2][]string{gpk, gsk}
		// The server's schema writes no projection: its GSIs project all attributes.
		projection, ok := projectionType(cmp.Or(g.Projection, model.ProjectionAll))
		if !ok {
			return nil, fmt.Errorf("table %q: GSI %q: projection is %q: %s", table, g.Name, g.Projection, projectionRule)
		}
		gsi := model.GlobalSecondaryIndex{Name: g.Name, ProjectionType: projection}
		switch {
		case projection == model.ProjectionInclude:
			gsi.NonKeyAttributes = g.IncludedAttributes
		case len(g.IncludedAttributes) > 0:
			d.skip("GSI %s: its included_attributes %s are read past: they are for an INCLUDE projection, and this one is %s", g.Name, strings.Join(g.IncludedAttributes, ", "), projection)
		}
		for _, n := range gpk {
			gsi.PartitionKey = append(gsi.PartitionKey, model.IndexKeyAttribute{Name: n})
		}
		for _, n := range gsk {
			gsi.SortKey = append(gsi.SortKey, model.IndexKeyAttribute{Name: n})
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, gsi)
	}
	// What each key attribute's templates are: to type the keys.
	numeric := map[string]bool{}
	typed := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(t.Entities)) {
		e := t.Entities[name]
		fieldType := map[string]string{}
		for _, f := range e.Fields {
			fieldType[f.Name] = strings.ToLower(f.Type)
		}
		entity := model.Entity{Name: entityName(name), Keys: map[string]string{}}
		if entity.Name == "" {
			return nil, fmt.Errorf("table %q: entity %q has no letter or digit to name it by", table, name)
		}
		if i := slices.IndexFunc(d.Entities, func(e model.Entity) bool { return e.Name == entity.Name }); i >= 0 {
			return nil, fmt.Errorf("table %q: entities %q and another both read as %q: rename one", table, name, entity.Name)
		}
		set := func(attrs []string, template any, what, keys string) error {
			if template == nil {
				return nil
			}
			if len(attrs) == 0 {
				d.skip("entity %s: %s %s is read past: %s has no sort key", name, what, jsonText(template), keys)
				return nil
			}
			templates, err := mcpNames(template)
			if err != nil || len(templates) != len(attrs) {
				return fmt.Errorf("table %q: entity %q: %s must be a template per key attribute (%s)", table, name, what, strings.Join(attrs, ", "))
			}
			for i, src := range templates {
				// An index key attribute that is also a table key attribute (a GSI sorted by the table's sort
				// key) holds the value the table template writes; the mapping only refers to it ({sk}).
				template := mcpPlaceholder.ReplaceAllString(src, "{$1}")
				if written, ok := entity.Keys[attrs[i]]; ok && (tableKey[attrs[i]] || written != template) {
					// One attribute holds one value per item: a second mapping that gives it another
					// template contradicts the first, which is kept.
					if !tableKey[attrs[i]] {
						d.skip("entity %s: %s gives %s the template %q, but an earlier key gives it %q; "+
							"one attribute holds one value per item, so the first is kept", name, what, attrs[i], template, written)
					}
					continue
				}
				entity.Keys[attrs[i]] = template
				for _, m := range mcpPlaceholder.FindAllStringSubmatch(src, -1) {
					if m[2] != "" {
						d.skip("entity %s: %s %q writes %s: the format is read past, the placeholder is typed from its field", name, what, src, m[0])
					}
					ft, declared := fieldType[m[1]]
					switch {
					case !declared:
						d.skip("entity %s: %s %q names {%s}, which is none of its fields: read as an id", name, what, src, m[1])
					case !slices.Contains(mcpKeyFieldTypes, ft):
						return fmt.Errorf("table %q: entity %q: %s %q names {%s}, a field of type %q: a key is built of string, integer, decimal, boolean and uuid fields",
							table, name, what, src, m[1], ft)
					}
					d.Segments[m[1]] = mcpSegment(ft)
				}
				whole := mcpPlaceholder.FindStringSubmatch(src)
				isNumber := whole != nil && whole[0] == src && (fieldType[whole[1]] == "integer" || fieldType[whole[1]] == "decimal")
				if _, seen := typed[attrs[i]]; !seen {
					numeric[attrs[i]] = isNumber
				} else {
					numeric[attrs[i]] = numeric[attrs[i]] && isNumber
				}
				typed[attrs[i]] = "seen"
			}
			return nil
		}
		// Every item holds the table's keys: an entity without their templates is no entity of the table.
		if e.PKTemplate == nil {
			return nil, fmt.Errorf("table %q: entity %q has no pk_template", table, name)
		}
		if len(sk) == 1 && e.SKTemplate == nil {
			return nil, fmt.Errorf("table %q: entity %q has no sk_template: the table's sort key %s needs one", table, name, sk[0])
		}
		if err := set(pk, e.PKTemplate, "pk_template", "the table"); err != nil {
			return nil, err
		}
		if err := set(sk, e.SKTemplate, "sk_template", "the table"); err != nil {
			return nil, err
		}
		for _, m := range e.GSIMappings {
			keys, ok := gsiKeys[m.Name]
			if !ok {
				return nil, fmt.Errorf("table %q: entity %q: gsi_mappings names the GSI %q, which gsi_list lacks", table, name, m.Name)
			}
			if m.PKTemplate == nil {
				return nil, fmt.Errorf("table %q: entity %q: the gsi_mapping of %s has no pk_template", table, name, m.Name)
			}
			if err := set(keys[0], m.PKTemplate, "the pk_template of "+m.Name, "GSI "+m.Name); err != nil {
				return nil, err
			}
			if err := set(keys[1], m.SKTemplate, "the sk_template of "+m.Name, "GSI "+m.Name); err != nil {
				return nil, err
			}
		}
		d.Entities = append(d.Entities, entity)
		for _, ap := range e.AccessPatterns {
			pattern, why := mcpPattern(d, entity, ap.Name, ap.PatternID, ap.Operation, ap.IndexName, ap.RangeCondition, ap.ConsistentRead, ap.Parameters, gsiKeys)
			if why != "" {
				d.skip("%s (%s): %s", ap.Name, ap.Operation, why)
				continue
			}
			if unused := unusedParameters(ap.Parameters, pattern, ap.RangeCondition); len(unused) > 0 {
				d.skip("%s (%s): its parameters %s fill no key placeholder (a filter, or a range the model does not declare); "+
					"read as a Query of the key alone", ap.Name, ap.Operation, strings.Join(unused, ", "))
			}
			if ap.Operation == "Query" && ap.ReturnType == "mixed_data" && ap.IndexName == "" && ap.RangeCondition == "" && pattern.Sort == nil {
				// A Query of the whole partition-key value that returns several entities on purpose: every
				// entity of that collection.
				wholeCollection[len(d.AccessPatterns)] = entity.Keys[pk[0]]
			}
			d.AccessPatterns = append(d.AccessPatterns, pattern)
		}
	}
	for i, pkTemplate := range wholeCollection {
		ap := &d.AccessPatterns[i]
		ap.Entities = nil
		for _, e := range d.Entities {
			if e.Keys[pk[0]] == pkTemplate {
				ap.Entities = append(ap.Entities, e.Name)
			}
		}
		keep := mcpPlaceholder.FindAllStringSubmatch(pkTemplate, -1)
		ap.Equals = slices.DeleteFunc(ap.Equals, func(p string) bool {
			return !slices.ContainsFunc(keep, func(m []string) bool { return m[1] == p })
		})
	}
	types := map[string]string{}
	for attr, isNumber := range numeric {
		if isNumber {
			types[attr] = model.KeyTypeNumber
		}
	}
	d.typeKeys(types)
	uniquePatternNames(d.AccessPatterns)
	return d, nil
}

// mcpSegment is what a field of the model's type holds.
func mcpSegment(fieldType string) model.Segment {
	switch fieldType {
	case "integer":
		// A 64-bit integer: 19 digits and a sign.
		return model.Segment{Kind: model.KindNumber, MaxLength: ptr(int64(20))}
	case "decimal":
		return model.Segment{Kind: model.KindNumber, MaxLength: ptr(model.MaxNumberDigits)}
	case "boolean":
		return model.Segment{Kind: model.KindEnum, Values: []string{"true", "false"}}
	case "uuid":
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(36)), Characters: ptr("0-9a-f-")}
	}
	return model.Segment{Kind: model.KindID}
}

// entityName is the model's entity name (UserProfile) as a Terraform map key of the design: snake_case.
func entityName(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case unicode.IsUpper(r):
			if i > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
		}
	}
	return strings.Trim(b.String(), "_")
}

// mcpPattern maps one of the model's access patterns; why says why it is left out.
func mcpPattern(d *Design, e model.Entity, name string, id any, operation, index, rangeCondition string, consistent bool,
	parameters []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}, gsiKeys map[string][2][]string) (model.AccessPattern, string) {
	switch operation {
	case "GetItem", "BatchGetItem", "Query":
	case "Scan":
		return model.AccessPattern{}, "a Scan, which the model chose for this read; dynamokeys checks the reads that use a key"
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem":
		return model.AccessPattern{}, "a write, which is no access pattern"
	default:
		return model.AccessPattern{}, fmt.Sprintf("its operation %q is none the schema knows (GetItem, BatchGetItem, Query, Scan or a write)", operation)
	}
	if rangeCondition != "" && !slices.Contains(model.SortConditions, rangeCondition) {
		return model.AccessPattern{}, fmt.Sprintf("its range_condition %q is none of %s", rangeCondition, strings.Join(model.SortConditions, ", "))
	}
	ap := model.AccessPattern{Name: patternName(name, id), Entities: []string{e.Name}}
	if consistent {
		ap.Consistency = string(model.ReadStrong)
	}
	partition, sort := []string{d.PartitionKey.Name}, []string{}
	if d.SortKey != nil {
		sort = []string{d.SortKey.Name}
	}
	if index != "" {
		keys, ok := gsiKeys[index]
		if !ok {
			return model.AccessPattern{}, fmt.Sprintf("its index_name %q is no GSI of the table", index)
		}
		ap.Index = ptr(index)
		partition, sort = keys[0], keys[1]
	}
	placeholders := func(attrs []string) []string {
		var out []string
		for _, a := range attrs {
			for _, m := range mcpPlaceholder.FindAllStringSubmatch(e.Keys[a], -1) {
				out = append(out, m[1])
			}
		}
		return out
	}
	// The parameters that fill a placeholder of the key it reads are what it knows; a range's bounds are
	// the last one or two.
	params := make([]string, 0, len(parameters))
	for _, p := range parameters {
		if p.Type != "entity" {
			params = append(params, p.Name)
		}
	}
	bounds := 0
	if rangeCondition != "" {
		bounds = 1
		if rangeCondition == model.SortBetween {
			bounds = 2
		}
		if len(params) < bounds {
			return model.AccessPattern{}, fmt.Sprintf("its range_condition %s has no bound among its parameters", rangeCondition)
		}
	}
	known := params[:len(params)-bounds]
	keyParts := slices.Concat(placeholders(partition), placeholders(sort))
	for _, p := range known {
		if slices.Contains(keyParts, p) && !slices.Contains(ap.Equals, p) {
			ap.Equals = append(ap.Equals, p)
		}
	}
	if rangeCondition != "" {
		for _, s := range placeholders(sort) {
			if !slices.Contains(ap.Equals, s) {
				ap.Sort = &model.SortCondition{On: s, Condition: rangeCondition}
				break
			}
		}
		if ap.Sort == nil && len(sort) > 0 && e.Keys[sort[0]] != "" {
			return model.AccessPattern{}, fmt.Sprintf("its range_condition %s has no sort-key placeholder left to hold it", rangeCondition)
		}
	}
	// A Query of an entity's items in a collection is a begins_with on its sort key's literal prefix
	// (ADDRESS# of ADDRESS#{address_id}), as single-table code writes it: the entity's items alone.
	if operation == "Query" && rangeCondition == "" && len(sort) > 0 {
		if t, err := model.ParseTemplate(e.Keys[sort[0]]); err == nil {
			literal := false
			for _, part := range t.Parts {
				if part.Placeholder == "" {
					literal = literal || part.Literal != ""
					continue
				}
				if slices.Contains(ap.Equals, part.Placeholder) {
					continue
				}
				if literal {
					ap.Sort = &model.SortCondition{On: part.Placeholder, Condition: model.SortBeginsWith}
				}
				break
			}
		}
	}
	if operation == "Query" || len(ap.Equals) > 0 {
		return ap, ""
	}
	return model.AccessPattern{}, "its parameters fill no key placeholder"
}

// unusedParameters are a pattern's parameters that neither fill a key placeholder it knows nor bound its
// range: what the design cannot check.
func unusedParameters(parameters []struct {
	Name string `json:"name"`
	Type string `json:"type"`
}, ap model.AccessPattern, rangeCondition string) []string {
	var values []string
	for _, p := range parameters {
		if p.Type != "entity" {
			values = append(values, p.Name)
		}
	}
	bounds := 0
	switch {
	case rangeCondition == model.SortBetween:
		bounds = 2
	case rangeCondition != "":
		bounds = 1
	}
	var unused []string
	for _, p := range values[:max(len(values)-bounds, 0)] {
		if !slices.Contains(ap.Equals, p) {
			unused = append(unused, p)
		}
	}
	return unused
}

// patternName is the model's pattern name as a map key: its name in snake_case, else pattern_<id>.
func patternName(name string, id any) string {
	if n := entityName(name); n != "" {
		return n
	}
	switch v := id.(type) {
	case float64:
		return "pattern_" + strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return "pattern_" + entityName(v)
	}
	return "pattern"
}

// uniquePatternNames suffixes repeated names with _2, _3, ...
func uniquePatternNames(patterns []model.AccessPattern) {
	seen := map[string]int{}
	for i := range patterns {
		n := patterns[i].Name
		seen[n]++
		if seen[n] > 1 {
			patterns[i].Name = fmt.Sprintf("%s_%d", n, seen[n])
		}
	}
}
