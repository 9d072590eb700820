package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/tflintruleset"
)

// tflintIssue is one issue TFLint reported: its rule, severity (lower case), message and first line.
type tflintIssue struct {
	rule, severity, message string
	line                    int
}

// tflintOnConfig runs the real TFLint with the plugin on a configuration; the tflintcheck build (make
// check-tflint) sets it. Without it the ruleset runs in-process on the SDK's test runner, which evaluates no
// function call: the blocks that make one are left to the real tool.
var tflintOnConfig func(t *testing.T, config string) []tflintIssue

// tflintParity is what TFLint reported on a configuration before any plan, by dynamokeys block: the rule ids
// of each block it checked (the lines of an issue are its block's), and the blocks it left to the real tool.
type tflintParity struct {
	reported map[string][]string
	skipped  map[string]bool
}

func tflintReported(t *testing.T, config string) tflintParity {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(config), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	type span struct {
		address    string
		start, end int
	}
	var blocks []span
	out := tflintParity{reported: map[string][]string{}, skipped: map[string]bool{}}
	body, _ := file.Body.(*hclsyntax.Body)
	for _, b := range body.Blocks {
		if len(b.Labels) != 2 || !strings.HasPrefix(b.Labels[0], "dynamokeys_") {
			continue
		}
		address := b.Labels[0] + "." + b.Labels[1]
		if b.Type == "data" {
			address = "data." + address
		}
		blocks = append(blocks, span{address, b.Range().Start.Line, b.Range().End.Line})
		out.reported[address] = []string{}
		if tflintOnConfig == nil && callsAFunction(b.Body) {
			out.skipped[address] = true
		}
	}
	var issues []tflintIssue
	if tflintOnConfig != nil {
		issues = tflintOnConfig(t, config)
	} else {
		issues = tflintInProcess(t, config)
	}
	for _, is := range issues {
		i := slices.IndexFunc(blocks, func(b span) bool { return is.line >= b.start && is.line <= b.end })
		switch {
		case i < 0:
			t.Errorf("TFLint reported %s outside every dynamokeys block, at line %d: %s", is.rule, is.line, is.message)
		case out.skipped[blocks[i].address]:
		case is.rule == tflintruleset.UnknownInputsRule || is.rule == tflintruleset.InvalidDesignRule || is.rule == tflintruleset.CustomRule ||
			is.rule == tflintruleset.UnreadableRule:
			t.Errorf("TFLint reported %s on %s, whose inputs are all literal: %s", is.rule, blocks[i].address, is.message)
		default:
			address, id := blocks[i].address, strings.Fields(is.message)[0]
			if is.rule != tflintruleset.RuleName(id) {
				t.Errorf("TFLint reported %s under the rule %s", id, is.rule)
			}
			// Every parity design has enforce = false: its error findings are warnings, as in the provider.
			if is.severity != "warning" {
				t.Errorf("TFLint reported %s on %s as %s, although its design has enforce = false", id, address, is.severity)
			}
			if !slices.Contains(out.reported[address], id) {
				out.reported[address] = append(out.reported[address], id)
				slices.Sort(out.reported[address])
			}
		}
	}
	return out
}

// tflintInProcess runs every rule of the ruleset on config with the SDK's test runner.
func tflintInProcess(t *testing.T, config string) []tflintIssue {
	t.Helper()
	rs, err := tflintruleset.NewRuleSet("parity")
	if err != nil {
		t.Fatal(err)
	}
	runner := helper.TestRunner(t, map[string]string{"main.tf": config})
	for _, r := range rs.Rules {
		if err := r.Check(runner); err != nil {
			t.Fatal(err)
		}
	}
	var out []tflintIssue
	for _, is := range runner.Issues {
		out = append(out, tflintIssue{rule: is.Rule.Name(), severity: strings.ToLower(is.Rule.Severity().String()), message: is.Message, line: is.Range.Start.Line})
	}
	return out
}

// callsAFunction reports whether an expression of body calls a function.
func callsAFunction(body *hclsyntax.Body) bool {
	found := false
	for _, a := range body.Attributes {
		_ = hclsyntax.VisitAll(a.Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
				found = true
			}
			return nil
		})
	}
	return found
}

// compareTFLint lists where TFLint's rule ids differ from the provider's findings, block by block: on
// every block either reports.
func compareTFLint(provider parityRules, tflint tflintParity) []string {
	var problems []string
	for address, ids := range tflint.reported {
		if _, planned := provider[address]; !planned && len(ids) > 0 && !tflint.skipped[address] {
			problems = append(problems, fmt.Sprintf("%s: TFLint reported %v on a block the plan does not hold", address, ids))
		}
	}
	for _, address := range slices.Sorted(maps.Keys(provider)) {
		if tflint.skipped[address] {
			continue
		}
		var ids []string
		for _, r := range provider[address] {
			if id := strings.SplitN(r, ":", 2)[0]; !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		got, ok := tflint.reported[address]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: TFLint did not see the block", address))
			continue
		}
		if !slices.Equal(got, ids) {
			problems = append(problems, fmt.Sprintf("%s: the provider reported %v, TFLint %v", address, ids, got))
		}
	}
	return problems
}
