package tflintruleset

import (
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// observations reads `observed` and `observed_indexes` as the provider's expandObserved does: an observation
// not wholly known (a data source's, read at plan time) marks `observed` unknown, so the measured rules stay
// silent; an index's observation takes the index name of its key, and one given for another index than its
// key is refused, with the provider's message.
func (r *reader) observations(table, indexes cty.Value) []model.ObservedInput {
	var out []model.ObservedInput
	if o := r.observation(table, model.Path{"observed"}); o != nil {
		out = append(out, *o)
	}
	if !indexes.IsKnown() {
		r.unknown = append(r.unknown, model.Path{"observed"})
		return out
	}
	names, values := entries(indexes)
	for i, name := range names {
		o := r.observation(values[i], model.Path{"observed_indexes", name})
		if o == nil {
			continue
		}
		if err := o.ForIndex(name); err != nil {
			r.invalid = append(r.invalid, err)
			continue
		}
		out = append(out, *o)
	}
	return out
}

func (r *reader) observation(v cty.Value, p model.Path) *model.ObservedInput {
	if v.IsNull() && v.IsKnown() {
		return nil
	}
	if !v.IsWhollyKnown() {
		r.unknown = append(r.unknown, model.Path{"observed"})
		return nil
	}
	o := &model.ObservedInput{Path: p}
	o.TableName = r.str(attr(v, "table_name"), extend(p, "table_name"))
	o.IndexName = r.str(attr(v, "index_name"), extend(p, "index_name"))
	if complete := r.boolPtr(attr(v, "complete"), extend(p, "complete")); complete != nil {
		o.Complete = *complete
	}
	if t := attr(v, "traffic"); !t.IsNull() {
		tp := extend(p, "traffic")
		o.Traffic = observed.Traffic{
			WritesPerSecond:        r.floatPtr(attr(t, "writes_per_second"), extend(tp, "writes_per_second")),
			ReadsPerSecond:         r.floatPtr(attr(t, "reads_per_second"), extend(tp, "reads_per_second")),
			AverageWritesPerSecond: r.floatPtr(attr(t, "average_writes_per_second"), extend(tp, "average_writes_per_second")),
			AverageReadsPerSecond:  r.floatPtr(attr(t, "average_reads_per_second"), extend(tp, "average_reads_per_second")),
			HotKeyUnitsPerSecond:   r.floatPtr(attr(t, "hot_key_units_per_second"), extend(tp, "hot_key_units_per_second")),
			HotKeyUnitShare:        r.floatPtr(attr(t, "hot_key_unit_share"), extend(tp, "hot_key_unit_share")),
		}
	}
	if keys := attr(v, "top_keys"); !keys.IsNull() {
		o.TopKeys = []observed.Key{}
		for i, k := range elements(keys) {
			kp := extend(p, "top_keys", strconv.Itoa(i))
			key := observed.Key{Key: r.str(attr(k, "key"), extend(kp, "key")), UnitsPerSecond: r.floatPtr(attr(k, "units_per_second"), extend(kp, "units_per_second"))}
			if n := r.floatPtr(attr(k, "throttle_events"), extend(kp, "throttle_events")); n != nil {
				key.ThrottleEvents = *n
			}
			o.TopKeys = append(o.TopKeys, key)
		}
	}
	o.KeyAttributes = r.int64Ptr(attr(v, "key_attributes"), extend(p, "key_attributes"))
	if t := attr(v, "throttle_events"); !t.IsNull() {
		tp := extend(p, "throttle_events")
		th := &o.ThrottleEvents
		for name, field := range map[string]**float64{
			"read": &th.Read, "write": &th.Write,
			"read_key_range": &th.ReadKeyRange, "write_key_range": &th.WriteKeyRange,
			"read_provisioned": &th.ReadProvisioned, "write_provisioned": &th.WriteProvisioned,
			"read_max_on_demand": &th.ReadMaxOnDemand, "write_max_on_demand": &th.WriteMaxOnDemand,
			"read_account_limit": &th.ReadAccountLimit, "write_account_limit": &th.WriteAccountLimit,
		} {
			*field = r.floatPtr(attr(t, name), extend(tp, name))
		}
	}
	if w := attr(v, "window"); !w.IsNull() {
		wp := extend(p, "window")
		o.Window = observed.Window{Start: r.str(attr(w, "start"), extend(wp, "start")), End: r.str(attr(w, "end"), extend(wp, "end"))}
		if n := r.int64Ptr(attr(w, "datapoints"), extend(wp, "datapoints")); n != nil {
			o.Window.Datapoints = *n
		}
	}
	return o
}
