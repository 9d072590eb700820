package tflintruleset

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// evaluator evaluates expressions of the module moduleCtx names, as TFLint knows their values.
func evaluator(runner tflint.Runner, moduleCtx tflint.ModuleCtxType) func(hcl.Expression) cty.Value {
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
			// What TFLint cannot evaluate is treated as a plan treats it: known only later.
			return cty.DynamicVal
		}
		// A sensitive variable's value is marked; the design reads it like any other (findings quote numbers
		// and names of keys, as the provider's do).
		v, _ = v.UnmarkDeep()
		return v
	}
}

// policySettings are a provider configuration's policy settings, which the provider applies to its designs.
type policySettings struct {
	enforce  bool
	disabled map[string]bool
	// dirs are policy.policy_dirs as written, the user's rules, and dirIndex their places in the list;
	// resolved are the same read from the root module's directory. policy is the attribute that sets them, for the issues about them; nil when it
	// is another module's.
	dirs     []string
	dirIndex []int
	resolved []string
	policy   *hclext.Attribute
	// dirsUnknown holds when policy_dirs, or an entry of it, is not known before the plan.
	dirsUnknown bool
}

// providerSettings reads policy.enforce, policy.disabled_rules and policy.policy_dirs of each provider
// "dynamokeys" block of the module, by alias ("" for the default configuration, which is always there).
// A called module without a provider block of its own uses the root module's, as Terraform passes the
// default configuration down; its issues about the settings are the root module's to report.
func providerSettings(runner tflint.Runner, eval func(hcl.Expression) cty.Value) (map[string]policySettings, error) {
	schema := &hclext.BodySchema{Attributes: attributeSchemas("policy", "alias")}
	content, err := runner.GetProviderContent("dynamokeys", schema, nil)
	if err != nil {
		return nil, err
	}
	module, err := runner.GetModulePath()
	if err != nil {
		return nil, err
	}
	root := module.IsRoot()
	if len(content.Blocks) == 0 && !root {
		content, err = runner.GetProviderContent("dynamokeys", schema, &tflint.GetModuleContentOption{ModuleCtx: tflint.RootModuleCtxType})
		if err != nil {
			return nil, err
		}
		eval, root = evaluator(runner, tflint.RootModuleCtxType), true
	}
	originalwd, err := runner.GetOriginalwd()
	if err != nil {
		return nil, err
	}
	out := map[string]policySettings{"": {enforce: true, disabled: map[string]bool{}}}
	for _, b := range content.Blocks {
		alias := ""
		if a, ok := b.Body.Attributes["alias"]; ok {
			if v := eval(a.Expr); v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
				alias = v.AsString()
			} else {
				continue
			}
		}
		settings := policySettings{enforce: true, disabled: map[string]bool{}}
		if a, ok := b.Body.Attributes["policy"]; ok {
			settings.read(eval(a.Expr))
			if module.IsRoot() {
				settings.policy = a
			}
			// Terraform reads relative directories from the directory it runs in, the root module's. TFLint
			// names files from its original working directory; a called module's own provider block leaves
			// the plugin's working directory, the directory TFLint lints, to read them from.
			base := ""
			if root {
				base = filepath.Join(originalwd, filepath.Dir(b.DefRange.Filename))
			}
			for _, dir := range settings.dirs {
				if base != "" && !filepath.IsAbs(dir) {
					dir = filepath.Join(base, dir)
				}
				settings.resolved = append(settings.resolved, dir)
			}
		}
		out[alias] = settings
	}
	return out, nil
}

// read takes the settings of the policy attribute's value.
func (s *policySettings) read(v cty.Value) {
	r := &reader{}
	if enforce := r.boolPtr(attr(v, "enforce"), nil); enforce != nil {
		s.enforce = *enforce
	}
	for _, id := range r.strings(attr(v, "disabled_rules"), nil) {
		s.disabled[id] = true
	}
	dirs := attr(v, "policy_dirs")
	if !dirs.IsKnown() {
		s.dirsUnknown = true
		return
	}
	for i, el := range elements(dirs) {
		if !el.IsKnown() {
			s.dirsUnknown = true
			continue
		}
		if !el.IsNull() && el.Type() == cty.String {
			s.dirs = append(s.dirs, el.AsString())
			s.dirIndex = append(s.dirIndex, i)
		}
	}
}

// providerAlias is the alias of the provider configuration a block selects with provider = dynamokeys.<alias>.
func providerAlias(b *hclext.Block) string {
	a, ok := b.Body.Attributes["provider"]
	if !ok {
		return ""
	}
	traversal, diags := hcl.AbsTraversalForExpr(a.Expr)
	if diags.HasErrors() || len(traversal) != 2 {
		return ""
	}
	if step, ok := traversal[1].(hcl.TraverseAttr); ok {
		return step.Name
	}
	return ""
}
