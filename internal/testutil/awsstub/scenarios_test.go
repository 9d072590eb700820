package awsstub

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the example exports in examples/observed-traffic/fixtures")

// exampleEnd is the end of the example exports' window.
var exampleEnd = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// MetricSpecs are the query file's queries as CLIOutputs takes them.
func metricSpecs() []string {
	var specs []string
	for _, q := range observed.MetricQueries {
		specs = append(specs, q.ID+"="+q.Metric)
	}
	return specs
}

// TestExampleExportsAreGenerated: the calm exports the examples read are the CLI's output for the calm
// scenario over 11:00–12:00; `go test ./internal/testutil/awsstub -run TestExampleExports -update` writes them.
func TestExampleExportsAreGenerated(t *testing.T) {
	s := &Server{Now: func() time.Time { return exampleEnd }, Insights: map[string]Insights{}, Workloads: map[string]*Workload{}}
	target := s.Scenario(ScenarioCalm, exampleEnd)
	metrics, accessed, throttled, err := s.CLIOutputs(target, exampleEnd.Add(-time.Hour), exampleEnd, metricSpecs())
	if err != nil {
		t.Fatal(err)
	}
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"calm-metric-data.json": metrics, "calm-accessed-keys.json": accessed, "calm-throttled-keys.json": throttled} {
		file := filepath.Join(root, "examples", "observed-traffic", "fixtures", name)
		if *update {
			if err := os.WriteFile(file, content, 0o600); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, content) {
			t.Errorf("%s is stale: run go test ./internal/testutil/awsstub -run TestExampleExports -update", name)
		}
	}
}

// TestWorkloadUnits: what the stand-in reports is the workload in DynamoDB's units: per-minute Sums of the
// keys' capacity units, the -PKC- rule's 3 × WCU + RCU per key and minute, the -PKT- rule's throttled
// requests, Read/WriteThrottleEvents as the sum of the causes.
func TestWorkloadUnits(t *testing.T) {
	s := &Server{Now: func() time.Time { return exampleEnd }, Insights: map[string]Insights{}, Workloads: map[string]*Workload{}}
	target := s.Scenario(ScenarioReadHeavyWriteHotKey, exampleEnd)
	metrics, accessed, throttled, err := s.CLIOutputs(target, exampleEnd.Add(-26*time.Hour), exampleEnd, metricSpecs())
	if err != nil {
		t.Fatal(err)
	}
	obs, warnings, errs := observed.Observe(observed.Export{TableName: "orders", MetricData: metrics, AccessedKeysReport: accessed, ThrottledKeysReport: throttled})
	if len(errs) > 0 || len(warnings) > 0 {
		t.Fatalf("errors %v, warnings %v", errs, warnings)
	}
	// Peak 1,500 WCU/s (500 spread + 950 + 50) and 9,000 RCU/s; the hot key 3 × 950 = 2,850 units/s, of
	// 3 × 1,500 + 9,000 = 13,500 table units in that minute.
	if *obs.Traffic.WritesPerSecond != 1500 || *obs.Traffic.ReadsPerSecond != 9000 || *obs.Traffic.HotKeyUnitsPerSecond != 2850 ||
		*obs.Traffic.HotKeyUnitShare != 2850.0/13500 {
		t.Errorf("traffic = %+v", obs.Traffic)
	}
	// Two reports (26 hours), joined: the peak hour of both days throttled 240 requests a minute.
	if k := obs.TopKeys[0]; k.Key != "CUSTOMER#c-1001" || k.ThrottleEvents != 2*60*240 || *obs.ThrottleEvents.WriteKeyRange != 2*60*240 ||
		*obs.ThrottleEvents.Write != 2*60*240 || *obs.ThrottleEvents.Read != 0 {
		t.Errorf("busiest key %+v, throttles %+v", k, obs.ThrottleEvents)
	}
	if k := obs.TopKeys[1]; k.Key != "customer#c-77" || *k.UnitsPerSecond != 150 {
		t.Errorf("second key %+v", k)
	}
	var reports []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(accessed))
	for dec.More() {
		var r json.RawMessage
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	if len(reports) != 2 {
		t.Errorf("%d reports for 26 hours, want 2", len(reports))
	}
}
