package policy

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// verdictFixture is a table known by its keys' names and types only, as an adopted table, a design that gives
// no template and the AWS provider's aws_dynamodb_table know it, with the rule ids every front must report.
type verdictFixture struct {
	pk, pkType, sk, gsiPK string
	lsiSK                 string // the sort key of an LSI, when the table has one
	want                  []string
}

var verdictFixtures = []verdictFixture{
	{pk: "order_status", pkType: "S", sk: "order_id", want: []string{"DK302"}},
	{pk: "event_date", pkType: "S", sk: "event_id", want: []string{"DK301"}},
	{pk: "day", pkType: "N", want: []string{"DK301"}},
	{pk: "created_at", pkType: "S", want: []string{"DK301"}}, // a time held as a string
	{pk: "created_at", pkType: "N", want: nil},               // epoch values, each its own key
	{pk: "tenantType", pkType: "S", sk: "id", want: []string{"DK302"}},
	{pk: "is_active", pkType: "S", want: []string{"DK302"}},
	{pk: "customer_id", pkType: "S", sk: "order_id", want: nil},
	{pk: "customer_id", pkType: "S", sk: "order_id", gsiPK: "status", want: []string{"DK302"}},
	// Nothing says how many items one customer holds: no collection warning, adopted or audited.
	{pk: "customer_id", pkType: "S", sk: "order_id", lsiSK: "created_at", want: nil},
	{pk: "order_status", pkType: "S", sk: "order_id", lsiSK: "created_at", want: []string{"DK302"}},
}

// designInput is the fixture as the resource and the data source give it to keydesign: keys without templates.
func (f verdictFixture) designInput(kind string) *model.Input {
	in := &model.Input{Kind: kind, TableName: "verdict", BillingMode: "PAY_PER_REQUEST", PartitionKey: model.Key{Name: f.pk, Type: f.pkType}}
	if f.sk != "" {
		in.SortKey = &model.Key{Name: f.sk, Type: "S"}
	}
	if f.gsiPK != "" {
		in.GlobalSecondaryIndexes = []model.GlobalSecondaryIndex{{Name: "by_" + f.gsiPK, PartitionKey: []model.IndexKeyAttribute{{Name: f.gsiPK, Type: "S"}},
			ProjectionType: "KEYS_ONLY"}}
	}
	if f.lsiSK != "" {
		in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{{Name: "by_" + f.lsiSK, SortKey: model.IndexKeyAttribute{Name: f.lsiSK, Type: "S"}, ProjectionType: "KEYS_ONLY"}}
	}
	return in
}

// awsAfter is the fixture as a planned aws_dynamodb_table (and the list resource's audit) gives it.
func (f verdictFixture) awsAfter() map[string]any {
	attrs := []any{map[string]any{"name": f.pk, "type": f.pkType}}
	after := map[string]any{"name": "verdict", "billing_mode": "PAY_PER_REQUEST", "hash_key": f.pk, "local_secondary_index": []any{}, "global_secondary_index": []any{}}
	if f.sk != "" {
		after["range_key"] = f.sk
		attrs = append(attrs, map[string]any{"name": f.sk, "type": "S"})
	}
	if f.gsiPK != "" {
		after["global_secondary_index"] = []any{map[string]any{"name": "by_" + f.gsiPK, "hash_key": f.gsiPK, "projection_type": "KEYS_ONLY"}}
		attrs = append(attrs, map[string]any{"name": f.gsiPK, "type": "S"})
	}
	if f.lsiSK != "" {
		after["local_secondary_index"] = []any{map[string]any{"name": "by_" + f.lsiSK, "range_key": f.lsiSK, "projection_type": "KEYS_ONLY"}}
		attrs = append(attrs, map[string]any{"name": f.lsiSK, "type": "S"})
	}
	after["attribute"] = attrs
	return after
}

func ruleIDs(findings []Finding) []string {
	ids := map[string]bool{}
	for _, f := range findings {
		ids[f.Rule] = true
	}
	return slices.Sorted(maps.Keys(ids))
}

// TestOneVerdictPerTable: a partition key without a template is judged by the same name heuristics whoever
// asks. Each fixture gets the same rule ids from the engine on the document keydesign builds for
// dynamokeys_sharded_table and dynamokeys_keydesign (what the resource, the data source and TFLint
// evaluate), from the plan adapter's aws_dynamodb_table mapping (what the list resource's audit and TFLint's
// aws_dynamodb_table evaluate), and from the conftest entry points on a plan holding both resources.
func TestOneVerdictPerTable(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range verdictFixtures {
		name := f.pk + "_" + f.pkType + "_" + f.gsiPK + "_" + f.lsiSK
		t.Run(name, func(t *testing.T) {
			got := map[string][]string{}
			var changes []any
			for _, kind := range []string{"sharded_table", "keydesign"} {
				doc := analyzed(t, f.designInput(kind))
				findings, err := e.Evaluate(t.Context(), doc)
				if err != nil {
					t.Fatal(err)
				}
				got["engine, "+kind] = ruleIDs(findings)
				if kind == "sharded_table" {
					encoded, err := doc.Attribute()
					if err != nil {
						t.Fatal(err)
					}
					changes = append(changes, map[string]any{"address": "dynamokeys_sharded_table.verdict", "mode": "managed", "type": "dynamokeys_sharded_table",
						"name": "verdict", "change": map[string]any{"actions": []any{"update"}, "after": map[string]any{"design_document": encoded}, "after_unknown": map[string]any{}}})
				}
			}
			audited, err := e.EvaluateAWSTable(t.Context(), "aws_dynamodb_table.verdict", f.awsAfter())
			if err != nil {
				t.Fatal(err)
			}
			got["engine, aws_dynamodb_table"] = ruleIDs(audited)
			changes = append(changes, map[string]any{"address": "aws_dynamodb_table.verdict", "mode": "managed", "type": "aws_dynamodb_table", "name": "verdict",
				"change": map[string]any{"actions": []any{"create"}, "after": f.awsAfter(), "after_unknown": map[string]any{"arn": true}}})
			planJSON, err := json.Marshal(map[string]any{"format_version": "1.2", "resource_changes": changes})
			if err != nil {
				t.Fatal(err)
			}
			deny, warn, err := EvaluatePlan(t.Context(), planJSON)
			if err != nil {
				t.Fatal(err)
			}
			byAddress := map[string]map[string]bool{"dynamokeys_sharded_table.verdict": {}, "aws_dynamodb_table.verdict": {}}
			for _, r := range slices.Concat(deny, warn) {
				if byAddress[r.Address] == nil {
					t.Errorf("conftest result for %q: %s", r.Address, r.Msg)
					continue
				}
				byAddress[r.Address][r.Rule] = true
			}
			for address, rules := range byAddress {
				got["conftest, "+address] = slices.Sorted(maps.Keys(rules))
			}
			for front, rules := range got {
				if !slices.Equal(rules, f.want) && (len(rules) > 0 || len(f.want) > 0) {
					t.Errorf("%s: %v; want %v", front, rules, f.want)
				}
			}
		})
	}
}
