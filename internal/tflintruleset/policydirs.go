package tflintruleset

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// CustomRule reports the findings of the user's rules, the provider's policy.policy_dirs, and what keeps them
// from loading: their ids are the user's, not known when TFLint asks the plugin for its rules, so one rule
// carries them all, each finding with its own id and severity.
const CustomRule = "dynamokeys_custom"

// tflintRule is the TFLint rule that reports a finding of the rule id. A user's finding that reuses a
// built-in id is reported under that rule, as the provider and the bundle report it under that id.
func tflintRule(id string) string {
	if builtin, err := policy.Builtin(); err == nil && builtin.HasRule(id) {
		return RuleName(id)
	}
	return CustomRule
}

// engineCache keeps the engine of each set of policy directories while their files stay as they were: the
// language server lints every change of a file, and compiling the bundle costs more than checking a module.
// A directory that does not load is tried again on the next lint, when the user may have fixed it.
type engineCache struct {
	builtin *policy.Engine

	mu     sync.Mutex
	byDirs map[string]cachedEngine
}

// cachedEngine is the engine of some directories, compiled from the files fingerprint names.
type cachedEngine struct {
	fingerprint string
	engine      *policy.Engine
}

// forSettings is the engine of a provider configuration's policy settings: the built-in rules, plus those of
// policy.policy_dirs. Policies that do not load are an error issue, and the built-in rules still run.
func (c *engineCache) forSettings(ctx context.Context, settings policySettings) (*policy.Engine, []issue) {
	var problems []issue
	report := func(severity tflint.Severity, message string) {
		// The issues about the settings are the module's whose provider block sets them.
		if settings.policy != nil {
			problems = append(problems, issue{rule: CustomRule, severity: severity, rng: settings.policy.Expr.Range(), message: message})
		}
	}
	if len(settings.unknown) > 0 {
		report(tflint.NOTICE, fmt.Sprintf("dynamokeys: %s not known before the plan, so the defaults were assumed here "+
			"(enforce = true, no rule disabled, no policy directory); the plan checks with the values", strings.Join(settings.unknown, ", ")))
	}
	if len(settings.resolved) == 0 {
		return c.builtin, problems
	}
	key, files := strings.Join(settings.resolved, "\x00"), fingerprint(settings.resolved)
	c.mu.Lock()
	defer c.mu.Unlock()
	cached, ok := c.byDirs[key]
	if !ok || cached.fingerprint != files {
		engine, err := policy.NewEngine(ctx, policy.Options{PolicyDirs: settings.resolved})
		if err != nil {
			report(tflint.ERROR, fmt.Sprintf("dynamokeys: the policies of policy.policy_dirs cannot be loaded, so only the built-in "+
				"rules were checked: %v (user policies are Rego v1 modules in packages dynamokeys.custom.*, without network, "+
				"time, randomness or runtime built-ins)", err))
			return c.builtin, problems
		}
		if c.byDirs == nil {
			c.byDirs = map[string]cachedEngine{}
		}
		cached = cachedEngine{fingerprint: files, engine: engine}
		c.byDirs[key] = cached
	}
	engine := cached.engine
	for _, i := range engine.EmptyPolicyDirs() {
		report(tflint.WARNING, fmt.Sprintf("dynamokeys: policy.policy_dirs[%d] = %q holds no .rego file (test files aside), so it "+
			"adds no rule: check the path, which is relative to the root module's directory, where Terraform runs",
			settings.dirIndex[i], settings.dirs[i]))
	}
	return engine, problems
}

// fingerprint names every .rego file under dirs with its size and modification time, so that an edited
// policy compiles again.
func fingerprint(dirs []string) string {
	var b strings.Builder
	for _, dir := range dirs {
		// What cannot be read leaves its trace too: the engine's loading reports it.
		_ = filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(&b, "%s: %v\x00", name, err)
				return nil //nolint:nilerr // a directory that cannot be walked is the engine's to report
			}
			if d.IsDir() || !strings.HasSuffix(name, ".rego") {
				return nil
			}
			if info, err := d.Info(); err == nil {
				fmt.Fprintf(&b, "%s %d %d\x00", name, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	return b.String()
}
