package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const movedTargetType = "dynamokeys_sharded_table"

// moveRequest builds the request Terraform sends for `moved { from = aws_dynamodb_table.x  to =
// dynamokeys_sharded_table.x }`: the source's provider address, type, schema version and its state as
// stored (JSON).
func moveRequest(state []byte) *tfprotov6.MoveResourceStateRequest {
	return &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/hashicorp/aws",
		SourceTypeName:        "aws_dynamodb_table",
		SourceSchemaVersion:   1,
		SourceState:           &tfprotov6.RawState{JSON: state},
		TargetTypeName:        movedTargetType,
	}
}

// moveThroughServer sends the request to the provider's protocol 6 server, as Terraform does, and
// returns the response and the target state decoded with the resource's schema (nil when none).
func moveThroughServer(t *testing.T, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, map[string]any) {
	t.Helper()
	ctx := context.Background()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.MoveResourceState(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.TargetState == nil {
		return resp, nil
	}
	value, err := resp.TargetState.Unmarshal(schemas.ResourceSchemas[movedTargetType].ValueType())
	if err != nil {
		t.Fatalf("decoding the target state: %v", err)
	}
	state, err := stateJSON(value)
	if err != nil {
		t.Fatal(err)
	}
	return resp, state.(map[string]any)
}

// stateJSON turns a state value into what Terraform writes to a state file: objects and maps as JSON
// objects, lists and sets as arrays, numbers as json.Number, null as nil.
func stateJSON(v tftypes.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() {
		return nil, fmt.Errorf("unknown value in state")
	}
	switch typ := v.Type(); {
	case typ.Is(tftypes.String):
		var s string
		err := v.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := v.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		n := new(big.Float)
		err := v.As(&n)
		return json.Number(n.Text('f', -1)), err
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			j, err := stateJSON(e)
			if err != nil {
				return nil, err
			}
			out = append(out, j)
		}
		return out, nil
	default: // objects and maps
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(attrs))
		for k, e := range attrs {
			j, err := stateJSON(e)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "aws_dynamodb_table", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("expected state is not JSON: %v", err)
	}
	return m
}

func diagnosticTexts(diags []*tfprotov6.Diagnostic, severity tfprotov6.DiagnosticSeverity) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == severity {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// TestMoveStateFromAWSTable converts realistic aws_dynamodb_table states (AWS provider v5 and v6 layouts)
// through the provider server and compares every attribute of the target state: want lists the non-null
// attributes with their exact values, and every other attribute (design metadata, computed design
// outputs, status, timeouts) must be null.
func TestMoveStateFromAWSTable(t *testing.T) {
	tests := []struct {
		fixture  string
		want     string
		warnings []string // patterns, one per expected warning, in the order of the sorted warnings
	}{
		{
			fixture: "v5_on_demand_hash_only.json",
			want: `{"id": "sessions", "name": "sessions", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/sessions",
				"billing_mode": "PAY_PER_REQUEST", "partition_key": {"name": "session_id", "type": "S", "template": null},
				"point_in_time_recovery": false, "deletion_protection": false, "table_class": "STANDARD"}`,
		},
		{
			fixture: "v5_composite_gsi_lsi.json",
			want: `{"id": "orders", "name": "orders", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/orders",
				"billing_mode": "PAY_PER_REQUEST",
				"partition_key": {"name": "pk", "type": "S", "template": null},
				"sort_key": {"name": "sk", "type": "S", "template": null},
				"local_secondary_indexes": {"by_status": {"sort_key": {"name": "status", "type": "S"}, "projection_type": "KEYS_ONLY", "non_key_attributes": null}},
				"global_secondary_indexes": {"by_sku": {
					"partition_key": [{"name": "sku", "type": "S", "cardinality": null}],
					"sort_key": [{"name": "created_at", "type": "N"}],
					"projection_type": "INCLUDE", "non_key_attributes": ["total", "customer_id"],
					"read_capacity": null, "write_capacity": null}},
				"ttl": {"attribute_name": "expires_at", "enabled": true},
				"point_in_time_recovery": true, "deletion_protection": true, "table_class": "STANDARD_INFREQUENT_ACCESS",
				"tags": {"owner": "platform", "team": "orders"}}`,
		},
		{
			fixture: "v5_legacy_provisioned.json",
			want: `{"id": "inventory", "name": "inventory", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/inventory",
				"billing_mode": "PROVISIONED", "read_capacity": 20, "write_capacity": 10,
				"partition_key": {"name": "sku", "type": "S", "template": null},
				"global_secondary_indexes": {"by_warehouse": {
					"partition_key": [{"name": "warehouse_id", "type": "S", "cardinality": null}], "sort_key": null,
					"projection_type": "ALL", "non_key_attributes": null, "read_capacity": 5, "write_capacity": 5}},
				"point_in_time_recovery": false, "deletion_protection": false, "table_class": "STANDARD"}`,
		},
		{
			fixture: "v6_multi_attribute_gsi.json",
			want: `{"id": "matches", "name": "matches", "arn": "arn:aws:dynamodb:eu-west-1:123456789012:table/matches",
				"billing_mode": "PAY_PER_REQUEST",
				"partition_key": {"name": "pk", "type": "S", "template": null},
				"sort_key": {"name": "sk", "type": "S", "template": null},
				"global_secondary_indexes": {
					"by_tournament_region": {
						"partition_key": [{"name": "tournament_id", "type": "S", "cardinality": null}, {"name": "region", "type": "S", "cardinality": null}],
						"sort_key": [{"name": "round", "type": "N"}, {"name": "match_id", "type": "S"}],
						"projection_type": "ALL", "non_key_attributes": null, "read_capacity": null, "write_capacity": null},
					"by_player": {
						"partition_key": [{"name": "player_id", "type": "S", "cardinality": null}], "sort_key": null,
						"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": null, "write_capacity": null}},
				"point_in_time_recovery": true, "deletion_protection": true, "table_class": "STANDARD", "tags": {"game": "arena"}}`,
		},
		{
			fixture: "v6_provisioned_gsi_capacity.json",
			want: `{"id": "ledger", "name": "ledger", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/ledger",
				"billing_mode": "PROVISIONED", "read_capacity": 50, "write_capacity": 25,
				"partition_key": {"name": "account_id", "type": "S", "template": null},
				"sort_key": {"name": "entry_id", "type": "N", "template": null},
				"global_secondary_indexes": {
					"by_day": {
						"partition_key": [{"name": "day", "type": "S", "cardinality": null}], "sort_key": [{"name": "entry_id", "type": "N"}],
						"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": 10, "write_capacity": 5},
					"by_status": {
						"partition_key": [{"name": "status", "type": "S", "cardinality": null}], "sort_key": null,
						"projection_type": "INCLUDE", "non_key_attributes": ["amount"], "read_capacity": 4, "write_capacity": 2}},
				"point_in_time_recovery": false, "deletion_protection": true, "table_class": "STANDARD"}`,
		},
		{
			fixture: "v6_lsi_include_binary.json",
			want: `{"id": "documents", "name": "documents", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/documents",
				"billing_mode": "PAY_PER_REQUEST",
				"partition_key": {"name": "tenant", "type": "S", "template": null},
				"sort_key": {"name": "doc_id", "type": "B", "template": null},
				"local_secondary_indexes": {
					"by_size": {"sort_key": {"name": "size", "type": "N"}, "projection_type": "ALL", "non_key_attributes": null},
					"by_updated": {"sort_key": {"name": "updated_at", "type": "N"}, "projection_type": "INCLUDE", "non_key_attributes": ["title", "owner"]}},
				"point_in_time_recovery": true, "deletion_protection": false, "table_class": "STANDARD", "tags": {"app": "docs"}}`,
		},
		{
			fixture: "v6_warm_throughput_recovery_period.json",
			want: `{"id": "clicks", "name": "clicks", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/clicks",
				"billing_mode": "PROVISIONED", "read_capacity": 50, "write_capacity": 25,
				"partition_key": {"name": "account_id", "type": "S", "template": null},
				"sort_key": {"name": "entry_id", "type": "N", "template": null},
				"global_secondary_indexes": {"by_day": {
					"partition_key": [{"name": "day", "type": "S", "cardinality": null}], "sort_key": [{"name": "entry_id", "type": "N"}],
					"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": 10, "write_capacity": 5}},
				"point_in_time_recovery": true, "deletion_protection": true, "table_class": "STANDARD"}`,
			warnings: []string{
				`^Recovery period is not managed: point_in_time_recovery.recovery_period_in_days: .*clicks keeps point-in-time recovery for 7 days`,
				`^Warm throughput is not managed: global_secondary_index.warm_throughput: Index by_day of aws_dynamodb_table clicks has warm throughput of 13000 read and 4500 write units`,
				`^Warm throughput is not managed: warm_throughput: aws_dynamodb_table clicks has warm throughput of 15000 read and 5000 write units`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.fixture, ".json"), func(t *testing.T) {
			resp, got := moveThroughServer(t, moveRequest(readFixture(t, tt.fixture)))
			if errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if got == nil {
				t.Fatal("no target state")
			}
			want := decodeJSON(t, tt.want)
			for name, value := range got {
				w, listed := want[name]
				switch {
				case !listed && value != nil:
					t.Errorf("%s = %v, want null", name, value)
				case listed && !reflect.DeepEqual(value, w):
					gotJSON, _ := json.Marshal(value)
					wantJSON, _ := json.Marshal(w)
					t.Errorf("%s =\n  %s\nwant\n  %s", name, gotJSON, wantJSON)
				}
			}
			for name := range want {
				if _, ok := got[name]; !ok {
					t.Errorf("%s is not an attribute of %s", name, movedTargetType)
				}
			}
			warnings := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityWarning)
			slices.Sort(warnings)
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings %q, want %d matching %q", warnings, len(tt.warnings), tt.warnings)
			}
			for i, pattern := range tt.warnings {
				if !regexp.MustCompile(pattern).MatchString(warnings[i]) {
					t.Errorf("warning %q does not match %q", warnings[i], pattern)
				}
			}
		})
	}
}

// TestMoveStateRefusesWhatItCannotRepresent: settings dynamokeys_sharded_table cannot hold are errors that
// name the source attribute and what to do, every problem at once, and no state is moved.
func TestMoveStateRefusesWhatItCannotRepresent(t *testing.T) {
	tests := []struct {
		fixture string
		errors  []string // patterns, one per expected error, in the order of the sorted errors
	}{
		{"error_v5_replica.json", []string{
			`^Cannot move a global table: replica: aws_dynamodb_table orders has replica blocks \(us-west-2\)\. .*Keep this table in aws_dynamodb_table`}},
		{"error_v6_stream_enabled.json", []string{
			`^Cannot move a table with a stream: stream_enabled: aws_dynamodb_table matches has stream_enabled = true \(stream_view_type = "NEW_AND_OLD_IMAGES"\)`}},
		{"error_v6_customer_managed_key.json", []string{
			`^Cannot move a KMS-encrypted table: server_side_encryption: aws_dynamodb_table ledger is encrypted with the customer managed KMS key arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c`}},
		{"error_v6_on_demand_limit.json", []string{
			`^Cannot move a table with an on-demand limit: on_demand_throughput: .*Remove the limit with the AWS provider first \(max_read_request_units = -1`}},
		{"error_v6_key_without_type.json", []string{
			`^Key attribute without a type in aws_dynamodb_table: global_secondary_index "by_tournament_region" names "round", which has no entry in the attribute set`}},
		{"error_v6_several_problems.json", []string{
			`^Cannot move a KMS-encrypted table: server_side_encryption: .*matches is encrypted with the AWS managed KMS key`,
			`^Cannot move a global table: global_table_witness: .*witness in eu-north-1`,
			`^Cannot move a global table: replica: .*\(eu-central-1\)`,
			`^Cannot move a table with a stream: stream_enabled: .*KEYS_ONLY`,
		}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.fixture, ".json"), func(t *testing.T) {
			resp, got := moveThroughServer(t, moveRequest(readFixture(t, tt.fixture)))
			if got != nil {
				t.Errorf("state was moved: %v", got)
			}
			errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError)
			slices.Sort(errs)
			if len(errs) != len(tt.errors) {
				t.Fatalf("errors %q, want %d matching %q", errs, len(tt.errors), tt.errors)
			}
			for i, pattern := range tt.errors {
				if !regexp.MustCompile(pattern).MatchString(errs[i]) {
					t.Errorf("error %q does not match %q", errs[i], pattern)
				}
			}
		})
	}
}

func TestMoveStateSourceChecks(t *testing.T) {
	state := readFixture(t, "v5_on_demand_hash_only.json")

	t.Run("another resource type is not handled", func(t *testing.T) {
		req := moveRequest(state)
		req.SourceTypeName = "aws_s3_bucket"
		resp, got := moveThroughServer(t, req)
		errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError)
		if got != nil || len(errs) != 1 || !strings.Contains(errs[0], "Source Resource Type: aws_s3_bucket") {
			t.Errorf("got state %v, errors %q", got, errs)
		}
	})
	t.Run("another provider is not handled", func(t *testing.T) {
		req := moveRequest(state)
		req.SourceProviderAddress = "registry.terraform.io/example/aws"
		resp, got := moveThroughServer(t, req)
		if errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError); got != nil || len(errs) != 1 {
			t.Errorf("got state %v, errors %q", got, errs)
		}
	})
	t.Run("OpenTofu's address of the AWS provider is handled", func(t *testing.T) {
		req := moveRequest(state)
		req.SourceProviderAddress = "registry.opentofu.org/hashicorp/aws"
		if _, got := moveThroughServer(t, req); got == nil || got["name"] != "sessions" {
			t.Errorf("got state %v", got)
		}
	})
	t.Run("schema version 0 asks for a refresh first", func(t *testing.T) {
		req := moveRequest(nil)
		req.SourceSchemaVersion = 0
		req.SourceState = &tfprotov6.RawState{Flatmap: map[string]string{"name": "sessions"}}
		resp, got := moveThroughServer(t, req)
		errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError)
		if got != nil || len(errs) != 1 || !strings.Contains(errs[0], "schema version 0") || !strings.Contains(errs[0], "terraform apply -refresh-only") {
			t.Errorf("got state %v, errors %q", got, errs)
		}
	})
	t.Run("an attribute the conversion does not know is a warning", func(t *testing.T) {
		withNew := bytes.Replace(state, []byte(`"billing_mode"`), []byte(`"contributor_insights": [{"mode": "ACCESSED_AND_THROTTLED_KEYS"}], "billing_mode"`), 1)
		resp, got := moveThroughServer(t, moveRequest(withNew))
		warnings := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityWarning)
		if got == nil || len(warnings) != 1 || !strings.Contains(warnings[0], "does not know: contributor_insights.") {
			t.Errorf("got state %v, warnings %q", got, warnings)
		}
	})
	t.Run("unreadable JSON", func(t *testing.T) {
		resp, got := moveThroughServer(t, moveRequest([]byte(`{"name": 3}`)))
		errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError)
		if got != nil || len(errs) != 1 || !strings.HasPrefix(errs[0], "Unreadable aws_dynamodb_table state") {
			t.Errorf("got state %v, errors %q", got, errs)
		}
	})
}

// TestReplacedPathsAfterMove: a configuration that describes the moved table adds templates and index
// metadata but replaces nothing; null-versus-default differences (key templates absent in the state,
// projection_type, empty or reordered INCLUDE attributes) do not count, while a real key change does.
func TestReplacedPathsAfterMove(t *testing.T) {
	ctx := context.Background()
	moved, diags := convertAWSTable(ctx, readFixture(t, "v5_composite_gsi_lsi.json"))
	if diags.HasError() {
		t.Fatal(diags)
	}
	state := shardedTableModel{}
	state.PartitionKey, state.SortKey, state.LocalSecondaryIndexes = moved.partitionKey, moved.sortKey, moved.localSecondaryIndexes

	key := func(name, typ, template string) types.Object {
		return types.ObjectValueMust(tableKeyAttrTypes(), map[string]attr.Value{
			"name": types.StringValue(name), "type": types.StringValue(typ), "template": types.StringValue(template)})
	}
	lsi := func(sortName, projection string, nonKey ...string) types.Map {
		spec := designInputSpecs()["local_secondary_indexes"]
		nk := types.ListValueMust(types.StringType, []attr.Value{})
		for _, n := range nonKey {
			nk = types.ListValueMust(types.StringType, append(nk.Elements(), types.StringValue(n)))
		}
		if nonKey == nil {
			nk = types.ListNull(types.StringType)
		}
		return types.MapValueMust(spec.objectType(), map[string]attr.Value{"by_status": types.ObjectValueMust(spec.objectType().AttrTypes, map[string]attr.Value{
			"sort_key":        types.ObjectValueMust(spec.children["sort_key"].objectType().AttrTypes, map[string]attr.Value{"name": types.StringValue(sortName), "type": types.StringValue("S")}),
			"projection_type": types.StringValue(projection), "non_key_attributes": nk})})
	}
	plan := func(pkType, sortName, projection string, nonKey ...string) shardedTableModel {
		m := shardedTableModel{}
		m.PartitionKey, m.SortKey = key("pk", pkType, "CUSTOMER#{customer_id}"), key("sk", "S", "ORDER#{order_id}")
		m.LocalSecondaryIndexes = lsi(sortName, projection, nonKey...)
		return m
	}
	tests := []struct {
		name string
		plan shardedTableModel
		want []string
	}{
		{"templates added, LSI as converted", plan("S", "status", "KEYS_ONLY"), nil},
		{"non_key_attributes = [] against null", plan("S", "status", "KEYS_ONLY", []string{}...), nil},
		{"partition key type changed", plan("N", "status", "KEYS_ONLY"), []string{"partition_key"}},
		{"LSI sort key changed", plan("S", "state", "KEYS_ONLY"), []string{"local_secondary_indexes"}},
		{"LSI projection changed", plan("S", "status", "ALL"), []string{"local_secondary_indexes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range replacedPaths(ctx, state, tt.plan) {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("replaced %v, want %v", got, tt.want)
			}
		})
	}

	include := func(nonKey ...string) types.Map { return lsi("status", "INCLUDE", nonKey...) }
	if !lsisEqual(ctx, include("total", "customer_id"), include("customer_id", "total")) {
		t.Error("INCLUDE attributes in another order count as a change")
	}
	if lsisEqual(ctx, include("total", "customer_id"), include("total")) {
		t.Error("a removed INCLUDE attribute does not count as a change")
	}
	if !lsisEqual(ctx, lsi("status", "", nil...), lsi("status", "ALL", nil...)) {
		t.Error("a null projection_type differs from ALL")
	}
}
