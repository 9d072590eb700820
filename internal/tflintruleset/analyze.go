package tflintruleset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// analyze reads every key design of the module and returns its issues.
func analyze(ctx context.Context, runner tflint.Runner, engines *engineCache) ([]issue, error) {
	eval := evaluator(runner, tflint.SelfModuleCtxType)
	var out []issue
	settings, err := providerSettings(runner, eval)
	if err != nil {
		return nil, err
	}
	engineOf := map[string]*policy.Engine{}
	for _, alias := range slices.Sorted(maps.Keys(settings)) {
		engine, problems := engines.forSettings(ctx, settings[alias])
		engineOf[alias] = engine
		out = append(out, problems...)
	}
	designs, notices, err := dynamokeysBlocks(runner, eval)
	if err != nil {
		return nil, err
	}
	out = append(out, notices...)
	for _, d := range designs {
		// A block of an alias the module does not configure is Terraform's error, not this plugin's: it is
		// checked with the default configuration.
		alias := d.providerAlias
		if _, ok := settings[alias]; !ok {
			alias = ""
		}
		found, err := checkDesign(ctx, engineOf[alias], settings[alias], d, eval)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	// The provider's policy settings govern its own resources; the AWS provider's tables get the built-in
	// rules, which .tflint.hcl turns on and off like any TFLint rule.
	found, err := checkAWS(ctx, runner, engines.builtin, eval)
	if err != nil {
		return nil, err
	}
	out = mergeInstances(append(out, found...))
	module, err := runner.GetModulePath()
	if err != nil {
		return nil, err
	}
	if !module.IsRoot() {
		out = inCalledModule(out)
	}
	return out, nil
}

// inCalledModule moves the issues of a called module onto the expressions of its block that read the module's
// variables: TFLint reports an issue of a called module only on such an expression, at the caller's
// argument that sets the variable, which is where the values that made the design fail come from. An issue
// of a block that reads no variable is the module's own, reported when TFLint lints the module itself.
func inCalledModule(issues []issue) []issue {
	var out []issue
	for _, is := range issues {
		for _, rng := range variableExpressions(is.block) {
			moved := is
			moved.rng = rng
			out = append(out, moved)
		}
	}
	return out
}

// variableExpressions are the ranges of the innermost expressions of a block that refer to var.*.
func variableExpressions(block *hclext.Block) []hcl.Range {
	if block == nil {
		return nil
	}
	var out []hcl.Range
	var walk func(hcl.Expression)
	walk = func(expr hcl.Expression) {
		switch e := expr.(type) {
		case *hclsyntax.ObjectConsExpr:
			for _, item := range e.Items {
				walk(item.ValueExpr)
			}
			return
		case *hclsyntax.TupleConsExpr:
			for _, el := range e.Exprs {
				walk(el)
			}
			return
		}
		for _, traversal := range expr.Variables() {
			if traversal.RootName() == "var" {
				out = append(out, expr.Range())
				return
			}
		}
	}
	var body func(*hclext.BodyContent)
	body = func(b *hclext.BodyContent) {
		for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
			walk(b.Attributes[name].Expr)
		}
		for _, nested := range b.Blocks {
			body(nested.Body)
		}
	}
	body(block.Body)
	return out
}

// designBlock is a dynamokeys_sharded_table resource or a dynamokeys_keydesign data source.
type designBlock struct {
	addressed
	table bool
	// repeatedBy is "count" or "for_each" on a data block, which TFLint does not expand.
	repeatedBy string
	// providerAlias is the alias of the provider configuration the block names with provider =, or "".
	providerAlias string
}

func dynamokeysBlocks(runner tflint.Runner, eval func(hcl.Expression) cty.Value) ([]designBlock, []issue, error) {
	resourceSchema := &hclext.BodySchema{Attributes: attributeSchemas(append(append([]string{"provider"}, designAttributes...), tableAttributes...)...)}
	resources, notices, err := resourceInstances(runner, "dynamokeys_sharded_table", resourceSchema, eval)
	if err != nil {
		return nil, nil, err
	}
	var out []designBlock
	for _, b := range resources {
		out = append(out, designBlock{addressed: b, table: true, providerAlias: providerAlias(b.block)})
	}
	data, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "data", LabelNames: []string{"type", "name"}, Body: &hclext.BodySchema{Attributes: attributeSchemas(append([]string{"count", "for_each", "provider"}, designAttributes...)...)},
	}}}, nil)
	if err != nil {
		return nil, nil, err
	}
	// TFLint does not expand data blocks: one block, one address, checked once, unless count or for_each
	// is known to make no instance at all (count = var.enabled ? 1 : 0).
	for _, b := range data.Blocks {
		if b.Labels[0] != "dynamokeys_keydesign" {
			continue
		}
		d := designBlock{addressed: addressed{address: "data.dynamokeys_keydesign." + b.Labels[1], block: b}, providerAlias: providerAlias(b)}
		if keys, _, _ := instanceKeys(b, eval); keys != nil && len(keys) == 0 {
			continue
		}
		for _, meta := range []string{"count", "for_each"} {
			if _, ok := b.Body.Attributes[meta]; ok {
				d.repeatedBy = meta
			}
		}
		out = append(out, d)
	}
	return out, notices, nil
}

func checkDesign(ctx context.Context, engine *policy.Engine, settings policySettings, d designBlock, eval func(hcl.Expression) cty.Value) ([]issue, error) {
	values := map[string]cty.Value{}
	for name, a := range d.block.Body.Attributes {
		if name != "count" && name != "for_each" && name != "provider" {
			values[name] = eval(a.Expr)
		}
	}
	in, invalid := designInput(values, d.table)
	in.Address = d.address
	var out []issue
	if len(in.Unknown) > 0 {
		paths := make([]string, len(in.Unknown))
		for i, p := range in.Unknown {
			paths[i] = p.String()
		}
		notice := unknownNotice(paths)
		if d.repeatedBy != "" {
			notice += map[string]string{
				"count":    "; TFLint does not expand the count of a data block, so its count.index is known only to the plan",
				"for_each": "; TFLint does not expand the for_each of a data block, so its each.key and each.value are known only to the plan",
			}[d.repeatedBy]
		}
		out = append(out, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, message: notice, rng: d.block.DefRange, block: d.sourceBlock()})
	}
	doc, errs := keydesign.Analyze(in)
	if errs = append(invalid, errs...); len(errs) > 0 {
		for _, e := range errs {
			out = append(out, issue{rule: InvalidDesignRule, severity: tflint.ERROR,
				message: "dynamokeys: " + e.Error(), rng: designRange(d.sourceBlock(), e.Path), block: d.sourceBlock()})
		}
		return out, nil
	}
	// The block's enforce, else the provider's, as the provider stamps the document.
	enforce := settings.enforce
	if v, ok := values["enforce"]; ok && v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool {
		enforce = v.True()
	}
	doc.Policy = &keydesign.PolicySettings{Enforce: enforce, DisabledRules: slices.Sorted(maps.Keys(settings.disabled))}
	findings, err := engine.Evaluate(ctx, doc)
	if errors.Is(err, policy.ErrMalformedFinding) {
		// The user's rule is at fault, not the design: an issue naming it, as the provider's diagnostic does.
		return append(out, issue{rule: CustomRule, severity: tflint.ERROR, message: "dynamokeys: " + err.Error(), rng: d.block.DefRange, block: d.sourceBlock()}), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.address, err)
	}
	for _, f := range findings {
		if settings.disabled[f.Rule] {
			continue
		}
		out = append(out, issue{rule: tflintRule(f.Rule), severity: severityOf(f.Severity, enforce), message: findingMessage(f), rng: designRange(d.sourceBlock(), f.Path), block: d.sourceBlock()})
	}
	if d.instance {
		for i := range out {
			out[i].instance = d.address
		}
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
	tables, tableNotices, err := resourceInstances(runner, "aws_dynamodb_table", awsTableSchema, eval)
	if err != nil {
		return nil, err
	}
	gsis, gsiNotices, err := resourceInstances(runner, "aws_dynamodb_global_secondary_index", awsGSISchema, eval)
	if err != nil {
		return nil, err
	}
	out := append(tableNotices, gsiNotices...)
	if len(tables) == 0 && len(gsis) == 0 {
		return out, nil
	}
	// blocks are the expanded blocks, whose nested blocks include what dynamic blocks made (the lines of a
	// finding on an index); sources the blocks as written, whose expressions show the variables they read.
	blocks, sources := map[string]*hclext.Block{}, map[string]*hclext.Block{}
	standalone := map[string]bool{}
	instances := map[string]bool{}
	configured := map[string]bool{}
	var changes, configResources []any
	add := func(resourceType string, list []addressed) {
		for _, b := range list {
			blocks[b.address] = b.block
			sources[b.address] = b.sourceBlock()
			instances[b.address] = b.instance
			var unknown []string
			after, afterUnknown := planValues(b.block.Body, eval, "", &unknown)
			change := map[string]any{
				"address": b.address, "mode": "managed", "type": resourceType, "name": b.block.Labels[1],
				"change": map[string]any{"actions": []any{"create"}, "after": after, "after_unknown": afterUnknown},
			}
			changes = append(changes, change)
			if resourceType == "aws_dynamodb_global_secondary_index" {
				standalone[b.address] = true
				// The configuration holds one entry per block, not per instance.
				if refs := tableRefs(b.block); len(refs) > 0 && !configured[resourceType+"."+b.block.Labels[1]] {
					configured[resourceType+"."+b.block.Labels[1]] = true
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
				out = append(out, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, message: unknownNotice(unknown), rng: b.block.DefRange,
					block: b.sourceBlock(), instance: instanceName(b)})
			}
		}
	}
	add("aws_dynamodb_table", tables)
	add("aws_dynamodb_global_secondary_index", gsis)
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
	for _, address := range slices.Sorted(maps.Keys(documents)) {
		doc := documents[address]
		findings, err := engine.EvaluateValue(ctx, doc)
		if errors.Is(err, policy.ErrMalformedFinding) {
			out = append(out, issue{rule: CustomRule, severity: tflint.ERROR, message: "dynamokeys: " + err.Error(), rng: blocks[address].DefRange, block: sources[address]})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", address, err)
		}
		for _, f := range findings {
			about := address
			block := blocks[address]
			rng := awsTableRange(block, f.Path, indexName)
			if standalone[address] {
				rng = standaloneGSIRange(block, f.Path)
			} else if len(f.Path) > 1 && f.Path[0] == "global_secondary_indexes" && owners[address][f.Path[1]] != "" {
				// A finding on a standalone GSI joined to this table is the GSI resource's.
				about = owners[address][f.Path[1]]
				block = blocks[about]
				rng = standaloneGSIRange(block, f.Path)
			}
			out = append(out, issue{rule: tflintRule(f.Rule), severity: severityOf(f.Severity, true), message: findingMessage(f), rng: rng,
				block: sources[about], instance: instanceName(addressed{address: about, instance: instances[about]})})
		}
	}
	return out, nil
}
