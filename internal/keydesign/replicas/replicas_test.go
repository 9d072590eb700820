package replicas

import (
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func globalTable(r model.Replicas, writes *float64) *model.Input {
	return &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: model.Ptr("USER#{user_id}")},
		Segments:     map[string]model.Segment{"user_id": {Kind: model.KindID}},
		Traffic:      model.Traffic{WritesPerSecond: writes},
		Replicas:     &r,
	}
}

func facts(t *testing.T, in *model.Input) *model.ReplicasFacts {
	t.Helper()
	in, summed := WithRegionWrites(in)
	m, errs := model.Build(in)
	if errs = append(errs, Validate(m, summed)...); len(errs) > 0 {
		t.Fatalf("design errors: %v", errs)
	}
	f, unknown := Facts(m, m.Input.Traffic.WritesPerSecond)
	if len(unknown) > 0 {
		t.Fatalf("unknown %v", unknown)
	}
	return f
}

// Every replica performs every Region's writes: with 1,000 writes a second split 0.7/0.3, each Region
// writes its share locally and replicates the rest, and a TTL delete expired elsewhere is a replicated write.
func TestEveryReplicaPerformsEveryWrite(t *testing.T) {
	t.Parallel()
	f := facts(t, globalTable(model.Replicas{Regions: map[string]model.ReplicaRegion{
		"us-east-1": {WriteShare: model.Ptr(0.7)}, "eu-west-1": {WriteShare: model.Ptr(0.3)},
	}, TTLDeletesPerSecond: model.Ptr(100.0)}, model.Ptr(1000.0)))
	if f.WritesBasis != model.ReplicaWritesShare || !f.WriteSharesSumToOne || f.RegionCount != 2 || !f.TTL {
		t.Fatalf("basis %s, shares sum to one %v, %d Regions, TTL %v", f.WritesBasis, f.WriteSharesSumToOne, f.RegionCount, f.TTL)
	}
	want := map[string][2]float64{
		// local writes, replicated writes: the other Regions' writes plus their share of the TTL deletes.
		"eu-west-1": {300, 700 + 100*0.7},
		"us-east-1": {700, 300 + 100*0.3},
	}
	for _, r := range f.Regions {
		w := want[r.Region]
		if model.Deref(r.WritesPerSecond) != w[0] || model.Deref(r.ReplicatedWritesPerSecond) != w[1] {
			t.Errorf("%s: %v local, %v replicated; want %v, %v", r.Region, model.Deref(r.WritesPerSecond), model.Deref(r.ReplicatedWritesPerSecond), w[0], w[1])
		}
	}
}

// Writes given per Region sum to the table's writes, and each Region's share is its part of the sum; shares
// that do not sum to one are a fact the rules report (DK606), not an error of the input.
func TestRegionWritesAndShares(t *testing.T) {
	t.Parallel()
	f := facts(t, globalTable(model.Replicas{Regions: map[string]model.ReplicaRegion{
		"us-east-1": {WritesPerSecond: model.Ptr(600.0)}, "us-west-2": {WritesPerSecond: model.Ptr(200.0)},
	}}, nil))
	if model.Deref(f.GlobalWritesPerSecond) != 800 || f.WritesBasis != model.ReplicaWritesPerRegion {
		t.Fatalf("global writes %v basis %s; want 800 per Region", model.Deref(f.GlobalWritesPerSecond), f.WritesBasis)
	}
	if f.Regions[0].Region != "us-east-1" || f.Regions[0].WriteShare != 0.75 || f.Regions[1].WriteShare != 0.25 {
		t.Errorf("regions %+v; want us-east-1 0.75, us-west-2 0.25", f.Regions)
	}
	uneven := facts(t, globalTable(model.Replicas{Regions: map[string]model.ReplicaRegion{
		"us-east-1": {WriteShare: model.Ptr(0.5)}, "us-west-2": {WriteShare: model.Ptr(0.4)},
	}}, model.Ptr(10.0)))
	if uneven.WriteSharesSumToOne || uneven.WriteShareSum != 0.9 {
		t.Errorf("shares 0.5 + 0.4: sum %v, sums to one %v", uneven.WriteShareSum, uneven.WriteSharesSumToOne)
	}
}

// A table in one Region has no replica facts.
func TestOneRegionHasNoFacts(t *testing.T) {
	t.Parallel()
	in := globalTable(model.Replicas{}, model.Ptr(10.0))
	in.Replicas = nil
	m, errs := model.Build(in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if f, _ := Facts(m, m.Input.Traffic.WritesPerSecond); f != nil {
		t.Errorf("facts %+v for a table in one Region", f)
	}
}
