package model

import (
	"fmt"
	"strings"
)

// SegmentKind says what a placeholder holds.
type SegmentKind string

// Segment kinds (segments.*.kind).
const (
	KindID     SegmentKind = "id"
	KindEnum   SegmentKind = "enum"
	KindTime   SegmentKind = "time"
	KindNumber SegmentKind = "number"
)

// SegmentKinds lists the valid kinds in documentation order.
var SegmentKinds = []string{string(KindID), string(KindEnum), string(KindTime), string(KindNumber)}

// timeGranularity gives the rendered width of a time bucket and how long one bucket lasts. Widths follow
// Go's reference layouts (`2006-01-02` for day); millisecond is a 13-digit epoch.
type timeGranularity struct {
	maxLength int
	seconds   float64
}

var timeGranularities = map[string]timeGranularity{
	"year":        {maxLength: len("2006"), seconds: 366 * 86400},
	"month":       {maxLength: len("2006-01"), seconds: 31 * 86400},
	"week":        {maxLength: len("2006-W01"), seconds: 7 * 86400},
	"day":         {maxLength: len("2006-01-02"), seconds: 86400},
	"hour":        {maxLength: len("2006-01-02T15"), seconds: 3600},
	"minute":      {maxLength: len("2006-01-02T15:04"), seconds: 60},
	"second":      {maxLength: len("2006-01-02T15:04:05"), seconds: 1},
	"millisecond": {maxLength: len("1700000000000"), seconds: 0.001},
}

// TimeGranularities lists the valid granularities from coarse to fine.
var TimeGranularities = []string{"year", "month", "week", "day", "hour", "minute", "second", "millisecond"}

// Segment describes the values of one placeholder. Nil pointers mean "not set": defaults apply.
type Segment struct {
	Kind        SegmentKind
	Granularity string   // time only
	Values      []string // enum only
	MaxLength   *int64
	Cardinality *int64
	Monotonic   *bool
	// Characters are the characters an id may hold (0-9A-Za-z), for the entity collision check.
	Characters *string
}

// ResolvedSegment is a segment with its defaults applied.
type ResolvedSegment struct {
	Name        string      `json:"name"`
	Kind        SegmentKind `json:"kind"`
	Granularity string      `json:"granularity,omitempty"`
	Values      []string    `json:"values,omitempty"`
	// Cardinality is the number of distinct values; nil means unbounded.
	Cardinality *int64 `json:"cardinality"`
	MaxLength   int64  `json:"max_length"`
	MinLength   int64  `json:"min_length"`
	Monotonic   bool   `json:"monotonic"`
	// BucketSeconds is how long one time bucket lasts (time segments only).
	BucketSeconds float64 `json:"bucket_seconds,omitempty"`
	// Characters are the characters an id may hold, as declared; "" for the default (overlap.go).
	Characters string `json:"characters,omitempty"`
}

// Resolve validates a segment and applies the defaults: id unbounded with max_length 64;
// enum cardinality = number of values and max_length = longest value; time max_length from its
// granularity; number max_length 40. A time segment is monotonic unless monotonic = false.
// Errors are returned with the attribute (relative to the segment) they concern.
func (s Segment) Resolve(name string) (ResolvedSegment, []*FieldError) {
	r := ResolvedSegment{Name: name, Kind: s.Kind, Cardinality: s.Cardinality}
	var errs []*FieldError
	fail := func(attr, format string, args ...any) {
		errs = append(errs, &FieldError{Path: Path{"segments", name, attr}, Message: fmt.Sprintf(format, args...)})
	}
	if s.Kind != KindTime && s.Granularity != "" {
		fail("granularity", "granularity applies only to time segments; remove it or set kind = \"time\"")
	}
	if s.Kind != KindEnum && len(s.Values) > 0 {
		fail("values", "values apply only to enum segments; remove them or set kind = \"enum\"")
	}
	if s.Characters != nil {
		if s.Kind != KindID {
			fail("characters", "characters apply only to id segments; remove them or set kind = \"id\"")
		} else if _, err := ParseCharacters(*s.Characters); err != nil {
			fail("characters", "characters %v", err)
		} else {
			r.Characters = *s.Characters
		}
	}
	switch s.Kind {
	case KindID:
		r.MaxLength, r.MinLength = DefaultIDMaxLength, 1
	case KindNumber:
		r.MaxLength, r.MinLength = DefaultNumberMaxLength, 1
	case KindEnum:
		if len(s.Values) == 0 {
			fail("values", "an enum segment needs at least one value, e.g. values = [\"pending\", \"shipped\"]")
			break
		}
		r.Values = s.Values
		seen := make(map[string]bool, len(s.Values))
		r.MinLength = int64(len(s.Values[0]))
		for _, v := range s.Values {
			if seen[v] {
				fail("values", "value %q is listed twice; list each value once", v)
			}
			seen[v] = true
			r.MaxLength = max(r.MaxLength, int64(len(v)))
			r.MinLength = min(r.MinLength, int64(len(v)))
		}
		if r.Cardinality == nil {
			n := int64(len(seen))
			r.Cardinality = &n
		}
	case KindTime:
		g, ok := timeGranularities[s.Granularity]
		if !ok {
			if s.Granularity == "" {
				fail("granularity", "a time segment needs a granularity: one of %s", strings.Join(TimeGranularities, ", "))
			} else {
				fail("granularity", "unknown granularity %q: use one of %s", s.Granularity, strings.Join(TimeGranularities, ", "))
			}
			break
		}
		r.Granularity = s.Granularity
		r.MaxLength, r.MinLength = int64(g.maxLength), int64(g.maxLength)
		r.BucketSeconds = g.seconds
		r.Monotonic = true
	default:
		fail("kind", "unknown segment kind %q: use one of %s", s.Kind, strings.Join(SegmentKinds, ", "))
	}
	if s.MaxLength != nil {
		if *s.MaxLength < 1 {
			fail("max_length", "max_length must be at least 1 byte, got %d", *s.MaxLength)
		} else {
			r.MaxLength = *s.MaxLength
			r.MinLength = min(r.MinLength, r.MaxLength)
		}
	}
	if s.Cardinality != nil && *s.Cardinality < 1 {
		fail("cardinality", "cardinality must be at least 1 distinct value, got %d", *s.Cardinality)
	}
	if s.Monotonic != nil {
		r.Monotonic = *s.Monotonic
	}
	return r, errs
}

// TimeLayouts are the rendered forms of time buckets (segment.go gives their widths).
var TimeLayouts = map[string]string{
	"year":        `[0-9]{4}`,
	"month":       `[0-9]{4}-[0-9]{2}`,
	"week":        `[0-9]{4}-W[0-9]{2}`,
	"day":         `[0-9]{4}-[0-9]{2}-[0-9]{2}`,
	"hour":        `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}`,
	"minute":      `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}`,
	"second":      `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}`,
	"millisecond": `[0-9]{13}`,
}

var TimeExamples = map[string]string{
	"year": "2006", "month": "2006-01", "week": "2006-W01", "day": "2006-01-02", "hour": "2006-01-02T15",
	"minute": "2006-01-02T15:04", "second": "2006-01-02T15:04:05", "millisecond": "a 13-digit epoch in milliseconds",
}
