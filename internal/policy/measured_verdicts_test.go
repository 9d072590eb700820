package policy

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/awsstub"
)

// measuredOrders is the unsharded orders table, declared at 500 writes and 1,000 strongly consistent reads
// per second, with a status index capped at 1,500 write units: the design the measured traffic outgrows.
func measuredOrders() *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("CUSTOMER#{customer_id}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("ORDER#{order_id}")},
		Segments:     map[string]model.Segment{"customer_id": {Kind: model.KindID}, "order_id": {Kind: model.KindID}},
		Traffic:      model.Traffic{WritesPerSecond: p(500.0), ReadsPerSecond: p(1000.0), ReadConsistency: "strong"},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{Name: "by_status",
			PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S", Cardinality: p(int64(1000))}},
			OnDemand:     &model.UnitPair{Write: p(int64(1500))}}},
	}
}

// measuredVerdicts reads what the guide's AWS CLI commands print for a scenario of the stand-in over the
// hours before end, as dynamokeys_observed_traffic reads an offline export, gives it to the orders design
// (as observed, or as observed_indexes of index), and returns the rules' findings.
func measuredVerdicts(t *testing.T, scenario, index string, end time.Time, hours int) []Finding {
	t.Helper()
	stub := &awsstub.Server{Now: func() time.Time { return end }, Insights: map[string]awsstub.Insights{}, Workloads: map[string]*awsstub.Workload{}}
	var specs []string
	for _, q := range observed.MetricQueries {
		specs = append(specs, q.ID+"="+q.Metric)
	}
	metrics, accessed, throttled, err := stub.CLIOutputs(stub.Scenario(scenario, end), end.Add(-time.Duration(hours)*time.Hour), end, specs)
	if err != nil {
		t.Fatal(err)
	}
	// The data source reads a null report as an empty one.
	obs, _, problems := observed.Observe(observed.Export{TableName: "orders", IndexName: index,
		MetricData: metrics, AccessedKeysReport: []byte(string(accessed)), ThrottledKeysReport: []byte(string(throttled))})
	if len(problems) > 0 {
		t.Fatalf("the export is refused: %s", problems[0].Message)
	}
	in := measuredOrders()
	o := model.ObservedInput{Path: model.Path{"observed"}, Observation: *obs}
	if index != "" {
		o.Path = model.Path{"observed_indexes", index}
		if err := o.ForIndex(index); err != nil {
			t.Fatal(err)
		}
	}
	in.Observed = []model.ObservedInput{o}
	return builtinFindings(t, in)
}

// The measured rules' verdict on each scenario of the stand-in: its workloads are generated in AWS's own
// units, exported as the AWS CLI prints them and read by the data source's parser. Three hours up to the
// export's end hold every scenario's daily peak (11:00). The provider's tests plan the same path through
// the CLI (TestObservedTrafficOfflineFigures, TestAccObservedTrafficLiveFourteenDays); reports stitched
// over a day boundary are theirs.
func TestMeasuredTrafficVerdicts(t *testing.T) {
	t.Parallel()
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	const hours = 3
	// events is a scenario's total of a throttle metric over the window, as DK704 prints it.
	events := func(scenario, metric string) string {
		stub := &awsstub.Server{Now: func() time.Time { return end }, Insights: map[string]awsstub.Insights{}, Workloads: map[string]*awsstub.Workload{}}
		w := stub.Workloads[stub.Scenario(scenario, end)]
		return regexp.QuoteMeta(report.FormatNumber(w.MetricTotal(metric, end.Add(-hours*time.Hour), end)))
	}
	for name, tc := range map[string]struct {
		scenario, index string
		rules           []string // rule:severity of the measured rules' findings
		messages        []string // one finding's "rule message" matches each
		noFinding       bool     // no rule at all finds anything
	}{
		"write-hot key in a read-heavy table": {awsstub.ScenarioReadHeavyWriteHotKey, "",
			[]string{"DK701:error", "DK702:error", "DK703:error", "DK704:warning"},
			[]string{`DK702 the busiest key "CUSTOMER#c-1001" of the table took 2,850 units/s at its busiest minute .*95% of a partition's 3,000 units/s .*` +
				`the key needs 2 shards and the table is written with 1`,
				`DK704 the table was throttled on key range .* 0 read and ` + events(awsstub.ScenarioReadHeavyWriteHotKey, "WriteKeyRangeThroughputThrottleEvents") +
					` write events; throttled keys "CUSTOMER#c-1001"`}, false},
		"read-hot key in a write-heavy table": {awsstub.ScenarioWriteHeavyReadHotKey, "",
			[]string{"DK701:error", "DK702:error"},
			[]string{`DK702 the busiest key "CUSTOMER#c-2002" of the table took 5,290 units/s .* the key needs 3 shards`}, false},
		"calm table": {awsstub.ScenarioCalm, "", nil, nil, true},
		"key-range throttling without Contributor Insights": {awsstub.ScenarioKeyRangeThrottled, "",
			[]string{"DK701:warning", "DK704:warning"},
			[]string{`DK704 the table was throttled on key range .* 0 read and ` + events(awsstub.ScenarioKeyRangeThrottled, "WriteKeyRangeThroughputThrottleEvents") +
				` write events; Contributor Insights is off, so the key is not named: turn it on`,
				`DK704 the table was throttled over its on-demand maximum .* 0 read and ` +
					events(awsstub.ScenarioKeyRangeThrottled, "WriteMaxOnDemandThroughputThrottleEvents") + ` write events`}, false},
		"throttled-keys mode": {awsstub.ScenarioThrottledKeysOnly, "",
			[]string{"DK701:warning", "DK704:warning"},
			[]string{`DK704 the table was throttled on key range .*; throttled keys "CUSTOMER#c-3003"`}, false},
		"hot index": {awsstub.ScenarioHotIndex, "by_status",
			[]string{"DK701:error", "DK702:error"},
			[]string{`DK702 the busiest key "shipped" of index by_status took 6,040 units/s .* the index key needs 3 partitions' throughput`}, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			all := measuredVerdicts(t, tc.scenario, tc.index, end, hours)
			if tc.noFinding && len(all) > 0 {
				t.Errorf("findings on a calm table: %v", all)
			}
			var rules, texts []string
			for _, f := range slices.DeleteFunc(all, func(f Finding) bool { return !strings.HasPrefix(f.Rule, "DK70") }) {
				rules = append(rules, f.Rule+":"+f.Severity)
				texts = append(texts, f.Rule+" "+f.Message)
			}
			slices.Sort(rules)
			if rules = slices.Compact(rules); !slices.Equal(rules, tc.rules) {
				t.Errorf("measured rules %v, want %v:\n%s", rules, tc.rules, strings.Join(texts, "\n"))
			}
			for _, want := range tc.messages {
				re := regexp.MustCompile("(?s)" + want)
				if !slices.ContainsFunc(texts, re.MatchString) {
					t.Errorf("no finding matches %q:\n%s", want, strings.Join(texts, "\n"))
				}
			}
		})
	}
}
