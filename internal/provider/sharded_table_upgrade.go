package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// shardedTableSchemaVersion is the version of the resource's state layout. Version 1 made
// point_in_time_recovery an object ({ enabled, recovery_period_in_days }) instead of a bool.
const shardedTableSchemaVersion = 1

var _ resource.ResourceWithUpgradeState = (*shardedTableResource)(nil)

// UpgradeState upgrades version 0 state on the raw JSON, so that every other attribute passes through as
// it was stored.
func (r *shardedTableResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeStateV0}}
}

func upgradeStateV0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the state of dynamokeys_sharded_table", "The version 0 state has no JSON form. Please report this issue.")
		return
	}
	upgraded, err := pitrObjectFromBool(req.RawState.JSON)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state of dynamokeys_sharded_table",
			"The version 0 state could not be read: "+err.Error()+". Please report this issue.")
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// pitrObjectFromBool rewrites point_in_time_recovery = true as { enabled = true } and false (the old
// default) as null, which is what a configuration that leaves point-in-time recovery off reads back.
func pitrObjectFromBool(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	var enabled *bool
	if v, ok := state["point_in_time_recovery"]; ok {
		if err := json.Unmarshal(v, &enabled); err != nil {
			return nil, err
		}
	}
	if enabled != nil && *enabled {
		state["point_in_time_recovery"] = json.RawMessage(`{"enabled":true,"recovery_period_in_days":null}`)
	} else {
		state["point_in_time_recovery"] = json.RawMessage(`null`)
	}
	return json.Marshal(state)
}
