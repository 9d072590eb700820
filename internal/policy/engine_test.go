package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func p[T any](v T) *T { return &v }

// tableDesign is a table with 2 GSIs and 2 LSIs whose day-bucketed key is too hot: DK301 and DK303 fire.
func tableDesign() *model.Input {
	return &model.Input{
		Kind: "sharded_table", Address: "dynamokeys_sharded_table.events", TableName: "events", BillingMode: "PAY_PER_REQUEST",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("DAY#{day}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("EVENT#{event_id}")},
		Segments: map[string]model.Segment{
			"day":      {Kind: model.KindTime, Granularity: "day"},
			"event_id": {Kind: model.KindID},
		},
		Traffic: model.Traffic{WritesPerSecond: p(2500.0), ReadsPerSecond: p(400.0), ItemSizeBytes: p(int64(800)), MaxItemsPerPartitionKey: p(int64(1000))},
		LocalSecondaryIndexes: []model.LocalSecondaryIndex{
			{Name: "by_created", SortKey: model.IndexKeyAttribute{Name: "created", Type: "N"}, ProjectionType: "KEYS_ONLY"},
			{Name: "by_status", SortKey: model.IndexKeyAttribute{Name: "status", Type: "S"}, ProjectionType: "INCLUDE", NonKeyAttributes: []string{"total"}},
		},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "by_customer", PartitionKey: []model.IndexKeyAttribute{{Name: "customerId", Cardinality: p(int64(1000000))}}},
			{Name: "by_region_day", PartitionKey: []model.IndexKeyAttribute{{Name: "region"}, {Name: "day"}}, ProjectionType: "KEYS_ONLY"},
		},
	}
}

func analyzed(tb testing.TB, in *model.Input) *model.Document {
	tb.Helper()
	doc, errs := keydesign.Analyze(in)
	if errs != nil {
		tb.Fatal(errs)
	}
	return doc
}

func TestEvaluateHotDailyLog(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, tableDesign()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Finding{}
	for _, f := range findings {
		got[f.Rule] = f
	}
	for _, id := range []string{"DK301", "DK303", "DK204", "DK501"} {
		if _, ok := got[id]; !ok {
			t.Errorf("missing %s in %v", id, findings)
		}
	}
	if f := got["DK303"]; !strings.Contains(f.Message, "at least 4 shards") || f.Path.String() != "partition_key.template" {
		t.Errorf("DK303 = %+v", f)
	}
	for i := 1; i < len(findings); i++ {
		if findings[i-1].Severity == SeverityWarning && findings[i].Severity == SeverityError {
			t.Errorf("findings are not sorted errors first: %v", findings)
		}
	}
}

func TestEvaluateFixedDesignHasNoErrors(t *testing.T) {
	in := tableDesign()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: "calculated", Source: "event_id"}
	in.LocalSecondaryIndexes = nil
	in.GlobalSecondaryIndexes = nil
	e, _ := Builtin()
	findings, err := e.Evaluate(t.Context(), analyzed(t, in))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Severity == SeverityError {
			t.Errorf("unexpected error finding %s: %s", f.Rule, f.Message)
		}
	}
}

func writePolicy(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "org.rego"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCustomPolicyAddsFindings(t *testing.T) {
	dir := writePolicy(t, `package dynamokeys.custom.org

findings contains {"rule": "ORG001", "name": "table-prefix", "severity": "warning", "message": msg, "path": ["name"]} if {
	not startswith(input.table.name, "prod-")
	msg := sprintf("table %q does not start with prod-", [input.table.name])
}
`)
	e, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, tableDesign()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Rule == "ORG001" && f.Path.String() == "name" {
			return
		}
	}
	t.Errorf("custom finding missing: %v", findings)
}

// The engine compiles the modules its queries reach: not the plan adapter or the conftest and platform entry
// points, which read plan JSON, unless a user policy refers to them.
func TestEngineCompilesWhatItsQueriesReach(t *testing.T) {
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	entryPoint := func(m *ast.Module) bool {
		pkg := m.Package.Path.String()
		return strings.HasPrefix(pkg, "data.dynamokeys.plan") ||
			slices.Contains([]string{"data.dynamokeys.conftest", "data.dynamokeys.hcp", "data.dynamokeys.spacelift", "data.dynamokeys.env0"}, pkg)
	}
	reached := findingsModules(modules)
	for name, m := range modules {
		if _, in := reached[name]; in == entryPoint(m) {
			t.Errorf("%s (package %s) compiled: %t", name, m.Package.Path, in)
		}
	}
	custom, err := ast.ParseModuleWithOpts("org.rego", `package dynamokeys.custom.org

findings contains {"rule": "ORG002", "severity": "warning", "message": "planned", "path": []} if data.dynamokeys.plan.candidates[_]
`, parserOptions())
	if err != nil {
		t.Fatal(err)
	}
	modules["org.rego"] = custom
	reached = findingsModules(modules)
	for name, m := range modules {
		if _, in := reached[name]; !in && strings.HasPrefix(m.Package.Path.String(), "data.dynamokeys.plan") {
			t.Errorf("%s not compiled although a user policy reads the plan adapter", name)
		}
	}
}

// TestSandboxRefusesUnsafeBuiltins: user policies cannot reach the network, the clock, randomness or the
// runtime (and with it the environment, where AWS keys live).
func TestSandboxRefusesUnsafeBuiltins(t *testing.T) {
	for _, call := range []string{
		`http.send({"method": "GET", "url": "http://127.0.0.1:1"})`,
		`net.lookup_ip_addr("localhost")`,
		`opa.runtime()`,
		`time.now_ns()`,
		`rand.intn("x", 10)`,
	} {
		t.Run(strings.SplitN(call, "(", 2)[0], func(t *testing.T) {
			dir := writePolicy(t, "package dynamokeys.custom.evil\n\nleak := "+call+"\n")
			_, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
			if err == nil {
				t.Fatalf("a policy calling %s was accepted", call)
			}
			name := strings.SplitN(call, "(", 2)[0]
			if !strings.Contains(err.Error(), "org.rego:3") || !strings.Contains(err.Error(), name) {
				t.Errorf("error does not name file, line and built-in: %v", err)
			}
		})
	}
}

func TestEnvironmentNeverReachesPolicies(t *testing.T) {
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t-value")
	// The only way in would be opa.runtime().env, which the sandbox removes (above); the document the
	// engine evaluates is built from the configuration alone.
	dir := writePolicy(t, `package dynamokeys.custom.spy

findings contains {"rule": "SPY", "name": "spy", "severity": "warning", "message": json.marshal([input, data.dynamokeys.lib]), "path": []}
`)
	e, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	findings, err := e.Evaluate(t.Context(), analyzed(t, tableDesign()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Rule == "SPY" && strings.Contains(f.Message, "s3cr3t-value") {
			t.Fatal("an environment variable reached a policy")
		}
	}
}

func TestPolicyOutsideCustomNamespaceIsRefused(t *testing.T) {
	dir := writePolicy(t, "package dynamokeys.rules.hot\n\nfindings contains {\"rule\": \"X\"}\n")
	_, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err == nil || !strings.Contains(err.Error(), "outside dynamokeys.custom") || !strings.Contains(err.Error(), "org.rego:1") {
		t.Errorf("err = %v", err)
	}
}

func TestPolicyCompileErrorNamesFileAndLine(t *testing.T) {
	dir := writePolicy(t, "package dynamokeys.custom.broken\n\nfindings contains x if {\n\tx := undefined_function(1)\n}\n")
	_, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err == nil || !strings.Contains(err.Error(), "org.rego:4") {
		t.Errorf("err = %v", err)
	}
}

// TestLoopingPolicyEndsAtTimeout: a policy that would run for hours is stopped by the context deadline.
func TestLoopingPolicyEndsAtTimeout(t *testing.T) {
	dir := writePolicy(t, `package dynamokeys.custom.slow

findings contains {"rule": "SLOW", "name": "slow", "severity": "warning", "message": "done", "path": []} if {
	count({1 | some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i != j}) > 0
}
`)
	e, err := NewEngine(t.Context(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	// ErrTimeout is the proof: the policy would otherwise run for hours (and `go test -timeout` end it).
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err = e.Evaluate(ctx, analyzed(t, tableDesign()))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
}

func TestCapabilitiesRemoveNondeterministicBuiltins(t *testing.T) {
	caps := Capabilities()
	for _, b := range caps.Builtins {
		if b.Nondeterministic || b.Name == "opa.runtime" {
			t.Errorf("built-in %s is still available", b.Name)
		}
	}
	if caps.AllowNet == nil || len(caps.AllowNet) != 0 {
		t.Errorf("AllowNet = %v, want empty (no hosts)", caps.AllowNet)
	}
}

// shardedTableDesign is tableDesign fixed: calculated sharding, still with 2 GSIs and 2 LSIs.
func shardedTableDesign() *model.Input {
	in := tableDesign()
	in.PartitionKey.Template = p("DAY#{day}#SHARD#{shard}")
	in.Sharding = model.Sharding{Strategy: "calculated", Source: "event_id"}
	in.GlobalSecondaryIndexes[1].PartitionKey = []model.IndexKeyAttribute{{Name: "region", Cardinality: p(int64(20))}, {Name: "customerId", Cardinality: p(int64(1000000))}}
	return in
}

// BenchmarkEvaluate is one evaluation, document conversion included, of a sharded table design with 2 GSIs
// and 2 LSIs (target: median < 1 ms).
func BenchmarkEvaluate(b *testing.B) { benchmarkEvaluate(b, shardedTableDesign()) }

// BenchmarkEvaluateWithAccessPatterns is BenchmarkEvaluate's design with 20 access patterns over the table
// key, both LSIs and both GSIs, some of which fire DK801–DK808.
func BenchmarkEvaluateWithAccessPatterns(b *testing.B) {
	benchmarkEvaluate(b, withAccessPatterns(shardedTableDesign(), 20))
}

// BenchmarkEvaluateWithCleanAccessPatterns has 20 patterns that each read one item by its whole key: no
// finding, so it measures what the patterns cost the rules, apart from building findings.
func BenchmarkEvaluateWithCleanAccessPatterns(b *testing.B) {
	in := shardedTableDesign()
	for i := range 20 {
		in.AccessPatterns = append(in.AccessPatterns, model.AccessPattern{Name: fmt.Sprintf("get_%02d", i),
			Equals: []string{"day", "event_id"}, ReadsPerSecond: p(float64(i + 1))})
	}
	benchmarkEvaluate(b, in)
}

// withAccessPatterns adds n access patterns cycling through the shapes a design declares: Queries on each key,
// fan-out, a sort condition out of order, a strong read on a GSI, projection misses and Scans.
func withAccessPatterns(in *model.Input, n int) *model.Input {
	shapes := []model.AccessPattern{
		{Equals: []string{"day", "event_id"}},
		{Equals: []string{"day"}, Items: p(int64(50))},
		{Equals: []string{"day"}, Sort: &model.SortCondition{On: "created", Condition: model.SortBetween}, Items: p(int64(20))},
		{Index: p("by_status"), Equals: []string{"day"}, Sort: &model.SortCondition{On: "status", Condition: model.SortBeginsWith}},
		{Equals: []string{"customerId"}, Items: p(int64(10)), Attributes: []string{"total"}},
		{Index: p("by_region_day"), Equals: []string{"region", "customerId"}, Consistency: "strong"},
		{Equals: []string{"region"}},
		{Index: p("by_created"), Equals: []string{"day"}, Sort: &model.SortCondition{On: "created", Condition: model.SortGreater}, Attributes: []string{"payload"}},
		{Equals: []string{"customerId"}, Items: p(int64(2000)), HotKeyShare: p(1.0)},
		{Index: p("table"), Equals: []string{"day"}, Sort: &model.SortCondition{On: "event_id", Condition: model.SortBeginsWith}},
	}
	for i := range n {
		ap := shapes[i%len(shapes)]
		ap.Name = fmt.Sprintf("pattern_%02d", i)
		ap.ReadsPerSecond = p(float64(10 * (i + 1)))
		in.AccessPatterns = append(in.AccessPatterns, ap)
	}
	return in
}

// BenchmarkEvaluateHotDesign is the same table unsharded, where four error findings are built and formatted.
func BenchmarkEvaluateHotDesign(b *testing.B) { benchmarkEvaluate(b, tableDesign()) }

func benchmarkEvaluate(b *testing.B, in *model.Input) {
	b.Helper()
	e, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	doc := analyzed(b, in)
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate(ctx, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileBundle compiles and prepares the embedded bundle (target: < 200 ms, once per process).
func BenchmarkCompileBundle(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e, err := NewEngine(b.Context(), Options{})
		if err == nil {
			err = e.Prepare(b.Context())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
