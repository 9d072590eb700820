package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// planChange is what the plan does to the live table of state: the facts the change rules (DK001–DK009)
// read. The plan adapter of the policy bundle computes the same fields from the plan's before and after
// values (policies/plan/table_changes.rego); the index diff and the backfill figures are the rules' own, from
// the prior document and the planned one. The resource creates no replicas and its autoscaling owns the
// capacities it sets, so those fields stay empty.
func planChange(ctx context.Context, state, plan shardedTableModel, replacedBy [][]string) *model.Change {
	c := &model.Change{Action: model.ChangeUpdate, ReplacedBy: [][]string{}, ReplicasRemoved: []string{},
		CapacityResets: []model.CapacityReset{}, IndexChanges: []model.IndexChange{}, VectorIndexChanges: []model.VectorIndexChange{}}
	if len(replacedBy) > 0 {
		c.Action, c.ReplacedBy = model.ChangeReplace, replacedBy
	}
	c.Disposable = disposable(state.TagsAll) || disposable(state.Tags) || disposable(plan.TagsAll) || disposable(plan.Tags)
	c.BillingModeBefore = state.BillingMode.ValueString()
	if n := state.ItemCount; !n.IsNull() && !n.IsUnknown() {
		c.ItemCount, c.ItemCountSource = n.ValueInt64Pointer(), "table"
	}
	if c.Action == model.ChangeUpdate {
		c.Stream = streamChange(ctx, state.Stream, plan.Stream)
		c.TTL = ttlChange(ctx, state.TTL, plan.TTL)
		c.TableClass = tableClassChange(state.TableClass, plan.TableClass)
	}
	return c
}

// tableClassChange is the table class before and after when the plan changes it; nil otherwise, and while the
// planned class is unknown.
func tableClassChange(before, after types.String) *model.TableClassChange {
	if after.IsUnknown() || before.IsNull() || before.IsUnknown() || after.IsNull() || before.Equal(after) {
		return nil
	}
	return &model.TableClassChange{Before: before.ValueString(), After: after.ValueString()}
}

// ttlChange is the TTL attribute before and after when the plan changes which attribute TTL reads, or
// turns TTL on or off; nil otherwise, and while the planned TTL is unknown.
func ttlChange(ctx context.Context, before, after types.Object) *model.TTLChange {
	if after.IsUnknown() {
		return nil
	}
	had, want := ttlAttributeOf(ctx, before), ttlAttributeOf(ctx, after)
	if had == want {
		return nil
	}
	return &model.TTLChange{Before: had, After: want}
}

// ttlAttributeOf is the attribute an enabled TTL reads, "" when TTL is off or not set.
func ttlAttributeOf(ctx context.Context, ttl types.Object) string {
	if ttl.IsNull() || ttl.IsUnknown() {
		return ""
	}
	var t ttlModel
	var diags diag.Diagnostics
	if !objectAs(ctx, ttl, &t, &diags) || !t.Enabled.ValueBool() {
		return ""
	}
	return t.AttributeName.ValueString()
}

// destroyChange is the change of a plan that destroys the table of state.
func destroyChange(state shardedTableModel) *model.Change {
	c := &model.Change{Action: model.ChangeDelete, Only: true, ReplacedBy: [][]string{}, ReplicasRemoved: []string{},
		CapacityResets: []model.CapacityReset{}, IndexChanges: []model.IndexChange{}, VectorIndexChanges: []model.VectorIndexChange{},
		Disposable: disposable(state.TagsAll) || disposable(state.Tags), BillingModeBefore: state.BillingMode.ValueString()}
	if n := state.ItemCount; !n.IsNull() && !n.IsUnknown() {
		c.ItemCount, c.ItemCountSource = n.ValueInt64Pointer(), "table"
	}
	return c
}

// disposable holds for tags that mark the table's items as disposable.
func disposable(tags types.Map) bool {
	v, ok := tags.Elements()[model.DisposableTag].(types.String)
	return ok && v.ValueString() == "true"
}

// streamChange is the stream's view type before and after when a stream that was on is turned off or gets
// another view type (a new stream ARN); nil otherwise, and while the planned stream is unknown.
func streamChange(ctx context.Context, before, after types.Object) *model.StreamChange {
	had, want := streamView(ctx, before), streamView(ctx, after)
	if had == "" || want == had || after.IsUnknown() {
		return nil
	}
	return &model.StreamChange{Before: had, After: want, Consumers: []string{}}
}

// streamView is the view type of an enabled stream, "" when the stream is off or not set.
func streamView(ctx context.Context, stream types.Object) string {
	if stream.IsNull() || stream.IsUnknown() {
		return ""
	}
	var s streamModel
	var diags diag.Diagnostics
	if !objectAs(ctx, stream, &s, &diags) || !s.Enabled.ValueBool() {
		return ""
	}
	return s.ViewType.ValueString()
}

// replacementPaths are the attributes whose change replaces the table, as the attributes' RequiresReplace
// plan modifiers name them in the plan's replace_paths: the name, a key attribute's name or type, the sort
// key added or removed, the LSIs. A value unknown at plan time replaces the table, as those modifiers decide.
func replacementPaths(ctx context.Context, state, plan shardedTableModel) [][]string {
	var paths [][]string
	if !plan.Name.Equal(state.Name) {
		paths = append(paths, []string{"name"})
	}
	if plan.PartitionKey.IsUnknown() {
		paths = append(paths, []string{"partition_key"})
	} else {
		paths = append(paths, keyChanges(ctx, "partition_key", state.PartitionKey, plan.PartitionKey)...)
	}
	switch {
	case plan.SortKey.IsUnknown(), state.SortKey.IsNull() != plan.SortKey.IsNull():
		paths = append(paths, []string{"sort_key"})
	case !plan.SortKey.IsNull():
		paths = append(paths, keyChanges(ctx, "sort_key", state.SortKey, plan.SortKey)...)
	}
	if !lsisEqual(ctx, state.LocalSecondaryIndexes, plan.LocalSecondaryIndexes) {
		paths = append(paths, []string{"local_secondary_indexes"})
	}
	return paths
}

// keyChanges are the paths of a key attribute's name and type that differ between state and plan.
func keyChanges(ctx context.Context, attribute string, before, after types.Object) [][]string {
	var k [2]keyModel
	for i, v := range []types.Object{before, after} {
		if v.IsNull() || v.As(ctx, &k[i], basetypes.ObjectAsOptions{}).HasError() {
			return nil
		}
	}
	var paths [][]string
	if !k[0].Name.Equal(k[1].Name) {
		paths = append(paths, []string{attribute, "name"})
	}
	if !k[0].Type.Equal(k[1].Type) {
		paths = append(paths, []string{attribute, "type"})
	}
	return paths
}

// planTableSize keeps the item count and size the last refresh read through an in-place update (DynamoDB
// reports new figures about every six hours, at a refresh, not at an apply); a new table's are known after
// apply.
func planTableSize(state *shardedTableModel, change *model.Change, plan *shardedTableModel) {
	if state != nil && change != nil && change.Action == model.ChangeUpdate {
		plan.ItemCount, plan.TableSizeBytes = state.ItemCount, state.TableSizeBytes
		return
	}
	plan.ItemCount, plan.TableSizeBytes = types.Int64Unknown(), types.Int64Unknown()
}
