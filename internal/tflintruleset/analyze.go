package tflintruleset

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// analyze reads every key design of the module and returns its issues.
func analyze(ctx context.Context, runner tflint.Runner, engine *policy.Engine) ([]issue, error) {
	eval := func(expr hcl.Expression) cty.Value {
		var v cty.Value
		if err := runner.EvaluateExpr(expr, &v, nil); err != nil {
			// What TFLint cannot evaluate is treated as a plan treats it: known only later.
			return cty.DynamicVal
		}
		return v
	}
	var out []issue
	designs, err := dynamokeysBlocks(runner)
	if err != nil {
		return nil, err
	}
	for _, d := range designs {
		found, err := checkDesign(ctx, engine, d, eval)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	found, err := checkAWS(ctx, runner, engine, eval)
	if err != nil {
		return nil, err
	}
	return append(out, found...), nil
}

// designBlock is a dynamokeys_sharded_table resource or a dynamokeys_keydesign data source.
type designBlock struct {
	address string
	block   *hclext.Block
	table   bool
}

func dynamokeysBlocks(runner tflint.Runner) ([]designBlock, error) {
	resourceSchema := &hclext.BodySchema{Attributes: attributeSchemas(append(append([]string{}, designAttributes...), tableAttributes...)...)}
	resources, err := runner.GetResourceContent("dynamokeys_sharded_table", resourceSchema, nil)
	if err != nil {
		return nil, err
	}
	var out []designBlock
	for _, b := range withAddresses("dynamokeys_sharded_table.", resources.Blocks) {
		out = append(out, designBlock{address: b.address, block: b.block, table: true})
	}
	data, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "data", LabelNames: []string{"type", "name"}, Body: &hclext.BodySchema{Attributes: attributeSchemas(designAttributes...)},
	}}}, nil)
	if err != nil {
		return nil, err
	}
	var keydesigns []*hclext.Block
	for _, b := range data.Blocks {
		if b.Labels[0] == "dynamokeys_keydesign" {
			keydesigns = append(keydesigns, b)
		}
	}
	for _, b := range withAddresses("data.dynamokeys_keydesign.", keydesigns) {
		out = append(out, designBlock{address: b.address, block: b.block})
	}
	return out, nil
}

type addressed struct {
	address string
	block   *hclext.Block
}

// withAddresses names each block type.name, with an index when count or for_each made several of one name.
func withAddresses(prefix string, blocks []*hclext.Block) []addressed {
	seen := map[string]int{}
	for _, b := range blocks {
		seen[b.Labels[len(b.Labels)-1]]++
	}
	next := map[string]int{}
	out := make([]addressed, 0, len(blocks))
	for _, b := range blocks {
		name := b.Labels[len(b.Labels)-1]
		address := prefix + name
		if seen[name] > 1 {
			address += "[" + strconv.Itoa(next[name]) + "]"
			next[name]++
		}
		out = append(out, addressed{address: address, block: b})
	}
	return out
}

func checkDesign(ctx context.Context, engine *policy.Engine, d designBlock, eval func(hcl.Expression) cty.Value) ([]issue, error) {
	values := map[string]cty.Value{}
	for name, a := range d.block.Body.Attributes {
		values[name] = eval(a.Expr)
	}
	in := designInput(values, d.table)
	in.Address = d.address
	var out []issue
	if len(in.Unknown) > 0 {
		paths := make([]string, len(in.Unknown))
		for i, p := range in.Unknown {
			paths[i] = p.String()
		}
		out = append(out, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, message: unknownNotice(paths), rng: d.block.DefRange})
	}
	doc, errs := keydesign.Analyze(in)
	if len(errs) > 0 {
		for _, e := range errs {
			out = append(out, issue{rule: InvalidDesignRule, severity: tflint.ERROR,
				message: "dynamokeys: " + e.Error(), rng: designRange(d.block, e.Path)})
		}
		return out, nil
	}
	enforce := true
	if v, ok := values["enforce"]; ok && v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool {
		enforce = v.True()
	}
	doc.Policy = &keydesign.PolicySettings{Enforce: enforce, DisabledRules: []string{}}
	findings, err := engine.Evaluate(ctx, doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.address, err)
	}
	for _, f := range findings {
		out = append(out, issue{rule: RuleName(f.Rule), severity: severityOf(f.Severity, enforce), message: findingMessage(f), rng: designRange(d.block, f.Path)})
	}
	return out, nil
}

// checkAWS maps the module's aws_dynamodb_table and aws_dynamodb_global_secondary_index blocks through the
// bundle's plan adapter (plan.go) and evaluates each document.
func tableRefs(b *hclext.Block) []any {
	if tn, ok := b.Body.Attributes["table_name"]; ok {
		return tableReferences(tn.Expr)
	}
	return nil
}

func checkAWS(ctx context.Context, runner tflint.Runner, engine *policy.Engine, eval func(hcl.Expression) cty.Value) ([]issue, error) {
	tables, err := runner.GetResourceContent("aws_dynamodb_table", awsTableSchema, nil)
	if err != nil {
		return nil, err
	}
	gsis, err := runner.GetResourceContent("aws_dynamodb_global_secondary_index", awsGSISchema, nil)
	if err != nil {
		return nil, err
	}
	if len(tables.Blocks) == 0 && len(gsis.Blocks) == 0 {
		return nil, nil
	}
	blocks := map[string]*hclext.Block{}
	standalone := map[string]bool{}
	var changes, configResources []any
	var out []issue
	add := func(resourceType string, list []*hclext.Block) {
		for _, b := range withAddresses(resourceType+".", list) {
			blocks[b.address] = b.block
			var unknown []string
			after, afterUnknown := planValues(b.block.Body, eval, "", &unknown)
			change := map[string]any{
				"address": b.address, "mode": "managed", "type": resourceType, "name": b.block.Labels[1],
				"change": map[string]any{"actions": []any{"create"}, "after": after, "after_unknown": afterUnknown},
			}
			changes = append(changes, change)
			if resourceType == "aws_dynamodb_global_secondary_index" {
				standalone[b.address] = true
				if refs := tableRefs(b.block); len(refs) > 0 {
					configResources = append(configResources, map[string]any{
						"address": resourceType + "." + b.block.Labels[1], "type": resourceType, "name": b.block.Labels[1],
						"expressions": map[string]any{"table_name": map[string]any{"references": refs}},
					})
				}
			}
			// A table_name that refers to a table of this module joins the index to it, as in a plan.
			if refs := tableRefs(b.block); len(refs) > 0 {
				unknown = slices.DeleteFunc(unknown, func(u string) bool { return u == "table_name" })
			}
			if len(unknown) > 0 {
				out = append(out, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, message: unknownNotice(unknown), rng: b.block.DefRange})
			}
		}
	}
	add("aws_dynamodb_table", tables.Blocks)
	add("aws_dynamodb_global_secondary_index", gsis.Blocks)
	plan := map[string]any{
		"format_version":   "1.2",
		"resource_changes": changes,
		"configuration":    map[string]any{"root_module": map[string]any{"resources": configResources}},
	}
	documents, owners, err := policy.PlanDocuments(ctx, plan)
	if err != nil {
		return nil, fmt.Errorf("mapping the AWS tables: %w", err)
	}
	indexName := func(b *hclext.Block) string {
		if a, ok := b.Body.Attributes["name"]; ok {
			if v := eval(a.Expr); v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
				return v.AsString()
			}
		}
		return ""
	}
	for address, doc := range documents {
		findings, err := engine.EvaluateValue(ctx, doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", address, err)
		}
		for _, f := range findings {
			rng := awsTableRange(blocks[address], f.Path, indexName)
			if standalone[address] {
				rng = standaloneGSIRange(blocks[address], f.Path)
			} else if len(f.Path) > 1 && f.Path[0] == "global_secondary_indexes" && owners[address][f.Path[1]] != "" {
				// A finding on a standalone GSI joined to this table is the GSI resource's.
				rng = standaloneGSIRange(blocks[owners[address][f.Path[1]]], f.Path)
			}
			out = append(out, issue{rule: RuleName(f.Rule), severity: severityOf(f.Severity, true), message: findingMessage(f), rng: rng})
		}
	}
	return out, nil
}
