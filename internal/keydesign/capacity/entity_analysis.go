package capacity

import (
	"math"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func TemplateSource(t *model.Template) *string {
	if t == nil {
		return nil
	}
	return &t.Source
}

// TemplateFacts derives the facts of one key template; shardCount sizes the {shard} placeholder, and
// declared says whether the template and its segments are known, so that its bounds are.
func TemplateFacts(t *model.Template, src *string, segments map[string]model.ResolvedSegment, declared bool, shardCount int64) model.KeyFacts {
	f := model.KeyFacts{Template: src, Placeholders: []string{}, Literals: []string{}, Segments: []model.SegmentRef{}}
	if t == nil {
		return f
	}
	f.Placeholders = t.Placeholders()
	f.Literals = model.OrEmpty(t.Literals())
	maxBytes, minBytes := int64(t.LiteralBytes()), int64(t.LiteralBytes())
	cardinality, bounded := int64(1), true
	for i, name := range f.Placeholders {
		if name == model.ShardPlaceholder {
			f.HasShard = true
			w := int64(model.ShardWidth(shardCount))
			maxBytes += w
			minBytes += w
			cardinality = model.SaturatingMul(cardinality, shardCount)
			continue
		}
		seg, ok := segments[name]
		if !ok {
			declared = false
			continue
		}
		if i == 0 {
			f.Monotonic = seg.Monotonic
		}
		f.Segments = append(f.Segments, model.SegmentRef{Name: name, Kind: seg.Kind, Cardinality: seg.Cardinality,
			MaxLength: seg.MaxLength, Monotonic: seg.Monotonic})
		if seg.Kind == model.KindTime {
			f.HasTimeBucket = true
		}
		maxBytes += seg.MaxLength * int64(strings.Count(t.Source, "{"+name+"}"))
		minBytes += seg.MinLength * int64(strings.Count(t.Source, "{"+name+"}"))
		if seg.Cardinality == nil {
			bounded = false
		} else {
			cardinality = model.SaturatingMul(cardinality, *seg.Cardinality)
		}
	}
	if declared {
		f.MaxBytes, f.MinBytes = &maxBytes, &minBytes
		if bounded {
			f.Cardinality = &cardinality
		}
	}
	return f
}

func SaturatingAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
