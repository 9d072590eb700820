package keydesign

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

// guideDesign is the design of the guide "Migrating a key scheme" (templates/guides), in a phase.
func guideDesign(phase string) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey:   model.Key{Name: "pk", Type: "S", Template: p("DAY#{day}#SHARD#{shard}")},
		SortKey:        &model.Key{Name: "sk", Type: "S", Template: p("EVENT#{event_id}")},
		Segments:       map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"}, "event_id": {Kind: model.KindID, MaxLength: p(int64(36))}},
		Sharding:       model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(4)), SchemeVersion: p(int64(2))},
		Traffic:        model.Traffic{WritesPerSecond: p(2500.0), ReadsPerSecond: p(400.0), ItemSizeBytes: p(int64(800)), ItemCount: p(int64(50_000_000))},
		AccessPatterns: []model.AccessPattern{{Name: "events_of_day", Equals: []string{"day"}, ReadsPerSecond: p(20.0), Items: p(int64(100))}},
		Migration:      &model.MigrationInput{Phase: phase, From: model.LayoutInput{PartitionKeyTemplate: p("DAY#{day}"), Sharding: &model.Sharding{Strategy: model.StrategyNone}}},
	}
}

// TestMigrationGuideShowsTheReports keeps the guide's report excerpts what the report of its designs says.
func TestMigrationGuideShowsTheReports(t *testing.T) {
	raw, err := os.ReadFile("../../templates/guides/migrating-a-key-scheme.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	excerpts := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- report of the guide's design: ([a-z_ ]+) -->\n```text\n(.*?)```").FindAllStringSubmatch(string(raw), -1) {
		excerpts[m[1]] = m[2]
	}
	countChange := guideDesign(model.PhaseDualWrite)
	countChange.Sharding.Count, countChange.Sharding.SchemeVersion = p(int64(8)), p(int64(3))
	countChange.Migration.From = model.LayoutInput{Sharding: &model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: p(int64(4)), SchemeVersion: p(int64(2))}}
	for name, in := range map[string]*model.Input{"dual_write": guideDesign(model.PhaseDualWrite), "read_new": guideDesign(model.PhaseReadNew), "count change": countChange} {
		want := migrationSection(report.Text(analyze(t, in), nil))
		if got, ok := excerpts[name]; !ok || got != want {
			t.Errorf("the guide's %s excerpt is\n%s\nthe report says\n%s", name, got, want)
		}
	}
}

// migrationSection is the report's key-scheme migration section: from its heading to the next section's.
func migrationSection(report string) string {
	_, section, _ := strings.Cut(report, "\nKey-scheme migration:")
	section = "Key-scheme migration:" + section
	if end := regexp.MustCompile(`\n\n[^ \n]`).FindStringIndex(section); end != nil {
		section = section[:end[0]+1]
	}
	return section
}
