package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// ShardPlaceholder is the reserved placeholder that receives the shard suffix.
const ShardPlaceholder = "shard"

// Template is a parsed key template such as `DAY#{day}#SHARD#{shard}`: literal text and placeholders.
type Template struct {
	Source string
	Parts  []TemplatePart
}

// TemplatePart is one literal run or one placeholder of a template.
type TemplatePart struct {
	Literal     string // set when Placeholder is empty
	Placeholder string // placeholder name without braces
}

// TemplateError says what is wrong with a template and where (1-based character position).
type TemplateError struct {
	Position int
	Reason   string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("character %d: %s", e.Position, e.Reason)
}

// ParseTemplate splits a template into literal text and `{name}` placeholders. Names match
// [a-z][a-z0-9_]*; braces are not allowed in literal text (HCL would treat `${...}` as interpolation,
// so templates use bare `{...}`).
func ParseTemplate(src string) (*Template, error) {
	if !utf8.ValidString(src) {
		return nil, &TemplateError{Position: 1, Reason: "the template is not valid UTF-8"}
	}
	t := &Template{Source: src}
	literalStart := 0
	char := 0 // 1-based character position of the rune at i, maintained while scanning
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		char++
		switch r {
		case '}':
			return nil, &TemplateError{Position: char, Reason: `"}" without a matching "{": braces may only surround a placeholder name`}
		case '{':
			end := strings.IndexByte(src[i+1:], '}')
			if end < 0 {
				return nil, &TemplateError{Position: char, Reason: `"{" is never closed: write a placeholder as {name}`}
			}
			name := src[i+1 : i+1+end]
			if err := CheckPlaceholderName(name); err != nil {
				return nil, &TemplateError{Position: char, Reason: err.Error()}
			}
			if i > literalStart {
				t.Parts = append(t.Parts, TemplatePart{Literal: src[literalStart:i]})
			}
			t.Parts = append(t.Parts, TemplatePart{Placeholder: name})
			i += end + 2
			char += end + 1 // placeholder names are ASCII
			literalStart = i
			continue
		}
		i += size
	}
	if literalStart < len(src) {
		t.Parts = append(t.Parts, TemplatePart{Literal: src[literalStart:]})
	}
	return t, nil
}

func CheckPlaceholderName(name string) error {
	if name == "" {
		return errors.New(`empty placeholder "{}": name it, e.g. {customer_id}`)
	}
	for i := range len(name) {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '_')
		if !ok {
			return fmt.Errorf("placeholder name %q must match [a-z][a-z0-9_]* (lower-case letter first, then lower-case letters, digits or _)", name)
		}
	}
	return nil
}

// Placeholders returns the distinct placeholder names in order of first appearance.
func (t *Template) Placeholders() []string {
	var names []string
	for _, p := range t.Parts {
		if p.Placeholder != "" && !slices.Contains(names, p.Placeholder) {
			names = append(names, p.Placeholder)
		}
	}
	return names
}

// HasPlaceholder reports whether the template uses the named placeholder.
func (t *Template) HasPlaceholder(name string) bool {
	for _, p := range t.Parts {
		if p.Placeholder == name {
			return true
		}
	}
	return false
}

// Literals returns the literal runs of the template.
func (t *Template) Literals() []string {
	var out []string
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			out = append(out, p.Literal)
		}
	}
	return out
}

// LiteralBytes is the number of UTF-8 bytes of literal text.
func (t *Template) LiteralBytes() int {
	n := 0
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			n += len(p.Literal)
		}
	}
	return n
}

// MissingValueError names a placeholder that Render had no value for.
type MissingValueError struct{ Placeholder string }

func (e *MissingValueError) Error() string {
	return fmt.Sprintf("no value for placeholder {%s}", e.Placeholder)
}

// Render fills every placeholder from values. A missing value is a *MissingValueError.
func (t *Template) Render(values map[string]string) (string, error) {
	var b strings.Builder
	b.Grow(len(t.Source) + 16)
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			b.WriteString(p.Literal)
			continue
		}
		v, ok := values[p.Placeholder]
		if !ok {
			return "", &MissingValueError{Placeholder: p.Placeholder}
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// String returns the template in its source form.
func (t *Template) String() string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			b.WriteString(p.Literal)
		} else {
			b.WriteString("{" + p.Placeholder + "}")
		}
	}
	return b.String()
}
