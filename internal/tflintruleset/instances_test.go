package tflintruleset

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// metaBlock is a block with one meta-argument set to the expression src.
func metaBlock(t *testing.T, name, src string) *hclext.Block {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &hclext.Block{Type: "resource", Labels: []string{"aws_dynamodb_table", "t"},
		Body: &hclext.BodyContent{Attributes: hclext.Attributes{name: {Name: name, Expr: expr}}}}
}

// literal evaluates what needs no variables; the rest is unknown, as TFLint leaves what it cannot know.
func literal(expr hcl.Expression) cty.Value {
	if v, diags := expr.Value(nil); !diags.HasErrors() {
		return v
	}
	return cty.DynamicVal
}

func TestInstanceKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		meta, src string
		want      []string
		unknown   bool
	}{
		{"count", "3", []string{"[0]", "[1]", "[2]"}, false},
		{"count", "0", []string{}, false},
		{"count", `"2"`, []string{"[0]", "[1]"}, false}, // TFLint converts count to a number
		{"count", "var.n", nil, true},
		{"count", "1.5", nil, false}, // TFLint refuses it: no names, no notice
		{"count", "-1", nil, false},
		{"count", "null", nil, false},
		// cty iterates a map's and a set's elements in key order, as TFLint expands them.
		{"for_each", `{ zeta = 1, alpha = 2 }`, []string{`["alpha"]`, `["zeta"]`}, false},
		{"for_each", `{ "a\"b" = 1 }`, []string{`["a\"b"]`}, false},
		// Keys known, values not: TFLint expands it, and so the keys name the instances.
		{"for_each", `{ a = var.x, b = var.y }`, nil, true}, // unknown here only because literal evaluates no variable
		{"for_each", `toset(["b", "a"])`, nil, true},        // a function call: TFLint's to evaluate, unknown here
		{"for_each", `[1, 2]`, nil, false},                  // Terraform refuses a list, TFLint expands it: numbered
	} {
		keys, repeated, unknown := instanceKeys(metaBlock(t, tc.meta, tc.src), literal)
		if !repeated || (unknown != nil) != tc.unknown || !slices.Equal(keys, tc.want) {
			t.Errorf("%s = %s: keys %q repeated %v unknown %v, want %q unknown %v", tc.meta, tc.src, keys, repeated, unknown != nil, tc.want, tc.unknown)
		}
	}
	if keys, repeated, unknown := instanceKeys(&hclext.Block{Body: &hclext.BodyContent{}}, literal); keys != nil || repeated || unknown != nil {
		t.Errorf("a block without count or for_each: keys %q, repeated %v, unknown %v", keys, repeated, unknown)
	}
	// A map known as a whole with unknown values: the keys still name the instances.
	partly := cty.ObjectVal(map[string]cty.Value{"b": cty.UnknownVal(cty.Number), "a": cty.NumberIntVal(1)})
	keys, _, unknown := instanceKeys(metaBlock(t, "for_each", "var.m"), func(hcl.Expression) cty.Value { return partly })
	if unknown != nil || !slices.Equal(keys, []string{`["a"]`, `["b"]`}) {
		t.Errorf("a map with unknown values: keys %q, unknown %v", keys, unknown)
	}
}

func TestInstanceAddresses(t *testing.T) {
	t.Parallel()
	raw := metaBlock(t, "for_each", `{ b = 1, a = 2 }`)
	expanded := []*hclext.Block{{Labels: raw.Labels}, {Labels: raw.Labels}}
	got, notices := instanceAddresses("aws_dynamodb_table.", []*hclext.Block{raw}, expanded, literal)
	if len(notices) != 0 || len(got) != 2 || got[0].address != `aws_dynamodb_table.t["a"]` || got[1].address != `aws_dynamodb_table.t["b"]` || !got[0].instance {
		t.Errorf("addresses %+v, notices %+v", got, notices)
	}
	unknownCount := metaBlock(t, "count", "var.n")
	got, notices = instanceAddresses("aws_dynamodb_table.", []*hclext.Block{unknownCount}, nil, literal)
	if len(got) != 0 || len(notices) != 1 || notices[0].severity != tflint.NOTICE ||
		!strings.Contains(notices[0].message, "the count of aws_dynamodb_table.t is not known before the plan") {
		t.Errorf("an unknown count: addresses %+v, notices %+v", got, notices)
	}
	// Blocks of two files at the same position stay apart: a count = 2 in main.tf, a plain block in other.tf.
	counted := metaBlock(t, "count", "2")
	counted.DefRange = hcl.Range{Filename: "main.tf"}
	other := &hclext.Block{Labels: []string{"aws_dynamodb_table", "o"}, Body: &hclext.BodyContent{}, DefRange: hcl.Range{Filename: "other.tf"}}
	got, _ = instanceAddresses("aws_dynamodb_table.", []*hclext.Block{counted, other},
		[]*hclext.Block{{Labels: counted.Labels, DefRange: counted.DefRange}, {Labels: counted.Labels, DefRange: counted.DefRange}, other}, literal)
	if addresses := []string{got[0].address, got[1].address, got[2].address}; !slices.Equal(addresses,
		[]string{"aws_dynamodb_table.t[0]", "aws_dynamodb_table.t[1]", "aws_dynamodb_table.o"}) {
		t.Errorf("two files: %q", addresses)
	}
	// Keys that cannot be named (a for_each over a list) number the instances; and whatever happens, no two
	// blocks share an address.
	listed := metaBlock(t, "for_each", `["x", "y"]`)
	got, _ = instanceAddresses("aws_dynamodb_table.", []*hclext.Block{listed},
		[]*hclext.Block{{Labels: listed.Labels}, {Labels: listed.Labels}, {Labels: listed.Labels, DefRange: hcl.Range{Filename: "elsewhere.tf"}}}, literal)
	if addresses := []string{got[0].address, got[1].address, got[2].address}; !slices.Equal(addresses,
		[]string{"aws_dynamodb_table.t[0]", "aws_dynamodb_table.t[1]", "aws_dynamodb_table.t"}) {
		t.Errorf("numbered: %q", addresses)
	}
	unmatched := []*hclext.Block{{Labels: listed.Labels, DefRange: hcl.Range{Filename: "a.tf"}}, {Labels: listed.Labels, DefRange: hcl.Range{Filename: "b.tf"}}}
	got, _ = instanceAddresses("aws_dynamodb_table.", nil, unmatched, literal)
	if got[0].address != "aws_dynamodb_table.t" || got[1].address != "aws_dynamodb_table.t[1]" {
		t.Errorf("two blocks of one address: %q, %q", got[0].address, got[1].address)
	}
	// A block without meta-arguments keeps its plain address.
	plain := &hclext.Block{Labels: raw.Labels, Body: &hclext.BodyContent{}}
	got, _ = instanceAddresses("aws_dynamodb_table.", []*hclext.Block{plain}, []*hclext.Block{plain}, literal)
	if len(got) != 1 || got[0].address != "aws_dynamodb_table.t" || got[0].instance {
		t.Errorf("a single block: %+v", got)
	}
}

func TestMergeInstances(t *testing.T) {
	t.Parallel()
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3}}
	same := func(instance string) issue {
		return issue{rule: "dynamokeys_dk302", severity: tflint.WARNING, message: "DK302 low", rng: rng, instance: instance}
	}
	other := same("t[1]")
	other.message = "DK302 other"
	got := mergeInstances([]issue{same("t[10]"), same("t[2]"), other, same(""), same("t[2]")})
	if len(got) != 2 || got[0].message != "DK302 low (instances t[2], t[10])" || got[1].message != "DK302 other (instance t[1])" {
		t.Errorf("merged: %+v", got)
	}
}
