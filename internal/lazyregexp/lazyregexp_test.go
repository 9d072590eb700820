package lazyregexp

import "testing"

func TestCompiledOnFirstUseWithRegexpsMethods(t *testing.T) {
	r := New(`\{(\w+)\}`)
	if !r.MatchString("A#{id}") || r.FindString("A#{id}") != "{id}" || r.FindStringSubmatch("{x}")[1] != "x" {
		t.Error("match")
	}
	if got := r.ReplaceAllString("A#{id}", "<$1>"); got != "A#<id>" {
		t.Errorf("ReplaceAllString = %q", got)
	}
	if got := r.ReplaceAllStringFunc("{a}{b}", func(string) string { return "." }); got != ".." {
		t.Errorf("ReplaceAllStringFunc = %q", got)
	}
	if got := r.FindAllStringSubmatch("{a}{b}", -1); len(got) != 2 || got[1][1] != "b" {
		t.Errorf("FindAllStringSubmatch = %q", got)
	}
	if got := r.FindAllStringSubmatchIndex("{a}", -1); len(got) != 1 || got[0][2] != 1 {
		t.Errorf("FindAllStringSubmatchIndex = %v", got)
	}
	if first := r.Regexp(); r.Regexp() != first || r.String() != `\{(\w+)\}` {
		t.Error("compiled once, source kept")
	}
}

func TestInvalidExpressionPanicsOnFirstUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	r.MatchString("")
}
