package importers

import (
	"slices"
	"strings"
	"testing"
)

// wantError fails the case unless err is an error of the whole text want.
func wantError(t *testing.T, name string, err error, want string) {
	t.Helper()
	if err == nil || err.Error() != want {
		t.Errorf("%s: error %v, want %q", name, err, want)
	}
}

// wantLines fails the case unless got holds the lines of want, in order, and no other.
func wantLines(t *testing.T, name, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: %s\n%s\nwant\n%s", name, what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wantKeyTypes fails the case unless the design's key attributes have the types want lists: PK:S SK:N.
func wantKeyTypes(t *testing.T, name string, d *Design, want string) {
	t.Helper()
	names, types := d.keyAttributes()
	var got []string
	for _, n := range names {
		got = append(got, n+":"+types[n])
	}
	if strings.Join(got, " ") != want {
		t.Errorf("%s: key types %s, want %s", name, strings.Join(got, " "), want)
	}
}
