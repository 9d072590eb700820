package measured

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// keyMatcher tells whether a partition-key value could have been written by the design: the template's
// literal parts in order, each placeholder's value in its segment's format (an enum's values, a time
// bucket's layout, digits for a number, at most max_length bytes), the shard suffix with the routing's
// width and below its count, and with calculated sharding whose source is in the key, the suffix the
// routing computes.
type keyMatcher struct {
	strict, loose *regexp.Regexp
	names         []string // placeholder of each capture group
	segments      map[string]model.ResolvedSegment
	shardCount    int64
	shardWidth    int
	source        string // segment hashed by calculated sharding; "" otherwise
}

const numberPattern = `-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`

// wholeTimeLayouts and wholeNumber match a whole value, for the reasons a key does not match. Compiled when
// first used: most provider processes measure nothing.
var (
	wholeTimeLayouts = sync.OnceValue(func() map[string]*regexp.Regexp {
		out := make(map[string]*regexp.Regexp, len(model.TimeLayouts))
		for g, l := range model.TimeLayouts {
			out[g] = regexp.MustCompile(`\A` + l + `\z`)
		}
		return out
	})
	wholeNumber = lazyregexp.New(`\A` + numberPattern + `\z`)
)

// newKeyMatcher builds the matcher of a parsed template; nil when a placeholder has no segment (DK104
// reports that) or the template does not compile.
func newKeyMatcher(t *model.Template, segments map[string]model.ResolvedSegment, shardCount int64, strategy, source string) *keyMatcher {
	m := &keyMatcher{segments: segments, shardCount: shardCount, shardWidth: model.ShardWidth(shardCount)}
	if strategy == model.StrategyCalculated && t.HasPlaceholder(source) {
		m.source = source
	}
	var strict, loose strings.Builder
	strict.WriteString(`\A`)
	loose.WriteString(`\A`)
	for _, p := range t.Parts {
		if p.Placeholder == "" {
			strict.WriteString(regexp.QuoteMeta(p.Literal))
			loose.WriteString(regexp.QuoteMeta(p.Literal))
			continue
		}
		m.names = append(m.names, p.Placeholder)
		loose.WriteString(`(.*?)`)
		if p.Placeholder == model.ShardPlaceholder {
			fmt.Fprintf(&strict, `([0-9]{%d})`, m.shardWidth)
			continue
		}
		seg, ok := segments[p.Placeholder]
		if !ok {
			return nil
		}
		strict.WriteString("(" + segmentPattern(seg) + ")")
	}
	strict.WriteString(`\z`)
	loose.WriteString(`\z`)
	var err error
	if m.strict, err = regexp.Compile(strict.String()); err != nil {
		return nil
	}
	if m.loose, err = regexp.Compile(loose.String()); err != nil {
		return nil
	}
	return m
}

func segmentPattern(s model.ResolvedSegment) string {
	switch s.Kind {
	case model.KindEnum:
		alts := make([]string, 0, len(s.Values))
		for _, v := range s.Values {
			alts = append(alts, regexp.QuoteMeta(v))
		}
		return strings.Join(alts, "|")
	case model.KindTime:
		if l, ok := model.TimeLayouts[s.Granularity]; ok {
			return l
		}
	case model.KindNumber:
		return numberPattern
	}
	return `.+?`
}

// literalMismatch is why a key whose literal text differs from the template's cannot come from it.
const literalMismatch = "its literal text does not follow the template"

// mismatch is why key cannot come from the template, or "" when it can.
func (m *keyMatcher) mismatch(key string) string {
	if groups := m.strict.FindStringSubmatch(key); groups != nil {
		if why := m.checkValues(groups[1:]); why == "" {
			return ""
		}
	}
	groups := m.loose.FindStringSubmatch(key)
	if groups == nil {
		return literalMismatch
	}
	if why := m.checkValues(groups[1:]); why != "" {
		return why
	}
	return "its parts do not follow the template"
}

// checkValues checks each captured placeholder value against its segment and the routing.
func (m *keyMatcher) checkValues(values []string) string {
	seen := map[string]string{}
	for i, name := range m.names {
		v := values[i]
		if prev, ok := seen[name]; ok && prev != v {
			return fmt.Sprintf("{%s} appears twice with different values (%q, %q)", name, prev, v)
		}
		seen[name] = v
		if name == model.ShardPlaceholder {
			if why := m.checkShard(v); why != "" {
				return why
			}
			continue
		}
		if why := checkSegmentValue(m.segments[name], v); why != "" {
			return why
		}
	}
	if m.source != "" {
		want := model.ShardSuffix(seen[m.source], m.shardCount)
		if got := seen[model.ShardPlaceholder]; got != want {
			return fmt.Sprintf("shard suffix %s is not the routing's sha256(%q) mod %d = %s: the writer does not follow the calculated routing",
				got, seen[m.source], m.shardCount, want)
		}
	}
	return ""
}

func (m *keyMatcher) checkShard(v string) string {
	last := model.FormatShard(m.shardCount-1, m.shardWidth)
	if len(v) != m.shardWidth || strings.Trim(v, "0123456789") != "" {
		return fmt.Sprintf("shard suffix %q is not %d digit(s) %s..%s", v, m.shardWidth, model.FormatShard(0, m.shardWidth), last)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n >= m.shardCount {
		return fmt.Sprintf("shard suffix %s is outside %s..%s: the design has %d shards", v, model.FormatShard(0, m.shardWidth), last, m.shardCount)
	}
	return ""
}

func checkSegmentValue(s model.ResolvedSegment, v string) string {
	switch {
	case v == "":
		return fmt.Sprintf("{%s} is empty", s.Name)
	case int64(len(v)) > s.MaxLength:
		return fmt.Sprintf("{%s} = %q is %d bytes, longer than its max_length %d", s.Name, v, len(v), s.MaxLength)
	case !utf8.ValidString(v):
		return fmt.Sprintf("{%s} is not valid UTF-8", s.Name)
	}
	switch s.Kind {
	case model.KindEnum:
		for _, allowed := range s.Values {
			if v == allowed {
				return ""
			}
		}
		return fmt.Sprintf("{%s} = %q is not one of its values (%s)", s.Name, v, strings.Join(s.Values, ", "))
	case model.KindTime:
		if re, ok := wholeTimeLayouts()[s.Granularity]; ok && !re.MatchString(v) {
			return fmt.Sprintf("{%s} = %q is not a %s bucket like %s", s.Name, v, s.Granularity, model.TimeExamples[s.Granularity])
		}
	case model.KindNumber:
		if !wholeNumber.MatchString(v) {
			return fmt.Sprintf("{%s} = %q is not a number", s.Name, v)
		}
	}
	return ""
}
