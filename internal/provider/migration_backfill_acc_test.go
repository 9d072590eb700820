package provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// TestAccMigrationBackfillOnLocalServers carries out the migration the key-scheme guide walks through, a hot
// day key moved to four calculated shards, on each local server: items written under the old layout, dual
// writes, the backfill (a Scan, then a put of each old item under its new key) at the planned rate, the
// switch of readers, and the deletion of the old items. It checks the consumed capacity the server reports
// against the plan's backfill figures, and that each access pattern, querying the layout and the number of
// keys the plan says for the phase, reads every item.
func TestAccMigrationBackfillOnLocalServers(t *testing.T) {
	forEachServer(t, checkBackfill)
}

const (
	backfillDays      = 3
	backfillOldItems  = 40 // per day, written before the migration
	backfillDualItems = 5  // per day, written in both layouts during dual_write
	backfillItemBytes = 1500
)

var backfillDayValues = []string{"2026-11-29", "2026-11-30", "2026-12-01"}

// backfillDesign is the guide's migration with the test's item count, at the phase given.
func backfillDesign(phase string, items int64) *model.Input {
	return &model.Input{Kind: "keydesign", TableName: "events",
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: aws.String("DAY#{day}#SHARD#{shard}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: aws.String("EVENT#{event_id}")},
		Segments: map[string]model.Segment{"day": {Kind: model.KindTime, Granularity: "day"},
			"event_id": {Kind: model.KindID, MaxLength: aws.Int64(12)}},
		Sharding: model.Sharding{Strategy: model.StrategyCalculated, Source: "event_id", Count: aws.Int64(4), SchemeVersion: aws.Int64(2)},
		Traffic:  model.Traffic{WritesPerSecond: aws.Float64(2500), ItemSizeBytes: aws.Int64(backfillItemBytes), ItemCount: aws.Int64(items)},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{{Name: "by_status",
			PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S"}}, SortKey: []model.IndexKeyAttribute{{Name: "sk", Type: "S"}},
			ProjectionType: model.ProjectionAll}},
		AccessPatterns: []model.AccessPattern{
			{Name: "events_of_day", Equals: []string{"day"}, ReadsPerSecond: aws.Float64(10), Items: aws.Int64(50)},
			{Name: "events_by_status", Index: aws.String("by_status"), Equals: []string{"status"}, ReadsPerSecond: aws.Float64(1)},
		},
		Migration: &model.MigrationInput{Phase: phase, BackfillWriteUnitsPerSecond: aws.Float64(400),
			From: model.LayoutInput{PartitionKeyTemplate: aws.String("DAY#{day}"), Sharding: &model.Sharding{Strategy: model.StrategyNone}}},
	}
}

func backfillPlan(t *testing.T, phase string, items int64) *model.MigrationDoc {
	t.Helper()
	doc, errs := keydesign.Analyze(backfillDesign(phase, items))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return doc.Derived.Migration
}

// backfillItem is an event of exactly backfillItemBytes under the old layout (its new key's pk is longer by
// the shard suffix, which does not cross a 1 KB boundary).
func backfillItem(day string, i int) map[string]string {
	id := fmt.Sprintf("%s-%04d", strings.ReplaceAll(day[5:], "-", ""), i)
	attrs := map[string]string{"pk": "DAY#" + day, "sk": "EVENT#" + id, "day": day, "event_id": id, "status": "open"}
	n := 0
	for k, v := range attrs {
		n += len(k) + len(v)
	}
	attrs["payload"] = strings.Repeat("x", backfillItemBytes-n-len("payload"))
	return attrs
}

func newKey(item map[string]string) string {
	return "DAY#" + item["day"] + "#SHARD#" + model.ShardSuffix(item["event_id"], 4)
}

func attributeValues(item map[string]string, pk string) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for k, v := range item {
		out[k] = &types.AttributeValueMemberS{Value: v}
	}
	out["pk"] = &types.AttributeValueMemberS{Value: pk}
	return out
}

func checkBackfill(t *testing.T, server testServer) {
	t.Helper()
	ctx := t.Context()
	api, err := dynamo.NewClient(dynamo.Config{Region: "us-east-1", Endpoint: server.endpoint, AccessKey: "test", SecretKey: "test"}).API(ctx)
	if err != nil {
		t.Fatal(err)
	}
	table := "backfill-" + string(server.kind)
	s := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	if _, err := api.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("status")}, KeySchema: key("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("by_status"), KeySchema: key("status", "sk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	}); err != nil {
		t.Fatal(err)
	}
	put := func(item map[string]types.AttributeValue) {
		t.Helper()
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	var all []map[string]string
	for _, day := range backfillDayValues {
		for i := range backfillOldItems {
			item := backfillItem(day, i)
			put(attributeValues(item, item["pk"]))
			all = append(all, item)
		}
	}
	// The plan's item_count is the table's items when dual writes begin: the items the backfill rewrites.
	// Those written since are already in both layouts.
	before := int64(len(all))
	total := before + backfillDays*backfillDualItems

	// reads runs each pattern as the plan says for the phase: the layout, and one Query per key value.
	reads := func(phase string, wantIndexCopies int) {
		t.Helper()
		md := backfillPlan(t, phase, before)
		for _, p := range md.Patterns {
			r := p.Reads[md.PhaseIndex]
			switch p.Name {
			case "events_of_day":
				for _, day := range backfillDayValues {
					keys := []string{"DAY#" + day}
					if r.Layout == "new" {
						keys = nil
						for _, suffix := range model.ShardSuffixes(md.NewRouting.Count) {
							keys = append(keys, "DAY#"+day+"#SHARD#"+suffix)
						}
					}
					if int64(len(keys)) != r.QueriesPerCall {
						t.Errorf("%s: %s queries %d keys, the plan says %d", phase, p.Name, len(keys), r.QueriesPerCall)
					}
					found := 0
					for _, k := range keys {
						found += queryCount(t, api, table, "", "pk", k)
					}
					if want := backfillOldItems + backfillDualItems; found != want {
						t.Errorf("%s: %s reads the %s layout of %s and finds %d items, want %d", phase, p.Name, r.Layout, day, found, want)
					}
				}
			case "events_by_status":
				// The index holds each re-keyed item once per copy: the plan says so (IndexDuplicates).
				found := queryCount(t, api, table, "by_status", "status", "open")
				if found != int(total)*wantIndexCopies && wantIndexCopies > 0 {
					t.Errorf("%s: %s finds %d entries, want %d (%d per item)", phase, p.Name, found, int(total)*wantIndexCopies, wantIndexCopies)
				}
				if !p.IndexDuplicates {
					t.Errorf("%s: the plan does not say that by_status holds both copies of a re-keyed item", phase)
				}
			}
		}
	}

	// dual_write: new events are written under both layouts; readers read the old one.
	for _, day := range backfillDayValues {
		for i := range backfillDualItems {
			item := backfillItem(day, backfillOldItems+i)
			put(attributeValues(item, item["pk"]))
			put(attributeValues(item, newKey(item)))
			all = append(all, item)
		}
	}
	reads(model.PhaseDualWrite, 0)

	// backfill: a Scan of the table, and a put of each old-layout item under its new key, paced at the
	// plan's rate in table write units per second.
	md := backfillPlan(t, model.PhaseBackfill, before)
	b := md.Backfill
	var scanUnits, putUnits, indexUnits float64
	scanned := int64(0)
	pace := newPacer(b.Rate)
	var start map[string]types.AttributeValue
	for {
		out, err := api.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), ExclusiveStartKey: start, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		if cc := out.ConsumedCapacity; cc != nil && cc.CapacityUnits != nil {
			scanUnits += *cc.CapacityUnits
		}
		scanned += int64(len(out.Items))
		for _, item := range out.Items {
			plain := map[string]string{}
			for k, v := range item {
				if sv, ok := v.(*types.AttributeValueMemberS); ok {
					plain[k] = sv.Value
				}
			}
			if strings.Contains(plain["pk"], "#SHARD#") {
				continue // a dual-written new copy
			}
			// A conditional put: an item the dual writes already wrote under its new key is newer than the
			// copy the Scan read, and stays.
			out, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: attributeValues(plain, newKey(plain)),
				ConditionExpression: aws.String("attribute_not_exists(pk)"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			var failed *types.ConditionalCheckFailedException
			if errors.As(err, &failed) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			cc := out.ConsumedCapacity
			if cc != nil && cc.Table != nil && cc.Table.CapacityUnits != nil {
				putUnits += *cc.Table.CapacityUnits
				pace.wait(*cc.Table.CapacityUnits)
			}
			for _, c := range cc.GlobalSecondaryIndexes {
				indexUnits += aws.ToFloat64(c.CapacityUnits)
			}
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	t.Logf("%s: backfill consumed %v table and %v index write units, %v scan read units; the plan: %v, %v, %v (%.4f h at %v WCU/s)",
		server.kind, putUnits, indexUnits, scanUnits, *b.PutWriteUnits, b.IndexPutWriteUnits["by_status"], *b.ScanReadUnits, *b.Hours, b.Rate)
	if putUnits == 0 {
		t.Logf("%s reports no consumed capacity for puts", server.kind)
	} else if putUnits != *b.PutWriteUnits {
		t.Errorf("the backfill consumed %v table write units, the plan says %v", putUnits, *b.PutWriteUnits)
	}
	if indexUnits > 0 && indexUnits != b.IndexPutWriteUnits["by_status"] {
		t.Errorf("the backfill consumed %v write units on by_status, the plan says %v", indexUnits, b.IndexPutWriteUnits["by_status"])
	}
	// The Scan also reads the new copies the dual writes made: the plan's formula for the items it read.
	if want := *backfillPlan(t, model.PhaseBackfill, scanned).Backfill.ScanReadUnits; scanUnits > 0 && scanUnits != want {
		t.Errorf("the Scan of %d items consumed %v read units, the plan's formula says %v", scanned, scanUnits, want)
	}
	reads(model.PhaseBackfill, 2)
	reads(model.PhaseReadNew, 2)

	// done: writers stop writing the old layout and the old items are deleted.
	var deleteUnits, deleteIndexUnits float64
	for _, item := range all {
		out, err := api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: item["pk"]}, "sk": &types.AttributeValueMemberS{Value: item["sk"]}}})
		if err != nil {
			t.Fatal(err)
		}
		if cc := out.ConsumedCapacity; cc != nil && cc.Table != nil {
			deleteUnits += aws.ToFloat64(cc.Table.CapacityUnits)
			for _, c := range cc.GlobalSecondaryIndexes {
				deleteIndexUnits += aws.ToFloat64(c.CapacityUnits)
			}
		}
	}
	// Every old copy is deleted: the plan's figure for the items it rewrote, plus the dual-written ones.
	perItem := *b.DeleteWriteUnits / float64(before)
	perIndexItem := b.IndexDeleteWriteUnits["by_status"] / float64(before)
	if deleteUnits > 0 && deleteUnits != perItem*float64(total) {
		t.Errorf("deleting %d old items consumed %v table write units, the plan %v per item", total, deleteUnits, perItem)
	}
	if deleteIndexUnits > 0 && deleteIndexUnits != perIndexItem*float64(total) {
		t.Errorf("deleting %d old items consumed %v write units on by_status, the plan %v per item", total, deleteIndexUnits, perIndexItem)
	}
	reads(model.PhaseDone, 1)
}

// queryCount counts the items one key value holds, page by page.
func queryCount(t *testing.T, api *dynamodb.Client, table, index, attribute, value string) int {
	t.Helper()
	in := &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("#k = :v"),
		ExpressionAttributeNames:  map[string]string{"#k": attribute},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: value}}}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	n := 0
	for {
		out, err := api.Query(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		n += len(out.Items)
		if out.LastEvaluatedKey == nil {
			return n
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// pacer holds a backfill to a rate of units per second, as the guide's backfill loop does: after each
// write it sleeps until the units written so far fit the rate.
type pacer struct {
	rate  float64
	start time.Time
	units float64
}

func newPacer(rate float64) *pacer { return &pacer{rate: rate, start: time.Now()} }

func (p *pacer) wait(units float64) {
	p.units += units
	if due := p.start.Add(time.Duration(p.units / p.rate * float64(time.Second))); time.Until(due) > 0 {
		time.Sleep(time.Until(due))
	}
}
