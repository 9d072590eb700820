package tflintruleset

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// CustomRule reports the findings of the user's rules, the provider's policy.policy_dirs, and what keeps them
// from loading: their ids are the user's, not known when TFLint asks the plugin for its rules, so one rule
// carries them all, each finding with its own id and severity.
const CustomRule = "dynamokeys_custom"

// tflintRule is the TFLint rule that reports a finding of the rule id.
func tflintRule(id string) string {
	if builtin, err := policy.Builtin(); err == nil && builtin.HasRule(id) {
		return RuleName(id)
	}
	return CustomRule
}

// engineCache compiles the engine of each set of policy directories once per plugin process: the language
// server lints every change of a file, and compiling the bundle costs more than checking a module.
type engineCache struct {
	builtin *policy.Engine

	mu     sync.Mutex
	byDirs map[string]compiledEngine
}

type compiledEngine struct {
	engine *policy.Engine
	err    error
}

// forSettings is the engine of the provider's policy settings: the built-in rules, plus those of
// policy.policy_dirs. The directories are read as the provider reads them, relative to the directory
// TFLint runs in. Policies that do not load are an error issue, and the built-in rules still run.
func (c *engineCache) forSettings(ctx context.Context, settings policySettings) (*policy.Engine, []issue) {
	if len(settings.dirs) == 0 {
		return c.builtin, nil
	}
	key := strings.Join(settings.dirs, "\x00")
	c.mu.Lock()
	compiled, ok := c.byDirs[key]
	if !ok {
		compiled.engine, compiled.err = policy.NewEngine(ctx, policy.Options{PolicyDirs: settings.dirs})
		if c.byDirs == nil {
			c.byDirs = map[string]compiledEngine{}
		}
		c.byDirs[key] = compiled
	}
	c.mu.Unlock()
	rng := settings.policy.Expr.Range()
	if compiled.err != nil {
		return c.builtin, []issue{{rule: CustomRule, severity: tflint.ERROR, rng: rng, message: fmt.Sprintf(
			"dynamokeys: the policies of policy.policy_dirs cannot be loaded, so only the built-in rules were checked: %v "+
				"(user policies are Rego v1 modules in packages dynamokeys.custom.*, without network, time, randomness or runtime built-ins)",
			compiled.err)}}
	}
	var problems []issue
	for _, i := range compiled.engine.EmptyPolicyDirs() {
		problems = append(problems, issue{rule: CustomRule, severity: tflint.WARNING, rng: rng, message: fmt.Sprintf(
			"dynamokeys: policy.policy_dirs[%d] = %q holds no .rego file (test files aside), so it adds no rule: check the path, "+
				"which is relative to the directory TFLint runs in, as Terraform reads it from the directory it runs in",
			i, settings.dirs[i])})
	}
	return compiled.engine, problems
}
