package keydesign

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// customerTable is the textbook single table: a customer's PROFILE item beside their ORDER# items, and a
// GSI on the customer's email that only the profile carries.
func customerTable() *model.Input {
	return &model.Input{
		Kind:         "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"},
		SortKey:      &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID, MaxLength: p(int64(26))},
			"order_id":    {Kind: model.KindID, MaxLength: p(int64(26))},
			"order_date":  {Kind: model.KindTime, Granularity: "day"},
			"email":       {Kind: model.KindID, MaxLength: p(int64(254))},
		},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{
			Name:           "GSI1",
			PartitionKey:   []model.IndexKeyAttribute{{Name: "GSI1PK", Type: "S"}},
			SortKey:        []model.IndexKeyAttribute{{Name: "GSI1SK", Type: "S"}},
			ProjectionType: model.ProjectionAll,
		}},
		Entities: []model.Entity{
			{Name: "customer", Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": "PROFILE", "GSI1PK": "EMAIL#{email}", "GSI1SK": "CUSTOMER"},
				Traffic: model.EntityTraffic{WritesPerSecond: p(20.0), ItemSizeBytes: p(int64(600)), ItemCount: p(int64(2000000)), MaxItemsPerPartitionKey: p(int64(1))}},
			{Name: "order", Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": "ORDER#{order_date}#{order_id}"},
				Traffic: model.EntityTraffic{WritesPerSecond: p(300.0), ItemSizeBytes: p(int64(1500)), MaxItemsPerPartitionKey: p(int64(5000))}},
		},
	}
}

func entityCollisions(doc *model.Document) []string {
	out := []string{}
	for _, c := range doc.Derived.Entities.Collisions {
		out = append(out, strings.Join(c.Entities, "+"))
	}
	return out
}

func TestCustomerTableEntities(t *testing.T) {
	t.Parallel()
	doc := analyze(t, customerTable())
	e := doc.Derived.Entities
	if got := entityCollisions(doc); len(got) != 0 {
		t.Errorf("collisions %v: PROFILE and ORDER#... cannot render the same sort key", got)
	}
	if len(e.Collections) != 1 || !slices.Equal(e.Collections[0].Entities, []string{"customer", "order"}) {
		t.Fatalf("collections %+v: the profile and the orders share CUSTOMER#{customer_id}", e.Collections)
	}
	if got := e.Items[0].Indexes; !slices.Equal(got, []string{"GSI1"}) {
		t.Errorf("customer lands in %v, want GSI1", got)
	}
	if got := e.Items[1].Indexes; len(got) != 0 {
		t.Errorf("order lands in %v, want none: it writes no GSI1 key (a sparse index)", got)
	}
	// A customer's collection: 1 profile of 600 B and 5,000 orders of 1,500 B.
	col := e.Collections[0]
	if *col.ItemsPerKey != 5001 || *col.Bytes != 600+5000*1500 {
		t.Errorf("collection %v items, %v bytes; want 5001, %d", *col.ItemsPerKey, *col.Bytes, 600+5000*1500)
	}
	// Every write lands on an unbounded id: no key is hot (share 0), the peak is 20×1 + 300×2 WCU.
	c := doc.Derived.Capacity
	if *c.PeakWriteUnits != 620 || c.HotKeyShareSource != capacity.ShareEntities {
		t.Errorf("peak %v WCU (%s), want 620 from the entities", *c.PeakWriteUnits, c.HotKeyShareSource)
	}
	if got := c.WriteUnitsPerWrite; got != 620.0/320 {
		t.Errorf("units per write %v, want the write-weighted mean %v", got, 620.0/320)
	}
	// GSI1 holds only the profiles: 20 of the 320 writes per second, and its cost counts only theirs.
	if got := doc.Derived.Cost.Indexes[0].ItemShare; got != 20.0/320 {
		t.Errorf("GSI1 item share %v, want %v", got, 20.0/320)
	}
	// Its entries are the profiles' 600 bytes: 1 write unit each, not the table's mean item's 2.
	if ic := doc.Derived.Cost.Indexes[0]; ic.WriteUnitsPerWrite != 1 || len(ic.Entities) != 1 || ic.Entities[0].Entity != "customer" {
		t.Errorf("GSI1 %v units per write, entities %+v", ic.WriteUnitsPerWrite, ic.Entities)
	}
}

func TestEntityCollisions(t *testing.T) {
	t.Parallel()
	withEntities := func(segments map[string]model.Segment, keys ...[2]string) *model.Input {
		in := &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
			Segments: map[string]model.Segment{
				"customer_id": {Kind: model.KindID}, "order_id": {Kind: model.KindID}, "invoice_id": {Kind: model.KindID},
				"order_date": {Kind: model.KindTime, Granularity: "day"}, "status": {Kind: model.KindEnum, Values: []string{"OPEN", "PAID"}},
				"n": {Kind: model.KindNumber}, "ts": {Kind: model.KindTime, Granularity: "millisecond"},
			}}
		for name, s := range segments {
			in.Segments[name] = s
		}
		for i, k := range keys {
			in.Entities = append(in.Entities, model.Entity{Name: fmt.Sprintf("e%d", i), Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": k[0]}})
			if k[1] != "" {
				in.Entities[i].Keys["PK"] = k[1]
			}
		}
		return in
	}
	for _, tc := range []struct {
		name     string
		segments map[string]model.Segment
		sortKeys []string
		collide  bool
		example  string
	}{
		{name: "same shape over other ids", sortKeys: []string{"ORDER#{order_id}", "ORDER#{invoice_id}"}, collide: true, example: `SK="ORDER#0"`},
		{name: "distinct prefixes", sortKeys: []string{"ORDER#{order_id}", "INVOICE#{invoice_id}"}},
		{name: "a literal against an enum holding it", sortKeys: []string{"STATUS#PAID", "STATUS#{status}"}, collide: true, example: `SK="STATUS#PAID"`},
		{name: "a literal against an enum without it", sortKeys: []string{"STATUS#VOID", "STATUS#{status}"}},
		{name: "a date against letters", sortKeys: []string{"ORDER#{order_date}", "ORDER#PENDING"}},
		{name: "a date against an id", sortKeys: []string{"ORDER#{order_date}", "ORDER#{order_id}"}, collide: true, example: `SK="ORDER#0000-00-00"`},
		{name: "an id never holds the delimiter", sortKeys: []string{"ORDER#{order_id}", "ORDER#{order_id}#ITEM#{n}"}},
		{name: "an id declared to hold it", segments: map[string]model.Segment{"order_id": {Kind: model.KindID, Characters: p("A-Z0-9#")}},
			sortKeys: []string{"ORDER#{order_id}", "ORDER#{invoice_id}#ITEM#{n}"}, collide: true, example: `SK="ORDER#0#ITEM#0"`},
		{name: "a number against digits", sortKeys: []string{"V#{n}", "V#12"}, collide: true, example: `SK="V#12"`},
		{name: "a number against a fraction", sortKeys: []string{"V#{n}", "V#1.5"}, collide: true},
		{name: "an epoch against a short number", sortKeys: []string{"T#{ts}", "T#12"}},
		{name: "an epoch against a number", sortKeys: []string{"T#{ts}", "T#{n}"}, collide: true, example: `SK="T#0000000000000"`},
		{name: "a ULID alphabet against lower case", segments: map[string]model.Segment{"order_id": {Kind: model.KindID, Characters: p("0-9A-Z")}},
			sortKeys: []string{"ORDER#{order_id}", "ORDER#draft"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := analyze(t, withEntities(tc.segments, [2]string{tc.sortKeys[0]}, [2]string{tc.sortKeys[1]}))
			got := doc.Derived.Entities.Collisions
			if (len(got) > 0) != tc.collide {
				t.Fatalf("collisions %+v, want collide = %v", got, tc.collide)
			}
			if tc.example != "" && !strings.Contains(got[0].Example, tc.example) {
				t.Errorf("example %s, want it to show %s", got[0].Example, tc.example)
			}
		})
	}
	// Different partition keys never collide, whatever the sort keys: e0 and e1 are in separate collections.
	doc := analyze(t, withEntities(nil, [2]string{"ORDER#{order_id}", "CUSTOMER#{customer_id}"}, [2]string{"ORDER#{order_id}", "VENDOR#{customer_id}"}))
	if len(doc.Derived.Entities.Collisions) != 0 || len(doc.Derived.Entities.Collections) != 2 {
		t.Errorf("collisions %+v, collections %+v", doc.Derived.Entities.Collisions, doc.Derived.Entities.Collections)
	}
}

// The busiest collection is the table's busiest key: a day bucket written by two entities sums them.
func TestEntityCollectionDemandSums(t *testing.T) {
	t.Parallel()
	in := &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"}, "event_id": {Kind: model.KindID}, "user_id": {Kind: model.KindID}},
		Entities: []model.Entity{
			{Name: "click", Keys: map[string]string{"PK": "DAY#{day}", "SK": "CLICK#{event_id}"}, Traffic: model.EntityTraffic{WritesPerSecond: p(600.0)}},
			{Name: "view", Keys: map[string]string{"PK": "DAY#{day}", "SK": "VIEW#{event_id}"}, Traffic: model.EntityTraffic{WritesPerSecond: p(700.0)}},
			{Name: "user", Keys: map[string]string{"PK": "USER#{user_id}", "SK": "PROFILE"}, Traffic: model.EntityTraffic{WritesPerSecond: p(5000.0)}},
		}}
	doc := analyze(t, in)
	c := doc.Derived.Capacity
	if *c.HotKeyWriteUnits != 1300 || *c.PeakWriteUnits != 6300 {
		t.Errorf("hot key %v WCU, peak %v; want the day's 600 + 700 and 6,300 in all", *c.HotKeyWriteUnits, *c.PeakWriteUnits)
	}
	busiest := doc.Derived.Entities.Collections[doc.Derived.Entities.Busiest]
	if !slices.Equal(busiest.Entities, []string{"click", "view"}) {
		t.Errorf("busiest collection %v", busiest.Entities)
	}
	// Each entity's own key is a day bucket; the table's key names its attribute only (nothing is lowered
	// onto it from the busiest entity).
	for _, e := range doc.Derived.Entities.Items {
		if e.PartitionKey.HasTimeBucket != (e.Name != "user") {
			t.Errorf("entity %s: time bucket %v", e.Name, e.PartitionKey.HasTimeBucket)
		}
	}
	if doc.Table.PartitionKey.Template != nil || doc.Derived.PartitionKey.HasTimeBucket || doc.Derived.RequiredShards != 2 {
		t.Errorf("table template %v, time bucket %v, required shards %d; want no template, no bucket of its own and 2 shards",
			doc.Table.PartitionKey.Template, doc.Derived.PartitionKey.HasTimeBucket, doc.Derived.RequiredShards)
	}
}

func TestEntityBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(*model.Input)
		path   string
		want   string
	}{
		{"a template for no key attribute", func(in *model.Input) { in.Entities[0].Keys["GSI9PK"] = "X" }, "entities.customer.keys.GSI9PK", "no key attribute"},
		{"an undeclared segment", func(in *model.Input) { in.Entities[1].Keys["SK"] = "ORDER#{nope}" }, "entities.order.keys.SK", "declare segments.nope"},
		{"no partition-key template", func(in *model.Input) { delete(in.Entities[1].Keys, "PK") }, "entities.order.keys", `no template for the table key "PK"`},
		{"a table template beside entities", func(in *model.Input) { in.PartitionKey.Template = p("CUSTOMER#{customer_id}") }, "partition_key.template", "remove partition_key.template"},
		{"table traffic beside entities", func(in *model.Input) { in.Traffic.WritesPerSecond = p(1.0) }, "traffic", "entities.<name>.traffic"},
		{"a malformed template", func(in *model.Input) { in.Entities[0].Keys["SK"] = "PROFILE{" }, "entities.customer.keys.SK", ""},
		{"characters on an enum", func(in *model.Input) {
			in.Segments["status"] = model.Segment{Kind: model.KindEnum, Values: []string{"a"}, Characters: p("a-z")}
		}, "segments.status.characters", "only to id segments"},
		{"a backwards range", func(in *model.Input) {
			in.Segments["order_id"] = model.Segment{Kind: model.KindID, Characters: p("z-a")}
		}, "segments.order_id.characters", "backwards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := customerTable()
			tc.change(in)
			_, errs := Analyze(in)
			for _, e := range errs {
				if e.Path.String() == tc.path && strings.Contains(e.Message, tc.want) {
					return
				}
			}
			t.Errorf("no error on %s saying %q: %v", tc.path, tc.want, errs)
		})
	}
	// A template not known at plan time is no error.
	in := customerTable()
	in.Entities[1].Keys["SK"] = ""
	in.Unknown = []model.Path{{"entities", "order", "keys", "SK"}}
	if _, errs := Analyze(in); len(errs) != 0 {
		t.Errorf("an unknown template: %v", errs)
	}
}

func TestReportListsEntities(t *testing.T) {
	t.Parallel()
	in := customerTable()
	// Given out of order: the model sorts them by name.
	in.Entities = append(in.Entities, model.Entity{Name: "address", Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": "PROFILE"}})
	report := report.Text(analyze(t, in), nil)
	if strings.Contains(report, "the key rules read") {
		t.Errorf("the report names one entity as the table's keys:\n%s", report)
	}
	for _, want := range []string{
		"partition key PK (S), a template per entity",
		"address: PK=CUSTOMER#{customer_id} SK=PROFILE; no index; writes not given; 1 item(s) per value (its sort key's values); collection 1",
		"customer: GSI1PK=EMAIL#{email} GSI1SK=CUSTOMER PK=CUSTOMER#{customer_id} SK=PROFILE; in GSI1; 20 WCU; 1 item(s) per value; collection 1",
		"order: PK=CUSTOMER#{customer_id} SK=ORDER#{order_date}#{order_id}; no index; 600 WCU; 5,000 item(s) per value; collection 1",
		"collection 1 (busiest): address + customer + order, 0 WCU on one value, 5,002 items (7.2 MB) per value",
		"GSI1: customer EMAIL#{email}; unbounded values",
		`COLLISION address and customer can write the same key, e.g. PK="CUSTOMER#0", SK="PROFILE"`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

func patternOn(name string, entities []string, equals []string, sort *model.SortCondition, index *string) model.AccessPattern {
	return model.AccessPattern{Name: name, Entities: entities, Equals: equals, Sort: sort, Index: index, ReadsPerSecond: p(10.0)}
}

func TestAccessPatternsOnEntities(t *testing.T) {
	t.Parallel()
	in := customerTable()
	in.Segments["line"] = model.Segment{Kind: model.KindNumber}
	in.Entities = append(in.Entities, model.Entity{Name: "order_item",
		Keys:    map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": "ORDER#{order_date}#{order_id}#ITEM#{line}"},
		Traffic: model.EntityTraffic{WritesPerSecond: p(900.0), ItemSizeBytes: p(int64(300)), MaxItemsPerPartitionKey: p(int64(40000))}})
	in.AccessPatterns = []model.AccessPattern{
		patternOn("profile", []string{"customer"}, []string{"customer_id"}, nil, nil),
		patternOn("customer_with_orders", []string{"customer", "order"}, []string{"customer_id"}, nil, nil),
		patternOn("orders_in_range", []string{"order"}, []string{"customer_id"}, &model.SortCondition{On: "order_date", Condition: model.SortBetween}, nil),
		patternOn("profile_by_email", []string{"customer"}, []string{"email"}, nil, p("GSI1")),
	}
	doc := analyze(t, in)
	facts := map[string]model.PatternFacts{}
	for _, f := range doc.Derived.AccessPatterns {
		facts[f.Name] = f
	}
	for name, index := range map[string]string{"profile": model.TableKeyIndex, "customer_with_orders": model.TableKeyIndex, "orders_in_range": model.TableKeyIndex, "profile_by_email": "GSI1"} {
		if f := facts[name]; !f.Serves || f.Index != index || !f.SortExpressible {
			t.Errorf("%s: served %v by %q (sort %v %s), want %s", name, f.Serves, f.Index, f.SortExpressible, f.SortReason, index)
		}
	}
	// The profile is one item under its whole key; the orders' range is ORDER#..., which the order items
	// share; the customer with orders reads the whole collection, order items included.
	overlaps := func(name string) []string {
		var out []string
		for _, o := range facts[name].EntityOverlaps {
			out = append(out, o.Entity)
		}
		return out
	}
	if got := overlaps("profile"); len(got) != 0 {
		t.Errorf("profile overlaps %v", got)
	}
	if got := overlaps("orders_in_range"); !slices.Equal(got, []string{"order_item"}) {
		t.Errorf("orders_in_range overlaps %v, want order_item", got)
	}
	if got := overlaps("customer_with_orders"); !slices.Equal(got, []string{"order_item"}) { // no sort condition: the whole collection
		t.Errorf("customer_with_orders overlaps %v, want order_item", got)
	}
	o := facts["orders_in_range"].EntityOverlaps[0]
	// 40,000 items of 300 B: 12,000,000 B = 2,930 read units × 0.5 eventual.
	if *o.ExtraItems != 40000 || *o.ExtraReadUnitsPerCall != 1465 || o.ExtraReadUnitsPerSecond == nil || *o.ExtraReadUnitsPerSecond != 14650 {
		t.Errorf("overlap %d items, %v RCU per call, %v per second; want 40,000, 1,465 and 14,650 at 10 calls a second",
			*o.ExtraItems, *o.ExtraReadUnitsPerCall, o.ExtraReadUnitsPerSecond)
	}
	// The whole collection also holds the customer's one PROFILE item: its sort key bounds it, unstated.
	for _, o := range facts["customer_with_orders"].EntityOverlaps {
		if o.Entity == "customer" && (o.ExtraItems == nil || *o.ExtraItems != 1) {
			t.Errorf("customer_with_orders: the profile adds %v items, want 1", o.ExtraItems)
		}
	}
	// The pattern's item size is its entity's.
	if f := facts["orders_in_range"]; f.ItemSizeBytes != 1500 {
		t.Errorf("orders_in_range reads %d-byte items, want the order's 1,500", f.ItemSizeBytes)
	}
	// A pattern naming an entity the design lacks.
	in.AccessPatterns = append(in.AccessPatterns, patternOn("nope", []string{"refund"}, []string{"customer_id"}, nil, nil))
	_, errs := Analyze(in)
	if len(errs) != 1 || errs[0].Path.String() != "access_patterns.nope.entities[0]" {
		t.Errorf("errors %v", errs)
	}
}

// Review cases: exact and one-sided sort conditions, an unsharded busiest collection beside a sharded one,
// unknown entities, and a converted name twice.
func TestEntityEdgeCases(t *testing.T) {
	t.Parallel()
	base := func() *model.Input {
		return &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
			Segments: map[string]model.Segment{"id": {Kind: model.KindID}, "oid": {Kind: model.KindID}, "n": {Kind: model.KindNumber}},
			Entities: []model.Entity{
				{Name: "line", Keys: map[string]string{"PK": "C#{id}", "SK": "ORDER#{oid}#LINE#{n}"}},
				{Name: "order", Keys: map[string]string{"PK": "C#{id}", "SK": "ORDER#{oid}"}},
				{Name: "profile", Keys: map[string]string{"PK": "C#{id}", "SK": "PROFILE"}},
			}}
	}
	overlaps := func(cond string) []string {
		in := base()
		in.AccessPatterns = []model.AccessPattern{patternOn("q", []string{"order"}, []string{"id"}, &model.SortCondition{On: "oid", Condition: cond}, nil)}
		var out []string
		for _, o := range analyze(t, in).Derived.AccessPatterns[0].EntityOverlaps {
			out = append(out, o.Entity)
		}
		return out
	}
	for cond, want := range map[string][]string{model.SortEqual: nil, model.SortBeginsWith: // one sort key
	{"line"}, model.SortGreaterEqual:// ORDER#... holds the lines too
	{"line", "profile"}, model. // PROFILE sorts above ORDER#
					SortLess: {"line"}, model.SortBetween:// nothing sorts below ORDER# but ORDER#...
	{"line"},                   // within ORDER#
	} {
		if got := overlaps(cond); !slices.Equal(got, want) {
			t.Errorf("%s: overlaps %v, want %v", cond, got, want)
		}
	}
	// A calculated shard count divides only the keys that carry {shard}: CONFIG takes all its writes.
	in := &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"},
		Segments: map[string]model.Segment{"id": {Kind: model.KindID}},
		Sharding: model.Sharding{Strategy: model.StrategyCalculated, Source: "id", Count: p(int64(10))},
		Entities: []model.Entity{
			{Name: "config", Keys: map[string]string{"PK": "CONFIG"}, Traffic: model.EntityTraffic{WritesPerSecond: p(5000.0)}},
			{Name: "event", Keys: map[string]string{"PK": "E#{id}#{shard}"}, Traffic: model.EntityTraffic{WritesPerSecond: p(100.0)}},
		}}
	if c := analyze(t, in).Derived.Capacity; *c.PerShardWriteUnits != 5000 {
		t.Errorf("per-shard write units %v, want CONFIG's 5,000", *c.PerShardWriteUnits)
	}
	// An entity not known at plan time: the patterns on entities are not judged.
	in = base()
	in.Entities = in.Entities[1:]
	in.Unknown = []model.Path{{"entities", "line"}}
	in.AccessPatterns = []model.AccessPattern{patternOn("q", []string{"line"}, []string{"id"}, nil, nil)}
	if _, errs := Analyze(in); len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
}

// BenchmarkEntityCollisions is the pairwise check on 50 entities under one partition key, each sort key a
// distinct prefix before a date and an id.
func BenchmarkEntityCollisions(b *testing.B) { benchmarkCollisions(b, "KIND%02d#{day}#{id}") }

// BenchmarkEntityCollisionsSearched is the worst case of the pairwise check: 50 entities whose sort keys
// start with a segment, so that no literal prefix tells any pair apart and every pair takes the search.
func BenchmarkEntityCollisionsSearched(b *testing.B) { benchmarkCollisions(b, "{day}#KIND%02d#{id}") }

// benchmarkCollisions analyses 50 entities under one partition key whose sort keys follow sortKey, a format
// of the entity's number; none collide.
func benchmarkCollisions(b *testing.B, sortKey string) {
	b.Helper()
	in := &model.Input{Kind: "keydesign", PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{"tenant": {Kind: model.KindID}, "day": {Kind: model.KindTime, Granularity: "day"}, "id": {Kind: model.KindID}}}
	for i := range 50 {
		in.Entities = append(in.Entities, model.Entity{Name: fmt.Sprintf("entity_%02d", i),
			Keys:    map[string]string{"PK": "TENANT#{tenant}", "SK": fmt.Sprintf(sortKey, i)},
			Traffic: model.EntityTraffic{WritesPerSecond: p(10.0)}})
	}
	b.ReportAllocs()
	for b.Loop() {
		doc, errs := Analyze(in)
		if len(errs) > 0 || len(doc.Derived.Entities.Collisions) != 0 {
			b.Fatal(errs)
		}
	}
}

// A measured key is outside the design only when no entity's partition-key template can produce it, and
// the conventions read every entity's templates.
func TestEveryEntityTemplateIsTheDesign(t *testing.T) {
	t.Parallel()
	in := customerTable()
	in.Segments["day"] = model.Segment{Kind: model.KindTime, Granularity: "day"}
	in.Entities = append(in.Entities, model.Entity{Name: "click", Keys: map[string]string{"PK": "day|{day}", "SK": "{order_id}"},
		Traffic: model.EntityTraffic{WritesPerSecond: p(900.0)}})
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: observed.Observation{
		Traffic: observed.Traffic{WritesPerSecond: p(1000.0), HotKeyUnitsPerSecond: p(900.0)}, KeyAttributes: p(int64(1)), Complete: true,
		TopKeys: []observed.Key{{Key: "day|2026-11-30", UnitsPerSecond: p(900.0)}, {Key: "CUSTOMER#c-1", UnitsPerSecond: p(60.0)},
			{Key: "USER#u-1", UnitsPerSecond: p(30.0)}, {Key: "CUSTOMER", UnitsPerSecond: p(3.0)}}}}}
	doc := analyze(t, in)
	want := []model.KeyMismatch{
		{Key: "USER#u-1", Reason: "its literal text follows no entity's partition-key template"},
		{Key: "CUSTOMER", Reason: "its literal text follows no entity's partition-key template"},
	}
	if got := doc.Observed[0].Measured.KeysOutsideDesign; !slices.Equal(got, want) {
		t.Errorf("keys outside the design %+v, want %+v", got, want)
	}
	// click's "|" and lower case beside the others' "#" and upper case: the table mixes conventions.
	if c := doc.Derived.Conventions; !slices.Equal(c.Delimiters, []string{"#", "|"}) || !slices.Equal(c.LetterCases, []string{"lower", "upper"}) {
		t.Errorf("conventions %+v", c)
	}
}

// singleTableDesign is a single-table design of n entities under two overloaded GSIs: each entity owns a
// prefix of the shared CUSTOMER#{customer_id} collection, writes both GSIs' keys (a day bucket, a status, or
// an id), and has two access patterns, one on the table key and one on a GSI.
func singleTableDesign(n int) *model.Input {
	in := &model.Input{Kind: "keydesign",
		PartitionKey: model.Key{Name: "PK", Type: "S"}, SortKey: &model.Key{Name: "SK", Type: "S"},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID, MaxLength: p(int64(26))}, "item_id": {Kind: model.KindID, MaxLength: p(int64(26))},
			"day": {Kind: model.KindTime, Granularity: "day"}, "status": {Kind: model.KindEnum, Values: []string{"new", "open", "done"}},
		},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "GSI1", PartitionKey: []model.IndexKeyAttribute{{Name: "GSI1PK"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI1SK"}}},
			{Name: "GSI2", PartitionKey: []model.IndexKeyAttribute{{Name: "GSI2PK"}}, SortKey: []model.IndexKeyAttribute{{Name: "GSI2SK"}}, ProjectionType: model.ProjectionKeysOnly},
		},
	}
	gsi1 := []string{"DAY#{day}", "STATUS#{status}", "ITEM#{item_id}"}
	for i := range n {
		name := fmt.Sprintf("kind%02d", i)
		prefix := fmt.Sprintf("KIND%02d#", i)
		in.Entities = append(in.Entities, model.Entity{Name: name,
			Keys: map[string]string{"PK": "CUSTOMER#{customer_id}", "SK": prefix + "{item_id}",
				"GSI1PK": gsi1[i%len(gsi1)], "GSI1SK": prefix + "{item_id}", "GSI2PK": prefix + "{customer_id}", "GSI2SK": "{item_id}"},
			Traffic: model.EntityTraffic{WritesPerSecond: p(float64(10 * (i + 1))), ReadsPerSecond: p(20.0), ItemSizeBytes: p(int64(500 + 100*i)),
				MaxItemsPerPartitionKey: p(int64(100))}})
		in.AccessPatterns = append(in.AccessPatterns, model.AccessPattern{Name: name + "_of_customer", Entities: []string{name}, Equals: []string{"customer_id"},
			Sort: &model.SortCondition{On: "item_id", Condition: model.SortBeginsWith}, ReadsPerSecond: p(5.0)}, model.AccessPattern{Name: name + "_by_customer", Entities: []string{name}, Index: p("GSI2"), Equals: []string{"customer_id"}, ReadsPerSecond: p(2.0)})
	}
	return in
}

// BenchmarkAnalyzeEntities builds the document of a single-table design: 10 entities, 2 overloaded GSIs and
// 20 access patterns.
func BenchmarkAnalyzeEntities(b *testing.B) {
	in := singleTableDesign(10)
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Analyze(in); errs != nil {
			b.Fatal(errs)
		}
	}
}

func TestSingleTableDesignAnalyses(t *testing.T) {
	t.Parallel()
	doc := analyze(t, singleTableDesign(10))
	if n := len(doc.Derived.Entities.Items); n != 10 || len(doc.Derived.AccessPatterns) != 20 || len(doc.Derived.Entities.Collisions) != 0 {
		t.Fatalf("%d entities, %d patterns, collisions %v", n, len(doc.Derived.AccessPatterns), doc.Derived.Entities.Collisions)
	}
	// GSI1 holds a day bucket (kind00, kind03, kind06, kind09: 10 + 40 + 70 + 100 writes a second of one ALL
	// entry each, rounded up to whole units), so its busiest partition is that bucket's.
	g := doc.Table.GSIs[0]
	if !g.TimeBucketed || g.HotPartitionWriteUnits == nil || *g.HotPartitionWriteUnits != 10*1+40*1+70*2+100*2 {
		t.Errorf("GSI1 time bucketed %v, hot partition %v", g.TimeBucketed, g.HotPartitionWriteUnits)
	}
}

// The entity stages return their results and leave the model they read as model.Build made it: a stage that
// wrote into the model would hand its figures to every later stage unasked, in an order no signature shows.
func TestEntityStagesLeaveTheModelAsBuilt(t *testing.T) {
	t.Parallel()
	m, errs := model.Build(customerTable())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	built, err := json.Marshal(struct {
		Doc     model.EntitiesDoc
		Unknown map[string]bool
	}{m.Entities.Doc, m.Unknown})
	if err != nil {
		t.Fatal(err)
	}
	demand := capacity.EntityDemand(m)
	traffic := capacity.Traffic(m, demand)
	keyed := capacity.EntityKeys(m, demand, 1, model.DefaultTargetUtilization, 0)
	after, _ := json.Marshal(struct {
		Doc     model.EntitiesDoc
		Unknown map[string]bool
	}{m.Entities.Doc, m.Unknown})
	if string(after) != string(built) {
		t.Errorf("the stages changed the model:\nbuilt %s\nafter %s", built, after)
	}
	if m.Entities.Doc.Items[1].WriteUnits != nil || demand.Items[1].WriteUnits == nil || *demand.Items[1].WriteUnits != 600 {
		t.Errorf("order's write units: model %v, demand %v; want none in the model and 300/s × 2 = 600 in the demand",
			m.Entities.Doc.Items[1].WriteUnits, demand.Items[1].WriteUnits)
	}
	if demand.Collections[0].PerShardWriteUnits != nil || keyed.Collections[0].PerShardWriteUnits == nil {
		t.Errorf("per-shard demand: %v in EntityDemand's result, %v in EntityKeys'; want it only in EntityKeys'",
			demand.Collections[0].PerShardWriteUnits, keyed.Collections[0].PerShardWriteUnits)
	}
	if model.Deref(traffic.Traffic.WritesPerSecond) != 320 || m.Input.Traffic.WritesPerSecond != nil {
		t.Errorf("table traffic: %v writes/s, the input's %v; want 320 and none", traffic.Traffic.WritesPerSecond, m.Input.Traffic.WritesPerSecond)
	}
}
