package tflintruleset

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// policySettings are a provider configuration's policy settings, which the provider applies to its designs.
type policySettings struct {
	enforce  bool
	disabled map[string]bool
	// dirs are policy.policy_dirs as written, the user's rules, and dirIndex their places in the list;
	// resolved are the same read from the root module's directory. policy is the attribute that sets them,
	// for the issues about them; nil when it is another module's.
	dirs     []string
	dirIndex []int
	resolved []string
	policy   *hclext.Attribute
	// unknown names the settings not known before the plan, which take their defaults here.
	unknown []string
}

func defaultSettings() policySettings {
	return policySettings{enforce: true, disabled: map[string]bool{}}
}

var providerSchema = &hclext.BodySchema{Attributes: attributeSchemas("policy", "alias")}

// providerSettings reads policy.enforce, policy.disabled_rules and policy.policy_dirs of each provider
// "dynamokeys" configuration a block of the module can use, by the alias the module knows it by ("" for
// the default one, which is always there). A called module without a provider block of its own uses the
// root module's configurations as Terraform passes them down: the default one, or those its module block's
// providers argument names (followed from the root module's calls only: TFLint shows a plugin its own module
// and the root module, not the modules between).
func providerSettings(runner tflint.Runner, eval func(hcl.Expression) cty.Value) (map[string]policySettings, error) {
	module, err := runner.GetModulePath()
	if err != nil {
		return nil, err
	}
	rootDir, err := rootDirectory(runner, module.IsRoot())
	if err != nil {
		return nil, err
	}
	// Provider blocks are never expanded; read as written, nothing of another provider block is evaluated.
	own, err := runner.GetProviderContent("dynamokeys", providerSchema, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return nil, err
	}
	if len(own.Blocks) > 0 || module.IsRoot() {
		return configurations(own.Blocks, eval, rootDir, module.IsRoot()), nil
	}
	rootContent, err := runner.GetProviderContent("dynamokeys", providerSchema, &tflint.GetModuleContentOption{ModuleCtx: tflint.RootModuleCtxType, ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return nil, err
	}
	root := configurations(rootContent.Blocks, evaluator(runner, tflint.RootModuleCtxType, nil), rootDir, false)
	passed := map[string]string{"": ""}
	if len(module) == 1 {
		if passed, err = passedProviders(runner, module[0]); err != nil {
			return nil, err
		}
	}
	out := map[string]policySettings{"": defaultSettings()}
	for alias, rootAlias := range passed {
		if settings, ok := root[rootAlias]; ok {
			out[alias] = settings
		}
	}
	return out, nil
}

// configurations reads provider blocks by alias. Relative policy directories are read from rootDir, as
// Terraform reads them from the directory it runs in; issues about the settings go on the block's own
// policy attribute when report is set (the module's own blocks).
func configurations(blocks []*hclext.Block, eval func(hcl.Expression) cty.Value, rootDir string, report bool) map[string]policySettings {
	out := map[string]policySettings{"": defaultSettings()}
	for _, b := range blocks {
		alias := ""
		if a, ok := b.Body.Attributes["alias"]; ok {
			v := eval(a.Expr)
			if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
				continue // Terraform requires a literal alias
			}
			alias = v.AsString()
		}
		settings := defaultSettings()
		if a, ok := b.Body.Attributes["policy"]; ok {
			settings.read(eval(a.Expr))
			if report {
				settings.policy = a
			}
			for _, dir := range settings.dirs {
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(rootDir, dir)
				}
				settings.resolved = append(settings.resolved, dir)
			}
		}
		out[alias] = settings
	}
	return out
}

// rootDirectory is the root module's directory, where Terraform runs: TFLint names files from its original
// working directory, which is not the directory it lints under --chdir, nor in the language server.
func rootDirectory(runner tflint.Runner, root bool) (string, error) {
	originalwd, err := runner.GetOriginalwd()
	if err != nil {
		return "", err
	}
	var filename string
	if root {
		files, err := runner.GetFiles()
		if err != nil {
			return "", err
		}
		for name := range files {
			if strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json") {
				filename = name
				break
			}
		}
	} else {
		// A called module is called from the root module: its module blocks name a root module file.
		calls, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{Type: "module", LabelNames: []string{"name"}}}},
			&tflint.GetModuleContentOption{ModuleCtx: tflint.RootModuleCtxType, ExpandMode: tflint.ExpandModeNone})
		if err != nil {
			return "", err
		}
		if len(calls.Blocks) > 0 {
			filename = calls.Blocks[0].DefRange.Filename
		}
	}
	if filename == "" {
		return originalwd, nil
	}
	if filepath.IsAbs(filename) {
		return filepath.Dir(filename), nil
	}
	return filepath.Join(originalwd, filepath.Dir(filename)), nil
}

// passedProviders maps the aliases the called module knows dynamokeys configurations by to the root
// module's, from the providers argument of the root module's module block call; without one, the module
// gets the root's default configuration.
func passedProviders(runner tflint.Runner, call string) (map[string]string, error) {
	calls, err := runner.GetModuleContent(&hclext.BodySchema{Blocks: []hclext.BlockSchema{{
		Type: "module", LabelNames: []string{"name"}, Body: &hclext.BodySchema{Attributes: attributeSchemas("providers")},
	}}}, &tflint.GetModuleContentOption{ModuleCtx: tflint.RootModuleCtxType, ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return nil, err
	}
	out := map[string]string{"": ""}
	for _, b := range calls.Blocks {
		a, ok := b.Body.Attributes["providers"]
		if b.Labels[0] != call || !ok {
			continue
		}
		pairs, diags := hcl.ExprMap(a.Expr)
		if diags.HasErrors() {
			continue
		}
		// An explicit providers argument passes only what it names.
		delete(out, "")
		for _, pair := range pairs {
			local, okLocal := providerReference(pair.Key)
			passed, okPassed := providerReference(pair.Value)
			if okLocal && okPassed {
				out[local] = passed
			}
		}
	}
	return out, nil
}

// providerReference reads dynamokeys or dynamokeys.<alias> as the alias it names ("" for the default).
func providerReference(expr hcl.Expression) (string, bool) {
	traversal, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() || len(traversal) == 0 || traversal.RootName() != Name || len(traversal) > 2 {
		return "", false
	}
	if len(traversal) == 1 {
		return "", true
	}
	step, ok := traversal[1].(hcl.TraverseAttr)
	return step.Name, ok
}

// read takes the settings of the policy attribute's value; what is not known keeps its default and is named
// in unknown. A value of the wrong type keeps its default too: it is Terraform's to report.
func (s *policySettings) read(v cty.Value) {
	if !v.IsKnown() {
		s.unknown = []string{"policy"}
		return
	}
	if enforce := attribute(v, "enforce"); !enforce.IsKnown() {
		s.unknown = append(s.unknown, "policy.enforce")
	} else if b, ok := (ctyValue{enforce}).AsBool(); ok {
		s.enforce = b
	}
	disabled := attribute(v, "disabled_rules")
	if !disabled.IsWhollyKnown() {
		s.unknown = append(s.unknown, "policy.disabled_rules")
	} else {
		all, _ := elements(disabled)
		for _, el := range all {
			if id, ok := (ctyValue{el}).AsString(); ok {
				s.disabled[id] = true
			}
		}
	}
	dirs := attribute(v, "policy_dirs")
	if !dirs.IsKnown() {
		s.unknown = append(s.unknown, "policy.policy_dirs")
		return
	}
	all, _ := elements(dirs)
	for i, el := range all {
		if !el.IsKnown() {
			s.unknown = append(s.unknown, "policy.policy_dirs["+strconv.Itoa(i)+"]")
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
	if a, ok := b.Body.Attributes["provider"]; ok {
		if alias, ok := providerReference(a.Expr); ok {
			return alias
		}
	}
	return ""
}
