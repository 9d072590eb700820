package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// auditedTables is the account the list test lists: clean tables, tables whose keys break rules by their
// names (a status or a date as the partition key, a GSI on a status), and tagged tables, 42 in all.
type auditedTable struct {
	name, pk, sk, gsiPK string
	tags                map[string]string
}

func auditedTables() []auditedTable {
	var tables []auditedTable
	for i := range 24 {
		t := auditedTable{name: fmt.Sprintf("clean-%02d", i), pk: "customer_id", sk: "order_id"}
		if i%3 == 0 {
			t.gsiPK = "email"
		}
		if i < 6 {
			t.tags = map[string]string{"team": "payments"}
		}
		tables = append(tables, t)
	}
	for i := range 8 {
		tables = append(tables, auditedTable{name: fmt.Sprintf("hot-status-%02d", i), pk: "order_status", sk: "order_id"})
	}
	for i := range 6 {
		tables = append(tables, auditedTable{name: fmt.Sprintf("hot-day-%02d", i), pk: "event_date", sk: "event_id",
			tags: map[string]string{"team": "payments", "env": "prod"}})
	}
	for i := range 4 {
		tables = append(tables, auditedTable{name: fmt.Sprintf("gsi-status-%02d", i), pk: "order_id", gsiPK: "status"})
	}
	return tables
}

// listAccount starts a dynoxide of its own (a list reads the whole account, so the shared server's tables of
// the other tests would be in it) with the audited tables.
func listAccount(t *testing.T) (string, *dynamodb.Client) {
	t.Helper()
	testAccDynoxide(t) // skips without TF_ACC
	server, err := localddb.Start(localddb.Dynoxide, localddb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	api := testAPI(t, server.Endpoint)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for _, table := range auditedTables() {
		wg.Go(func() { errs <- createAuditedTable(t.Context(), api, table) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return server.Endpoint, api
}

func createAuditedTable(ctx context.Context, api *dynamodb.Client, t auditedTable) error {
	s := aws.String
	attrs := map[string]bool{t.pk: true}
	in := &dynamodb.CreateTableInput{TableName: s(t.name), BillingMode: dtypes.BillingModePayPerRequest,
		KeySchema: []dtypes.KeySchemaElement{{AttributeName: s(t.pk), KeyType: dtypes.KeyTypeHash}}}
	if t.sk != "" {
		attrs[t.sk] = true
		in.KeySchema = append(in.KeySchema, dtypes.KeySchemaElement{AttributeName: s(t.sk), KeyType: dtypes.KeyTypeRange})
	}
	if t.gsiPK != "" {
		attrs[t.gsiPK] = true
		in.GlobalSecondaryIndexes = []dtypes.GlobalSecondaryIndex{{IndexName: s("by_" + t.gsiPK),
			KeySchema:  []dtypes.KeySchemaElement{{AttributeName: s(t.gsiPK), KeyType: dtypes.KeyTypeHash}},
			Projection: &dtypes.Projection{ProjectionType: dtypes.ProjectionTypeKeysOnly}}}
	}
	for name := range attrs {
		in.AttributeDefinitions = append(in.AttributeDefinitions, dtypes.AttributeDefinition{AttributeName: s(name), AttributeType: dtypes.ScalarAttributeTypeS})
	}
	for k, v := range t.tags {
		in.Tags = append(in.Tags, dtypes.Tag{Key: s(k), Value: s(v)})
	}
	_, err := api.CreateTable(ctx, in)
	return err
}

// listedTable is one result of the list RPC, decoded.
type listedTable struct {
	display  string
	identity map[string]any
	resource map[string]any
	warnings []string
	errors   []string
}

var identityType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"account_id": tftypes.String, "region": tftypes.String, "name": tftypes.String}}

// listServer is the provider's protocol 6 server configured against endpoint, as Terraform configures it
// before `terraform query` lists.
func listServer(t *testing.T, endpoint string) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	server, schemas := protocolServer(t)
	objType, _ := schemas.Provider.ValueType().(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	for name, v := range map[string]string{"region": "us-east-1", "endpoint": endpoint, "access_key": "test", "secret_key": "test"} {
		values[name] = tftypes.NewValue(tftypes.String, v)
	}
	config, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, values))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ConfigureProvider(t.Context(), &tfprotov6.ConfigureProviderRequest{Config: &config})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, diagnosticTexts(resp.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	return server, schemas
}

// listTables sends a ListResource request with the list block's filters (nil: not set) and returns its
// results; an error of the RPC itself fails the test.
func listTables(t *testing.T, server tfprotov6.ProviderServer, schemas *tfprotov6.GetProviderSchemaResponse, filters map[string]tftypes.Value, includeResource bool, limit int64) []listedTable {
	t.Helper()
	listSchema, ok := schemas.ListResourceSchemas["dynamokeys_sharded_table"]
	if !ok {
		t.Fatal("the provider has no dynamokeys_sharded_table list resource")
	}
	objType, _ := listSchema.ValueType().(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	for name, v := range filters {
		values[name] = v
	}
	config, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, values))
	if err != nil {
		t.Fatal(err)
	}
	lister, ok := server.(interface {
		ListResource(context.Context, *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error)
	})
	if !ok {
		t.Fatalf("the provider server %T does not serve ListResource", server)
	}
	stream, err := lister.ListResource(t.Context(), &tfprotov6.ListResourceRequest{TypeName: "dynamokeys_sharded_table", Config: &config,
		IncludeResource: includeResource, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	resourceType := schemas.ResourceSchemas["dynamokeys_sharded_table"].ValueType()
	var out []listedTable
	for r := range stream.Results {
		got := listedTable{display: r.DisplayName, warnings: diagnosticTexts(r.Diagnostics, tfprotov6.DiagnosticSeverityWarning),
			errors: diagnosticTexts(r.Diagnostics, tfprotov6.DiagnosticSeverityError)}
		if r.Identity != nil && r.Identity.IdentityData != nil {
			got.identity = decodeDynamic(t, r.Identity.IdentityData, identityType)
		}
		if r.Resource != nil {
			got.resource = decodeDynamic(t, r.Resource, resourceType)
		}
		out = append(out, got)
	}
	return out
}

func decodeDynamic(t *testing.T, v *tfprotov6.DynamicValue, typ tftypes.Type) map[string]any {
	t.Helper()
	value, err := v.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := stateJSON(value)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := decoded.(map[string]any)
	return m
}

func names(results []listedTable) []string {
	out := make([]string, 0, len(results))
	for _, r := range results {
		name, _ := r.identity["name"].(string)
		out = append(out, name)
	}
	return out
}

func prefixed(prefix string) []string {
	var out []string
	for _, table := range auditedTables() {
		if strings.HasPrefix(table.name, prefix) {
			out = append(out, table.name)
		}
	}
	slices.Sort(out)
	return out
}

// TestListShardedTables drives the list resource through the provider server's ListResource RPC, as
// `terraform query` does, against a dynoxide holding 42 tables: every table is listed once with its identity,
// the filters and the limit are honoured, include_resource gives the state an import and read record, the
// tables whose keys break rules by their names carry warnings naming the rule, and the clean ones none; a
// table deleted while listing is skipped and throttled calls are retried.
func TestListShardedTables(t *testing.T) {
	t.Parallel()
	endpoint, api := listAccount(t)
	server, schemas := listServer(t, endpoint)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

	all := listTables(t, server, schemas, nil, false, 0)
	var want []string
	for _, table := range auditedTables() {
		want = append(want, table.name)
	}
	slices.Sort(want)
	if got := slices.Sorted(slices.Values(names(all))); !slices.Equal(got, want) {
		t.Fatalf("listed %d tables %v; want the %d of the account %v", len(got), got, len(want), want)
	}
	for _, r := range all {
		name, _ := r.identity["name"].(string)
		if len(r.errors) > 0 || r.identity["region"] != "us-east-1" || r.identity["account_id"] == "" || r.identity["account_id"] == nil || r.resource != nil {
			t.Errorf("%s: identity %v, resource %v, errors %v; want the provider's region, the table's account, no resource", name, r.identity, r.resource, r.errors)
		}
		rules := strings.Join(r.warnings, "\n")
		switch {
		case strings.HasPrefix(name, "clean-"):
			if len(r.warnings) > 0 || r.display != name+" (no key-design findings)" {
				t.Errorf("clean table %s: display %q, warnings %v; want none", name, r.display, r.warnings)
			}
		case strings.HasPrefix(name, "hot-status-"):
			if !strings.Contains(rules, "DK302 low-cardinality-partition-key: table "+name) || !strings.Contains(r.display, "DK302") {
				t.Errorf("%s: display %q, warnings %v; want DK302 on the partition key order_status", name, r.display, r.warnings)
			}
		case strings.HasPrefix(name, "hot-day-"):
			if !strings.Contains(rules, "DK301 time-bucket-partition-key: table "+name) {
				t.Errorf("%s: warnings %v; want DK301 on the partition key event_date", name, r.warnings)
			}
		case strings.HasPrefix(name, "gsi-status-"):
			if len(r.warnings) != 1 || !strings.Contains(rules, "DK302 low-cardinality-partition-key: table "+name) ||
				!strings.Contains(rules, "global_secondary_indexes.by_status.partition_key") {
				t.Errorf("%s: warnings %v; want DK302 on the GSI keyed by status, with its path", name, r.warnings)
			}
		}
	}

	t.Run("filters", func(t *testing.T) {
		t.Parallel()
		if got := names(listTables(t, server, schemas, map[string]tftypes.Value{"name_prefix": str("hot-")}, false, 0)); !slices.Equal(slices.Sorted(slices.Values(got)), prefixed("hot-")) {
			t.Errorf("name_prefix hot-: %v; want %v", got, prefixed("hot-"))
		}
		if got := names(listTables(t, server, schemas, map[string]tftypes.Value{"name_regex": str(`^clean-1[0-3]$`)}, false, 0)); !slices.Equal(slices.Sorted(slices.Values(got)),
			[]string{"clean-10", "clean-11", "clean-12", "clean-13"}) {
			t.Errorf("name_regex: %v", got)
		}
		tags := func(kv ...string) tftypes.Value {
			m := map[string]tftypes.Value{}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i]] = str(kv[i+1])
			}
			return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, m)
		}
		if got := names(listTables(t, server, schemas, map[string]tftypes.Value{"tags": tags("team", "payments")}, false, 0)); len(got) != 12 {
			t.Errorf("tags team=payments: %v; want the 6 clean and the 6 hot-day tables", got)
		}
		if got := names(listTables(t, server, schemas, map[string]tftypes.Value{"tags": tags("team", "payments", "env", "prod"), "name_prefix": str("hot-")}, false, 0)); !slices.Equal(slices.Sorted(slices.Values(got)), prefixed("hot-day-")) {
			t.Errorf("tags team=payments env=prod: %v; want %v", got, prefixed("hot-day-"))
		}
		withFindings := listTables(t, server, schemas, map[string]tftypes.Value{"with_findings": tftypes.NewValue(tftypes.Bool, true)}, false, 0)
		if got := names(withFindings); len(got) != 18 || slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, "clean-") }) {
			t.Errorf("with_findings: %v; want the 18 tables with findings", got)
		}
		invalid := listTables(t, server, schemas, map[string]tftypes.Value{"name_regex": str(`(`)}, false, 0)
		if len(invalid) != 1 || len(invalid[0].errors) != 1 || !strings.Contains(invalid[0].errors[0], "name_regex") {
			t.Errorf("a bad name_regex: %+v; want one error naming name_regex", invalid)
		}
	})

	t.Run("limit", func(t *testing.T) {
		t.Parallel()
		if got := listTables(t, server, schemas, nil, false, 5); len(got) != 5 {
			t.Errorf("limit 5: %d results", len(got))
		}
		if got := listTables(t, server, schemas, map[string]tftypes.Value{"name_prefix": str("hot-status-")}, false, 3); len(got) != 3 || !slices.Equal(names(got), prefixed("hot-status-")[:3]) {
			t.Errorf("limit 3 of hot-status-: %v; want %v", names(got), prefixed("hot-status-")[:3])
		}
	})

	t.Run("include_resource", func(t *testing.T) {
		t.Parallel()
		got := listTables(t, server, schemas, map[string]tftypes.Value{"name_regex": str(`^(clean-00|gsi-status-01|hot-day-00|hot-status-00)$`)}, true, 0)
		if len(got) != 4 {
			t.Fatalf("results %v; want clean-00, gsi-status-01, hot-day-00 and hot-status-00", names(got))
		}
		for _, r := range got {
			res := r.resource
			if res == nil {
				t.Fatalf("%s: no resource", r.display)
			}
			pk, _ := res["partition_key"].(map[string]any)
			if res["name"] != r.identity["name"] || res["id"] != res["name"] || res["status"] != "ACTIVE" || res["billing_mode"] != "PAY_PER_REQUEST" ||
				pk["type"] != "S" || pk["template"] != nil || res["segments"] != nil || res["sharding"] != nil || res["design_document"] == nil ||
				!strings.HasSuffix(fmt.Sprint(res["arn"]), ":table/"+fmt.Sprint(res["name"])) {
				t.Errorf("%s: resource %v; want the table as read, templates null and the design outputs of what it shows", r.display, res)
			}
			// One verdict per table: the state an import records finds what the audit found.
			if audit, adopted := warnedRules(r.warnings), stateRules(res["findings"]); !slices.Equal(audit, adopted) {
				t.Errorf("%s: the audit warns of %v, the imported table's findings are %v", r.display, audit, adopted)
			}
		}
		clean, gsi := got[0].resource, got[1].resource
		if fmt.Sprint(clean["tags_all"]) != "map[team:payments]" || clean["global_secondary_indexes"] == nil {
			t.Errorf("clean-00: tags_all %v, GSIs %v", clean["tags_all"], clean["global_secondary_indexes"])
		}
		if _, ok := gsi["global_secondary_indexes"].(map[string]any)["by_status"]; !ok || gsi["sort_key"] != nil {
			t.Errorf("gsi-status-01: GSIs %v, sort key %v", gsi["global_secondary_indexes"], gsi["sort_key"])
		}
	})

	t.Run("table deleted while listing, calls throttled", func(t *testing.T) {
		t.Parallel()
		// The list reads each table after ListTables names it. A proxy in front of the server deletes
		// clean-23 when the list asks to describe it, so the read finds no table, as when it is deleted
		// between the two calls: it is skipped, not an error. No other subtest lists clean-2*. The proxy also
		// throttles the first ListTables and the first DescribeTable of clean-21, as DynamoDB does under
		// load: the client's retryer retries them.
		var deleted atomic.Bool
		var throttled atomic.Int32
		throttleOnce := map[string]*atomic.Bool{".ListTables": {}, ".DescribeTable clean-21": {}}
		upstream, err := url.Parse(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		proxy := httputil.NewSingleHostReverseProxy(upstream)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			target := r.Header.Get("X-Amz-Target")
			for call, done := range throttleOnce {
				op, table, _ := strings.Cut(call, " ")
				if strings.HasSuffix(target, op) && (table == "" || bytes.Contains(body, []byte(`"`+table+`"`))) && !done.Swap(true) {
					throttled.Add(1)
					w.Header().Set("Content-Type", "application/x-amz-json-1.0")
					w.WriteHeader(http.StatusBadRequest)
					_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`)
					return
				}
			}
			if strings.HasSuffix(target, ".DescribeTable") && bytes.Contains(body, []byte(`"clean-23"`)) && !deleted.Swap(true) {
				if _, err := api.DeleteTable(r.Context(), &dynamodb.DeleteTableInput{TableName: aws.String("clean-23")}); err != nil {
					t.Errorf("deleting clean-23: %v", err)
				}
			}
			proxy.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		racing, racingSchemas := listServer(t, front.URL)
		got := listTables(t, racing, racingSchemas, map[string]tftypes.Value{"name_prefix": str("clean-2")}, false, 0)
		for _, r := range got {
			if len(r.errors) > 0 {
				t.Errorf("errors %v", r.errors)
			}
		}
		if n := names(got); !deleted.Load() || throttled.Load() != 2 || !slices.Equal(n, []string{"clean-20", "clean-21", "clean-22"}) {
			t.Errorf("listed %v (clean-23 deleted while listing: %v, calls throttled: %d of 2); want clean-20, clean-21 and clean-22",
				n, deleted.Load(), throttled.Load())
		}
	})
}

// warnedRules are the rule ids of the list's audit warnings ("DK302 low-cardinality-partition-key: table …").
func warnedRules(warnings []string) []string {
	rules := map[string]bool{}
	for _, w := range warnings {
		if id, _, ok := strings.Cut(w, " "); ok && strings.HasPrefix(id, "DK") {
			rules[id] = true
		}
	}
	return slices.Sorted(maps.Keys(rules))
}

// stateRules are the rule ids of a findings attribute as the state JSON holds it.
func stateRules(findings any) []string {
	rules := map[string]bool{}
	list, _ := findings.([]any)
	for _, f := range list {
		if m, ok := f.(map[string]any); ok {
			rules[fmt.Sprint(m["rule"])] = true
		}
	}
	return slices.Sorted(maps.Keys(rules))
}

// TestAccShardedTableQuery runs `terraform query` (Terraform ≥ 1.14) on the list resource through
// terraform-plugin-testing's query steps: two tables made outside Terraform are found by identity, with
// include_resource, the display name saying what the audit found. Terraform below 1.14 and OpenTofu (no
// query command yet) skip it, saying so; TestListShardedTables covers the same RPC in-process.
func TestAccShardedTableQuery(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	skipBelowCLI(t, 1, 14, "terraform query (list resources)", "Terraform ≥ 1.14 (OpenTofu has no query command yet); set TF_ACC_TERRAFORM_PATH to one")
	api := testAPI(t, endpoint)
	for _, table := range []auditedTable{{name: "query-clean", pk: "customer_id", sk: "order_id"}, {name: "query-status", pk: "order_status"}} {
		if err := createAuditedTable(t.Context(), api, table); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = api.DeleteTable(context.WithoutCancel(t.Context()), &dynamodb.DeleteTableInput{TableName: aws.String(table.name)})
		})
	}
	list := "dynamokeys_sharded_table.audit"
	identity := func(name string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{"account_id": knownvalue.NotNull(), "region": knownvalue.StringExact("us-east-1"), "name": knownvalue.StringExact(name)}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: providerBlock(endpoint)},
			{
				// The query file holds the list block alone: the provider is configured in the step's .tf file.
				Query: true,
				Config: `
list "dynamokeys_sharded_table" "audit" {
  provider         = dynamokeys
  include_resource = true
  config {
    name_prefix = "query-"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(list, 2),
					querycheck.ExpectIdentity(list, identity("query-clean")),
					querycheck.ExpectIdentity(list, identity("query-status")),
					querycheck.ExpectResourceDisplayName(list, queryfilter.ByResourceIdentity(identity("query-clean")),
						knownvalue.StringExact("query-clean (no key-design findings)")),
					querycheck.ExpectResourceDisplayName(list, queryfilter.ByResourceIdentity(identity("query-status")),
						knownvalue.StringExact("query-status (1 key-design finding: DK302)")),
					querycheck.ExpectResourceKnownValues(list, queryfilter.ByResourceIdentity(identity("query-status")), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("partition_key").AtMapKey("name"), KnownValue: knownvalue.StringExact("order_status")},
						{Path: tfjsonpath.New("partition_key").AtMapKey("template"), KnownValue: knownvalue.Null()},
					}),
				},
			},
		},
	})
}
