package model

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseTemplate(t *testing.T) {
	tests := []struct {
		src          string
		placeholders []string
		literals     []string
	}{
		{"DAY#{day}#SHARD#{shard}", []string{"day", "shard"}, []string{"DAY#", "#SHARD#"}},
		{"CUSTOMER#{customer_id}", []string{"customer_id"}, []string{"CUSTOMER#"}},
		{"{a}{b2}", []string{"a", "b2"}, nil},
		{"STATIC", nil, []string{"STATIC"}},
		{"", nil, nil},
		{"{id}#{id}", []string{"id"}, []string{"#"}},
		{"ÜBER#{x}", []string{"x"}, []string{"ÜBER#"}},
	}
	for _, tt := range tests {
		tmpl, err := ParseTemplate(tt.src)
		if err != nil {
			t.Fatalf("ParseTemplate(%q): %v", tt.src, err)
		}
		if got := tmpl.Placeholders(); !reflect.DeepEqual(got, tt.placeholders) {
			t.Errorf("ParseTemplate(%q).Placeholders() = %q, want %q", tt.src, got, tt.placeholders)
		}
		if got := tmpl.Literals(); !reflect.DeepEqual(got, tt.literals) {
			t.Errorf("ParseTemplate(%q).Literals() = %q, want %q", tt.src, got, tt.literals)
		}
		if tmpl.String() != tt.src {
			t.Errorf("round trip of %q gave %q", tt.src, tmpl.String())
		}
	}
}

func TestParseTemplateErrorsGivePosition(t *testing.T) {
	tests := []struct {
		src      string
		position int
		reason   string
	}{
		{"DAY#{day", 5, "never closed"},
		{"DAY}#{day}", 4, "without a matching"},
		{"A#{}", 3, "empty placeholder"},
		{"A#{Day}", 3, "must match"},
		{"A#{1st}", 3, "must match"},
		{"A#{a-b}", 3, "must match"},
		{"A#{a{b}", 3, "must match"},
		{"ÜÜ#{x}}", 7, "without a matching"},
	}
	for _, tt := range tests {
		_, err := ParseTemplate(tt.src)
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Fatalf("ParseTemplate(%q) = %v, want a *TemplateError", tt.src, err)
		}
		if te.Position != tt.position || !strings.Contains(te.Reason, tt.reason) {
			t.Errorf("ParseTemplate(%q) error = %q at %d, want %q at %d", tt.src, te.Reason, te.Position, tt.reason, tt.position)
		}
	}
}

func TestRender(t *testing.T) {
	tmpl, err := ParseTemplate("DAY#{day}#SHARD#{shard}")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tmpl.Render(map[string]string{"day": "2026-11-30", "shard": "07"})
	if err != nil || got != "DAY#2026-11-30#SHARD#07" {
		t.Errorf("Render = %q, %v", got, err)
	}
	_, err = tmpl.Render(map[string]string{"day": "2026-11-30"})
	var missing *MissingValueError
	if !errors.As(err, &missing) || missing.Placeholder != "shard" {
		t.Errorf("Render without shard = %v, want MissingValueError for shard", err)
	}
}

// FuzzTemplate checks that parsing never panics and that a parsed template renders back to its source
// when every placeholder is filled with its own {name}.
func FuzzTemplate(f *testing.F) {
	for _, seed := range []string{"DAY#{day}#SHARD#{shard}", "{a}{b}", "", "}{", "{", "A#{x_1}#B", "ü{ü}", "{{a}}"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tmpl, err := ParseTemplate(src)
		if err != nil {
			return
		}
		values := map[string]string{}
		for _, p := range tmpl.Placeholders() {
			values[p] = "{" + p + "}"
		}
		out, err := tmpl.Render(values)
		if err != nil {
			t.Fatalf("Render after parse of %q: %v", src, err)
		}
		if out != src {
			t.Fatalf("render∘parse(%q) = %q", src, out)
		}
		again, err := ParseTemplate(tmpl.String())
		if err != nil || !reflect.DeepEqual(again.Parts, tmpl.Parts) {
			t.Fatalf("reparse of %q differs: %v", src, err)
		}
	})
}
