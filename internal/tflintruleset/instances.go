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
)

// TFLint expands a resource block with count or for_each into one block per instance, each evaluated with
// its count.index or each.key and each.value, all sharing the block's lines; a data block it does not expand
// (its each.value and count.index are unknown, which the notice reports). A count or for_each that is not
// known before the plan expands into no block at all. This file names the expanded blocks as Terraform
// addresses them and reports, rather than skips in silence, a block TFLint could not expand.

// metaArguments are the attributes that make a block several instances.
var metaArguments = &hclext.BodySchema{Attributes: attributeSchemas("count", "for_each")}

// addressed is one block to check, with its Terraform address; instance is set when count or for_each made
// it one of several instances of its block, to name it in the issues they share the lines of.
type addressed struct {
	address  string
	block    *hclext.Block
	instance bool
}

// resourceInstances returns the instances of every resourceType block of the module, with their addresses,
// and a notice for each block whose count or for_each is not known before the plan.
func resourceInstances(runner tflint.Runner, resourceType string, schema *hclext.BodySchema, eval func(hcl.Expression) cty.Value) ([]addressed, []issue, error) {
	expanded, err := runner.GetResourceContent(resourceType, schema, nil)
	if err != nil {
		return nil, nil, err
	}
	raw, err := runner.GetResourceContent(resourceType, metaArguments, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return nil, nil, err
	}
	out, notices := instanceAddresses(resourceType+".", raw.Blocks, expanded.Blocks, eval)
	return out, notices, nil
}

// instanceAddresses names each expanded block type.name, type.name[index] or type.name["key"]: TFLint
// expands count in index order and for_each in the order of cty's element iterator (sorted keys), which is
// the order of the keys computed here from the same values. raw are the unexpanded blocks with their
// meta-arguments.
func instanceAddresses(prefix string, raw, expanded []*hclext.Block, eval func(hcl.Expression) cty.Value) ([]addressed, []issue) {
	type origin struct {
		name string
		keys []string // nil: a single instance
		next int
	}
	origins := map[hcl.Pos]*origin{}
	var notices []issue
	for _, b := range raw {
		o := &origin{name: b.Labels[len(b.Labels)-1]}
		origins[b.DefRange.Start] = o
		keys, unknown := instanceKeys(b, eval)
		if unknown != nil {
			notices = append(notices, issue{rule: UnknownInputsRule, severity: tflint.NOTICE, rng: unknown.Expr.Range(), block: b, message: fmt.Sprintf(
				"dynamokeys: the %s of %s%s is not known before the plan, so none of its instances were checked here; the plan checks them",
				unknown.Name, prefix, o.name)})
		}
		o.keys = keys
	}
	out := make([]addressed, 0, len(expanded))
	for _, b := range expanded {
		name := b.Labels[len(b.Labels)-1]
		o, ok := origins[b.DefRange.Start]
		if !ok || o.name != name || o.keys == nil {
			out = append(out, addressed{address: prefix + name, block: b})
			continue
		}
		key := "[" + strconv.Itoa(o.next) + "]" // only if the expansion did not match the keys computed here
		if o.next < len(o.keys) {
			key = o.keys[o.next]
		}
		o.next++
		out = append(out, addressed{address: prefix + name + key, block: b, instance: true})
	}
	return out, notices
}

// instanceKeys are the instance keys of a block's count or for_each, as they end its instances' addresses;
// nil without either. unknown is the meta-argument when its value is not known.
func instanceKeys(b *hclext.Block, eval func(hcl.Expression) cty.Value) (keys []string, unknown *hclext.Attribute) {
	if a, ok := b.Body.Attributes["count"]; ok {
		v := eval(a.Expr)
		if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
			return nil, a
		}
		n, accuracy := v.AsBigFloat().Int64()
		if accuracy != big.Exact || n < 0 {
			return nil, a
		}
		keys = make([]string, n)
		for i := range keys {
			keys[i] = "[" + strconv.Itoa(i) + "]"
		}
		return keys, nil
	}
	if a, ok := b.Body.Attributes["for_each"]; ok {
		v := eval(a.Expr)
		ty := v.Type()
		if !v.IsWhollyKnown() || v.IsNull() || !ty.IsMapType() && !ty.IsObjectType() && !ty.IsSetType() {
			return nil, a
		}
		keys = []string{}
		for it := v.ElementIterator(); it.Next(); {
			k, el := it.Element()
			if ty.IsSetType() {
				k = el
			}
			if k.Type() != cty.String {
				return nil, a
			}
			keys = append(keys, "["+strconv.Quote(k.AsString())+"]")
		}
		return keys, nil
	}
	return nil, nil
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
