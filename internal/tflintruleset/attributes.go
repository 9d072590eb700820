package tflintruleset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// Terraform converts the value of a nested attribute to its schema's object type and drops every attribute
// the type lacks before the provider sees the value (terraform-plugin-framework issues 805 and 1210), so
// `traffic = { writes_per_secnd = 5000 }` plans as a design without traffic, and no validator can tell.
// This file walks what each dynamokeys block writes against the provider's schema (schema_tree.json) and
// reports every attribute the schema does not have, at its own range, with the name meant. It reads the
// configuration as written, without evaluating anything: object literals, merge(...), for expressions, the
// branches of a conditional, and the locals of the module they name. What it cannot see (a variable, a
// function's result, a JSON file) it leaves alone.

// mergingFunctions return a value of the type of each argument: their arguments are walked as the result.
var mergingFunctions = map[string]bool{"merge": true, "concat": true, "tomap": true, "tolist": true, "toset": true, "try": true, "coalesce": true}

// unknownAttributes are the issues of the attributes the module's dynamokeys blocks set that the provider's
// schema does not have.
func unknownAttributes(runner tflint.Runner) ([]issue, error) {
	tree, err := schemaTree()
	if err != nil {
		return nil, err
	}
	w := &attributeWalker{locals: moduleLocals(runner), seen: map[hcl.Range]bool{}, visiting: map[string]bool{}}
	for _, resourceType := range slices.Sorted(maps.Keys(tree.Resources)) {
		node := tree.Resources[resourceType]
		schema := &hclext.BodySchema{Attributes: attributeSchemas(append(slices.Sorted(maps.Keys(node.Attributes)), "for_each")...)}
		content, err := runner.GetResourceContent(resourceType, schema, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
		if err != nil {
			continue // a block Terraform cannot read either: TFLint reports it
		}
		for _, b := range content.Blocks {
			w.block(b, node)
		}
	}
	var names []string
	for _, node := range tree.DataSources {
		names = append(names, slices.Collect(maps.Keys(node.Attributes))...)
	}
	slices.Sort(names)
	data, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "data", LabelNames: []string{"type", "name"}, Body: &hclext.BodySchema{Attributes: attributeSchemas(append(slices.Compact(names), "for_each")...)},
	}}}, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err == nil {
		for _, b := range data.Blocks {
			if node, ok := tree.DataSources[b.Labels[0]]; ok {
				w.block(b, node)
			}
		}
	}
	providers, err := runner.GetProviderContent(Name, &hclext.BodySchema{Attributes: attributeSchemas(slices.Sorted(maps.Keys(tree.Provider.Attributes))...)},
		&tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err == nil {
		for _, b := range providers.Blocks {
			w.block(b, tree.Provider)
		}
	}
	return w.out, nil
}

// moduleLocals are the module's locals as written, by name; none when TFLint cannot read them (Terraform
// cannot either, and TFLint reports why), and the blocks are still walked.
func moduleLocals(runner tflint.Runner) map[string]hcl.Expression {
	out := map[string]hcl.Expression{}
	content, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "locals", Body: &hclext.BodySchema{Mode: hclext.SchemaJustAttributesMode},
	}}}, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return out
	}
	for _, b := range content.Blocks {
		for name, a := range b.Body.Attributes {
			out[name] = a.Expr
		}
	}
	return out
}

// attributeWalker walks expressions against schema nodes and gathers one issue per attribute: a local that
// several blocks read is reported once.
type attributeWalker struct {
	locals map[string]hcl.Expression
	// forEach is the for_each of the block being walked, which each.value reads.
	forEach  hcl.Expression
	visiting map[string]bool
	// seen are the ranges reported: a local that several blocks read is reported once.
	seen map[hcl.Range]bool
	out  []issue
}

func (w *attributeWalker) block(b *hclext.Block, node *SchemaNode) {
	w.forEach = nil
	if a, ok := b.Body.Attributes["for_each"]; ok {
		w.forEach = a.Expr
	}
	for _, name := range slices.Sorted(maps.Keys(b.Body.Attributes)) {
		if child, ok := node.Attributes[name]; ok {
			w.walk(b.Body.Attributes[name].Expr, child, name, b)
		}
	}
}

// walk checks expr, written where the schema has node; path names the place for the message.
func (w *attributeWalker) walk(expr hcl.Expression, node *SchemaNode, path string, b *hclext.Block) {
	if node == nil || (node.Attributes == nil && node.Each == nil) {
		return
	}
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			key, ok := staticKey(item.KeyExpr)
			if !ok {
				continue
			}
			if node.Each != nil {
				w.walk(item.ValueExpr, node.Each, path+"."+key, b)
				continue
			}
			if child, ok := node.Attributes[key]; ok {
				w.walk(item.ValueExpr, child, path+"."+key, b)
				continue
			}
			w.report(key, path, node, hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range()), b)
		}
	case *hclsyntax.TupleConsExpr:
		if node.Each != nil {
			for i, el := range e.Exprs {
				w.walk(el, node.Each, path+"["+strconv.Itoa(i)+"]", b)
			}
		}
	case *hclsyntax.ForExpr:
		// The keys a for expression makes are not known here; the value it makes for each is written out.
		if node.Each != nil {
			w.walk(e.ValExpr, node.Each, path+"[*]", b)
		}
	case *hclsyntax.FunctionCallExpr:
		if mergingFunctions[e.Name] {
			for _, arg := range e.Args {
				w.walk(arg, node, path, b)
			}
		}
	case *hclsyntax.ConditionalExpr:
		w.walk(e.TrueResult, node, path, b)
		w.walk(e.FalseResult, node, path, b)
	case *hclsyntax.ParenthesesExpr:
		w.walk(e.Expression, node, path, b)
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.IndexExpr:
		source := expressionSource(expr)
		if w.visiting[source] {
			return // a local that reads itself is Terraform's error
		}
		w.visiting[source] = true
		for _, written := range w.resolve(expr) {
			w.walk(written, node, path, b)
		}
		delete(w.visiting, source)
	}
}

// expressionSource names an expression by its place, to stop at a cycle of locals.
func expressionSource(expr hcl.Expression) string {
	r := expr.Range()
	return fmt.Sprintf("%s:%d-%d", r.Filename, r.Start.Byte, r.End.Byte)
}

// resolve is what a reference stands for as written: local.name and the items and elements under it, and
// each.value of the block's for_each. An index not known here (local.tables[each.key]) stands for every
// value of the collection. Nil when the reference leads to nothing written in this module.
func (w *attributeWalker) resolve(expr hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		root, rest := e.Traversal.RootName(), e.Traversal[1:]
		var start []hcl.Expression
		switch {
		case root == "local" && len(rest) > 0:
			name, ok := rest[0].(hcl.TraverseAttr)
			if local, found := w.locals[name.Name]; ok && found {
				start, rest = []hcl.Expression{local}, rest[1:]
			}
		case root == "each" && len(rest) > 0 && w.forEach != nil:
			if name, ok := rest[0].(hcl.TraverseAttr); ok && name.Name == "value" {
				start, rest = w.values(w.forEach), rest[1:]
			}
		}
		return w.traverse(start, rest)
	case *hclsyntax.RelativeTraversalExpr:
		return w.traverse(w.resolve(e.Source), e.Traversal)
	case *hclsyntax.IndexExpr:
		collections := w.resolve(e.Collection)
		if key, diags := e.Key.Value(nil); !diags.HasErrors() && key.IsKnown() && !key.IsNull() {
			return w.traverse(collections, hcl.Traversal{hcl.TraverseIndex{Key: key}})
		}
		var out []hcl.Expression
		for _, c := range collections {
			out = append(out, w.values(c)...)
		}
		return out
	}
	return []hcl.Expression{expr}
}

// traverse follows the steps of a traversal into the written expressions.
func (w *attributeWalker) traverse(exprs []hcl.Expression, steps hcl.Traversal) []hcl.Expression {
	for _, step := range steps {
		var key string
		switch s := step.(type) {
		case hcl.TraverseAttr:
			key = s.Name
		case hcl.TraverseIndex:
			k, ok := keyString(s.Key)
			if !ok {
				return nil
			}
			key = k
		default:
			return nil
		}
		var next []hcl.Expression
		for _, expr := range exprs {
			next = append(next, w.child(expr, key)...)
		}
		exprs = next
	}
	return exprs
}

// child is the item key of an object, or element key of a tuple, as written: through merge (each argument
// that writes it) and locals.
func (w *attributeWalker) child(expr hcl.Expression, key string) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			if k, ok := staticKey(item.KeyExpr); ok && k == key {
				return []hcl.Expression{item.ValueExpr}
			}
		}
	case *hclsyntax.TupleConsExpr:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(e.Exprs) {
			return []hcl.Expression{e.Exprs[i]}
		}
	case *hclsyntax.FunctionCallExpr:
		if e.Name == "merge" {
			var out []hcl.Expression
			for _, arg := range e.Args {
				out = append(out, w.child(arg, key)...)
			}
			return out
		}
	case *hclsyntax.ParenthesesExpr:
		return w.child(e.Expression, key)
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.IndexExpr:
		return w.throughReference(expr, func(resolved hcl.Expression) []hcl.Expression { return w.child(resolved, key) })
	}
	return nil
}

// throughReference applies walk to what a reference (a local, each.value) resolves to, once per reference
// on the path being walked, so that a local that refers to itself ends the walk.
func (w *attributeWalker) throughReference(expr hcl.Expression, walk func(hcl.Expression) []hcl.Expression) []hcl.Expression {
	source := expressionSource(expr)
	if w.visiting[source] {
		return nil
	}
	w.visiting[source] = true
	defer delete(w.visiting, source)
	var out []hcl.Expression
	for _, resolved := range w.resolve(expr) {
		if resolved != expr {
			out = append(out, walk(resolved)...)
		}
	}
	return out
}

// values are the values a collection written as expr holds: an object's items, a tuple's elements, a for
// expression's value, through merge, concat and locals.
func (w *attributeWalker) values(expr hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		out := make([]hcl.Expression, 0, len(e.Items))
		for _, item := range e.Items {
			out = append(out, item.ValueExpr)
		}
		return out
	case *hclsyntax.TupleConsExpr:
		out := make([]hcl.Expression, 0, len(e.Exprs))
		for _, el := range e.Exprs {
			out = append(out, el)
		}
		return out
	case *hclsyntax.ForExpr:
		return []hcl.Expression{e.ValExpr}
	case *hclsyntax.FunctionCallExpr:
		var out []hcl.Expression
		if mergingFunctions[e.Name] {
			for _, arg := range e.Args {
				out = append(out, w.values(arg)...)
			}
		}
		return out
	case *hclsyntax.ParenthesesExpr:
		return w.values(e.Expression)
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.IndexExpr:
		return w.throughReference(expr, w.values)
	}
	return nil
}

// keyString is an index key as an object's item name or a tuple's position.
func keyString(v cty.Value) (string, bool) {
	switch {
	case !v.IsKnown() || v.IsNull():
		return "", false
	case v.Type() == cty.String:
		return v.AsString(), true
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	}
	return "", false
}

// staticKey is an object item's key when it is written out: a bare name or a literal string.
func staticKey(expr hcl.Expression) (string, bool) {
	if k, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		if name := hcl.ExprAsKeyword(k.Wrapped); name != "" && !k.ForceNonLiteral {
			return name, true
		}
		expr = k.Wrapped
	}
	if len(expr.Variables()) > 0 {
		return "", false
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func (w *attributeWalker) report(key, path string, node *SchemaNode, rng hcl.Range, b *hclext.Block) {
	if w.seen[rng] {
		return
	}
	w.seen[rng] = true
	message := fmt.Sprintf("dynamokeys: `%s` is not an attribute of `%s`; %s (Terraform drops an attribute the schema does not have "+
		"from a nested object before the provider sees it, so it would be planned and checked without it)", key, path, suggestion(key, node))
	w.out = append(w.out, issue{rule: UnknownAttributeRule, severity: tflint.ERROR, message: message, rng: rng, block: b})
}

// suggestion names the attribute meant: the closest by edit distance when it is close, else every one.
func suggestion(key string, node *SchemaNode) string {
	names := slices.Sorted(maps.Keys(node.Attributes))
	best, bestDistance := "", len(key)+1
	for _, name := range names {
		if d := editDistance(strings.ToLower(key), name); d < bestDistance {
			best, bestDistance = name, d
		}
	}
	if best != "" && (bestDistance <= max(2, len(key)/4) || strings.Contains(best, key) || strings.Contains(key, best)) {
		return fmt.Sprintf("did you mean `%s`?", best)
	}
	return "its attributes are " + strings.Join(quoted(names), ", ")
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, in bytes (attribute names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
