// Package tflintruleset is the TFLint ruleset of dynamokeys (cmd/tflint-ruleset-dynamokeys): it reads the
// key designs of a configuration without a plan, builds the same design documents and evaluates the same
// embedded rules as the provider and the policy bundle, and reports each finding on the attribute it concerns.
// It knows TFLint's plugin SDK, internal/keydesign and internal/policy; never the provider's code.
package tflintruleset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// Name is the ruleset's name: the plugin binary is tflint-ruleset-<Name>, its block in .tflint.hcl
// plugin "<Name>".
const Name = "dynamokeys"

// The ruleset's own rules beside one per policy rule: UnknownInputsRule, a notice naming the inputs not known
// before the plan (off unless the plugin block sets UnknownInputsSetting, or the rule is enabled); a warning
// for a checked block with an expression TFLint could not evaluate (UnreadableRule); an error for a design
// the provider would refuse (InvalidDesignRule); an error for an attribute the provider's schema does not
// have, which Terraform drops from a nested object in silence (UnknownAttributeRule).
const (
	UnknownInputsRule    = "dynamokeys_unknown_inputs"
	UnreadableRule       = "dynamokeys_unreadable_input"
	InvalidDesignRule    = "dynamokeys_invalid_design"
	UnknownAttributeRule = "dynamokeys_unknown_attribute"
)

// UnknownInputsSetting is the attribute of the plugin "dynamokeys" block that turns on the notices of
// UnknownInputsRule: what the plan checks and TFLint could not.
const UnknownInputsSetting = "report_unknown_inputs"

// RuleName is the TFLint rule of a policy rule id: dynamokeys_dk301 for DK301. TFLint rule names share one
// namespace across plugins, hence the prefix, and are lower snake case by convention.
func RuleName(id string) string { return Name + "_" + strings.ToLower(id) }

// NewRuleSet is the ruleset of the embedded policy bundle: one rule per rule id of the catalogue, enabled by
// default with its severity (error when any case of it is an error), and the rules above.
func NewRuleSet(version string) (*RuleSet, error) {
	engine, err := policy.Builtin()
	if err != nil {
		return nil, err
	}
	a := &analyzer{engines: &engineCache{builtin: engine}}
	// The notices are off by default: TFLint fails a run on any issue (--minimum-failure-severity is
	// notice), and a clean configuration must lint clean.
	rules := []tflint.Rule{
		&rule{name: UnknownInputsRule, severity: tflint.NOTICE, analyzer: a, disabled: true},
		&rule{name: UnreadableRule, severity: tflint.WARNING, analyzer: a},
		&rule{name: InvalidDesignRule, severity: tflint.ERROR, analyzer: a},
		&rule{name: UnknownAttributeRule, severity: tflint.ERROR, analyzer: a},
		&rule{name: CustomRule, severity: tflint.ERROR, analyzer: a},
	}
	for _, r := range engine.Catalogue() {
		severity := tflint.WARNING
		if slices.Contains(r.Severities, policy.SeverityError) {
			severity = tflint.ERROR
		}
		rules = append(rules, &rule{name: RuleName(r.ID), severity: severity, link: r.DocsURL, analyzer: a})
	}
	return &RuleSet{BuiltinRuleSet: tflint.BuiltinRuleSet{Name: Name, Version: version, Rules: rules}}, nil
}

// RuleSet is the built-in ruleset with the plugin block's own setting, UnknownInputsSetting.
type RuleSet struct {
	tflint.BuiltinRuleSet
	config *tflint.Config
}

// ApplyGlobalConfig enables the rules as TFLint's configuration says, and keeps it for ApplyConfig.
func (r *RuleSet) ApplyGlobalConfig(config *tflint.Config) error {
	r.config = config
	return r.BuiltinRuleSet.ApplyGlobalConfig(config)
}

func (r *RuleSet) ConfigSchema() *hclext.BodySchema {
	return &hclext.BodySchema{Attributes: []hclext.AttributeSchema{{Name: UnknownInputsSetting}}}
}

// ApplyConfig turns on the notices when the plugin block asks for them, unless a rule block, --only or
// --disable-rule says otherwise.
func (r *RuleSet) ApplyConfig(content *hclext.BodyContent) error {
	a, ok := content.Attributes[UnknownInputsSetting]
	if !ok {
		return nil
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || v.Type() != cty.Bool || v.IsNull() {
		return fmt.Errorf("%s: plugin %q: %s must be true or false", a.Range, Name, UnknownInputsSetting)
	}
	if !v.True() || slices.ContainsFunc(r.EnabledRules, func(rule tflint.Rule) bool { return rule.Name() == UnknownInputsRule }) {
		return nil
	}
	if r.config != nil {
		if _, configured := r.config.Rules[UnknownInputsRule]; configured || len(r.config.Only) > 0 {
			return nil
		}
	}
	for _, rule := range r.Rules {
		if rule.Name() == UnknownInputsRule {
			r.EnabledRules = append(r.EnabledRules, rule)
		}
	}
	return nil
}

// rule is one TFLint rule. Every rule reads the results of one analysis of the module, which the first rule
// TFLint checks computes.
type rule struct {
	tflint.DefaultRule
	name     string
	severity tflint.Severity
	link     string
	analyzer *analyzer
	disabled bool
}

func (r *rule) Name() string              { return r.name }
func (r *rule) Enabled() bool             { return !r.disabled }
func (r *rule) Severity() tflint.Severity { return r.severity }
func (r *rule) Link() string              { return r.link }

func (r *rule) Check(runner tflint.Runner) error {
	issues, err := r.analyzer.issues(runner)
	if err != nil {
		return err
	}
	for _, is := range issues {
		if is.rule != r.name {
			continue
		}
		// A rule whose severity depends on the case, or a design with enforce = false, reports each finding
		// with its own severity.
		if err := runner.EmitIssue(withSeverity{r, is.severity}, is.message, is.rng); err != nil {
			return err
		}
	}
	return nil
}

type withSeverity struct {
	tflint.Rule
	severity tflint.Severity
}

func (w withSeverity) Severity() tflint.Severity { return w.severity }

// issue is one finding or notice of the analysis.
type issue struct {
	rule     string
	severity tflint.Severity
	message  string
	rng      hcl.Range
	// block is the block the issue is about, to find the caller's values in a called module.
	block *hclext.Block
	// instance is the address of the instance of a count or for_each block the issue is about.
	instance string
	// part is the attribute or nested block type of an AWS resource the finding is on (hash_key,
	// local_secondary_index), to find the caller's argument in a called module.
	part string
	// address is the address of the block a count or for_each notice is about.
	address string
}

// analyzer runs the analysis once per runner: TFLint checks every rule with the runner of a module (of a
// module instance), and checks the runners of called modules concurrently.
type analyzer struct {
	engines *engineCache

	mu       sync.Mutex
	analyses map[tflint.Runner]*analysis
	// lint counts the lints, each started by the root module's runner, which TFLint checks first.
	lint int

	// reported are the issues the instances of each called module (count or for_each on its module block)
	// have reported in this lint, which TFLint checks one runner per instance: what another instance reports
	// alike, on the caller's same argument, is reported once. The root module's analysis starts it anew.
	reportedMu sync.Mutex
	reported   map[issueKey]bool
}

// issueKey is an issue as TFLint shows it, in a module.
type issueKey struct {
	module, rule, message string
	severity              tflint.Severity
	rng                   hcl.Range
}

type analysis struct {
	once   sync.Once
	lint   int
	result []issue
	err    error
}

// maxAnalyses bounds what a long-lived plugin (the language server's) keeps: past the bound, the analyses of
// earlier lints are dropped, whose runners TFLint never asks again.
const maxAnalyses = 256

func (a *analyzer) issues(runner tflint.Runner) ([]issue, error) {
	a.mu.Lock()
	if a.analyses == nil {
		a.analyses = map[tflint.Runner]*analysis{}
	}
	one, ok := a.analyses[runner]
	if !ok {
		// TFLint checks the root module first in each lint: its runner starts a lint.
		if module, err := runner.GetModulePath(); err == nil && module.IsRoot() {
			a.lint++
		}
		if len(a.analyses) >= maxAnalyses {
			maps.DeleteFunc(a.analyses, func(_ tflint.Runner, old *analysis) bool { return old.lint < a.lint })
		}
		one = &analysis{lint: a.lint}
		a.analyses[runner] = one
	}
	a.mu.Unlock()
	one.once.Do(func() {
		one.result, one.err = analyzeSafely(runner, a.engines)
		if one.err == nil {
			one.result, one.err = a.firstReports(runner, one.result)
		}
	})
	return one.result, one.err
}

// firstReports drops the issues another instance of the same called module has already reported in this
// lint; in the root module it starts the lint's record.
func (a *analyzer) firstReports(runner tflint.Runner, issues []issue) ([]issue, error) {
	module, err := runner.GetModulePath()
	if err != nil {
		return nil, err
	}
	a.reportedMu.Lock()
	defer a.reportedMu.Unlock()
	if module.IsRoot() || a.reported == nil {
		a.reported = map[issueKey]bool{}
	}
	if module.IsRoot() {
		return issues, nil
	}
	var out []issue
	for _, is := range issues {
		key := issueKey{module: module.String(), rule: is.rule, message: is.message, severity: is.severity, rng: is.rng}
		if !a.reported[key] {
			a.reported[key] = true
			out = append(out, is)
		}
	}
	return out, nil
}

// analyzeSafely turns a panic of the analysis into one issue at the top of the module's first file, instead
// of a crashed plugin or an aborted run: TFLint's own rules and other plugins keep their results.
func analyzeSafely(runner tflint.Runner, engines *engineCache) (issues []issue, err error) {
	defer func() {
		if r := recover(); r != nil {
			message := fmt.Sprintf("dynamokeys: the analysis failed unexpectedly, so this module was not checked (a defect; please report it with the configuration): %v", r)
			files, ferr := runner.GetFiles()
			if ferr != nil || len(files) == 0 {
				issues, err = nil, errors.New(message)
				return
			}
			first := slices.Sorted(maps.Keys(files))[0]
			issues, err = []issue{{rule: InvalidDesignRule, severity: tflint.ERROR, message: message,
				rng: hcl.Range{Filename: first, Start: hcl.InitialPos, End: hcl.InitialPos}}}, nil
		}
	}()
	return analyze(context.Background(), runner, engines)
}

func severityOf(s string, enforce bool) tflint.Severity {
	if s == policy.SeverityError && enforce {
		return tflint.ERROR
	}
	return tflint.WARNING
}

func findingMessage(f policy.Finding) string {
	msg := fmt.Sprintf("%s %s: %s", f.Rule, f.Name, f.Message)
	if f.Remediation != "" {
		msg += " (remedy: " + strings.Join(strings.Fields(f.Remediation), " ") + ")"
	}
	return msg
}

func unknownNotice(unknown []string) string {
	slices.Sort(unknown)
	unknown = slices.Compact(unknown)
	verb, pronoun := "is", "it"
	if len(unknown) > 1 {
		verb, pronoun = "are", "them"
	}
	return fmt.Sprintf("dynamokeys: %s %s not known before the plan (a variable without a default or value, another resource's "+
		"attribute, or measured traffic), so the rules that read %s were not checked here; the plan checks them",
		strings.Join(unknown, ", "), verb, pronoun)
}
