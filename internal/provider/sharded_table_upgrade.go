package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// shardedTableSchemaVersion is the version of the resource's state layout. Version 1 made
// point_in_time_recovery an object ({ enabled, recovery_period_in_days }) instead of a bool. Version 2
// encoded design_document and left out the computed attributes that repeated others in a plan
// (removedDesignFacts). Version 3 measured the busiest key in Contributor Insights' units: observed (and each
// observed_indexes value) lost traffic.hot_key_share and top_keys[].share and gained
// traffic.hot_key_units_per_second, traffic.hot_key_unit_share, top_keys[].units_per_second, key_attributes
// and the throttle events by cause (observedInUnits).
const shardedTableSchemaVersion = 3

// removedDesignFacts are the computed attributes version 2 left out of the resource: partition_key_template
// repeated partition_key.template, shard_width routing.width, shard_suffixes one line per shard of what
// routing says, and capacity the report's numbers (all of them remain in design_document).
var removedDesignFacts = []string{"partition_key_template", "shard_width", "shard_suffixes", "capacity"}

var _ resource.ResourceWithUpgradeState = (*shardedTableResource)(nil)

// UpgradeState upgrades older states on the raw JSON, so that every other attribute passes through as it
// was stored. Each upgrader produces the current version in one step.
func (r *shardedTableResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: rawStateUpgrader(pitrObjectFromBool, withEncodedDesign, observedInUnits)},
		1: {StateUpgrader: rawStateUpgrader(withEncodedDesign, observedInUnits)},
		2: {StateUpgrader: rawStateUpgrader(observedInUnits)},
	}
}

// rawStateUpgrader applies steps, in order, to the stored state's JSON object.
func rawStateUpgrader(steps ...func(map[string]json.RawMessage) error) func(context.Context, resource.UpgradeStateRequest, *resource.UpgradeStateResponse) {
	return func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		if req.RawState == nil || req.RawState.JSON == nil {
			resp.Diagnostics.AddError("Cannot upgrade the state of dynamokeys_sharded_table", "The stored state has no JSON form. Please report this issue.")
			return
		}
		var state map[string]json.RawMessage
		err := json.Unmarshal(req.RawState.JSON, &state)
		for _, step := range steps {
			if err == nil {
				err = step(state)
			}
		}
		var upgraded []byte
		if err == nil {
			upgraded, err = json.Marshal(state)
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot upgrade the state of dynamokeys_sharded_table",
				"The stored state could not be read: "+err.Error()+". Please report this issue.")
			return
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
	}
}

// pitrObjectFromBool rewrites point_in_time_recovery = true as { enabled = true } and false (the old
// default) as null, which is what a configuration that leaves point-in-time recovery off reads back.
func pitrObjectFromBool(state map[string]json.RawMessage) error {
	var enabled *bool
	if v, ok := state["point_in_time_recovery"]; ok {
		if err := json.Unmarshal(v, &enabled); err != nil {
			return err
		}
	}
	if enabled != nil && *enabled {
		state["point_in_time_recovery"] = json.RawMessage(`{"enabled":true,"recovery_period_in_days":null}`)
	} else {
		state["point_in_time_recovery"] = json.RawMessage(`null`)
	}
	return nil
}

// withEncodedDesign drops removedDesignFacts and encodes a design_document stored as plain JSON, so that a
// plan without refresh computes the same value; a refresh computes it again anyway.
func withEncodedDesign(state map[string]json.RawMessage) error {
	for _, name := range removedDesignFacts {
		delete(state, name)
	}
	var document *string
	if v, ok := state["design_document"]; ok {
		if err := json.Unmarshal(v, &document); err != nil {
			return err
		}
	}
	if document == nil || strings.HasPrefix(*document, model.AttributeEncoding) {
		return nil
	}
	// A value that is not a document this provider wrote stays as it is, for the next refresh to replace.
	if js, err := model.DecodeAttribute(*document); err == nil {
		var compact bytes.Buffer
		if err := json.Compact(&compact, js); err != nil {
			return err
		}
		encoded, err := json.Marshal(model.EncodeAttribute(compact.Bytes()))
		if err != nil {
			return err
		}
		state["design_document"] = encoded
	}
	return nil
}

// observedInUnits rewrites stored observations in the version 3 shape. A share of requests does not convert
// into units per second (it was a share of the busiest time's requests, not of a key's units), so the new
// figures are null until the next plan reads the configuration's observation again.
func observedInUnits(state map[string]json.RawMessage) error {
	upgrade := func(raw json.RawMessage) (json.RawMessage, error) {
		var o map[string]json.RawMessage
		if err := json.Unmarshal(raw, &o); err != nil || o == nil {
			return raw, err
		}
		if err := editObject(o, "traffic", func(t map[string]json.RawMessage) {
			delete(t, "hot_key_share")
			t["hot_key_units_per_second"], t["hot_key_unit_share"] = jsonNull, jsonNull
		}); err != nil {
			return nil, err
		}
		if err := editObject(o, "throttle_events", func(t map[string]json.RawMessage) {
			for _, cause := range []string{"key_range", "provisioned", "max_on_demand", "account_limit"} {
				t["read_"+cause], t["write_"+cause] = jsonNull, jsonNull
			}
		}); err != nil {
			return nil, err
		}
		var keys []map[string]json.RawMessage
		if v, ok := o["top_keys"]; ok {
			if err := json.Unmarshal(v, &keys); err != nil {
				return nil, err
			}
		}
		for _, k := range keys {
			delete(k, "share")
			k["units_per_second"] = jsonNull
		}
		if keys != nil {
			b, err := json.Marshal(keys)
			if err != nil {
				return nil, err
			}
			o["top_keys"] = b
		}
		if _, ok := o["key_attributes"]; !ok {
			o["key_attributes"] = jsonNull
		}
		return json.Marshal(o)
	}
	if v, ok := state["observed"]; ok {
		upgraded, err := upgrade(v)
		if err != nil {
			return err
		}
		state["observed"] = upgraded
	}
	if v, ok := state["observed_indexes"]; ok {
		var indexes map[string]json.RawMessage
		if err := json.Unmarshal(v, &indexes); err != nil {
			return err
		}
		if indexes != nil {
			for name, o := range indexes {
				upgraded, err := upgrade(o)
				if err != nil {
					return err
				}
				indexes[name] = upgraded
			}
			b, err := json.Marshal(indexes)
			if err != nil {
				return err
			}
			state["observed_indexes"] = b
		}
	}
	return nil
}

var jsonNull = json.RawMessage(`null`)

// editObject applies edit to the object member name of o; a missing or null member stays as it is.
func editObject(o map[string]json.RawMessage, name string, edit func(map[string]json.RawMessage)) error {
	v, ok := o[name]
	if !ok {
		return nil
	}
	var member map[string]json.RawMessage
	if err := json.Unmarshal(v, &member); err != nil || member == nil {
		return err
	}
	edit(member)
	b, err := json.Marshal(member)
	if err != nil {
		return err
	}
	o[name] = b
	return nil
}
