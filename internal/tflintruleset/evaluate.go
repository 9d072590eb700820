package tflintruleset

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
)

// failures are the expressions of a module that TFLint could not evaluate: a reference to an undeclared
// variable or local, a function that fails, an unsupported construct. Such an expression is read as a plan
// reads a value known only later, so the analysis goes on; the block it is in gets one issue that says what
// could not be read (unreadableIssues), and every other block keeps its results.
type failures struct {
	mu   sync.Mutex
	list []failure
}

type failure struct {
	rng    hcl.Range
	reason string
}

func (f *failures) add(rng hcl.Range, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if slices.ContainsFunc(f.list, func(x failure) bool { return x.rng == rng }) {
		return
	}
	f.list = append(f.list, failure{rng: rng, reason: failureReason(err)})
}

// within are the failures inside rng, in source order.
func (f *failures) within(rng hcl.Range) []failure {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []failure
	for _, x := range f.list {
		if x.rng.Filename == rng.Filename && x.rng.Start.Byte >= rng.Start.Byte && x.rng.End.Byte <= rng.End.Byte {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b failure) int { return a.rng.Start.Byte - b.rng.Start.Byte })
	return out
}

// failureReason is what TFLint said of an expression, without the gRPC status and the file and line that
// the range already gives.
func failureReason(err error) string {
	var diags hcl.Diagnostics
	if errors.As(err, &diags) && len(diags) > 0 {
		if d := diags[0]; d.Detail != "" {
			return strings.TrimSuffix(d.Summary, ".") + ": " + strings.TrimSuffix(d.Detail, ".")
		}
		return diags[0].Summary
	}
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, "desc = "); ok {
		msg = after
	}
	return strings.TrimSuffix(strings.TrimSpace(rangePrefix.ReplaceAllString(msg, "")), ".")
}

// rangePrefix is the "file.tf:3,10-20: " that TFLint's diagnostics start with.
var rangePrefix = lazyregexp.New(`^[^\s:]+:\d+,\d+(-\d+)?(,\d+)?: `)

// failedEvaluation tells an expression TFLint could not evaluate from a value that is not known yet.
func failedEvaluation(err error) bool {
	return !errors.Is(err, tflint.ErrUnknownValue) && !errors.Is(err, tflint.ErrNullValue) &&
		!errors.Is(err, tflint.ErrSensitive) && !errors.Is(err, tflint.ErrEphemeral)
}

// culprit is the first reference of a failed expression that fails on its own (var.nope in a whole object),
// so that the issue points at it; nil when none does (a function that fails on its arguments).
func culprit(runner tflint.Runner, moduleCtx tflint.ModuleCtxType, expr hcl.Expression) (hcl.Range, error) {
	for _, traversal := range expr.Variables() {
		ref := &hclsyntax.ScopeTraversalExpr{Traversal: traversal, SrcRange: traversal.SourceRange()}
		var v cty.Value
		if err := runner.EvaluateExpr(ref, &v, &tflint.EvaluateExprOption{ModuleCtx: moduleCtx}); err != nil && failedEvaluation(err) {
			return ref.SrcRange, err
		}
	}
	return hcl.Range{}, nil
}

// overlaps reports whether a failure lies inside rng or rng inside a failure.
func (f *failures) overlaps(rng hcl.Range) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.ContainsFunc(f.list, func(x failure) bool {
		inside := func(a, b hcl.Range) bool {
			return a.Filename == b.Filename && a.Start.Byte >= b.Start.Byte && a.End.Byte <= b.End.Byte
		}
		return inside(x.rng, rng) || inside(rng, x.rng)
	})
}

// evaluator evaluates expressions of the module moduleCtx names, as TFLint knows their values, recording in
// failed what TFLint cannot evaluate.
func evaluator(runner tflint.Runner, moduleCtx tflint.ModuleCtxType, failed *failures) func(hcl.Expression) cty.Value {
	return func(expr hcl.Expression) cty.Value {
		// A literal (no reference, no function call) is evaluated here: each EvaluateExpr is a round trip to
		// TFLint that sends the whole file along, which made 200 tables take a minute.
		if len(expr.Variables()) == 0 {
			if v, diags := expr.Value(nil); !diags.HasErrors() && v.IsWhollyKnown() {
				return v
			}
		}
		var v cty.Value
		if err := runner.EvaluateExpr(expr, &v, &tflint.EvaluateExprOption{ModuleCtx: moduleCtx}); err != nil {
			// An unknown, null or sensitive value is what a plan would know later; anything else is an
			// expression TFLint could not evaluate. Either way the rules that read it stay silent.
			if failed != nil && failedEvaluation(err) {
				rng, cause := culprit(runner, moduleCtx, expr)
				if cause == nil {
					rng, cause = expr.Range(), err
				}
				failed.add(rng, cause)
			}
			return cty.DynamicVal
		}
		// A sensitive variable's value is marked; the design reads it like any other (findings quote numbers
		// and names of keys, as the provider's do).
		v, _ = v.UnmarkDeep()
		return v
	}
}
