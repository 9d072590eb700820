package measured

import (
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func TestKeyMatcher(t *testing.T) {
	segments := map[string]model.ResolvedSegment{}
	for name, s := range map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"}, "status": {Kind: model.KindEnum, Values: []string{"new", "done"}},
		"user_id": {Kind: model.KindID, MaxLength: model.Ptr(int64(8))}, "n": {Kind: model.KindNumber}} {
		r, errs := s.Resolve(name)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		segments[name] = r
	}
	for _, tc := range []struct {
		template, strategy, source string
		count                      int64
		key, why                   string
	}{
		{"DAY#{day}#SHARD#{shard}", model.StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#07", ""},
		{"DAY#{day}#SHARD#{shard}", model.StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#7", `shard suffix "7" is not 2 digit(s) 00..15`},
		{"DAY#{day}#SHARD#{shard}", model.StrategyRandom, "", 16, "DAY#2026-11-30#SHARD#16", "shard suffix 16 is outside 00..15: the design has 16 shards"},
		{"DAY#{day}#SHARD#{shard}", model.StrategyRandom, "", 16, "DAY#30.11.2026#SHARD#03", `{day} = "30.11.2026" is not a day bucket like 2006-01-02`},
		{"DAY#{day}#SHARD#{shard}", model.StrategyRandom, "", 16, "day#2026-11-30#SHARD#03", "its literal text does not follow the template"},
		{"{status}|{n}", model.StrategyNone, "", 1, "done|42.5", ""},
		{"{status}|{n}", model.StrategyNone, "", 1, "open|42", `{status} = "open" is not one of its values (new, done)`},
		{"{status}|{n}", model.StrategyNone, "", 1, "new|x", `{n} = "x" is not a number`},
		{"USER#{user_id}", model.StrategyNone, "", 1, "USER#123456789", `{user_id} = "123456789" is 9 bytes, longer than its max_length 8`},
		{"USER#{user_id}", model.StrategyNone, "", 1, "USER#", "{user_id} is empty"},
		{"USER#{user_id}#{shard}", model.StrategyCalculated, "user_id", 8, "USER#alice#" + model.ShardSuffix("alice", 8), ""},
		{"USER#{user_id}#{shard}", model.StrategyCalculated, "user_id", 8, "USER#alice#" + model.ShardSuffix("bob", 8),
			`shard suffix ` + model.ShardSuffix("bob", 8) + ` is not the routing's sha256("alice") mod 8 = ` + model.ShardSuffix("alice", 8) + `: the writer does not follow the calculated routing`},
	} {
		tmpl, err := model.ParseTemplate(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		m := newKeyMatcher(tmpl, segments, tc.count, tc.strategy, tc.source)
		if got := m.mismatch(tc.key); got != tc.why {
			t.Errorf("%s against %s: %q, want %q", tc.key, tc.template, got, tc.why)
		}
	}
}
