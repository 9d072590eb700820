package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/tflintruleset"
)

// readerCases are blocks whose reading the parity designs do not cover: values known only at apply (a
// variable without a value stands for another resource's attribute), the defaults, and values the provider
// refuses.
const readerCases = `
data "dynamokeys_keydesign" "reader_unknowns" {
  partition_key = { name = "pk", template = var.unknown }
  sort_key      = { name = "sk", type = var.unknown, template = "ORDER#{order_id}" }
  segments      = { order_id = { kind = "id", max_length = var.unknown, values = ["a", var.unknown] }, day = var.unknown }
  sharding      = var.unknown
  traffic       = { writes_per_second = var.unknown, reads_per_second = 10 }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status", cardinality = var.unknown }], projection_type = var.unknown }
    by_day    = var.unknown
  }
  entities = {
    order = { keys = { PK = "ORDER#{order_id}", GSI1PK = var.unknown }, traffic = var.unknown }
  }
  access_patterns  = var.unknown
  migration        = { phase = "dual_write", from = { entities = { order = { keys = var.unknown } } } }
  pricing          = { region = var.unknown }
  replicas         = { regions = { "us-east-1" = { write_share = var.unknown } } }
  observed         = { traffic = { writes_per_second = var.unknown } }
  observed_indexes = var.unknown
}

resource "dynamokeys_sharded_table" "reader_unknowns" {
  name                   = var.unknown
  billing_mode           = var.unknown
  read_capacity          = var.unknown
  table_class            = var.unknown
  point_in_time_recovery = { enabled = var.unknown }
  on_demand_throughput   = { max_read_request_units = var.unknown, max_write_request_units = 100 }
  autoscaling            = var.unknown
  partition_key          = { name = "pk", template = "ORDER#{order_id}" }
  segments               = { order_id = { kind = "id" } }
  global_secondary_indexes = {
    by_status = { partition_key = [{ name = "status" }], warm_throughput = { read_units_per_second = var.unknown, write_units_per_second = 10 } }
  }
}

resource "dynamokeys_sharded_table" "reader_defaults" {
  name          = "reader-defaults"
  partition_key = { name = "pk", template = "ORDER#{order_id}" }
  sort_key      = { name = "sk" }
  segments      = { order_id = { kind = "id" } }
  local_secondary_indexes  = { by_date = { sort_key = { name = "created" } } }
  global_secondary_indexes = { by_status = { partition_key = [{ name = "status" }], sort_key = [{ name = "created" }] } }
  pricing                  = { table_class = "STANDARD_INFREQUENT_ACCESS" }
  point_in_time_recovery   = { enabled = true }
  on_demand_throughput     = { max_write_request_units = 400 }
  autoscaling              = { read = { min = 5, max = 50 } }
}

data "dynamokeys_keydesign" "reader_refusals" {
  partition_key    = { name = "pk", template = "ORDER#{order_id}" }
  segments         = { order_id = { kind = "id", max_length = 2.5 } }
  sharding         = { strategy = "calculated", source = "order_id", count = 1.5 }
  observed_indexes = { by_status = { index_name = "by_day", traffic = { writes_per_second = 1 } } }
}

resource "dynamokeys_sharded_table" "reader_refusals" {
  name           = "reader-refusals"
  partition_key  = { name = "pk" }
  write_capacity = 2.5
  replicas       = { regions = { "us-east-1" = {} } }
}
`

// TestBothAdaptersReadTheSameDesign: the provider and the TFLint ruleset read a design through the one
// mapping of internal/designreader, each through its adapter: the provider the framework's values, which
// Terraform has converted to the schema's types, TFLint the cty values as the configuration writes them. On
// every parity design, the examples and the blocks above, both give the same Input (unknown values,
// defaults and refusals included).
func TestBothAdaptersReadTheSameDesign(t *testing.T) {
	t.Parallel()
	var config strings.Builder
	for _, name := range slices.Sorted(maps.Keys(parityDesigns)) {
		fmt.Fprintf(&config, "data \"dynamokeys_keydesign\" %q {\n  %s\n}\n", name, parityDesigns[name])
	}
	for _, name := range slices.Sorted(maps.Keys(parityTables)) {
		fmt.Fprintf(&config, "resource \"dynamokeys_sharded_table\" %q {\n  %s\n}\n", name, parityTables[name])
	}
	examples, _ := exampleBlocks(t)
	config.WriteString(examples + readerCases)
	file, diags := hclsyntax.ParseConfig([]byte(config.String()), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		t.Fatal("not a native syntax body")
	}
	dataConfig, resourceConfig := designConfigs(t)
	var read, skipped []string
	inputs, refusals := map[string]*model.Input{}, map[string][]string{}
	for _, b := range body.Blocks {
		table := b.Type == "resource"
		address := b.Labels[0] + "." + b.Labels[1]
		values, ok := evaluateBlock(b.Body)
		if !ok {
			skipped = append(skipped, address) // a function call this test does not evaluate
			continue
		}
		read = append(read, address)
		fromTFLint, tflintErrs := tflintruleset.ReadDesign(values, table)
		var fromProvider *model.Input
		var providerDiags []string
		if table {
			var m shardedTableModel
			getConfig(t, address, resourceConfig, values, &m)
			in, d := readTableDesign(m)
			fromProvider, providerDiags = in, diagnosticDetails(d)
		} else {
			var m keydesignDataSourceModel
			getConfig(t, address, dataConfig, values, &m)
			in, d := readDesign(m.designInputModel)
			fromProvider, providerDiags = in, diagnosticDetails(d)
		}
		if !reflect.DeepEqual(fromProvider, fromTFLint) {
			t.Errorf("%s: the provider's adapter and TFLint's read different designs:\nprovider %s\nTFLint   %s", address, asJSON(fromProvider), asJSON(fromTFLint))
		}
		if want := fieldErrorTexts(tflintErrs); !slices.Equal(providerDiags, want) {
			t.Errorf("%s: the provider refused %q, TFLint %q", address, providerDiags, want)
		}
		inputs[address], refusals[address] = fromProvider, providerDiags
	}
	if len(skipped) > 2 || len(read) < len(parityDesigns)+len(parityTables) {
		t.Errorf("read %d blocks, skipped %v", len(read), skipped)
	}
	t.Logf("%d blocks read alike through both adapters; %d call a function this test does not evaluate: %v", len(read), len(skipped), skipped)

	// What the blocks above are for, now that both agree on them.
	unknowns := unknownTexts(inputs["dynamokeys_keydesign.reader_unknowns"])
	for _, want := range []string{"partition_key.template", "sort_key.type", "segments.order_id.max_length", "segments.order_id.values[1]",
		"segments.day", "sharding", "traffic.writes_per_second", "global_secondary_indexes.by_status.partition_key[0].cardinality",
		"global_secondary_indexes.by_status.projection_type", "global_secondary_indexes.by_day", "entities.order.keys.GSI1PK",
		"entities.order.traffic", "access_patterns", "migration.from.entities.order.keys", "pricing.region",
		"replicas.regions.us-east-1.write_share", "observed"} {
		if !slices.Contains(unknowns, want) {
			t.Errorf("the data source's unknown values %v lack %s", unknowns, want)
		}
	}
	unknowns = unknownTexts(inputs["dynamokeys_sharded_table.reader_unknowns"])
	for _, want := range []string{"name", "billing_mode", "read_capacity", "table_class", "point_in_time_recovery", "on_demand_throughput",
		"autoscaling", "global_secondary_indexes"} {
		if !slices.Contains(unknowns, want) {
			t.Errorf("the resource's unknown values %v lack %s", unknowns, want)
		}
	}
	for address, want := range map[string][]string{
		"dynamokeys_keydesign.reader_refusals": {"segments.order_id.max_length: must be a whole number, got 2.5",
			"sharding.count: must be a whole number, got 1.5", `observed_indexes.by_status.index_name: is the observation of index "by_day"`},
		"dynamokeys_sharded_table.reader_refusals": {"write_capacity: must be a whole number, got 2.5", "replicas: dynamokeys_sharded_table does not create replicas"},
	} {
		got := refusals[address]
		for i := range want {
			if i >= len(got) || !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s: refused %q, want %q", address, got, want)
				break
			}
		}
	}
	for address, errs := range refusals {
		if len(errs) > 0 && !strings.HasSuffix(address, ".reader_refusals") {
			t.Errorf("%s refused: %q", address, errs)
		}
	}
	if in := inputs["dynamokeys_sharded_table.reader_defaults"]; in == nil || in.BillingMode != "PAY_PER_REQUEST" || in.SortKey.Type != "S" ||
		in.LocalSecondaryIndexes[0].ProjectionType != "ALL" || in.GlobalSecondaryIndexes[0].SortKey[0].Type != "S" ||
		in.Pricing.TableClass != "STANDARD_INFREQUENT_ACCESS" || !in.Pricing.PointInTimeRecovery || *in.OnDemand.Write != 400 || in.Autoscaling.Read.Max != 50 {
		t.Errorf("defaults: %s", asJSON(in))
	}
}

// designConfigs are configurations of dynamokeys_keydesign and dynamokeys_sharded_table without values: their
// schemas.
func designConfigs(t *testing.T) (data, res tfsdk.Config) {
	t.Helper()
	var dr datasource.SchemaResponse
	(&keydesignDataSource{}).Schema(t.Context(), datasource.SchemaRequest{}, &dr)
	var rr resource.SchemaResponse
	(&shardedTableResource{}).Schema(t.Context(), resource.SchemaRequest{}, &rr)
	return tfsdk.Config{Schema: dr.Schema}, tfsdk.Config{Schema: rr.Schema}
}

// evaluateBlock evaluates a block's attributes as TFLint does before any plan: var.unknown is unknown.
// false when an expression calls a function it has not.
func evaluateBlock(body *hclsyntax.Body) (map[string]cty.Value, bool) {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"unknown": cty.DynamicVal})},
		Functions: map[string]function.Function{"range": stdlib.RangeFunc, "merge": stdlib.MergeFunc, "concat": stdlib.ConcatFunc,
			"upper": stdlib.UpperFunc, "lower": stdlib.LowerFunc, "format": stdlib.FormatFunc, "length": stdlib.LengthFunc},
	}
	values := map[string]cty.Value{}
	for name, a := range body.Attributes {
		if name == "count" || name == "for_each" || name == "provider" {
			continue
		}
		v, diags := a.Expr.Value(ctx)
		if diags.HasErrors() {
			return nil, false
		}
		values[name] = v
	}
	return values, true
}

// getConfig reads values into a model the way the framework reads the configuration Terraform sends: each
// value converted to its attribute's type (a missing attribute null), encoded as on the wire.
func getConfig(t *testing.T, address string, empty tfsdk.Config, values map[string]cty.Value, target any) {
	t.Helper()
	tfType := empty.Schema.Type().TerraformType(t.Context())
	typeJSON, err := json.Marshal(tfType)
	if err != nil {
		t.Fatal(err)
	}
	ctyType, err := ctyjson.UnmarshalType(typeJSON)
	if err != nil {
		t.Fatal(err)
	}
	conformed, err := convert.Convert(cty.ObjectVal(values), everyAttributeOptional(ctyType))
	if err != nil {
		t.Fatalf("%s: Terraform would refuse the configuration: %v", address, err)
	}
	wire, err := ctymsgpack.Marshal(conformed, ctyType)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := (&tfprotov6.DynamicValue{MsgPack: wire}).Unmarshal(tfType)
	if err != nil {
		t.Fatal(err)
	}
	config := tfsdk.Config{Raw: raw, Schema: empty.Schema}
	if d := config.Get(t.Context(), target); d.HasError() {
		t.Fatalf("%s: %v", address, d)
	}
}

// everyAttributeOptional is typ with every object attribute optional, as a schema's optional attributes are.
func everyAttributeOptional(typ cty.Type) cty.Type {
	switch {
	case typ.IsObjectType():
		attrs := map[string]cty.Type{}
		var names []string
		for name, at := range typ.AttributeTypes() {
			attrs[name] = everyAttributeOptional(at)
			names = append(names, name)
		}
		return cty.ObjectWithOptionalAttrs(attrs, names)
	case typ.IsListType():
		return cty.List(everyAttributeOptional(typ.ElementType()))
	case typ.IsSetType():
		return cty.Set(everyAttributeOptional(typ.ElementType()))
	case typ.IsMapType():
		return cty.Map(everyAttributeOptional(typ.ElementType()))
	}
	return typ
}

// diagnosticDetails are the details of the error diagnostics, which name the path of what they refuse.
func diagnosticDetails(d diag.Diagnostics) []string {
	out := []string{}
	for _, e := range d.Errors() {
		out = append(out, e.Detail())
	}
	return out
}

func fieldErrorTexts(errs []*model.FieldError) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func unknownTexts(in *model.Input) []string {
	var out []string
	if in != nil {
		for _, p := range in.Unknown {
			out = append(out, p.String())
		}
	}
	return out
}

func asJSON(in *model.Input) string {
	b, err := json.Marshal(in)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
