package importers

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Inferring an entity's key templates from the items of a Workbench facet.

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
func (b *entityBuilder) fromAlias(attr string, t *model.Template, alias string) string {
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
		v, _ := it.key(attr)
		m := extract.FindStringSubmatch(v)
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
		v, ok := it.key(attr)
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
		if v, _ := it.key(attr); v != "" && !slices.Contains(samples, v) {
			samples = append(samples, v)
		}
	}
	b.d.Inferred = append(b.d.Inferred, Inferred{Entity: b.entity, Attribute: attr, Template: template, Samples: samples})
	t, err := model.ParseTemplate(template)
	if err != nil {
		// Literal text with a brace: no template of the design can hold it.
		b.d.skip("entity %q: %s: the samples' values %s give no template (%v)", b.entity, attr, describe(samples), err)
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
func (b *entityBuilder) checkSamples(attr string, t *model.Template, why string) {
	pattern := templatePattern(t, b.d.Segments)
	for _, it := range b.items {
		if v, ok := it.key(attr); ok && !pattern.MatchString(v) {
			b.d.Mismatches = append(b.d.Mismatches, Mismatch{Entity: b.entity, Attribute: attr, Value: v, Template: t.Source, Why: why})
		}
	}
}

// renamePlaceholder is the template with one placeholder renamed.
func renamePlaceholder(t *model.Template, from, to string) *model.Template {
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
	out, err := model.ParseTemplate(b.String())
	if err != nil {
		return t
	}
	return out
}
