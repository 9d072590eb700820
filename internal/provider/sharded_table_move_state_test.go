package provider

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
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
	ctx := t.Context()
	server, schemas := protocolServer(t)
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
	attrs, ok := state.(map[string]any)
	if !ok {
		t.Fatalf("the target state is %T, not an object", state)
	}
	return resp, attrs
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
				"deletion_protection": false, "table_class": "STANDARD", "tags_all": {}}`,
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
					"read_capacity": null, "write_capacity": null, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null}},
				"ttl": {"attribute_name": "expires_at", "enabled": true},
				"point_in_time_recovery": {"enabled": true, "recovery_period_in_days": null}, "deletion_protection": true, "table_class": "STANDARD_INFREQUENT_ACCESS",
				"tags": {"owner": "platform", "team": "orders"}, "tags_all": {"owner": "platform", "team": "orders"}}`,
		},
		{
			fixture: "v5_legacy_provisioned.json",
			want: `{"id": "inventory", "name": "inventory", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/inventory",
				"billing_mode": "PROVISIONED", "read_capacity": 20, "write_capacity": 10,
				"partition_key": {"name": "sku", "type": "S", "template": null},
				"global_secondary_indexes": {"by_warehouse": {
					"partition_key": [{"name": "warehouse_id", "type": "S", "cardinality": null}], "sort_key": null,
					"projection_type": "ALL", "non_key_attributes": null, "read_capacity": 5, "write_capacity": 5, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null}},
				"deletion_protection": false, "table_class": "STANDARD", "tags_all": {}}`,
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
						"projection_type": "ALL", "non_key_attributes": null, "read_capacity": null, "write_capacity": null, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null},
					"by_player": {
						"partition_key": [{"name": "player_id", "type": "S", "cardinality": null}], "sort_key": null,
						"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": null, "write_capacity": null, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null}},
				"point_in_time_recovery": {"enabled": true, "recovery_period_in_days": null}, "deletion_protection": true, "table_class": "STANDARD", "tags": {"game": "arena"}, "tags_all": {"game": "arena"}}`,
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
						"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": 10, "write_capacity": 5, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null},
					"by_status": {
						"partition_key": [{"name": "status", "type": "S", "cardinality": null}], "sort_key": null,
						"projection_type": "INCLUDE", "non_key_attributes": ["amount"], "read_capacity": 4, "write_capacity": 2, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null}},
				"deletion_protection": true, "table_class": "STANDARD", "tags_all": {}}`,
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
				"point_in_time_recovery": {"enabled": true, "recovery_period_in_days": null}, "deletion_protection": false, "table_class": "STANDARD", "tags": {"app": "docs"}, "tags_all": {"app": "docs"}}`,
		},
		{
			fixture: "v6_warm_throughput_recovery_period.json",
			want: `{"id": "clicks", "name": "clicks", "arn": "arn:aws:dynamodb:us-east-1:123456789012:table/clicks",
				"billing_mode": "PROVISIONED", "read_capacity": 50, "write_capacity": 25,
				"partition_key": {"name": "account_id", "type": "S", "template": null},
				"sort_key": {"name": "entry_id", "type": "N", "template": null},
				"global_secondary_indexes": {"by_day": {
					"partition_key": [{"name": "day", "type": "S", "cardinality": null}], "sort_key": [{"name": "entry_id", "type": "N"}],
					"projection_type": "KEYS_ONLY", "non_key_attributes": null, "read_capacity": 10, "write_capacity": 5, "on_demand_throughput": null, "warm_throughput": null, "contributor_insights": null, "autoscaling": null}},
				"point_in_time_recovery": {"enabled": true, "recovery_period_in_days": 7}, "deletion_protection": true, "table_class": "STANDARD", "tags_all": {}}`,
			warnings: []string{
				`^Warm throughput is not carried over: global_secondary_index.warm_throughput: Index by_day of aws_dynamodb_table clicks has warm throughput of 13000 read and 4500 write units`,
				`^Warm throughput is not carried over: warm_throughput: aws_dynamodb_table clicks has warm throughput of 15000 read and 5000 write units`,
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
			// The identity, without any call: the account and Region of the ARN (or of the AWS provider v6
			// state's region), the name.
			if resp.TargetIdentity == nil {
				t.Fatal("the move returned no identity")
			}
			arn, _ := got["arn"].(string)
			parsed, err := dynamo.ParseTableARN(arn)
			if err != nil {
				t.Fatal(err)
			}
			if identity := decodeDynamic(t, resp.TargetIdentity.IdentityData, identityType); identity["account_id"] != parsed.Account ||
				identity["region"] != parsed.Region || identity["name"] != got["name"] {
				t.Errorf("identity %v; want account %s, region %s and the name of %s", identity, parsed.Account, parsed.Region, arn)
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
// TestMoveStateCarriesStreamEncryptionAndCaps: the settings dynamokeys_sharded_table holds are moved with
// the table, not refused.
func TestMoveStateCarriesStreamEncryptionAndCaps(t *testing.T) {
	for fixture, want := range map[string]map[string]string{
		"v6_stream_enabled.json": {
			"stream":       `{"enabled":true,"view_type":"NEW_AND_OLD_IMAGES"}`,
			"stream_arn":   `"arn:aws:dynamodb:eu-west-1:123456789012:table/matches/stream/2026-01-02T03:04:05.000"`,
			"stream_label": `"2026-01-02T03:04:05.000"`, "server_side_encryption": `null`, "on_demand_throughput": `null`,
		},
		"v6_customer_managed_key.json": {
			"server_side_encryption": `{"enabled":true,"kms_key_arn":"arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"}`,
			"stream":                 `null`, "stream_arn": `null`,
		},
		"v6_on_demand_limit.json": {
			"on_demand_throughput": `{"max_read_request_units":2000,"max_write_request_units":null}`,
			"stream":               `null`,
		},
	} {
		resp, got := moveThroughServer(t, moveRequest(readFixture(t, fixture)))
		if errs := diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 || got == nil {
			t.Fatalf("%s: not moved: %q", fixture, errs)
		}
		for attrName, wantJSON := range want {
			if gotJSON, _ := json.Marshal(got[attrName]); string(gotJSON) != wantJSON {
				t.Errorf("%s: %s = %s, want %s", fixture, attrName, gotJSON, wantJSON)
			}
		}
	}
}

func TestMoveStateRefusesWhatItCannotRepresent(t *testing.T) {
	tests := []struct {
		fixture string
		errors  []string // patterns, one per expected error, in the order of the sorted errors
	}{
		{"error_v5_replica.json", []string{
			`^Cannot move a global table: replica: aws_dynamodb_table orders has replica blocks \(us-west-2\)\. .*Keep this table in aws_dynamodb_table`}},
		{"error_v6_key_without_type.json", []string{
			`^Key attribute without a type in aws_dynamodb_table: global_secondary_index "by_tournament_region" names "round", which has no entry in the attribute set`}},
		{"error_v6_several_problems.json", []string{
			`^Cannot move a global table: global_table_witness: .*witness in eu-north-1`,
			`^Cannot move a global table: replica: .*\(eu-central-1\)`,
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
	ctx := t.Context()
	state, diags := movedTableModel(ctx, readFixture(t, "v5_composite_gsi_lsi.json"))
	if diags.HasError() {
		t.Fatal(diags)
	}

	key := func(name, typ, template string) types.Object {
		return types.ObjectValueMust(tableKeyAttrTypes(), map[string]attr.Value{
			"name": types.StringValue(name), "type": types.StringValue(typ), "template": types.StringValue(template)})
	}
	lsi := func(sortName, projection string, nonKey ...string) types.Map {
		nk := types.ListValueMust(types.StringType, []attr.Value{})
		for _, n := range nonKey {
			nk = types.ListValueMust(types.StringType, append(nk.Elements(), types.StringValue(n)))
		}
		if nonKey == nil {
			nk = types.ListNull(types.StringType)
		}
		return types.MapValueMust(lsiType, map[string]attr.Value{"by_status": types.ObjectValueMust(lsiType.AttrTypes, map[string]attr.Value{
			"sort_key":        types.ObjectValueMust(lsiSortKeyType.AttrTypes, map[string]attr.Value{"name": types.StringValue(sortName), "type": types.StringValue("S")}),
			"projection_type": types.StringValue(projection), "non_key_attributes": nk})})
	}
	plan := func(pkType, sortName, projection string, nonKey ...string) shardedTableModel {
		m := shardedTableModel{Name: state.Name}
		m.PartitionKey, m.SortKey = key("pk", pkType, "CUSTOMER#{customer_id}"), key("sk", "S", "ORDER#{order_id}")
		m.LocalSecondaryIndexes = lsi(sortName, projection, nonKey...)
		return m
	}
	tests := []struct {
		name string
		plan shardedTableModel
		want bool
	}{
		{"templates added, LSI as converted", plan("S", "status", "KEYS_ONLY"), false},
		{"non_key_attributes = [] against null", plan("S", "status", "KEYS_ONLY", []string{}...), false},
		{"partition key type changed", plan("N", "status", "KEYS_ONLY"), true},
		{"LSI sort key changed", plan("S", "state", "KEYS_ONLY"), true},
		{"LSI projection changed", plan("S", "status", "ALL"), true},
	}
	// What the replacing plan modifiers decide: the key names and types compare as strings
	// (RequiresReplace), the LSIs as DynamoDB sees them (lsisChanged).
	replaced := func(plan shardedTableModel) bool {
		var lsis mapplanmodifier.RequiresReplaceIfFuncResponse
		lsisChanged(ctx, planmodifier.MapRequest{StateValue: state.LocalSecondaryIndexes, PlanValue: plan.LocalSecondaryIndexes}, &lsis)
		var before, after keyModel
		objectAs(ctx, state.PartitionKey, &before, &diags)
		objectAs(ctx, plan.PartitionKey, &after, &diags)
		return lsis.RequiresReplace || !before.Name.Equal(after.Name) || !before.Type.Equal(after.Type)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replaced(tt.plan); got != tt.want || diags.HasError() {
				t.Errorf("replaced = %v, want %v (%v)", got, tt.want, diags)
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

// awsStateOfAdoptedOrders is the state the AWS provider v6 stores for the table that
// TestAccShardedTableMovedFromAWSTable creates (attributes in the order Terraform writes them).
const awsStateOfAdoptedOrders = `{
  "arn": %[2]q,
  "attribute": [
    {"name": "created_at", "type": "N"},
    {"name": "pk", "type": "S"},
    {"name": "region", "type": "S"},
    {"name": "sk", "type": "S"},
    {"name": "sku", "type": "S"},
    {"name": "status", "type": "S"}
  ],
  "billing_mode": "PROVISIONED",
  "deletion_protection_enabled": false,
  "global_secondary_index": [
    {
      "hash_key": "sku",
      "key_schema": [{"attribute_name": "sku", "key_type": "HASH"}, {"attribute_name": "created_at", "key_type": "RANGE"}],
      "name": "by_sku",
      "non_key_attributes": [],
      "on_demand_throughput": [],
      "projection_type": "KEYS_ONLY",
      "range_key": "created_at",
      "read_capacity": 2,
      "warm_throughput": [],
      "write_capacity": 2
    },
    {
      "hash_key": "",
      "key_schema": [{"attribute_name": "region", "key_type": "HASH"}, {"attribute_name": "status", "key_type": "HASH"}, {"attribute_name": "created_at", "key_type": "RANGE"}],
      "name": "by_region_status",
      "non_key_attributes": [],
      "on_demand_throughput": [],
      "projection_type": "ALL",
      "range_key": "",
      "read_capacity": 1,
      "warm_throughput": [],
      "write_capacity": 1
    }
  ],
  "global_table_witness": [],
  "hash_key": "pk",
  "id": %[1]q,
  "import_table": [],
  "local_secondary_index": [
    {"name": "by_status", "non_key_attributes": ["total", "customer_id"], "projection_type": "INCLUDE", "range_key": "status"}
  ],
  "name": %[1]q,
  "on_demand_throughput": [],
  "point_in_time_recovery": [{"enabled": false, "recovery_period_in_days": 0}],
  "range_key": "sk",
  "read_capacity": 5,
  "region": "us-east-1",
  "replica": [],
  "restore_date_time": null,
  "restore_source_name": null,
  "restore_source_table_arn": null,
  "restore_to_latest_time": null,
  "server_side_encryption": [],
  "stream_arn": "",
  "stream_enabled": false,
  "stream_label": "",
  "stream_view_type": "",
  "table_class": "STANDARD",
  "tags": {"team": "orders"},
  "tags_all": {"owner": "platform", "team": "orders"},
  "timeouts": null,
  "ttl": [{"attribute_name": "expires_at", "enabled": true}],
  "warm_throughput": [],
  "write_capacity": 5
}`

// adoptedOrdersConfig is the dynamokeys configuration written for that table: the same table settings
// plus the design metadata the AWS resource never had.
func adoptedOrdersConfig(endpoint, name string) string {
	return providerBlock(endpoint) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "orders" {
  name                = %[1]q
  deletion_protection = false
  billing_mode        = "PROVISIONED"
  read_capacity       = 5
  write_capacity      = 5
  partition_key       = { name = "pk", template = "CUSTOMER#{customer_id}" }
  sort_key            = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id" }
  }
  traffic = { writes_per_second = 3, reads_per_second = 8, item_size_bytes = 900 }
  local_secondary_indexes = {
    by_status = { sort_key = { name = "status" }, projection_type = "INCLUDE", non_key_attributes = ["total", "customer_id"] }
  }
  global_secondary_indexes = {
    by_sku = {
      partition_key   = [{ name = "sku", cardinality = 5000 }]
      sort_key        = [{ name = "created_at", type = "N" }]
      projection_type = "KEYS_ONLY"
      read_capacity   = 2
      write_capacity  = 2
    }
    by_region_status = {
      partition_key  = [{ name = "region", cardinality = 12 }, { name = "status", cardinality = 4 }]
      sort_key       = [{ name = "created_at", type = "N" }]
      read_capacity  = 1
      write_capacity = 1
    }
  }
  ttl  = { attribute_name = "expires_at" }
  tags = { team = "orders", owner = "platform" }
}
`, name)
}

// movedDesignAttributes are the attributes that exist only in dynamokeys (inputs and computed design outputs).
var movedDesignAttributes = []string{"segments", "sharding", "traffic", "target_utilization", "enforce", "shard_count", "routing",
	"findings", "ok", "report", "design_document"}

// withoutDesignMetadata drops design metadata from a resource's values in plan JSON, nested parts
// included (key templates, GSI cardinalities), and attributes that are null.
func withoutDesignMetadata(values map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range values {
		if v != nil && !slices.Contains(movedDesignAttributes, k) {
			out[k] = v
		}
	}
	for _, k := range []string{"partition_key", "sort_key"} {
		if key, ok := out[k].(map[string]any); ok {
			delete(key, "template")
		}
	}
	if gsis, ok := out["global_secondary_indexes"].(map[string]any); ok {
		for _, g := range gsis {
			gsi, _ := g.(map[string]any)
			keys, _ := gsi["partition_key"].([]any)
			for _, k := range keys {
				if key, ok := k.(map[string]any); ok {
					delete(key, "cardinality")
				}
			}
		}
	}
	return out
}

// checkDesignOnlyUpdate reads `terraform show -json` of a plan and checks that the table is updated in
// place, that nothing forces a replacement, and that every change and every value left unknown is
// design metadata (or, in allowUnknown, a value the plan cannot know).
func checkDesignOnlyUpdate(t *testing.T, planJSON []byte, address string, allowUnknown ...string) {
	t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions      []string       `json:"actions"`
				Before       map[string]any `json:"before"`
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
				ReplacePaths []any          `json:"replace_paths"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(planJSON, &plan); err != nil {
		t.Fatalf("plan JSON: %v", err)
	}
	if len(plan.ResourceChanges) != 1 || plan.ResourceChanges[0].Address != address {
		t.Fatalf("resource changes: %+v", plan.ResourceChanges)
	}
	c := plan.ResourceChanges[0].Change
	if !slices.Equal(c.Actions, []string{"update"}) || len(c.ReplacePaths) > 0 {
		t.Fatalf("actions %v, replace_paths %v; want an in-place update", c.Actions, c.ReplacePaths)
	}
	if pk, _ := c.After["partition_key"].(map[string]any); pk["template"] != "CUSTOMER#{customer_id}" {
		tmpl := pk["template"]
		t.Errorf("the update does not set the partition-key template: %v", tmpl)
	}
	for k, v := range c.AfterUnknown {
		// Terraform lists nested values of a known object as {} or false once anything in the change is
		// unknown; only a true somewhere is an unknown value.
		if holdsTrue(v) && !slices.Contains(movedDesignAttributes, k) && !slices.Contains(allowUnknown, k) {
			t.Errorf("%s is unknown in the plan", k)
		}
	}
	before, after := withoutDesignMetadata(c.Before), withoutDesignMetadata(c.After)
	for _, k := range allowUnknown {
		delete(before, k)
		delete(after, k)
	}
	if !reflect.DeepEqual(before, after) {
		b, _ := json.MarshalIndent(before, "", " ")
		a, _ := json.MarshalIndent(after, "", " ")
		t.Errorf("the plan changes table settings, not only design metadata:\nbefore %s\nafter %s", b, a)
	}
}

// createAdoptedOrders creates, on dynoxide, the table the AWS provider's state awsStateOfAdoptedOrders
// describes, with TTL on and one item, and returns its ARN, its creation time and the item.
func createAdoptedOrders(t *testing.T, endpoint, name string) (*dynamodb.Client, string, time.Time, map[string]dtypes.AttributeValue) {
	t.Helper()
	api := testAPI(t, endpoint)
	ctx := t.Context()
	s, n := aws.String, aws.Int64
	_, err := api.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   s(name),
		BillingMode: dtypes.BillingModeProvisioned, ProvisionedThroughput: &dtypes.ProvisionedThroughput{ReadCapacityUnits: n(5), WriteCapacityUnits: n(5)},
		AttributeDefinitions: []dtypes.AttributeDefinition{
			{AttributeName: s("pk"), AttributeType: dtypes.ScalarAttributeTypeS}, {AttributeName: s("sk"), AttributeType: dtypes.ScalarAttributeTypeS},
			{AttributeName: s("status"), AttributeType: dtypes.ScalarAttributeTypeS}, {AttributeName: s("sku"), AttributeType: dtypes.ScalarAttributeTypeS},
			{AttributeName: s("created_at"), AttributeType: dtypes.ScalarAttributeTypeN}, {AttributeName: s("region"), AttributeType: dtypes.ScalarAttributeTypeS}},
		KeySchema: []dtypes.KeySchemaElement{{AttributeName: s("pk"), KeyType: dtypes.KeyTypeHash}, {AttributeName: s("sk"), KeyType: dtypes.KeyTypeRange}},
		LocalSecondaryIndexes: []dtypes.LocalSecondaryIndex{{IndexName: s("by_status"),
			KeySchema:  []dtypes.KeySchemaElement{{AttributeName: s("pk"), KeyType: dtypes.KeyTypeHash}, {AttributeName: s("status"), KeyType: dtypes.KeyTypeRange}},
			Projection: &dtypes.Projection{ProjectionType: dtypes.ProjectionTypeInclude, NonKeyAttributes: []string{"total", "customer_id"}}}},
		GlobalSecondaryIndexes: []dtypes.GlobalSecondaryIndex{{IndexName: s("by_sku"),
			KeySchema:             []dtypes.KeySchemaElement{{AttributeName: s("sku"), KeyType: dtypes.KeyTypeHash}, {AttributeName: s("created_at"), KeyType: dtypes.KeyTypeRange}},
			Projection:            &dtypes.Projection{ProjectionType: dtypes.ProjectionTypeKeysOnly},
			ProvisionedThroughput: &dtypes.ProvisionedThroughput{ReadCapacityUnits: n(2), WriteCapacityUnits: n(2)}}, {IndexName: s("by_region_status"),
			KeySchema: []dtypes.KeySchemaElement{{AttributeName: s("region"), KeyType: dtypes.KeyTypeHash}, {AttributeName: s("status"), KeyType: dtypes.KeyTypeHash},
				{AttributeName: s("created_at"), KeyType: dtypes.KeyTypeRange}},
			Projection:            &dtypes.Projection{ProjectionType: dtypes.ProjectionTypeAll},
			ProvisionedThroughput: &dtypes.ProvisionedThroughput{ReadCapacityUnits: n(1), WriteCapacityUnits: n(1)}}},
		DeletionProtectionEnabled: aws.Bool(false),
		Tags:                      []dtypes.Tag{{Key: s("team"), Value: s("orders")}, {Key: s("owner"), Value: s("platform")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = api.DeleteTable(t.Context(), &dynamodb.DeleteTableInput{TableName: s(name)}) })
	if _, err := api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: s(name),
		TimeToLiveSpecification: &dtypes.TimeToLiveSpecification{AttributeName: s("expires_at"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	item := map[string]dtypes.AttributeValue{"pk": &dtypes.AttributeValueMemberS{Value: "CUSTOMER#c1"}, "sk": &dtypes.AttributeValueMemberS{Value: "ORDER#o1"},
		"status": &dtypes.AttributeValueMemberS{Value: "PAID"}, "total": &dtypes.AttributeValueMemberN{Value: "42"}}
	if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: s(name), Item: item}); err != nil {
		t.Fatal(err)
	}
	described, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: s(name)})
	if err != nil {
		t.Fatal(err)
	}
	created := aws.ToTime(described.Table.CreationDateTime)
	return api, aws.ToString(described.Table.TableArn), created, item
}

// TestAccShardedTableMovedFromAWSTable adopts a table that exists on dynoxide, with data in it. Terraform
// here cannot install the AWS provider, so a cross-provider `moved` block cannot run: the test sends the
// MoveResourceState request Terraform would send (the AWS provider v6 state of that table) to the provider
// server, writes the returned state into a state file, and then drives the real CLI with a fresh provider
// build: a plan without refresh (the converted state as it is) and a plan with refresh are in-place
// updates of design metadata only, the apply touches no table setting, the next plan is empty, and the
// table (same creation time, same item) was never re-created.
//
// With standalone indexes, the GSIs live in aws_dynamodb_global_secondary_index resources (AWS provider
// v6.28 and later), which `removed` blocks let go, and the table's own state may list none of them: the
// refresh before the plan reads them from DynamoDB, so the plan is the same design-only update.
//
// With a configuration that describes the table as it is, without a design yet, the first plan after the move
// is empty: the refresh fills the computed design outputs from what the table shows, with the findings the
// list resource's audit reports for the table.
func TestAccShardedTableMovedFromAWSTable(t *testing.T) {
	t.Parallel()
	endpoint := testAccDynoxide(t)
	t.Run("indexes in the table", func(t *testing.T) { testMovedTable(t, endpoint, "adopted-orders", false) })
	t.Run("standalone indexes", func(t *testing.T) { testMovedTable(t, endpoint, "adopted-orders-gsi", true) })
	t.Run("unchanged configuration", func(t *testing.T) { testMovedUnchangedTable(t, endpoint, "adopted-orders-unchanged") })
}

// movedTableState writes the state a `moved` block from the AWS provider's state of the table gives
// (MoveResourceState through the provider server, as Terraform sends it) into work.
func movedTableState(t *testing.T, work string, awsState []byte) {
	t.Helper()
	resp, moved := moveThroughServer(t, moveRequest(awsState))
	if len(resp.Diagnostics) > 0 || moved == nil {
		t.Fatalf("move: diagnostics %v, state %v", diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError), moved)
	}
	host := cmp.Or(os.Getenv("TF_ACC_PROVIDER_HOST"), "registry.terraform.io")
	stateFile, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.8.0", "serial": 1, "lineage": "9d3a1f2e-0b7c-4c55-8f0e-2a6b4d1c7e90", "outputs": map[string]any{},
		"resources": []any{map[string]any{
			"mode": "managed", "type": movedTargetType, "name": "orders",
			"provider":  fmt.Sprintf("provider[%q]", host+"/dynamokeys/dynamokeys"),
			"instances": []any{map[string]any{"schema_version": 0, "attributes": moved, "sensitive_attributes": []any{}}},
		}},
		"check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "terraform.tfstate"), stateFile, 0o600); err != nil {
		t.Fatal(err)
	}
}

// unchangedOrdersConfig describes the table of awsStateOfAdoptedOrders as it is, with no design metadata.
func unchangedOrdersConfig(t *testing.T, endpoint, name string) string {
	t.Helper()
	config := adoptedOrdersConfig(endpoint, name)
	for _, design := range []string{
		`, template = "CUSTOMER#{customer_id}"`, `, template = "ORDER#{order_id}"`, ", cardinality = 5000", ", cardinality = 12", ", cardinality = 4",
		"  segments = {\n    customer_id = { kind = \"id\" }\n    order_id    = { kind = \"id\" }\n  }\n",
		"  traffic = { writes_per_second = 3, reads_per_second = 8, item_size_bytes = 900 }\n",
	} {
		if !strings.Contains(config, design) {
			t.Fatalf("adoptedOrdersConfig no longer holds %q", design)
		}
		config = strings.Replace(config, design, "", 1)
	}
	return config
}

func testMovedUnchangedTable(t *testing.T, endpoint, name string) {
	t.Helper()
	t.Parallel()
	_, arn, _, _ := createAdoptedOrders(t, endpoint, name)
	work := t.TempDir()
	movedTableState(t, work, fmt.Appendf(nil, awsStateOfAdoptedOrders, name, arn))
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(requiredProviders+unchangedOrdersConfig(t, endpoint, name)), 0o600); err != nil {
		t.Fatal(err)
	}
	terraform := devTerraform(t, work)
	terraform("plan", "-detailed-exitcode", "-out=first.tfplan") // exit code 2 (changes) fails the test
	var plan struct {
		ResourceChanges []struct {
			Change struct {
				Actions []string       `json:"actions"`
				After   map[string]any `json:"after"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(terraform("show", "-json", "first.tfplan")), &plan); err != nil {
		t.Fatal(err)
	}
	server, schemas := listServer(t, endpoint)
	listed := listTables(t, server, schemas, map[string]tftypes.Value{"name_regex": tftypes.NewValue(tftypes.String, "^"+name+"$")}, false, 0)
	if len(plan.ResourceChanges) != 1 || len(listed) != 1 {
		t.Fatalf("resource changes %+v, listed %v", plan.ResourceChanges, names(listed))
	}
	// One verdict: the adopted table, whose design says nothing yet of its items, gets the audit's findings
	// (its LSI's item collections are not guessed unbounded, DK203, before the design states its traffic).
	c := plan.ResourceChanges[0].Change
	audit, adopted := warnedRules(listed[0].warnings), stateRules(c.After["findings"])
	if !slices.Equal(c.Actions, []string{"no-op"}) || !slices.Equal(adopted, audit) || !slices.Contains(audit, "DK302") || c.After["design_document"] == nil {
		t.Errorf("actions %v, findings %v, design_document %v; want no-op and the audit's findings %v", c.Actions, adopted, c.After["design_document"] != nil, audit)
	}
}

func testMovedTable(t *testing.T, endpoint, name string, standaloneIndexes bool) {
	t.Helper()
	t.Parallel()
	api, arn, created, item := createAdoptedOrders(t, endpoint, name)
	ctx, s := t.Context(), aws.String
	awsState := fmt.Appendf(nil, awsStateOfAdoptedOrders, name, arn)
	if standaloneIndexes {
		var state map[string]any
		if err := json.Unmarshal(awsState, &state); err != nil {
			t.Fatal(err)
		}
		state["global_secondary_index"] = []any{}
		awsState, _ = json.Marshal(state)
	}

	// What Terraform does for the moved block: MoveResourceState with the AWS provider's state.
	work := t.TempDir()
	movedTableState(t, work, awsState)
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(requiredProviders+adoptedOrdersConfig(endpoint, name)), 0o600); err != nil {
		t.Fatal(err)
	}
	terraform := devTerraform(t, work)

	// The converted state as it is, without a refresh: the provider's conversion alone makes the plan an
	// in-place update of design metadata. status is known only after an apply (it can change while one runs).
	// A state without the standalone indexes needs the refresh.
	if !standaloneIndexes {
		terraform("plan", "-refresh=false", "-out=norefresh.tfplan")
		checkDesignOnlyUpdate(t, []byte(terraform("show", "-json", "norefresh.tfplan")), "dynamokeys_sharded_table.orders", "status")
	}

	// The normal workflow: refresh, plan, apply, and the next plan is empty.
	terraform("plan", "-out=first.tfplan")
	checkDesignOnlyUpdate(t, []byte(terraform("show", "-json", "first.tfplan")), "dynamokeys_sharded_table.orders", "status")
	terraform("apply", "first.tfplan")
	terraform("plan", "-detailed-exitcode") // exit code 2 (changes) fails the test

	after, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: s(name)})
	if err != nil {
		t.Fatal(err)
	}
	if !aws.ToTime(after.Table.CreationDateTime).Equal(created) || len(after.Table.GlobalSecondaryIndexes) != 2 || len(after.Table.LocalSecondaryIndexes) != 1 {
		t.Errorf("the table changed: created %v (was %v), %d GSIs, %d LSIs", after.Table.CreationDateTime, created,
			len(after.Table.GlobalSecondaryIndexes), len(after.Table.LocalSecondaryIndexes))
	}
	got, err := api.GetItem(ctx, &dynamodb.GetItemInput{TableName: s(name), Key: map[string]dtypes.AttributeValue{"pk": item["pk"], "sk": item["sk"]}})
	if err != nil || len(got.Item) == 0 {
		t.Errorf("the item written before the move is gone: %v", err)
	}
	state := terraform("show", "-json")
	for _, want := range []string{`"template":"CUSTOMER#{customer_id}"`, `"cardinality":5000`, `"status":"ACTIVE"`} {
		if !strings.Contains(state, want) {
			t.Errorf("state after apply lacks %s", want)
		}
	}
}

const requiredProviders = `terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
`

// devTerraform returns a function that runs the Terraform CLI in dir with the provider served in this
// process (serveInProcess: no registry, no init), failing the test on a non-zero exit code and returning
// the standard output.
func devTerraform(t *testing.T, dir string) func(args ...string) string {
	t.Helper()
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	return func(args ...string) string {
		t.Helper()
		server := serveInProcess(t)
		defer server.stop()
		cmd := exec.Command(tf, append(args[:1:1], append([]string{"-no-color", "-input=false"}, args[1:]...)...)...)
		if args[0] == "show" {
			cmd = exec.Command(tf, append([]string{"show", "-no-color"}, args[1:]...)...)
		}
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+server.reattach, "TF_IN_AUTOMATION=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("terraform %s: %v\n%s\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
}

// holdsTrue reports whether an after_unknown value marks something unknown.
func holdsTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		for _, e := range v {
			if holdsTrue(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if holdsTrue(e) {
				return true
			}
		}
	}
	return false
}
