package tflintruleset

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// TFLint expands a resource block with count or for_each into one block per instance, each evaluated with
// its count.index or each.key and each.value, all sharing the block's lines; a data block it does not expand
// (its each.value and count.index are unknown, which the notice reports). A count or for_each that is not
// known before the plan expands into no block at all. This file names the expanded blocks as Terraform
// addresses them and reports, rather than skips in silence, a block TFLint could not expand.

// metaArgumentPart marks the notice of a count or for_each not known before the plan.
const metaArgumentPart = "count or for_each"

// metaArguments are the attributes that make a block several instances.
var metaArguments = &hclext.BodySchema{Attributes: attributeSchemas("count", "for_each")}

// addressed is one block to check, with its Terraform address; instance is set when count or for_each made
// it one of several instances of its block, to name it in the issues they share the lines of. source is the
// block as written, where issues find their lines: TFLint gives an instance's attributes as values bound to
// the whole expression, with no object items left to point into.
type addressed struct {
	address  string
	block    *hclext.Block
	instance bool
	source   *hclext.Block
	// dynamic are the types of the nested blocks that dynamic blocks make, when TFLint could not expand
	// them: not known here.
	dynamic []string
}

// sourceBlock is the block as written that a's issues point into.
func (a addressed) sourceBlock() *hclext.Block {
	if a.source != nil {
		return a.source
	}
	return a.block
}

// resourceInstances returns the instances of every resourceType block of the module, with their addresses,
// and a notice for each block whose count or for_each is not known before the plan.
//
// TFLint expands the blocks of every resource type with the one schema it is given, and refuses the whole
// request when any expression it must evaluate for that fails: a reference to an undeclared variable in
// another resource's count or name, say, which is being typed in an editor. Then each block of resourceType
// is checked as written, without its instances (values that depend on count.index or each are not known), and
// the other blocks are left to TFLint's own rules.
func resourceInstances(runner tflint.Runner, resourceType string, schema *hclext.BodySchema, eval func(hcl.Expression) cty.Value) ([]addressed, []issue) {
	asWritten := &hclext.BodySchema{
		Attributes: append(slices.Clone(schema.Attributes), metaArguments.Attributes...),
		Blocks:     append(slices.Clone(schema.Blocks), hclext.BlockSchema{Type: "dynamic", LabelNames: []string{"type"}, Body: &hclext.BodySchema{Attributes: attributeSchemas("for_each")}}),
	}
	raw, err := runner.GetResourceContent(resourceType, asWritten, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil || len(raw.Blocks) == 0 {
		// Unexpanded content evaluates nothing: what fails here is a block Terraform cannot read either,
		// which TFLint and Terraform report.
		return nil, nil
	}
	expanded, err := runner.GetResourceContent(resourceType, schema, nil)
	if err != nil {
		return writtenInstances(resourceType+".", raw.Blocks, eval)
	}
	return instanceAddresses(resourceType+".", raw.Blocks, expanded.Blocks, eval)
}

// writtenInstances are the blocks as written, one address each, when TFLint could not expand them: a block
// whose count or for_each makes no instance is left out, one whose count or for_each is not known gets the
// notice, and the nested blocks of a dynamic block are marked as not known.
func writtenInstances(prefix string, raw []*hclext.Block, eval func(hcl.Expression) cty.Value) ([]addressed, []issue) {
	var out []addressed
	var notices []issue
	for _, b := range raw {
		keys, _, unknown := instanceKeys(b, eval)
		if unknown != nil {
			notices = append(notices, countNotice(prefix, b, unknown))
			continue
		}
		if keys != nil && len(keys) == 0 {
			continue
		}
		body := &hclext.BodyContent{Attributes: hclext.Attributes{}}
		for name, a := range b.Body.Attributes {
			if name != "count" && name != "for_each" {
				body.Attributes[name] = a
			}
		}
		var dynamic []string
		for _, nested := range b.Body.Blocks {
			if nested.Type == "dynamic" {
				dynamic = append(dynamic, nested.Labels[0])
				continue
			}
			body.Blocks = append(body.Blocks, nested)
		}
		written := *b
		written.Body = body
		out = append(out, addressed{address: prefix + b.Labels[len(b.Labels)-1], block: &written, source: b, dynamic: dynamic})
	}
	return out, notices
}

func countNotice(prefix string, b *hclext.Block, unknown *hclext.Attribute) issue {
	return issue{rule: UnknownInputsRule, severity: tflint.NOTICE, rng: unknown.Expr.Range(), block: b, part: metaArgumentPart,
		address: prefix + b.Labels[len(b.Labels)-1], message: fmt.Sprintf(
			"dynamokeys: the %s of %s%s is not known before the plan, so none of its instances were checked here; the plan checks them",
			unknown.Name, prefix, b.Labels[len(b.Labels)-1])}
}

// instanceAddresses names each expanded block type.name, type.name[index] or type.name["key"]: TFLint
// expands count in index order and for_each in the order of cty's element iterator (sorted keys), which is
// the order of the keys computed here from the same values. raw are the unexpanded blocks with their
// meta-arguments. Where a key cannot be named, the instances are numbered in order; no two blocks ever share
// an address.
func instanceAddresses(prefix string, raw, expanded []*hclext.Block, eval func(hcl.Expression) cty.Value) ([]addressed, []issue) {
	type origin struct {
		block    *hclext.Block
		name     string
		keys     []string
		repeated bool
		next     int
	}
	// A block is known by its file and position: every instance keeps the block's definition range.
	type place struct {
		file string
		pos  hcl.Pos
	}
	origins := map[place]*origin{}
	var notices []issue
	for _, b := range raw {
		o := &origin{block: b, name: b.Labels[len(b.Labels)-1]}
		origins[place{b.DefRange.Filename, b.DefRange.Start}] = o
		var unknown *hclext.Attribute
		o.keys, o.repeated, unknown = instanceKeys(b, eval)
		if unknown != nil {
			notices = append(notices, countNotice(prefix, b, unknown))
		}
	}
	out := make([]addressed, 0, len(expanded))
	used := map[string]bool{}
	for _, b := range expanded {
		name := b.Labels[len(b.Labels)-1]
		a := addressed{address: prefix + name, block: b}
		o, ok := origins[place{b.DefRange.Filename, b.DefRange.Start}]
		if ok && o.name == name {
			// The block as written: its dynamic blocks show the variables that make their nested blocks.
			a.source = o.block
		}
		if ok && o.name == name && o.repeated {
			key := "[" + strconv.Itoa(o.next) + "]"
			if o.next < len(o.keys) {
				key = o.keys[o.next]
			}
			o.next++
			a.address += key
			a.instance = true
		}
		// Two blocks of one address would make the adapter's documents collide: number the later ones.
		for n := 1; used[a.address]; n++ {
			a.address = prefix + name + "[" + strconv.Itoa(n) + "]"
			a.instance = true
		}
		used[a.address] = true
		out = append(out, a)
	}
	return out, notices
}

// instanceKeys are the instance keys of a block's count or for_each as they end its instances' addresses.
// repeated says the block has either. keys is nil when they cannot be named (the instances are then
// numbered in order), as for a for_each over a list, which Terraform refuses and TFLint expands. unknown is
// the meta-argument when its value is not known before the plan: TFLint then expands the block into none.
// The values are read as TFLint reads them: count converted to a number, for_each known as a whole.
func instanceKeys(b *hclext.Block, eval func(hcl.Expression) cty.Value) (keys []string, repeated bool, unknown *hclext.Attribute) {
	if a, ok := b.Body.Attributes["count"]; ok {
		v := eval(a.Expr)
		if !v.IsKnown() {
			return nil, true, a
		}
		if v.IsNull() {
			return nil, true, nil
		}
		v, err := convert.Convert(v, cty.Number)
		if err != nil || !v.IsKnown() {
			return nil, true, nil
		}
		n, accuracy := v.AsBigFloat().Int64()
		if accuracy != big.Exact || n < 0 {
			return nil, true, nil
		}
		keys = make([]string, n)
		for i := range keys {
			keys[i] = "[" + strconv.Itoa(i) + "]"
		}
		return keys, true, nil
	}
	if a, ok := b.Body.Attributes["for_each"]; ok {
		v := eval(a.Expr)
		if !v.IsKnown() {
			return nil, true, a
		}
		ty := v.Type()
		if v.IsNull() || !ty.IsMapType() && !ty.IsObjectType() && !ty.IsSetType() {
			return nil, true, nil
		}
		keys = []string{}
		for it := v.ElementIterator(); it.Next(); {
			k, el := it.Element()
			if ty.IsSetType() {
				k = el
			}
			if !k.IsKnown() || k.IsNull() || k.Type() != cty.String {
				return nil, true, nil
			}
			keys = append(keys, "["+strconv.Quote(k.AsString())+"]")
		}
		return keys, true, nil
	}
	return nil, false, nil
}

// instanceName is the address to name in an issue about b: only an instance of a count or for_each block
// needs naming, the others are named by the lines the issue is on.
func instanceName(b addressed) string {
	if b.instance {
		return b.address
	}
	return ""
}

// mergeInstances reports once what several instances of one block report alike (TFLint would show each
// copy on the same lines), and names the instances an issue is about.
func mergeInstances(issues []issue) []issue {
	type key struct {
		rule     string
		severity tflint.Severity
		message  string
		rng      hcl.Range
	}
	var out []issue
	index := map[key]int{}
	instances := map[int][]string{}
	for _, is := range issues {
		k := key{is.rule, is.severity, is.message, is.rng}
		i, seen := index[k]
		if !seen {
			i = len(out)
			index[k] = i
			out = append(out, is)
		}
		if is.instance != "" {
			instances[i] = append(instances[i], is.instance)
		}
	}
	for i, names := range instances {
		slices.SortFunc(names, compareAddresses)
		names = slices.Compact(names)
		noun := "instance"
		if len(names) > 1 {
			noun = "instances"
		}
		out[i].message += fmt.Sprintf(" (%s %s)", noun, strings.Join(names, ", "))
	}
	return out
}

// compareAddresses orders instance addresses as Terraform lists them: count indexes by number ([2] before
// [10]), the rest by their text.
func compareAddresses(a, b string) int {
	ai, aok := countIndex(a)
	bi, bok := countIndex(b)
	if aok && bok && a[:strings.LastIndex(a, "[")] == b[:strings.LastIndex(b, "[")] {
		return ai - bi
	}
	return strings.Compare(a, b)
}

// countIndex is the index of an address that ends in a count index, [n].
func countIndex(address string) (int, bool) {
	open := strings.LastIndex(address, "[")
	if open < 0 || !strings.HasSuffix(address, "]") {
		return 0, false
	}
	n, err := strconv.Atoi(address[open+1 : len(address)-1])
	return n, err == nil
}
