package importers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// Key templates from sample values: a value is split into literal separators (the delimiters single-table
// keys are built with) and the text between them; the values of one shape (the same separators at the same
// places) give one template, where the text that is the same in every sample and reads as a word is
// literal and the rest a placeholder, typed from what the samples hold.

// delimiters separate the parts of a key value. - _ . and @ are not among them: they are inside ids,
// dates and e-mail addresses.
const delimiters = "#|:/~^;,=!"

func isDelimiter(c byte) bool { return strings.IndexByte(delimiters, c) >= 0 }

// dateValue is an ISO 8601 date or time at the start of a value part: 2026, 2026-01, 2026-W01,
// 2026-01-05, 2026-01-05T10, ...T10:30, ...T10:30:15, ...T10:30:15.123, with an optional zone.
var dateValue = lazyregexp.New(`^\d{4}-(?:W\d{2}|\d{2}(?:-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2}(\.\d+)?)?)?)?)?)(?:Z|[+-]\d{2}:\d{2})?`)

var (
	digitsValue = lazyregexp.New(`^-?[0-9]+$`)
	uuidValue   = lazyregexp.New(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	ulidValue   = lazyregexp.New(`^[0-9A-HJKMNP-TV-Z]{26}$`)
	wordValue   = lazyregexp.New(`^[A-Za-z][A-Za-z_]*$`)
	identifier  = lazyregexp.New(`^[A-Za-z][A-Za-z0-9_]*$`)
	zoneOffset  = lazyregexp.New(`[+-]\d{2}:\d{2}$`)
)

type token struct {
	text  string
	delim bool
}

// tokenize splits a value into runs of delimiters and the parts between them; a date's own : and - stay
// in the date.
func tokenize(v string) []token {
	var out []token
	for i := 0; i < len(v); {
		if i == 0 || isDelimiter(v[i-1]) {
			if m := dateValue.FindString(v[i:]); m != "" && (i+len(m) == len(v) || isDelimiter(v[i+len(m)])) {
				out = append(out, token{text: m})
				i += len(m)
				continue
			}
		}
		j, delim := i, isDelimiter(v[i])
		for j < len(v) && isDelimiter(v[j]) == delim {
			j++
		}
		out = append(out, token{text: v[i:j], delim: delim})
		i = j
	}
	return out
}

// shape is what values of one template share: the separators, in order, and a mark per part.
func shape(tokens []token) string {
	var b strings.Builder
	for _, t := range tokens {
		if t.delim {
			b.WriteString(t.text)
		} else {
			b.WriteByte(0)
		}
	}
	return b.String()
}

// hasDelimiter says whether a modeler's alias is written like a key value (USER#UserId), not a label (PK).
func hasDelimiter(s string) bool { return strings.ContainsAny(s, delimiters) }

// readsAsLiteral says whether a part that every sample shares is literal text of the template: a word
// (PROFILE, c), where a part with a digit or a date, or a lower-case word after a separator, is a value
// that the samples happen to share (USER#42, USER#alice).
func readsAsLiteral(part string, first bool) bool {
	if strings.ContainsFunc(part, unicode.IsDigit) || dateValue.MatchString(part) {
		return false
	}
	return first || strings.ToUpper(part) == part
}

// segmentOf is the segment that holds the values: dates of one granularity a time segment, digits a number,
// a few words each repeated an enum, a UUID or ULID an id of their characters, anything else an id.
func segmentOf(values []string) model.Segment {
	if len(values) == 0 {
		return model.Segment{Kind: model.KindID}
	}
	if g, width := dateGranularity(values); g != "" {
		s := model.Segment{Kind: model.KindTime, Granularity: g}
		if g != "millisecond" && width > granularityWidth[g] || g == "millisecond" {
			s.MaxLength = ptr(int64(width))
		}
		return s
	}
	if all(values, digitsValue.MatchString) {
		return model.Segment{Kind: model.KindNumber}
	}
	if all(values, uuidValue.MatchString) {
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(36)), Characters: ptr("0-9a-f-")}
	}
	if all(values, ulidValue.MatchString) {
		return model.Segment{Kind: model.KindID, MaxLength: ptr(int64(26)), Characters: ptr("0-9A-Z")}
	}
	// An enum only when the samples show it plainly: two to six words, each seen at least twice.
	counts := map[string]int{}
	var distinct []string
	for _, v := range values {
		if counts[v] == 0 {
			distinct = append(distinct, v)
		}
		counts[v]++
	}
	if len(distinct) >= 2 && len(distinct) <= 6 && all(distinct, wordValue.MatchString) &&
		!slices.ContainsFunc(distinct, func(v string) bool { return counts[v] < 2 }) {
		return model.Segment{Kind: model.KindEnum, Values: distinct}
	}
	return model.Segment{Kind: model.KindID}
}

// granularityWidth is the width of an ISO value of each granularity, as keydesign renders it.
var granularityWidth = map[string]int{"year": 4, "month": 7, "week": 8, "day": 10, "hour": 13, "minute": 16, "second": 19}

// dateGranularity is the one granularity of the dates, and the widest date, or "" when the values are not
// all dates of one granularity. A bare year is a number.
func dateGranularity(values []string) (string, int) {
	granularity, width := "", 0
	for _, v := range values {
		m := dateValue.FindStringSubmatch(v)
		if m == nil || m[0] != v {
			return "", 0
		}
		core := strings.TrimSuffix(v, "Z")
		if zone := zoneOffset.FindString(core); zone != "" && len(core) > 10 {
			core = strings.TrimSuffix(core, zone)
		}
		var g string
		switch {
		case m[1] != "":
			g = "millisecond"
		case strings.Contains(core, "W"):
			g = "week"
		default:
			g = map[int]string{7: "month", 10: "day", 13: "hour", 16: "minute", 19: "second"}[len(core)]
		}
		if g == "" || granularity != "" && g != granularity {
			return "", 0
		}
		granularity, width = g, max(width, len(v))
	}
	return granularity, width
}

func all(values []string, f func(string) bool) bool {
	for _, v := range values {
		if !f(v) {
			return false
		}
	}
	return true
}

// placeholderSyntax finds a modeler's placeholders: <Name>, ${name} and {name}.
var placeholderSyntax = lazyregexp.New(`<([A-Za-z_][A-Za-z0-9_]*)>|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// aliasTemplate is the alias as a template of the design when it is written as one (TENANT#<TenantId>),
// its placeholders in snake_case; nil for an alias written as a label or a value (PK, USER#UserId), and an
// error for one written as a template that is none.
func aliasTemplate(alias string) (*model.Template, error) {
	if !placeholderSyntax.MatchString(alias) {
		return nil, nil
	}
	src := placeholderSyntax.ReplaceAllStringFunc(alias, func(m string) string {
		sub := placeholderSyntax.FindStringSubmatch(m)
		return "{" + snakeCase(sub[1]+sub[2]+sub[3]) + "}"
	})
	return model.ParseTemplate(src)
}

// templatePattern matches the values a template renders, each placeholder a group: a number's digits, a
// time's date, an enum's values, an id's characters but the separators of the template's literal text.
func templatePattern(t *model.Template, segments map[string]model.Segment) *regexp.Regexp {
	var separators strings.Builder
	for _, l := range t.Literals() {
		for _, r := range l {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(separators.String(), r) {
				separators.WriteRune(r)
			}
		}
	}
	id := `(.+?)`
	if separators.Len() > 0 {
		id = `([^` + regexp.QuoteMeta(separators.String()) + `]+)`
	}
	var b strings.Builder
	b.WriteString("^")
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			b.WriteString(regexp.QuoteMeta(p.Literal))
			continue
		}
		switch s := segments[p.Placeholder]; s.Kind {
		case model.KindNumber:
			b.WriteString(`(-?[0-9]+(?:\.[0-9]+)?)`)
		case model.KindTime:
			b.WriteString(`([0-9][0-9TW:.Z+-]*)`)
		case model.KindEnum:
			quoted := make([]string, len(s.Values))
			for i, v := range s.Values {
				quoted[i] = regexp.QuoteMeta(v)
			}
			b.WriteString(`(` + strings.Join(quoted, "|") + `)`)
		default:
			b.WriteString(id)
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// placeholderName is the name of an inferred placeholder: the word before it in the template (ORDER of
// ORDER#{order_id}), else the key attribute's, with what it holds (order_id, order_date, status).
func placeholderName(base string, s model.Segment) string {
	switch s.Kind {
	case model.KindTime:
		if slices.Contains([]string{"year", "month", "week", "day"}, s.Granularity) {
			return base + "_date"
		}
		return base + "_time"
	case model.KindEnum:
		return base
	}
	if base == "id" || strings.HasSuffix(base, "_id") {
		return base
	}
	return base + "_id"
}

// describe lists values for a message: at most five, quoted.
func describe(values []string) string {
	quoted := make([]string, 0, 5)
	for i, v := range values {
		if i == 5 {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(values)-5))
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", v))
	}
	return strings.Join(quoted, ", ")
}
