package designreader

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// observations reads `observed` and `observed_indexes`. An observation not wholly known (a data source's,
// read at apply) marks `observed` unknown, so that the measured rules stay silent until it is; an index's
// observation takes the index name of its key, and one of another index is refused.
func (r *reader) observations(table, indexes field) []model.ObservedInput {
	var out []model.ObservedInput
	if o := r.observation(table); o != nil {
		out = append(out, *o)
	}
	if indexes.v.IsUnknown() {
		r.unknown = append(r.unknown, model.Path{"observed"})
		return out
	}
	for _, f := range indexes.entries() {
		o := r.observation(f)
		if o == nil {
			continue
		}
		if err := o.ForIndex(f.name()); err != nil {
			r.errs = append(r.errs, err)
			continue
		}
		out = append(out, *o)
	}
	return out
}

func (r *reader) observation(f field) *model.ObservedInput {
	if f.v.IsNull() {
		return nil
	}
	if !whollyKnown(f.v) {
		r.unknown = append(r.unknown, model.Path{"observed"})
		return nil
	}
	if !f.object() {
		return nil
	}
	o := &model.ObservedInput{Path: f.path}
	o.TableName, o.IndexName = f.at("table_name").str(), f.at("index_name").str()
	if b := f.at("complete").boolPtr(); b != nil {
		o.Complete = *b
	}
	if t := f.at("traffic"); t.object() {
		o.Traffic = observed.Traffic{
			WritesPerSecond:        t.at("writes_per_second").floatPtr(),
			ReadsPerSecond:         t.at("reads_per_second").floatPtr(),
			AverageWritesPerSecond: t.at("average_writes_per_second").floatPtr(),
			AverageReadsPerSecond:  t.at("average_reads_per_second").floatPtr(),
			HotKeyUnitsPerSecond:   t.at("hot_key_units_per_second").floatPtr(),
			HotKeyUnitShare:        t.at("hot_key_unit_share").floatPtr(),
		}
	}
	if keys := f.at("top_keys"); keys.known() {
		o.TopKeys = []observed.Key{}
		for _, k := range keys.elements() {
			if !k.object() {
				continue
			}
			key := observed.Key{Key: k.at("key").str(), UnitsPerSecond: k.at("units_per_second").floatPtr()}
			if n := k.at("throttle_events").floatPtr(); n != nil {
				key.ThrottleEvents = *n
			}
			o.TopKeys = append(o.TopKeys, key)
		}
	}
	o.KeyAttributes = f.at("key_attributes").int64Ptr()
	if t := f.at("throttle_events"); t.object() {
		th := &o.ThrottleEvents
		for _, c := range []struct {
			name  string
			value **float64
		}{
			{"read", &th.Read}, {"write", &th.Write},
			{"read_key_range", &th.ReadKeyRange}, {"write_key_range", &th.WriteKeyRange},
			{"read_provisioned", &th.ReadProvisioned}, {"write_provisioned", &th.WriteProvisioned},
			{"read_max_on_demand", &th.ReadMaxOnDemand}, {"write_max_on_demand", &th.WriteMaxOnDemand},
			{"read_account_limit", &th.ReadAccountLimit}, {"write_account_limit", &th.WriteAccountLimit},
		} {
			*c.value = t.at(c.name).floatPtr()
		}
	}
	if w := f.at("window"); w.object() {
		o.Window = observed.Window{Start: w.at("start").str(), End: w.at("end").str()}
		if n := w.at("datapoints").int64Ptr(); n != nil {
			o.Window.Datapoints = *n
		}
	}
	return o
}
