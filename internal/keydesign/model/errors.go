package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Path names an input attribute as a list of steps: attribute names, map keys and list indexes, e.g.
// {"segments", "day", "granularity"} or {"global_secondary_indexes", "by_customer", "partition_key", "0"}.
// Steps are kept apart (not joined with dots) because index names may contain dots.
type Path []string

// String joins the steps for messages: segments.day.granularity, partition_key[0].
func (p Path) String() string {
	var b strings.Builder
	for i, step := range p {
		if _, err := strconv.Atoi(step); err == nil && i > 0 {
			b.WriteString("[" + step + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(step)
	}
	return b.String()
}

// FieldError is a problem with one input attribute, phrased so that the user knows what to change.
type FieldError struct {
	Path    Path
	Message string
}

func (e *FieldError) Error() string { return e.Path.String() + ": " + e.Message }

// FieldErrors collects a stage's errors in the order it finds them.
type FieldErrors []*FieldError

// Add records an error on the attribute at path.
func (e *FieldErrors) Add(path Path, format string, args ...any) {
	*e = append(*e, &FieldError{Path: path, Message: fmt.Sprintf(format, args...)})
}
