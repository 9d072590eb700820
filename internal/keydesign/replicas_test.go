package keydesign

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

// globalEvents is a held-out global table: a day-bucketed key (all current writes on one key), 1 KB items,
// calculated sharding sized from traffic, each Region writing 600 per second (without Regions, the table
// writes 600 per second in one Region).
func globalEvents(regions ...string) *model.Input {
	const perRegion = 600.0
	in := &model.Input{
		Kind: "keydesign", TableName: "events", BillingMode: "PAY_PER_REQUEST",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("DAY#{day}#{shard}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("EVENT#{event_id}")},
		Segments: map[string]model.Segment{
			"day":      {Kind: model.KindTime, Granularity: "day"},
			"event_id": {Kind: model.KindID, MaxLength: p(int64(26))},
		},
		Sharding: model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id"},
		Traffic:  model.Traffic{ItemSizeBytes: p(int64(1000)), ReadsPerSecond: p(100.0)},
	}
	if len(regions) == 0 {
		in.Traffic.WritesPerSecond = p(perRegion)
		return in
	}
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{}}
	for _, r := range regions {
		in.Replicas.Regions[r] = model.ReplicaRegion{WritesPerSecond: p(perRegion)}
	}
	return in
}

// TestReplicasPartitionDemandIsGlobal: 600 writes/s in each of three Regions put 1,800 WCU on the current
// day's key in every Region: three shards at 80% of 1,000 WCU, where one Region alone needs one.
func TestReplicasPartitionDemandIsGlobal(t *testing.T) {
	single := analyze(t, globalEvents())
	if got := single.Derived.RequiredShards; got != 1 {
		t.Fatalf("single Region: required shards %d, want 1", got)
	}
	doc := analyze(t, globalEvents("us-east-1", "us-east-2", "us-west-2"))
	c, r := doc.Derived.Capacity, doc.Derived.Replicas
	if r == nil {
		t.Fatal("no replica facts")
	}
	if *doc.Traffic.WritesPerSecond != 1800 || *c.HotKeyWriteUnits != 1800 || *r.HotKeyWriteUnits != 1800 {
		t.Errorf("writes %v, hot key %v, replicas' hot key %v: want the global 1,800", *doc.Traffic.WritesPerSecond, *c.HotKeyWriteUnits, *r.HotKeyWriteUnits)
	}
	if doc.Derived.RequiredShards != 3 || doc.Derived.ShardCount != 3 || *c.PerShardWriteUnits != 600 {
		t.Errorf("required %d, count %d, per shard %v: want 3, 3, 600", doc.Derived.RequiredShards, doc.Derived.ShardCount, *c.PerShardWriteUnits)
	}
	// Reads stay per Region.
	if *c.HotKeyReadUnits != 50 {
		t.Errorf("hot key reads %v, want 50 (100 eventual reads of 1 KB in the Region)", *c.HotKeyReadUnits)
	}
	for _, rf := range r.Regions {
		if *rf.WritesPerSecond != 600 || *rf.ReplicatedWritesPerSecond != 1200 || !near(rf.WriteShare, 1.0/3) || rf.RegionSet != "US" {
			t.Errorf("%s: local %v, replicated %v, share %v, set %q", rf.Region, *rf.WritesPerSecond, *rf.ReplicatedWritesPerSecond, rf.WriteShare, rf.RegionSet)
		}
	}
	if r.RegionCount != 3 || !r.WriteSharesSumToOne || r.WritesBasis != model.ReplicaWritesPerRegion || r.Consistency != model.ConsistencyEventual {
		t.Errorf("facts %+v", r)
	}
}

// TestReplicasTTLDeletesAddToThePartitionDemand: TTL deletes are replicated writes in a global table (and
// cost nothing in a single-Region table).
func TestReplicasTTLDeletesAddToThePartitionDemand(t *testing.T) {
	in := globalEvents("us-east-1", "us-east-2")
	in.Replicas.TTLDeletesPerSecond = p(200.0)
	doc := analyze(t, in)
	if got := *doc.Derived.Capacity.HotKeyWriteUnits; got != 1400 {
		t.Errorf("hot key write units %v, want 1,200 writes + 200 TTL deletes", got)
	}
	if got := *doc.Derived.Replicas.Regions[0].ReplicatedWritesPerSecond; got != 700 {
		t.Errorf("replicated into us-east-1 %v, want 600 writes + half the 200 TTL deletes", got)
	}
}

// TestSingleRegionDesignKeepsItsFigures: no replicas, an empty replicas and a replicas block with nothing but
// the default consistency give the same document, byte for byte.
func TestSingleRegionDesignKeepsItsFigures(t *testing.T) {
	for name, in := range map[string]func() *model.Input{
		"orders": func() *model.Input { return pricedOrders("PAY_PER_REQUEST") },
		"events": func() *model.Input { return globalEvents() },
	} {
		want, _ := json.Marshal(analyze(t, in()))
		for _, r := range []*model.Replicas{{}, {Regions: map[string]model.ReplicaRegion{}}, {Consistency: model.ConsistencyEventual}} {
			with := in()
			with.Replicas = r
			got, _ := json.Marshal(analyze(t, with))
			if string(got) != string(want) {
				t.Errorf("%s with replicas %+v: the document changed", name, r)
			}
		}
		if strings.Contains(string(want), `"replicas"`) || strings.Contains(string(want), `"all_regions"`) {
			t.Errorf("%s: a single-Region document mentions replicas", name)
		}
	}
}

// TestReplicasCostPerRegion prices the cost guide's orders table as a global table in us-east-1 and
// eu-west-1, half the writes each and 10 TTL deletes a second, to the cent from the price table.
func TestReplicasCostPerRegion(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(0.5)}, "eu-west-1": {WriteShare: p(0.5)}},
		TTLDeletesPerSecond: p(10.0)}
	c := costOf(t, in)
	if len(c.Replicas) != 2 || c.AllRegions == nil {
		t.Fatalf("replicas %+v", c.Replicas)
	}
	eu, us := c.Replicas[0], c.Replicas[1]
	if eu.Region != "eu-west-1" || us.Region != "us-east-1" {
		t.Fatalf("regions %s, %s", eu.Region, us.Region)
	}
	// Table writes: 50 writes/s average × 3 write units × 2,628,000 s = 394.2 M units, every one performed in
	// both Regions; plus the other Region's TTL deletes: 10 × 0.5 × 3 = 15 units/s, 39.42 M units.
	for _, tc := range []struct {
		r     model.RegionCost
		price float64
		want  string
	}{{us, 0.625, "$271.01"}, {eu, 0.70675, "$306.46"}} {
		if got := cents(tc.r.OnDemand.TableWrites); got != tc.want || got != cents((394.2+39.42)*tc.price) {
			t.Errorf("%s on-demand table writes %s, want %s", tc.r.Region, got, tc.want)
		}
	}
	// Storage in every Region: the same GB at each Region's price.
	if *us.OnDemand.Storage == *eu.OnDemand.Storage || !near(*eu.OnDemand.Storage / *us.OnDemand.Storage, 0.283/0.25) {
		t.Errorf("storage us %v, eu %v", *us.OnDemand.Storage, *eu.OnDemand.Storage)
	}
	if got, want := *c.AllRegions.OnDemand, *us.OnDemand.Total+*eu.OnDemand.Total; !near(got, want) {
		t.Errorf("all Regions on-demand %v, want %v", got, want)
	}
	// Without TTL, each Region's total is the single-Region design's total priced there.
	in.Replicas.TTLDeletesPerSecond = nil
	c = costOf(t, in)
	for _, r := range c.Replicas {
		alone := pricedOrders("PAY_PER_REQUEST")
		alone.Pricing.Region = r.Region
		if got, want := *r.OnDemand.Total, *costOf(t, alone).OnDemand.Total; !near(got, want) {
			t.Errorf("%s: %v, single-Region design there %v", r.Region, got, want)
		}
	}
	report := report.Text(analyze(t, in), nil)
	for _, want := range []string{"per replica Region", "eu-west-1", "all Regions", "estimates, not confirmed list prices"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// TestReplicasBadInputOnItsPath: a Region the price table lacks without prices, a witness that is a
// replica, an unknown consistency, writes given twice.
func TestReplicasBadInputOnItsPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *model.Replicas
		also func(*model.Input)
		path string
	}{
		{"unpriced region", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {}, "sa-east-1": {}}}, nil, "replicas.regions.sa-east-1.prices"},
		{"witness is a replica", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {}, "us-east-2": {}}, Witness: p("us-east-1")}, nil, "replicas.witness"},
		{"consistency", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {}}, Consistency: "linearizable"}, nil, "replicas.consistency"},
		{"region code", &model.Replicas{Regions: map[string]model.ReplicaRegion{"Virginia": {}}}, nil, "replicas.regions.Virginia"},
		{"mixed", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(0.5)}, "us-east-2": {WritesPerSecond: p(3.0)}}}, nil, "replicas.regions"},
		{"twice", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WritesPerSecond: p(3.0)}}},
			func(in *model.Input) { in.Traffic.WritesPerSecond, in.Traffic.AverageWritesPerSecond = p(3.0), nil }, "traffic.writes_per_second"},
		{"pricing region elsewhere", &model.Replicas{Regions: map[string]model.ReplicaRegion{"eu-west-1": {}, "ap-northeast-1": {}}},
			func(in *model.Input) { in.Pricing.RegionSource = "pricing" }, "pricing.region"},
		{"share range", &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(1.5)}}}, nil, "replicas.regions.us-east-1.write_share"},
	} {
		in := pricedOrders("PAY_PER_REQUEST")
		in.Replicas = tc.r
		if tc.also != nil {
			tc.also(in)
		}
		_, errs := Analyze(in)
		var paths []string
		for _, e := range errs {
			paths = append(paths, e.Path.String())
		}
		if !slices.Contains(paths, tc.path) {
			t.Errorf("%s: errors on %v, want one on %s (%v)", tc.name, paths, tc.path, errs)
		}
	}
	// A pricing Region the provider gave (not pricing.region) gives way to the first replica Region.
	in := pricedOrders("PAY_PER_REQUEST")
	in.Pricing = &model.PricingInput{Region: "us-east-1", RegionSource: model.CostRegionSourceProvider}
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{"eu-west-1": {}, "ap-northeast-1": {}}}
	if c := costOf(t, in); c.Region != "ap-northeast-1" || c.RegionSource != model.CostRegionSourceReplicas {
		t.Errorf("priced in %s (%s), want ap-northeast-1 from the replicas", c.Region, c.RegionSource)
	}
	// With its prices the Region is priced.
	in = pricedOrders("PAY_PER_REQUEST")
	price := p(0.5)
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {}, "sa-east-1": {Prices: model.PriceOverrides{
		WriteRequestUnitsPerMillion: price, ReadRequestUnitsPerMillion: price, WriteCapacityUnitHour: price,
		ReadCapacityUnitHour: price, StorageGBMonth: price, PITRGBMonth: price}}}}
	c := costOf(t, in)
	if c.Replicas[0].Region != "sa-east-1" || c.Replicas[0].PriceSource != model.CostPriceSourceOverride || len(c.Replicas[0].PriceStatus.Given) != 6 {
		t.Errorf("sa-east-1 %+v", c.Replicas[0])
	}
}

// TestReplicasWriteSharesSum: shares that do not sum to 1 are a fact for DK606, not an input error; no
// shares at all split the writes equally.
func TestReplicasWriteSharesSum(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Replicas = &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(0.5)}, "eu-west-1": {WriteShare: p(0.3)}}}
	r := analyze(t, in).Derived.Replicas
	if r.WriteSharesSumToOne || !near(r.WriteShareSum, 0.8) {
		t.Errorf("sum %v, sums to one %v", r.WriteShareSum, r.WriteSharesSumToOne)
	}
	in.Replicas.Regions = map[string]model.ReplicaRegion{"us-east-1": {}, "eu-west-1": {}, "ap-northeast-1": {}}
	r = analyze(t, in).Derived.Replicas
	if !r.WriteSharesSumToOne || r.WritesBasis != model.ReplicaWritesEqual || !near(r.Regions[0].WriteShare, 1.0/3) {
		t.Errorf("equal split %+v", r)
	}
}

// TestUnknownReplicasAreNotErrors: replicas known only after apply leave the replica facts, capacity and
// cost unknown.
func TestUnknownReplicasAreNotErrors(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Unknown = []model.Path{{"replicas", "regions"}}
	doc := analyze(t, in)
	for _, want := range []string{"derived.replicas", "derived.capacity", "derived.cost"} {
		if !slices.Contains(doc.Unknown, want) {
			t.Errorf("unknown %v lacks %s", doc.Unknown, want)
		}
	}
	if doc.Derived.Cost != nil {
		t.Errorf("a cost of unknown Regions: %+v", doc.Derived.Cost)
	}
}

// TestPriceNotesAndProvenanceAgree keeps the price table's notes and the provenance the report prints in
// step: a region and class with an estimate says "not confirmed" (or "scaled") in its note, one without
// does not, and the report's wording lists exactly the confirmed prices as confirmed.
func TestPriceNotesAndProvenanceAgree(t *testing.T) {
	for region, classes := range model.PriceTable.Regions {
		for class, pr := range classes {
			for _, name := range pr.Confirmed {
				if !slices.Contains(model.PriceNames, name) {
					t.Errorf("%s %s: confirmed %q is not a price", region, class, name)
				}
			}
			note := strings.ToLower(pr.Note)
			estimated := len(pr.Confirmed) < len(model.PriceNames)
			if says := strings.Contains(note, "not confirmed") || strings.Contains(note, "scaled"); says != estimated {
				t.Errorf("%s %s: note %q, but %d of %d prices are confirmed", region, class, pr.Note, len(pr.Confirmed), len(model.PriceNames))
			}
			st := model.PriceStatusOf(region, class, model.PriceOverrides{})
			if !slices.Equal(st.Confirmed, pr.Confirmed) && (len(st.Confirmed) != 0 || len(pr.Confirmed) != 0) {
				t.Errorf("%s %s: status confirms %v, the table %v", region, class, st.Confirmed, pr.Confirmed)
			}
			w := st.Wording()
			if (len(pr.Confirmed) > 0) != strings.Contains(w, "confirmed list prices (sources as of "+model.PriceTable.Retrieved+")") ||
				estimated != strings.Contains(w, "estimates, not confirmed list prices") {
				t.Errorf("%s %s: wording %q", region, class, w)
			}
		}
	}
}

// TestMultiRegionGuideFigures recomputes the multi-region guide's cost per Region and report lines from the
// price table, to the cent.
func TestMultiRegionGuideFigures(t *testing.T) {
	src, err := os.ReadFile("../../templates/guides/multi-region-tables.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	guide := string(src)
	in := globalEvents("us-east-1", "eu-west-1", "ap-northeast-1")
	in.Traffic.AverageWritesPerSecond = p(900.0)
	in.Pricing = &model.PricingInput{Region: "us-east-1"}
	in.Replicas.TTLDeletesPerSecond = p(50.0)
	doc := analyze(t, in)
	for _, r := range doc.Derived.Cost.Replicas {
		row := fmt.Sprintf("| %s | (2,365.2 M + 87.6 M) / 10^6 × $%s = %s |", r.Region,
			strconv.FormatFloat(r.Prices.WriteRequestUnitsPerMillion, 'f', -1, 64), report.FormatUSD(r.OnDemand.TableWrites))
		if !strings.Contains(guide, row) {
			t.Errorf("the guide lacks the row %q", row)
		}
	}
	report := report.Text(doc, nil)
	for _, line := range []string{"writes 1,800/s = 1,850 WCU", "TTL deletes 50/s are replicated too",
		"ap-northeast-1   600 writes/s made here (33.3%) + 1,233.3/s replicated from the other Regions"} {
		if !strings.Contains(report, line) || !strings.Contains(guide, line) {
			t.Errorf("report or guide lacks %q:\n%s", line, report)
		}
	}
}

// TestReplicasTTLDeletesWithEntities: an entity design's TTL deletes add to the demand as its writes spread:
// 630 deletes over 6,300 writes add a tenth to the busiest collection's 1,300 WCU.
func TestReplicasTTLDeletesWithEntities(t *testing.T) {
	in := &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"}, "event_id": {Kind: model.KindID}, "user_id": {Kind: model.KindID}},
		Entities: []model.Entity{
			{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"}, Traffic: model.EntityTraffic{WritesPerSecond: p(600.0)}},
			{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}"}, Traffic: model.EntityTraffic{WritesPerSecond: p(700.0)}},
			{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE"}, Traffic: model.EntityTraffic{WritesPerSecond: p(5000.0)}},
		},
		Replicas: &model.Replicas{Regions: map[string]model.ReplicaRegion{"us-east-1": {WriteShare: p(0.5)}, "us-east-2": {WriteShare: p(0.5)}},
			TTLDeletesPerSecond: p(630.0)}}
	c := analyze(t, in).Derived.Capacity
	if !near(*c.HotKeyWriteUnits, 1430) || !near(*c.PeakWriteUnits, 6930) {
		t.Errorf("hot key %v WCU, peak %v; want 1,430 and 6,930", *c.HotKeyWriteUnits, *c.PeakWriteUnits)
	}
	// In one Region the TTL deletes are free and the figures stay.
	in.Replicas = nil
	if c := analyze(t, in).Derived.Capacity; *c.HotKeyWriteUnits != 1300 || *c.PeakWriteUnits != 6300 {
		t.Errorf("single Region: hot key %v, peak %v", *c.HotKeyWriteUnits, *c.PeakWriteUnits)
	}
}
