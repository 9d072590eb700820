package dynamo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrDeletionProtected is returned by DeleteTable for a table with deletion protection on.
var ErrDeletionProtected = errors.New("deletion protection is on")

// CreateTable creates t, waits until it and its indexes are ACTIVE, then applies TTL and point-in-time
// recovery. It returns the table as read back. An optional setting the endpoint does not implement is a
// warning when t asks for it. ctx bounds the whole operation.
//
// On failure the returned table is non-nil only when this call's own CreateTable succeeded, described by
// that call's response: the caller may then record it (a later step failed, the table is half-configured).
// A name that is already taken is a *TableExistsError, at once and with nil: the table that holds the name
// was not made here and must never be adopted.
func (c *Client) CreateTable(ctx context.Context, t Table) (*Table, Warnings, error) {
	api, err := c.API(ctx)
	if err != nil {
		return nil, nil, err
	}
	in := expandCreateTable(t)
	out, err := api.CreateTable(ctx, in)
	switch {
	case isInUse(err):
		return nil, nil, &TableExistsError{Name: t.Name}
	case err != nil:
		return nil, nil, fmt.Errorf("creating table %s: %w", t.Name, err)
	}
	created := flattenTable(out.TableDescription)
	if created.Name == "" {
		created.Name = t.Name
	}
	if err := c.waitTableActive(ctx, t.Name); err != nil {
		return created, nil, err
	}
	var warnings Warnings
	if t.TTL != nil && t.TTL.Enabled {
		w, err := c.updateTTL(ctx, t.Name, *t.TTL)
		warnings = append(warnings, w...)
		if err != nil {
			return created, warnings, err
		}
	}
	w, err := c.updateContributorInsights(ctx, Table{Name: t.Name}, t) // a new table has none on
	warnings = append(warnings, w...)
	if err != nil {
		return created, warnings, err
	}
	if t.PointInTimeRecovery != nil && t.PointInTimeRecovery.Enabled {
		w, err := c.updatePITR(ctx, t.Name, *t.PointInTimeRecovery)
		warnings = append(warnings, w...)
		if err != nil {
			return created, warnings, err
		}
	}
	read, err := c.FindTable(ctx, t.Name)
	if err != nil {
		return created, warnings, err
	}
	if missing := missingVectorIndexes(t, *read); len(missing) > 0 {
		return read, warnings, fmt.Errorf("the endpoint created table %s without its vector indexes %s: it does not implement vector indexes "+
			"(DynamoDB-compatible stores without vector search ignore CreateTable's VectorIndexes)", t.Name, strings.Join(missing, ", "))
	}
	return read, warnings, nil
}

// missingVectorIndexes names the vector indexes want has and the table as read back lacks.
func missingVectorIndexes(want, read Table) []string {
	var missing []string
	for _, v := range want.VectorIndexes {
		if !slices.ContainsFunc(read.VectorIndexes, func(r VectorIndex) bool { return r.Name == v.Name }) {
			missing = append(missing, v.Name)
		}
	}
	return missing
}

// UpdateTable moves the table from old to want in steps, each one UpdateTable call (or its own API) that
// is waited for: GSI then vector index deletes (one per call, each waited for until gone), the table settings
// (billing mode and capacity, on-demand caps, index capacity and caps, deletion protection, table class), GSI
// then vector index creates (one per call, each waited for until ACTIVE and no longer backfilling: DynamoDB
// builds one index at a time per table, GSIs and vector indexes alike), the stream, the encryption key, warm
// throughput of the table and the indexes, Contributor Insights, TTL, point-in-time recovery and tags. A GSI
// whose key or projection changed, and a vector index that changed in anything, is deleted and created again
// under its name; the other indexes are not touched. It returns the table as read back.
func (c *Client) UpdateTable(ctx context.Context, old, want Table) (*Table, Warnings, error) {
	api, err := c.API(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, step := range []func(context.Context, *dynamodb.Client, Table, Table) error{
		c.deleteIndexes, c.updateTableSettings, c.createIndexes, c.updateStream, c.updateEncryption, c.prewarm,
	} {
		if err := step(ctx, api, old, want); err != nil {
			return nil, nil, err
		}
	}
	var warnings Warnings
	for _, step := range []func(context.Context, Table, Table) (Warnings, error){c.updateContributorInsights, c.updateTTLOf, c.updatePITROf} {
		w, err := step(ctx, old, want)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
	}
	if err := c.updateTags(ctx, api, old, want); err != nil {
		return nil, warnings, err
	}
	read, err := c.FindTable(ctx, want.Name)
	if err == nil {
		if missing := missingVectorIndexes(want, *read); len(missing) > 0 {
			return nil, warnings, fmt.Errorf("table %s has no vector indexes %s after the update: the endpoint does not implement vector indexes",
				want.Name, strings.Join(missing, ", "))
		}
	}
	return read, warnings, err
}

// updateAndWait makes one UpdateTable call and waits until the table is ACTIVE again.
func (c *Client) updateAndWait(ctx context.Context, api *dynamodb.Client, in *dynamodb.UpdateTableInput, what string) error {
	if err := c.updateTable(ctx, api, in, what); err != nil {
		return err
	}
	return c.waitTableActive(ctx, aws.ToString(in.TableName))
}

// deleteIndexes deletes the GSIs want no longer has or has with another key or projection, then the vector
// indexes want no longer has or has otherwise, one per call, each waited for until it is gone. When the plan
// changes any index, it first waits for the indexes already building (an apply that was interrupted): DynamoDB
// refuses a second index operation while one is in progress (LimitExceededException).
func (c *Client) deleteIndexes(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	deletes, creates, _ := diffGSIs(old, want)
	vectorDeletes, vectorCreates := diffVectorIndexes(old, want)
	if len(deletes)+len(creates)+len(vectorDeletes)+len(vectorCreates) > 0 && !indexesSettled(old) {
		if err := c.waitTableActive(ctx, want.Name); err != nil {
			return err
		}
	}
	for _, idx := range deletes {
		if err := c.deleteIndexAndWait(ctx, api, idx.Name, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(idx.Name)}}}},
			"deleting index "+idx.Name); err != nil {
			return err
		}
	}
	for _, v := range vectorDeletes {
		if err := c.deleteIndexAndWait(ctx, api, v.Name, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name),
			VectorIndexUpdates: []types.VectorIndexUpdate{{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String(v.Name)}}}},
			"deleting vector index "+v.Name); err != nil {
			return err
		}
	}
	return nil
}

// deleteIndexAndWait makes the UpdateTable call that deletes index and waits until the index is gone.
func (c *Client) deleteIndexAndWait(ctx context.Context, api *dynamodb.Client, index string, in *dynamodb.UpdateTableInput, what string) error {
	if err := c.updateTable(ctx, api, in, what); err != nil {
		return err
	}
	return c.waitIndexDeleted(ctx, aws.ToString(in.TableName), index)
}

// updateTableSettings is the one call for the table-level settings and the capacity of kept indexes.
func (c *Client) updateTableSettings(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	_, _, throughput := diffGSIs(old, want)
	in := tableSettingsUpdate(old, want, throughput)
	if in == nil {
		return nil
	}
	if err := c.updateAndWait(ctx, api, in, "updating table settings"); err != nil {
		return err
	}
	return c.settleIndexThroughput(ctx, api, want, throughput)
}

// createIndexes adds the GSIs, then the vector indexes, that want has and the table does not (with the same
// shape), one per call, each waited for until it is ACTIVE and backfilled. Each call defines the attributes of
// the table as that call leaves it: the kept indexes', those created before it and its own.
func (c *Client) createIndexes(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	_, creates, _ := diffGSIs(old, want)
	_, vectorCreates := diffVectorIndexes(old, want)
	built := want
	built.GSIs = slices.DeleteFunc(slices.Clone(want.GSIs), func(idx Index) bool {
		return slices.ContainsFunc(creates, func(c Index) bool { return c.Name == idx.Name })
	})
	built.VectorIndexes = slices.DeleteFunc(slices.Clone(want.VectorIndexes), func(v VectorIndex) bool {
		return slices.ContainsFunc(vectorCreates, func(c VectorIndex) bool { return c.Name == v.Name })
	})
	for _, idx := range creates {
		built.GSIs = append(built.GSIs, idx)
		if err := c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), AttributeDefinitions: attributeDefinitions(built),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: createIndexAction(expandGSI(want, idx))}}},
			"creating index "+idx.Name); err != nil {
			return err
		}
	}
	for _, v := range vectorCreates {
		built.VectorIndexes = append(built.VectorIndexes, v)
		if err := c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), AttributeDefinitions: attributeDefinitions(built),
			VectorIndexUpdates: []types.VectorIndexUpdate{{Create: createVectorIndexAction(v)}}},
			"creating vector index "+v.Name); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) updateStream(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	for _, spec := range streamUpdates(old, want) {
		what := "enabling the stream"
		if !aws.ToBool(spec.StreamEnabled) {
			what = "disabling the stream"
		}
		if err := c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), StreamSpecification: spec}, what); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) updateEncryption(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	spec := encryptionUpdate(old, want)
	if spec == nil {
		return nil
	}
	return c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), SSESpecification: spec}, "changing the encryption key")
}

// prewarm raises the warm throughput of the table, then of each kept index, where want asks for more.
func (c *Client) prewarm(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	if warm := warmUpdate(old, want); warm != nil {
		if err := c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), WarmThroughput: warm}, "pre-warming"); err != nil {
			return err
		}
	}
	for _, idx := range want.GSIs {
		if warm := indexWarmUpdate(old, idx); warm != nil {
			if err := c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name),
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
					IndexName: aws.String(idx.Name), WarmThroughput: warm}}}}, "pre-warming index "+idx.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// updateTTLOf switches TTL when want's differs from old's. Turning it off names the attribute it was on.
func (c *Client) updateTTLOf(ctx context.Context, old, want Table) (Warnings, error) {
	if ttlEqual(old.TTL, want.TTL) {
		return nil, nil
	}
	target := TTL{}
	if want.TTL != nil {
		target = *want.TTL
	} else if old.TTL != nil {
		target = TTL{AttributeName: old.TTL.AttributeName}
	}
	if !target.Enabled && (old.TTL == nil || !old.TTL.Enabled) {
		return nil, nil
	}
	return c.updateTTL(ctx, want.Name, target)
}

func (c *Client) updatePITROf(ctx context.Context, old, want Table) (Warnings, error) {
	if spec := pitrUpdate(old, want); spec != nil {
		return c.updatePITR(ctx, want.Name, *spec)
	}
	return nil, nil
}

// settleIndexThroughput re-sends index capacity updates that the table update did not apply. AWS applies
// them with the billing-mode switch; some DynamoDB-compatible stores only apply them on their own.
func (c *Client) settleIndexThroughput(ctx context.Context, api *dynamodb.Client, want Table, updates []types.GlobalSecondaryIndexUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	current, err := c.describe(ctx, want.Name)
	if err != nil {
		return err
	}
	wantByName := map[string]Index{}
	for _, idx := range want.GSIs {
		wantByName[idx.Name] = idx
	}
	var pending []types.GlobalSecondaryIndexUpdate
	for _, idx := range current.GSIs {
		w, ok := wantByName[idx.Name]
		reported := idx.ReadCapacity != nil && idx.WriteCapacity != nil
		if ok && reported && (capacityChanged(idx.ReadCapacity, w.ReadCapacity, w.Autoscaled.Read) || capacityChanged(idx.WriteCapacity, w.WriteCapacity, w.Autoscaled.Write)) {
			pending = append(pending, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String(idx.Name), ProvisionedThroughput: keepAutoscaled(idx, w)}})
		}
	}
	if len(pending) == 0 {
		return nil
	}
	return c.updateAndWait(ctx, api, &dynamodb.UpdateTableInput{TableName: aws.String(want.Name), GlobalSecondaryIndexUpdates: pending},
		"updating index capacity")
}

func (c *Client) updateTable(ctx context.Context, api *dynamodb.Client, in *dynamodb.UpdateTableInput, what string) error {
	err := c.cfg.Polling.retryWhileInUse(ctx, what, func(ctx context.Context) error {
		_, err := api.UpdateTable(ctx, in)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s of table %s: %w", what, aws.ToString(in.TableName), err)
	}
	return nil
}

// diffGSIs splits the index changes: indexes to delete (removed or changed in key or projection), to create
// (new or changed), and capacity-only updates of PROVISIONED indexes.
func diffGSIs(old, want Table) (deletes, creates []Index, throughput []types.GlobalSecondaryIndexUpdate) {
	oldByName := map[string]Index{}
	for _, idx := range old.GSIs {
		oldByName[idx.Name] = idx
	}
	wantByName := map[string]Index{}
	for _, idx := range want.GSIs {
		wantByName[idx.Name] = idx
	}
	for _, name := range slices.Sorted(maps.Keys(oldByName)) {
		w, ok := wantByName[name]
		if !ok || !sameIndexShape(oldByName[name], w) {
			deletes = append(deletes, oldByName[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(wantByName)) {
		w := wantByName[name]
		o, ok := oldByName[name]
		switch {
		case !ok || !sameIndexShape(o, w):
			creates = append(creates, w)
		case want.BillingMode == BillingProvisioned && (old.BillingMode != BillingProvisioned ||
			capacityChanged(o.ReadCapacity, w.ReadCapacity, w.Autoscaled.Read) || capacityChanged(o.WriteCapacity, w.WriteCapacity, w.Autoscaled.Write)):
			throughput = append(throughput, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String(name), ProvisionedThroughput: keepAutoscaled(o, w)}})
		case want.BillingMode == BillingPayPerRequest && !sameThroughput(o.OnDemand, w.OnDemand):
			throughput = append(throughput, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String(name), OnDemandThroughput: expandOnDemand(orNoThroughput(w.OnDemand))}})
		}
	}
	return deletes, creates, throughput
}

// capacityChanged says whether a provisioned side must be sent: it differs and no autoscaler owns it.
func capacityChanged(have, want *int64, autoscaled bool) bool {
	return !autoscaled && aws.ToInt64(have) != aws.ToInt64(want)
}

// keepAutoscaled is the index capacity to send: the configured figure for a side Terraform owns, the
// current one for a side an autoscaler owns (an UpdateTable carries both sides).
func keepAutoscaled(have, want Index) *types.ProvisionedThroughput {
	read, write := want.ReadCapacity, want.WriteCapacity
	if want.Autoscaled.Read && have.ReadCapacity != nil {
		read = have.ReadCapacity
	}
	if want.Autoscaled.Write && have.WriteCapacity != nil {
		write = have.WriteCapacity
	}
	return expandThroughput(read, write)
}

// diffVectorIndexes splits the vector index changes: indexes to delete (removed or changed) and to create
// (new or changed), each in name order. Nothing of a vector index changes in place (UpdateTable's
// VectorIndexUpdates hold only Create and Delete), so a changed index is in both.
func diffVectorIndexes(old, want Table) (deletes, creates []VectorIndex) {
	byName := func(vs []VectorIndex) map[string]VectorIndex {
		out := make(map[string]VectorIndex, len(vs))
		for _, v := range vs {
			out[v.Name] = v
		}
		return out
	}
	had, wanted := byName(old.VectorIndexes), byName(want.VectorIndexes)
	for _, name := range slices.Sorted(maps.Keys(had)) {
		if w, ok := wanted[name]; !ok || !sameVectorIndex(had[name], w) {
			deletes = append(deletes, had[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(wanted)) {
		if h, ok := had[name]; !ok || !sameVectorIndex(h, wanted[name]) {
			creates = append(creates, wanted[name])
		}
	}
	return deletes, creates
}

// sameVectorIndex compares everything DynamoDB fixes when it creates the index. The inline filters and
// projected attributes are sets: their order means nothing to a search.
func sameVectorIndex(a, b VectorIndex) bool {
	sortedKeys := func(ks []KeyAttribute) []KeyAttribute {
		return slices.SortedFunc(slices.Values(ks), func(x, y KeyAttribute) int { return cmp.Compare(x.Name+"\x00"+x.Type, y.Name+"\x00"+y.Type) })
	}
	samePartition := (a.PartitionKey == nil) == (b.PartitionKey == nil) && (a.PartitionKey == nil || *a.PartitionKey == *b.PartitionKey)
	return a.VectorAttribute == b.VectorAttribute && a.Dimensions == b.Dimensions && a.DistanceFunction == b.DistanceFunction && samePartition &&
		slices.Equal(sortedKeys(a.InlineFilters), sortedKeys(b.InlineFilters)) &&
		sameIndexShape(Index{ProjectionType: a.ProjectionType, NonKeyAttributes: a.NonKeyAttributes},
			Index{ProjectionType: b.ProjectionType, NonKeyAttributes: b.NonKeyAttributes})
}

// sameIndexShape compares what cannot change in place: keys and projection.
func sameIndexShape(a, b Index) bool {
	return slices.Equal(a.PartitionKey, b.PartitionKey) && slices.Equal(a.SortKey, b.SortKey) &&
		projectionOrDefault(a.ProjectionType) == projectionOrDefault(b.ProjectionType) &&
		slices.Equal(slices.Sorted(slices.Values(a.NonKeyAttributes)), slices.Sorted(slices.Values(b.NonKeyAttributes)))
}

// projectionOrDefault is the projection DynamoDB applies when none is given: ALL.
func projectionOrDefault(p string) string {
	return cmp.Or(p, string(types.ProjectionTypeAll))
}

// tableSettingsUpdate is the single UpdateTable call for table-level settings, or nil when none changed.
func tableSettingsUpdate(old, want Table, gsiThroughput []types.GlobalSecondaryIndexUpdate) *dynamodb.UpdateTableInput {
	in := &dynamodb.UpdateTableInput{TableName: aws.String(want.Name)}
	changed := false
	if want.BillingMode != old.BillingMode {
		in.BillingMode = types.BillingMode(want.BillingMode)
		changed = true
	}
	if want.BillingMode == BillingProvisioned && (in.BillingMode != "" ||
		capacityChanged(old.ReadCapacity, want.ReadCapacity, want.Autoscaled.Read) || capacityChanged(old.WriteCapacity, want.WriteCapacity, want.Autoscaled.Write)) {
		in.ProvisionedThroughput = keepAutoscaled(Index{ReadCapacity: old.ReadCapacity, WriteCapacity: old.WriteCapacity},
			Index{ReadCapacity: want.ReadCapacity, WriteCapacity: want.WriteCapacity, Autoscaled: want.Autoscaled})
		changed = true
	}
	if len(gsiThroughput) > 0 {
		in.GlobalSecondaryIndexUpdates = gsiThroughput
		changed = true
	}
	if want.DeletionProtection != nil && aws.ToBool(old.DeletionProtection) != *want.DeletionProtection {
		in.DeletionProtectionEnabled = want.DeletionProtection
		changed = true
	}
	if want.BillingMode == BillingPayPerRequest && !sameThroughput(old.OnDemand, want.OnDemand) {
		in.OnDemandThroughput = expandOnDemand(orNoThroughput(want.OnDemand))
		changed = true
	}
	if want.TableClass != "" && want.TableClass != old.TableClass {
		in.TableClass = types.TableClass(want.TableClass)
		changed = true
	}
	if !changed {
		return nil
	}
	return in
}

// streamUpdates are the UpdateTable stream specifications that move the stream from old to want, in order.
// A nil stream is a disabled one. DynamoDB changes a view type only by disabling the stream and enabling it
// again (with a new stream ARN), so that takes two calls.
func streamUpdates(old, want Table) []*types.StreamSpecification {
	from, to := orDisabled(old.Stream), orDisabled(want.Stream)
	switch {
	case from.Enabled == to.Enabled && (!to.Enabled || from.ViewType == to.ViewType):
		return nil
	case from.Enabled && to.Enabled:
		return []*types.StreamSpecification{expandStream(Stream{}), expandStream(to)}
	}
	return []*types.StreamSpecification{expandStream(to)}
}

func orDisabled(s *Stream) Stream {
	if s == nil {
		return Stream{}
	}
	return *s
}

// encryptionUpdate is the SSE specification that moves the table from old to want, or nil. A nil
// encryption is the AWS owned key. An enabled setting without a key ARN (the AWS managed key) matches any
// enabled table: DynamoDB reports the managed key's ARN, which the configuration does not name.
func encryptionUpdate(old, want Table) *types.SSESpecification {
	from, to := Encryption{}, Encryption{}
	if old.Encryption != nil {
		from = *old.Encryption
	}
	if want.Encryption != nil {
		to = *want.Encryption
	}
	if from.Enabled == to.Enabled && (!to.Enabled || to.KMSKeyARN == "" || to.KMSKeyARN == from.KMSKeyARN) {
		return nil
	}
	return expandEncryption(to)
}

// warmUpdate pre-warms the table when want asks for more than it has. Warm throughput only grows: a lower
// figure than the table already has is satisfied, not an update.
func warmUpdate(old, want Table) *types.WarmThroughput {
	if want.Warm == nil {
		return nil
	}
	have := orNoThroughput(old.Warm)
	more := func(w, h *int64) bool { return w != nil && (h == nil || *w > *h) }
	if !more(want.Warm.Read, have.Read) && !more(want.Warm.Write, have.Write) {
		return nil
	}
	return expandWarm(*want.Warm)
}

// createIndexAction is the UpdateTable action that adds an index with all its settings (capacity, on-demand
// caps, warm throughput), as CreateTable would.
func createIndexAction(g types.GlobalSecondaryIndex) *types.CreateGlobalSecondaryIndexAction {
	return &types.CreateGlobalSecondaryIndexAction{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
		ProvisionedThroughput: g.ProvisionedThroughput, OnDemandThroughput: g.OnDemandThroughput, WarmThroughput: g.WarmThroughput}
}

// indexWarmUpdate pre-warms an existing index when want asks for more than it has (see warmUpdate). An
// index this apply creates (not in old with the same shape) gets its warm throughput with the create.
func indexWarmUpdate(old Table, want Index) *types.WarmThroughput {
	for _, have := range old.GSIs {
		if have.Name == want.Name && sameIndexShape(have, want) {
			return warmUpdate(Table{Warm: have.Warm}, Table{Warm: want.Warm})
		}
	}
	return nil
}

// insightsChange is one UpdateContributorInsights call: the table's (index nil) or an index's.
type insightsChange struct {
	index *string
	mode  string // "" disables
}

// contributorInsightsChanges lists the calls that move old's Contributor Insights to want's. A nil mode in
// want is not managed; a nil mode in old (not reported) is treated as off.
func contributorInsightsChanges(old, want Table) []insightsChange {
	differs := func(have, to *string) bool {
		return to != nil && (have == nil && *to != "" || have != nil && *have != *to)
	}
	var out []insightsChange
	if differs(old.ContributorInsights, want.ContributorInsights) {
		out = append(out, insightsChange{mode: *want.ContributorInsights})
	}
	for _, idx := range want.GSIs {
		var have *string
		for _, o := range old.GSIs {
			if o.Name == idx.Name && sameIndexShape(o, idx) { // an index created again starts with it off
				have = o.ContributorInsights
			}
		}
		if differs(have, idx.ContributorInsights) {
			out = append(out, insightsChange{index: aws.String(idx.Name), mode: *idx.ContributorInsights})
		}
	}
	return out
}

// updateContributorInsights makes the calls of contributorInsightsChanges. An endpoint without the
// operation is a warning when Contributor Insights is asked for, and nothing when it is turned off.
func (c *Client) updateContributorInsights(ctx context.Context, old, want Table) (Warnings, error) {
	api, _ := c.API(ctx)
	for _, ch := range contributorInsightsChanges(old, want) {
		in := &dynamodb.UpdateContributorInsightsInput{TableName: aws.String(want.Name), IndexName: ch.index,
			ContributorInsightsAction: types.ContributorInsightsActionDisable}
		if ch.mode != "" {
			in.ContributorInsightsAction = types.ContributorInsightsActionEnable
			in.ContributorInsightsMode = types.ContributorInsightsMode(ch.mode)
		}
		_, err := api.UpdateContributorInsights(ctx, in)
		switch {
		case IsUnknownOperation(err) && ch.mode != "":
			return Warnings{"The endpoint does not implement UpdateContributorInsights (UnknownOperationException), so Contributor Insights is not enabled on table " + want.Name + "."}, nil
		case IsUnknownOperation(err):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("updating Contributor Insights of %s: %w", want.Name, err)
		}
	}
	return nil, nil
}

func orNoThroughput(t *Throughput) Throughput {
	if t == nil {
		return Throughput{}
	}
	return *t
}

func sameThroughput(a, b *Throughput) bool {
	x, y := orNoThroughput(a), orNoThroughput(b)
	return aws.ToInt64(x.Read) == aws.ToInt64(y.Read) && aws.ToInt64(x.Write) == aws.ToInt64(y.Write)
}

func ttlEqual(a, b *TTL) bool {
	enabled := func(t *TTL) bool { return t != nil && t.Enabled }
	if enabled(a) != enabled(b) {
		return false
	}
	return !enabled(a) || a.AttributeName == b.AttributeName
}

func (c *Client) updateTTL(ctx context.Context, name string, ttl TTL) (Warnings, error) {
	api, _ := c.API(ctx)
	_, err := api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(ttl.AttributeName), Enabled: aws.Bool(ttl.Enabled)}})
	if IsUnknownOperation(err) {
		return Warnings{"The endpoint does not implement UpdateTimeToLive (UnknownOperationException), so TTL was not configured on table " + name + "."}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("updating the TTL of %s: %w", name, err)
	}
	return nil, c.waitTTL(ctx, name, ttl.Enabled)
}

// pitrUpdate is the point-in-time recovery want asks for when it differs from old, or nil. A nil setting in
// want is not managed; a nil recovery period is DynamoDB's default.
func pitrUpdate(old, want Table) *PITR {
	if want.PointInTimeRecovery == nil {
		return nil
	}
	to, from := *want.PointInTimeRecovery, PITR{}
	if old.PointInTimeRecovery != nil {
		from = *old.PointInTimeRecovery
	}
	period := func(p PITR) int32 {
		if p.RecoveryPeriodDays == nil {
			return MaxRecoveryPeriodDays
		}
		return *p.RecoveryPeriodDays
	}
	if to.Enabled == from.Enabled && (!to.Enabled || period(to) == period(from)) {
		return nil
	}
	if to.Enabled && from.Enabled {
		to.RecoveryPeriodDays = aws.Int32(period(to)) // back to the default is a change of period too
	}
	return &to
}

func (c *Client) updatePITR(ctx context.Context, name string, pitr PITR) (Warnings, error) {
	api, _ := c.API(ctx)
	spec := &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(pitr.Enabled)}
	if pitr.Enabled {
		spec.RecoveryPeriodInDays = pitr.RecoveryPeriodDays
	}
	_, err := api.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(name), PointInTimeRecoverySpecification: spec})
	if IsUnknownOperation(err) {
		if pitr.Enabled {
			return Warnings{"The endpoint does not implement UpdateContinuousBackups (UnknownOperationException), so point-in-time recovery is not enabled on table " + name + "."}, nil
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("updating point-in-time recovery of %s: %w", name, err)
	}
	return nil, c.waitPITR(ctx, name, pitr.Enabled)
}

func (c *Client) updateTags(ctx context.Context, api *dynamodb.Client, old, want Table) error {
	arn := old.ARN
	var remove []string
	for k := range old.Tags {
		if _, ok := want.Tags[k]; !ok {
			remove = append(remove, k)
		}
	}
	add := map[string]string{}
	for k, v := range want.Tags {
		if ov, ok := old.Tags[k]; !ok || ov != v {
			add[k] = v
		}
	}
	if len(remove) > 0 {
		slices.Sort(remove)
		if _, err := api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove}); err != nil {
			return fmt.Errorf("removing tags from %s: %w", want.Name, err)
		}
	}
	if len(add) > 0 {
		if _, err := api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: expandTags(add)}); err != nil {
			return fmt.Errorf("tagging %s: %w", want.Name, err)
		}
	}
	return nil
}

// DeleteTable deletes the table and waits until it is gone. A table with deletion protection on is not
// touched: ErrDeletionProtected. A table that is already gone is not an error.
func (c *Client) DeleteTable(ctx context.Context, name string) error {
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	current, err := c.describe(ctx, name)
	if errors.Is(err, ErrTableNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if aws.ToBool(current.DeletionProtection) {
		return ErrDeletionProtected
	}
	err = c.cfg.Polling.retryWhileInUse(ctx, "deleting table "+name, func(ctx context.Context) error {
		_, err := api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		return err
	})
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting table %s: %w", name, err)
	}
	return c.waitTableDeleted(ctx, name)
}
