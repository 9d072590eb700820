package policy

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// cleanTable is a clean aws_dynamodb_table's values, with the given attributes over them.
func cleanTable(name string, attrs map[string]any) map[string]any {
	values := map[string]any{
		"name": name, "hash_key": "customerId", "range_key": "orderId", "billing_mode": "PAY_PER_REQUEST",
		"attribute": []any{map[string]any{"name": "customerId", "type": "S"}, map[string]any{"name": "orderId", "type": "S"}},
	}
	maps.Copy(values, attrs)
	return values
}

// awsTable is a planned aws_dynamodb_table change with the given attributes over a clean table.
func awsTable(name string, attrs map[string]any) map[string]any {
	after := cleanTable(name, attrs)
	return map[string]any{
		"address": "aws_dynamodb_table." + strings.ReplaceAll(name, "-", "_"), "mode": "managed", "type": "aws_dynamodb_table", "name": name,
		"change": map[string]any{"actions": []any{"create"}, "before": nil, "after": after, "after_unknown": map[string]any{}},
	}
}

// TestAWSTableRulesAreDeclared: on planned aws_dynamodb_table changes built to trip every rule that can
// decide without templates or traffic, the rules that fire are exactly those whose METADATA does not list
// them as unable to fire there (custom.aws_dynamodb_table), plus those it lists as firing in part. The
// policy plugin guide's list is generated from the same field.
func TestAWSTableRulesAreDeclared(t *testing.T) {
	gsis := func(n int, attrs int) []any {
		var out []any
		for i := range n {
			g := map[string]any{"name": fmt.Sprintf("by_%d", i), "hash_key": "customerId", "projection_type": "ALL"}
			if attrs > 0 {
				var keys, nonKey []any
				for j := range attrs {
					keys = append(keys, map[string]any{"attribute_name": fmt.Sprintf("a%d", j), "key_type": "HASH"})
				}
				for j := range 101 {
					nonKey = append(nonKey, fmt.Sprintf("p%d", j))
				}
				g = map[string]any{"name": "by_many", "key_schema": keys, "projection_type": "INCLUDE", "non_key_attributes": nonKey}
			}
			out = append(out, g)
		}
		return out
	}
	var lsis []any
	for i := range 6 {
		lsis = append(lsis, map[string]any{"name": fmt.Sprintf("lsi_%d", i), "range_key": "orderId", "projection_type": "ALL"})
	}
	changes := []any{
		awsTable("bool-key", map[string]any{"attribute": []any{map[string]any{"name": "customerId", "type": "BOOL"}, map[string]any{"name": "orderId", "type": "S"}}}),
		awsTable("ab", nil),
		awsTable("wide-gsi", map[string]any{"global_secondary_index": gsis(1, 5)}),
		awsTable("many-gsis", map[string]any{"global_secondary_index": gsis(21, 0)}),
		awsTable("six-lsis", map[string]any{"local_secondary_index": lsis}),
		awsTable("lsi-no-range", map[string]any{"range_key": nil, "local_secondary_index": lsis[:1]}),
		awsTable("by-status", map[string]any{"hash_key": "status", "attribute": []any{map[string]any{"name": "status", "type": "S"}, map[string]any{"name": "orderId", "type": "S"}}}),
		awsTable("mrsc-two", map[string]any{"region": "us-east-1", "replica": []any{map[string]any{"region_name": "us-east-2", "consistency_mode": "STRONG"}},
			"global_table_witness": []any{map[string]any{"region_name": "us-west-2"}}, "ttl": []any{map[string]any{"enabled": true, "attribute_name": "expires"}}}),
		awsTable("mrsc-pair", map[string]any{"region": "us-east-1", "replica": []any{map[string]any{"region_name": "us-east-2", "consistency_mode": "STRONG"}}}),
		awsTable("twice", map[string]any{"region": "us-east-1", "replica": []any{map[string]any{"region_name": "us-east-1"}}}),
		awsTable("by-day", map[string]any{"hash_key": "eventDate", "attribute": []any{map[string]any{"name": "eventDate", "type": "S"}, map[string]any{"name": "orderId", "type": "S"}}}),
	}
	// Changes to live tables: each trips one of the change rules (DK001–DK009).
	gsi := func(name, rangeKey string) map[string]any {
		return map[string]any{"name": name, "hash_key": "customerId", "range_key": rangeKey, "projection_type": "ALL", "read_capacity": 5, "write_capacity": 5}
	}
	live := func(name string, actions []any, before, after map[string]any) map[string]any {
		merged := func(attrs map[string]any) map[string]any {
			if attrs == nil {
				return nil
			}
			return cleanTable(name, attrs)
		}
		rc := awsTable(name, nil)
		rc["change"] = map[string]any{"actions": actions, "before": merged(before), "after": merged(after), "after_unknown": map[string]any{},
			"replace_paths": []any{[]any{"hash_key"}}}
		return rc
	}
	update := []any{"update"}
	stream := "arn:aws:dynamodb:us-east-1:111122223333:table/streamed/stream/1"
	prov := map[string]any{"billing_mode": "PROVISIONED", "read_capacity": 900, "write_capacity": 5}
	changes = append(changes,
		live("replaced", []any{"delete", "create"}, map[string]any{}, map[string]any{"hash_key": "tenantId"}),
		live("destroyed", []any{"delete"}, map[string]any{}, nil),
		live("rebuilt", update, map[string]any{"global_secondary_index": []any{gsi("by_a", "x"), gsi("by_b", "")}},
			map[string]any{"global_secondary_index": []any{gsi("by_a", "y")}}),
		live("indexed", update, map[string]any{}, map[string]any{"global_secondary_index": []any{gsi("by_c", "")}}),
		live("replicated", update, map[string]any{"replica": []any{map[string]any{"region_name": "eu-west-1"}}}, map[string]any{"replica": []any{}}),
		live("streamed", update, map[string]any{"stream_enabled": true, "stream_view_type": "NEW_IMAGE", "stream_arn": stream}, map[string]any{"stream_enabled": false}),
		map[string]any{"address": "aws_lambda_event_source_mapping.reader", "mode": "managed", "type": "aws_lambda_event_source_mapping",
			"change": map[string]any{"actions": []any{"no-op"}, "before": map[string]any{"event_source_arn": stream}, "after": map[string]any{"event_source_arn": stream}}},
		live("autoscaled", update, prov, map[string]any{"billing_mode": "PROVISIONED", "read_capacity": 5, "write_capacity": 5}),
		map[string]any{"address": "aws_appautoscaling_target.reads", "mode": "managed", "type": "aws_appautoscaling_target",
			"change": map[string]any{"actions": []any{"no-op"}, "after": map[string]any{"resource_id": "table/autoscaled", "scalable_dimension": "dynamodb:table:ReadCapacityUnits"}}},
		live("switched", update, prov, map[string]any{}),
	)
	// Vector indexes of the AWS provider (terraform-provider-aws PR #49375) joined to their tables: on a
	// PROVISIONED table (DK504), six on one table with one of 8,192 dimensions (DK505, DK506), a HASH that is
	// the only key of its table (DK509).
	vector := func(table, index string, dimensions int, hash string) map[string]any {
		var schema []any
		if hash != "" {
			schema = append(schema, map[string]any{"attribute_name": hash, "attribute_type": "S", "type": "HASH"})
		}
		return map[string]any{"address": "aws_dynamodb_vector_index." + strings.ReplaceAll(table, "-", "_") + "_" + index, "mode": "managed",
			"type": "aws_dynamodb_vector_index", "change": map[string]any{"actions": []any{"create"}, "after_unknown": map[string]any{}, "after": map[string]any{
				"table_name": table, "index_name": index, "dimensions": dimensions, "distance_function": "COSINE",
				"vector_attribute": map[string]any{"attribute_name": "embedding_" + index}, "search_schema": schema,
				"projection": []any{map[string]any{"projection_type": "KEYS_ONLY"}},
			}}}
	}
	changes = append(changes,
		awsTable("vec-prov", map[string]any{"billing_mode": "PROVISIONED", "read_capacity": 5, "write_capacity": 5}), vector("vec-prov", "v", 16, ""),
		awsTable("vec-unique", map[string]any{"range_key": nil}), vector("vec-unique", "v", 16, "customerId"),
		awsTable("vec-many", nil),
	)
	for i := range 6 {
		changes = append(changes, vector("vec-many", fmt.Sprintf("v%d", i), 16<<(2*i), ""))
	}
	plan := map[string]any{"resource_changes": changes}
	raw, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	deny, warn, err := EvaluatePlan(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	fired := map[string]bool{}
	for _, r := range append(deny, warn...) {
		fired[r.Rule] = true
	}
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, r := range engine.Catalogue() {
		if r.AWSTable == "" || strings.HasPrefix(r.AWSTable, "fires ") {
			want[r.ID] = true
		}
	}
	if got, wantIDs := slices.Sorted(maps.Keys(fired)), slices.Sorted(maps.Keys(want)); !slices.Equal(got, wantIDs) {
		t.Errorf("rules that fire on aws_dynamodb_table: %v\nrules METADATA says can fire there: %v", got, wantIDs)
	}
}
