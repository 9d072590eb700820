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
		{"count", "var.n", nil, true},
		{"count", "1.5", nil, true},
		// cty iterates a map's and a set's elements in key order, as TFLint expands them.
		{"for_each", `{ zeta = 1, alpha = 2 }`, []string{`["alpha"]`, `["zeta"]`}, false},
		{"for_each", `toset(["b", "a"])`, nil, true}, // a function call: TFLint's to evaluate, unknown here
		{"for_each", `{ "a\"b" = 1 }`, []string{`["a\"b"]`}, false},
		{"for_each", `[1, 2]`, nil, true}, // Terraform refuses a list
	} {
		keys, unknown := instanceKeys(metaBlock(t, tc.meta, tc.src), literal)
		if (unknown != nil) != tc.unknown || !slices.Equal(keys, tc.want) {
			t.Errorf("%s = %s: keys %q unknown %v, want %q unknown %v", tc.meta, tc.src, keys, unknown != nil, tc.want, tc.unknown)
		}
	}
	if keys, unknown := instanceKeys(&hclext.Block{Body: &hclext.BodyContent{}}, literal); keys != nil || unknown != nil {
		t.Errorf("a block without count or for_each: keys %q, unknown %v", keys, unknown)
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
