package tflintruleset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/designreader"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// analyze reads every key design of the module and returns its issues.
func analyze(ctx context.Context, runner tflint.Runner, engines *engineCache) ([]issue, error) {
	failed := &failures{}
	eval := evaluator(runner, tflint.SelfModuleCtxType, failed)
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
	designs, notices := dynamokeysBlocks(runner, eval)
	out = append(out, notices...)
	for _, d := range designs {
		// A block of an alias the module does not configure is Terraform's error, not this plugin's: it is
		// checked with the default configuration.
		alias := d.providerAlias
		if _, ok := settings[alias]; !ok {
			alias = ""
		}
		out = append(out, checkDesign(ctx, engineOf[alias], settings[alias], d, eval)...)
		out = append(out, unreadable(d.addressed, failed)...)
	}
	// The provider's policy settings govern its own resources; the AWS provider's tables get the built-in
	// rules, which .tflint.hcl turns on and off like any TFLint rule.
	found, checked := checkAWS(ctx, runner, engines.builtin, eval)
	out = append(out, found...)
	for _, b := range checked {
		out = append(out, unreadable(b, failed)...)
	}
	// A block whose count or for_each TFLint could not evaluate is not checked, and says why (once).
	for _, is := range slices.Clone(out) {
		if is.rule != UnknownInputsRule || is.part != metaArgumentPart {
			continue
		}
		for _, u := range unreadable(addressed{address: is.address, block: is.block}, failed) {
			if !slices.ContainsFunc(out, func(o issue) bool { return o.rule == UnreadableRule && o.rng == u.rng }) {
				out = append(out, u)
			}
		}
	}
	// An input TFLint could not evaluate is the unreadable issue's, not also a notice.
	out = slices.DeleteFunc(out, func(is issue) bool { return is.rule == UnknownInputsRule && failed.overlaps(is.rng) })
	out = mergeInstances(out)
	module, err := runner.GetModulePath()
	if err != nil {
		return nil, err
	}
	if !module.IsRoot() {
		// The attributes a called module writes are the module's own, reported when TFLint lints it.
		return inCalledModule(out), nil
	}
	misspelled, err := unknownAttributes(runner)
	if err != nil {
		return nil, err
	}
	return append(out, misspelled...), nil
}

// inCalledModule moves the issues of a called module onto one reference to a module variable in their block:
// TFLint reports an issue of a called module only on an expression that reads its variables, at the
// caller's argument that sets each variable the expression reads. The reference is the first in the
// issue's own expression (the input it is about), else the first in the part of the block the finding is
// on (the dynamic block that makes the indexes it counts), else the block's first, so that an issue is
// reported once, at one argument of the caller. An issue of a block that reads no variable is the module's
// own, reported when TFLint lints the module itself.
func inCalledModule(issues []issue) []issue {
	var out []issue
	for _, is := range issues {
		refs := variableReferences(is.block, "")
		if len(refs) == 0 {
			continue
		}
		moved := is
		moved.rng = refs[0]
		if in := slices.IndexFunc(refs, func(rng hcl.Range) bool { return within(rng, is.rng) }); in >= 0 {
			moved.rng = refs[in]
		} else if part := variableReferences(is.block, is.part); is.part != "" && len(part) > 0 {
			moved.rng = part[0]
		}
		out = append(out, moved)
	}
	return out
}

func within(inner, outer hcl.Range) bool {
	return inner.Filename == outer.Filename && inner.Start.Byte >= outer.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// variableReferences are the ranges of the references to var.* in a block as written, in source order; with
// part, only those in the attribute of that name, the nested blocks of that type and the dynamic blocks
// that make them.
func variableReferences(block *hclext.Block, part string) []hcl.Range {
	if block == nil {
		return nil
	}
	var out []hcl.Range
	var body func(*hclext.BodyContent, bool)
	body = func(b *hclext.BodyContent, top bool) {
		for name, a := range b.Attributes {
			if top && part != "" && name != part {
				continue
			}
			for _, traversal := range a.Expr.Variables() {
				if traversal.RootName() == "var" && len(traversal) > 1 {
					// var.name alone, not what follows it (var.name.attr[0]): TFLint reads the range as an
					// expression, which must name the one variable.
					out = append(out, hcl.RangeBetween(traversal[0].SourceRange(), traversal[1].SourceRange()))
				}
			}
		}
		for _, nested := range b.Blocks {
			if top && part != "" && nested.Type != part && (nested.Type != "dynamic" || nested.Labels[0] != part) {
				continue
			}
			body(nested.Body, false)
		}
	}
	body(block.Body, true)
	slices.SortFunc(out, func(a, b hcl.Range) int {
		if c := strings.Compare(a.Filename, b.Filename); c != 0 {
			return c
		}
		return a.Start.Byte - b.Start.Byte
	})
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

func dynamokeysBlocks(runner tflint.Runner, eval func(hcl.Expression) cty.Value) ([]designBlock, []issue) {
	resourceSchema := &hclext.BodySchema{Attributes: attributeSchemas(slices.Concat([]string{"provider", "enforce"}, designreader.DesignAttributes, designreader.TableAttributes)...)}
	resources, notices := resourceInstances(runner, "dynamokeys_sharded_table", resourceSchema, eval)
	var out []designBlock
	for _, b := range resources {
		out = append(out, designBlock{addressed: b, table: true, providerAlias: providerAlias(b.block)})
	}
	// TFLint does not expand data blocks: one block, one address, checked once, unless count or for_each
	// is known to make no instance at all (count = var.enabled ? 1 : 0). Read as written, so that nothing of
	// another data block is evaluated.
	data, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "data", LabelNames: []string{"type", "name"}, Body: &hclext.BodySchema{Attributes: attributeSchemas(slices.Concat([]string{"count", "for_each", "provider", "enforce"}, designreader.DesignAttributes)...)},
	}}}, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return out, notices // a block Terraform cannot read either: TFLint reports it
	}
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
	return out, notices
}

func checkDesign(ctx context.Context, engine *policy.Engine, settings policySettings, d designBlock, eval func(hcl.Expression) cty.Value) []issue {
	values := map[string]cty.Value{}
	for name, a := range d.block.Body.Attributes {
		if name != "count" && name != "for_each" && name != "provider" {
			values[name] = eval(a.Expr)
		}
	}
	in, invalid := ReadDesign(values, d.table)
	in.Address = d.address
	var out []issue
	if len(in.Unknown) > 0 {
		var suffix string
		if d.repeatedBy != "" {
			suffix = map[string]string{
				"count":    "; TFLint does not expand the count of a data block, so its count.index is known only to the plan",
				"for_each": "; TFLint does not expand the for_each of a data block, so its each.key and each.value are known only to the plan",
			}[d.repeatedBy]
		}
		inputs := make([]unknownInput, len(in.Unknown))
		for i, p := range in.Unknown {
			inputs[i] = unknownInput{name: p.String(), rng: designRange(d.sourceBlock(), p)}
		}
		out = append(out, unknownNotices(inputs, suffix, d.sourceBlock(), "")...)
	}
	doc, errs := keydesign.Analyze(in)
	if errs = append(invalid, errs...); len(errs) > 0 {
		for _, e := range errs {
			out = append(out, issue{rule: InvalidDesignRule, severity: tflint.ERROR,
				message: "dynamokeys: " + e.Error(), rng: designRange(d.sourceBlock(), e.Path), block: d.sourceBlock()})
		}
		return withInstance(out, d.addressed)
	}
	// The block's enforce, else the provider's, as the provider stamps the document.
	enforce := settings.enforce
	if v, ok := values["enforce"]; ok && v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool {
		enforce = v.True()
	}
	doc.Policy = &model.PolicySettings{Enforce: enforce, DisabledRules: slices.Sorted(maps.Keys(settings.disabled))}
	findings, err := engine.Evaluate(ctx, doc)
	if err != nil {
		// The user's rule at fault (a malformed finding), or an evaluation that failed (a rule past the
		// timeout): one issue on this block, as the provider's diagnostic, and the other blocks keep theirs.
		rule := InvalidDesignRule
		if errors.Is(err, policy.ErrMalformedFinding) {
			rule = CustomRule
		}
		return withInstance(append(out, issue{rule: rule, severity: tflint.ERROR, message: "dynamokeys: " + err.Error(), rng: d.block.DefRange, block: d.sourceBlock()}), d.addressed)
	}
	for _, f := range findings {
		if settings.disabled[f.Rule] {
			continue
		}
		out = append(out, issue{rule: tflintRule(f.Rule), severity: severityOf(f.Severity, enforce), message: findingMessage(f), rng: designRange(d.sourceBlock(), f.Path), block: d.sourceBlock()})
	}
	return withInstance(out, d.addressed)
}

// withInstance names the instance of a count or for_each block the issues are about.
func withInstance(issues []issue, b addressed) []issue {
	if b.instance {
		for i := range issues {
			issues[i].instance = b.address
		}
	}
	return issues
}

// unknownInput is an input not known before the plan, and where the block sets it.
type unknownInput struct {
	name string
	rng  hcl.Range
}

// unknownNotices are the notices of a block's inputs not known before the plan: one per place in the block
// that sets them (an attribute from a variable without a value is one notice, however many inputs it holds).
func unknownNotices(inputs []unknownInput, suffix string, block *hclext.Block, instance string) []issue {
	byPlace := map[hcl.Range][]string{}
	var places []hcl.Range
	for _, in := range inputs {
		if _, seen := byPlace[in.rng]; !seen {
			places = append(places, in.rng)
		}
		byPlace[in.rng] = append(byPlace[in.rng], in.name)
	}
	out := make([]issue, 0, len(places))
	for _, rng := range places {
		out = append(out, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, message: unknownNotice(byPlace[rng]) + suffix, rng: rng, block: block, instance: instance})
	}
	return out
}

// unreadable is the one issue of a checked block whose expressions TFLint could not evaluate, on the first
// of them, naming each; nil when every expression was read.
func unreadable(b addressed, failed *failures) []issue {
	var found []failure
	for _, rng := range append(attributeRanges(b.block.Body), attributeRanges(b.sourceBlock().Body)...) {
		for _, f := range failed.within(rng) {
			if !slices.Contains(found, f) {
				found = append(found, f)
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(x, y failure) int { return x.rng.Start.Byte - y.rng.Start.Byte })
	reasons := make([]string, 0, len(found))
	for _, f := range found {
		if r := fmt.Sprintf("line %d: %s", f.rng.Start.Line, f.reason); !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	return []issue{{
		rule: UnreadableRule, severity: tflint.WARNING, rng: found[0].rng, block: b.sourceBlock(), instance: instanceName(b),
		// The block's address without an instance key: instances that share the expression share the issue.
		message: fmt.Sprintf("dynamokeys: TFLint could not evaluate %s of %s, so the rules that read %s were not checked here (%s)",
			map[bool]string{true: "1 expression", false: fmt.Sprintf("%d expressions", len(found))}[len(found) == 1], blockAddress(b.address),
			map[bool]string{true: "it", false: "them"}[len(found) == 1], strings.Join(reasons, "; ")),
	}}
}

// attributeRanges are the ranges of a body's attributes and of its nested blocks' attributes.
func attributeRanges(body *hclext.BodyContent) []hcl.Range {
	var out []hcl.Range
	for _, a := range body.Attributes {
		out = append(out, a.Range)
	}
	for _, nested := range body.Blocks {
		out = append(out, attributeRanges(nested.Body)...)
	}
	return out
}

// tableRefs are the tables a standalone index's or a replica's table argument refers to.
func tableRefs(b *hclext.Block) []any {
	if tn, ok := b.Body.Attributes[tableRefAttribute(b)]; ok {
		return tableReferences(tn.Expr)
	}
	return nil
}

// tableRefAttribute is the argument that names a GSI's, a vector index's or a replica's table.
func tableRefAttribute(b *hclext.Block) string {
	if b.Labels[0] == "aws_dynamodb_table_replica" {
		return "global_table_arn"
	}
	return "table_name"
}

// checkAWS maps the module's aws_dynamodb_table, aws_dynamodb_global_secondary_index and
// aws_dynamodb_vector_index blocks through the bundle's plan adapter (plan.go) and evaluates each document.
func checkAWS(ctx context.Context, runner tflint.Runner, engine *policy.Engine, eval func(hcl.Expression) cty.Value) ([]issue, []addressed) {
	tables, tableNotices := resourceInstances(runner, "aws_dynamodb_table", awsTableSchema, eval)
	gsis, gsiNotices := resourceInstances(runner, "aws_dynamodb_global_secondary_index", awsGSISchema, eval)
	vectors, vectorNotices := resourceInstances(runner, "aws_dynamodb_vector_index", awsVectorIndexSchema, eval)
	replicas, replicaNotices := resourceInstances(runner, "aws_dynamodb_table_replica", awsReplicaSchema, eval)
	out := slices.Concat(tableNotices, gsiNotices, vectorNotices, replicaNotices)
	checked := slices.Concat(tables, gsis, vectors)
	if len(checked) == 0 {
		return out, nil
	}
	// blocks are the expanded blocks, whose nested blocks include what dynamic blocks made (the lines of a
	// finding on an index); sources the blocks as written, whose expressions show the variables they read.
	blocks, sources := map[string]*hclext.Block{}, map[string]*hclext.Block{}
	// standalone maps a standalone index resource's address to its document path's first part.
	standalone := map[string]string{}
	instances := map[string]bool{}
	configured := map[string]bool{}
	var changes, configResources []any
	add := func(resourceType string, list []addressed) {
		for _, b := range list {
			blocks[b.address] = b.block
			sources[b.address] = b.sourceBlock()
			instances[b.address] = b.instance
			var unknown []unknownInput
			after, afterUnknown := planValues(b.block.Body, eval, "", &unknown)
			if resourceType == "aws_dynamodb_table" {
				markCallerSet(b.block.Body, after, afterUnknown, &unknown)
			}
			// Blocks a dynamic block makes, which TFLint could not expand here, are known only to the plan.
			for _, t := range b.dynamic {
				afterUnknown[t] = true
				unknown = append(unknown, unknownInput{name: t, rng: b.sourceBlock().DefRange})
			}
			change := map[string]any{
				"address": b.address, "mode": "managed", "type": resourceType, "name": b.block.Labels[1],
				"change": map[string]any{"actions": []any{"create"}, "after": after, "after_unknown": afterUnknown},
			}
			changes = append(changes, change)
			if resourceType != "aws_dynamodb_table" {
				standalone[b.address] = standaloneKinds[resourceType]
				// The configuration holds one entry per block, not per instance.
				if refs := tableRefs(b.block); len(refs) > 0 && !configured[resourceType+"."+b.block.Labels[1]] {
					configured[resourceType+"."+b.block.Labels[1]] = true
					configResources = append(configResources, map[string]any{
						"address": resourceType + "." + b.block.Labels[1], "type": resourceType, "name": b.block.Labels[1],
						"expressions": map[string]any{tableRefAttribute(b.block): map[string]any{"references": refs}},
					})
				}
			}
			// A table_name that refers to a table of this module joins the index to it, as in a plan.
			if refs := tableRefs(b.block); len(refs) > 0 {
				unknown = slices.DeleteFunc(unknown, func(u unknownInput) bool { return u.name == tableRefAttribute(b.block) })
			}
			out = append(out, unknownNotices(unknown, "", b.sourceBlock(), instanceName(b))...)
		}
	}
	add("aws_dynamodb_table", tables)
	add("aws_dynamodb_global_secondary_index", gsis)
	add("aws_dynamodb_vector_index", vectors)
	// Replicas join their table's document; they have none of their own, and no notices of their own.
	replicaStart := len(out)
	add("aws_dynamodb_table_replica", replicas)
	out = out[:replicaStart]
	plan := map[string]any{
		"format_version":   "1.2",
		"resource_changes": changes,
		"configuration":    map[string]any{"root_module": map[string]any{"resources": configResources}},
	}
	documents, owners, err := policy.PlanDocuments(ctx, plan)
	if err != nil {
		// The bundle's adapter failed on what it was given (a defect): one issue on the first block.
		return append(out, issue{rule: InvalidDesignRule, severity: tflint.ERROR, message: "dynamokeys: mapping the AWS tables: " + err.Error(),
			rng: checked[0].block.DefRange, block: checked[0].sourceBlock()}), checked
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
		if err != nil {
			rule := InvalidDesignRule
			if errors.Is(err, policy.ErrMalformedFinding) {
				rule = CustomRule
			}
			out = append(out, issue{rule: rule, severity: tflint.ERROR, message: "dynamokeys: " + err.Error(), rng: blocks[address].DefRange, block: sources[address]})
			continue
		}
		for _, f := range findings {
			about := address
			block := blocks[address]
			rng := awsTableRange(block, f.Path, indexName)
			if standalone[address] != "" {
				rng = standaloneRange(block, f.Path)
			} else if owner := owners.Owner(address, f.Path); owner != "" {
				// A finding on a standalone GSI or vector index joined to this table is the index resource's.
				about = owner
				block = blocks[about]
				rng = standaloneRange(block, f.Path)
			}
			out = append(out, issue{rule: tflintRule(f.Rule), severity: severityOf(f.Severity, true), message: findingMessage(f), rng: rng,
				block: sources[about], instance: instanceName(addressed{address: about, instance: instances[about]}), part: findingPart(f.Path)})
		}
	}
	return out, checked
}

// blockAddress is an instance's address without its count index or for_each key.
func blockAddress(address string) string {
	if i := strings.IndexByte(address, '['); i >= 0 {
		return address[:i]
	}
	return address
}
