package designreader

import (
	"maps"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// goValue is a configuration value written as Go: nil is null, unknown is unknown, a string, a number (int or
// float64), a bool, an object (obj) or a list (list).
type goValue struct{ v any }

type (
	obj  map[string]any
	list []any
)

type unknownValue struct{}

var unknown = unknownValue{}

func (g goValue) IsNull() bool    { return g.v == nil }
func (g goValue) IsUnknown() bool { return g.v == unknown }

func (g goValue) AsString() (string, bool) {
	s, ok := g.v.(string)
	return s, ok
}

func (g goValue) AsNumber() (*big.Float, bool) {
	switch n := g.v.(type) {
	case int:
		return big.NewFloat(float64(n)), true
	case float64:
		return big.NewFloat(n), true
	case *big.Float:
		return n, true
	}
	return nil, false
}

func (g goValue) AsBool() (bool, bool) {
	b, ok := g.v.(bool)
	return b, ok
}

func (g goValue) Attribute(name string) (Value, bool) {
	o, ok := g.v.(obj)
	if !ok {
		return nil, false
	}
	if v, ok := o[name]; ok {
		return goValue{v}, true
	}
	return nil, true
}

func (g goValue) Entries() ([]Entry, bool) {
	o, ok := g.v.(obj)
	if !ok {
		return nil, false
	}
	var out []Entry
	for _, name := range slices.Sorted(maps.Keys(o)) {
		out = append(out, Entry{Name: name, Value: goValue{o[name]}})
	}
	return out, true
}

func (g goValue) Elements() ([]Value, bool) {
	l, ok := g.v.(list)
	if !ok {
		return nil, false
	}
	out := make([]Value, 0, len(l))
	for _, v := range l {
		out = append(out, goValue{v})
	}
	return out, true
}

func unknownPaths(in *model.Input) []string {
	var out []string
	for _, p := range in.Unknown {
		if !slices.Contains(out, p.String()) {
			out = append(out, p.String())
		}
	}
	slices.Sort(out)
	return out
}

func errorTexts(errs []*model.FieldError) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestDefaults: what the configuration leaves out reads as the provider's schema records it, on the data
// source as on the resource, so that both adapters give the resource's plan its values.
func TestDefaults(t *testing.T) {
	t.Parallel()
	design := obj{
		"partition_key":            obj{"name": "pk"},
		"sort_key":                 obj{"name": "sk", "type": "N"},
		"local_secondary_indexes":  obj{"by_date": obj{"sort_key": obj{"name": "created"}}},
		"global_secondary_indexes": obj{"by_customer": obj{"partition_key": list{obj{"name": "customer"}}, "sort_key": list{obj{"name": "created"}}}},
	}
	in, errs := Table(goValue{design})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if in.Kind != "sharded_table" || in.PartitionKey.Type != model.KeyTypeString || in.SortKey.Type != model.KeyTypeNumber {
		t.Errorf("kind %q, key types %q and %q", in.Kind, in.PartitionKey.Type, in.SortKey.Type)
	}
	if l := in.LocalSecondaryIndexes[0]; l.ProjectionType != model.ProjectionAll || l.SortKey.Type != model.KeyTypeString {
		t.Errorf("LSI %+v", l)
	}
	if g := in.GlobalSecondaryIndexes[0]; g.ProjectionType != model.ProjectionAll || g.PartitionKey[0].Type != model.KeyTypeString || g.SortKey[0].Type != model.KeyTypeString {
		t.Errorf("GSI %+v", g)
	}
	if in.BillingMode != DefaultBillingMode || in.Pricing == nil || in.Pricing.TableClass != DefaultTableClass || in.Pricing.PointInTimeRecovery {
		t.Errorf("billing mode %q, pricing %+v", in.BillingMode, in.Pricing)
	}
	if len(in.Unknown) > 0 {
		t.Errorf("unknown %v", unknownPaths(in))
	}
	if in, _ := Design(goValue{design}); in.Kind != "keydesign" || in.BillingMode != "" || in.Pricing != nil {
		t.Errorf("the data source has no table: kind %q, billing mode %q, pricing %+v", in.Kind, in.BillingMode, in.Pricing)
	}
}

// TestUnknownValuesAreListedNotErrors: a value known only at apply is left unset and listed under its path,
// never an error; a setting the rules read as one fact is listed as a whole.
func TestUnknownValuesAreListedNotErrors(t *testing.T) {
	t.Parallel()
	in, errs := Table(goValue{obj{
		"name":          unknown,
		"partition_key": obj{"name": "pk", "type": unknown, "template": "CUSTOMER#{customer_id}"},
		"segments":      obj{"customer_id": obj{"kind": "id", "values": list{"a", unknown}}, "day": unknown},
		"traffic":       obj{"writes_per_second": unknown, "reads_per_second": 10},
		"global_secondary_indexes": obj{"by_status": obj{"partition_key": list{obj{"name": "status"}},
			"on_demand_throughput": obj{"max_write_request_units": unknown}}},
		"entities":               obj{"order": obj{"keys": obj{"PK": "ORDER#{order_id}", "GSI1PK": unknown}}},
		"on_demand_throughput":   obj{"max_read_request_units": unknown, "max_write_request_units": 100},
		"table_class":            unknown,
		"point_in_time_recovery": obj{"enabled": unknown},
		"observed":               obj{"traffic": obj{"writes_per_second": unknown}},
		"observed_indexes":       unknown,
		"access_patterns":        unknown,
	}})
	if len(errs) > 0 {
		t.Fatalf("unknown values gave errors: %v", errorTexts(errs))
	}
	want := []string{"access_patterns", "global_secondary_indexes", "name", "observed", "on_demand_throughput", "partition_key.type",
		"point_in_time_recovery", "segments.customer_id.values[1]", "segments.day", "table_class", "traffic.writes_per_second", "entities.order.keys.GSI1PK"}
	slices.Sort(want)
	if got := unknownPaths(in); !slices.Equal(got, want) {
		t.Errorf("unknown\n got %v\nwant %v", got, want)
	}
	if in.Traffic.ReadsPerSecond == nil || *in.Traffic.ReadsPerSecond != 10 || in.Traffic.WritesPerSecond != nil {
		t.Errorf("traffic %+v", in.Traffic)
	}
	if got := in.Segments["customer_id"].Values; !slices.Equal(got, []string{"a"}) {
		t.Errorf("values %v", got)
	}
	if keys := in.Entities[0].Keys; keys["GSI1PK"] != "" || keys["PK"] != "ORDER#{order_id}" || len(keys) != 2 {
		t.Errorf("an unknown template keeps its attribute: %v", keys)
	}
	if g := in.GlobalSecondaryIndexes[0]; g.OnDemand != nil {
		t.Errorf("a GSI setting partly unknown is read: %+v", g.OnDemand)
	}
	if od := in.OnDemand; od == nil || od.Read != nil || od.Write == nil || *od.Write != 100 {
		t.Errorf("the table's known caps are read: %+v", od)
	}
	if in.Pricing.TableClass != "" || in.Observed != nil {
		t.Errorf("pricing %+v, observed %+v", in.Pricing, in.Observed)
	}

	// A class the design's pricing gives does not wait for the table's.
	in, _ = Table(goValue{obj{"table_class": unknown, "pricing": obj{"table_class": "STANDARD"}}})
	if slices.Contains(unknownPaths(in), "table_class") {
		t.Errorf("unknown %v: pricing gives the class", unknownPaths(in))
	}
}

// TestRefusedValuesNameTheirPath: a value the provider refuses is an error on its attribute's path.
func TestRefusedValuesNameTheirPath(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		design obj
		table  bool
		want   string
	}{
		"not whole":        {design: obj{"sharding": obj{"count": 2.5}}, want: "sharding.count: must be a whole number, got 2.5"},
		"beyond a float":   {design: obj{"traffic": obj{"writes_per_second": new(big.Float).SetMantExp(big.NewFloat(1), 2000)}}, want: "traffic.writes_per_second: must be a number within the range of a 64-bit float"},
		"not an object":    {design: obj{"segments": obj{"day": "time"}}, want: "segments.day: must be an object"},
		"not a string":     {design: obj{"partition_key": obj{"name": list{"pk"}}}, want: "partition_key.name: must be a string"},
		"not a list":       {design: obj{"global_secondary_indexes": obj{"g": obj{"partition_key": "status"}}}, want: "global_secondary_indexes.g.partition_key: must be a list"},
		"index key number": {design: obj{"global_secondary_indexes": obj{"g": obj{"partition_key": list{obj{"name": "s", "cardinality": "many"}}}}}, want: "global_secondary_indexes.g.partition_key[0].cardinality: must be a number"},
		"another index": {design: obj{"observed_indexes": obj{"by_status": obj{"index_name": "by_day"}}},
			want: `observed_indexes.by_status.index_name: is the observation of index "by_day", but it is given for index "by_status"`},
		"replicas on a table": {design: obj{"replicas": obj{"regions": obj{"us-east-1": obj{}}}}, table: true,
			want: "replicas: dynamokeys_sharded_table does not create replicas"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			read := Design
			if tc.table {
				read = Table
			}
			_, errs := read(goValue{tc.design})
			if got := errorTexts(errs); len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
				t.Errorf("errors %q, want one starting %q", got, tc.want)
			}
		})
	}
}

// TestNothingSet: an empty block, or none at all, reads as an empty design without a panic.
func TestNothingSet(t *testing.T) {
	t.Parallel()
	for _, root := range []Value{nil, goValue{obj{}}, goValue{nil}} {
		in, errs := Table(root)
		if len(errs) > 0 || len(in.Unknown) > 0 || in.Segments == nil || in.SortKey != nil {
			t.Errorf("%v: input %+v, errors %v", root, in, errs)
		}
	}
}

// askedFor is a block that records the attributes read of it.
type askedFor struct {
	goValue
	names *[]string
}

func (a askedFor) Attribute(name string) (Value, bool) {
	if !slices.Contains(*a.names, name) {
		*a.names = append(*a.names, name)
	}
	return nil, true
}

// TestAttributeLists: DesignAttributes and TableAttributes are what Design and Table read, so that a caller
// that evaluates them misses none.
func TestAttributeLists(t *testing.T) {
	t.Parallel()
	var design, table []string
	Design(askedFor{goValue{obj{}}, &design})
	Table(askedFor{goValue{obj{}}, &table})
	slices.Sort(design)
	slices.Sort(table)
	if want := slices.Sorted(slices.Values(DesignAttributes)); !slices.Equal(design, want) {
		t.Errorf("Design reads %v, DesignAttributes are %v", design, want)
	}
	if want := slices.Sorted(slices.Values(append(slices.Clone(DesignAttributes), TableAttributes...))); !slices.Equal(table, want) {
		t.Errorf("Table reads %v, DesignAttributes and TableAttributes are %v", table, want)
	}
}
