package policy

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// trivySeverity maps the bundle's severities to Trivy's.
var trivySeverity = map[string]string{SeverityError: "HIGH", SeverityWarning: "MEDIUM"}

// TrivyCustomID is the Trivy check id of the findings of the user's rules (packages dynamokeys.custom.*):
// their own ids are the user's, which Trivy cannot know from a check's METADATA, so one check per severity
// carries them all, each message starting with the finding's own id.
const TrivyCustomID = "DKCUSTOM"

// WriteTrivyChecks writes the embedded bundle in the form Trivy loads as custom checks into out: every module
// v0-compatible under out/policies (Trivy parses user checks as Rego v0), and under out/checks one check
// package per rule id and severity (Trivy reads one id and severity per package, from its METADATA), namespace
// dynamokeys_trivy, reporting the conftest entry points' results of that id on plan JSON (input selector json);
// a rule that reports only warnings has no error check.
// policyDirs are the user's rules, as the provider's policy.policy_dirs: their modules are written beside the
// bundle's, and the TrivyCustomID checks report their findings.
func WriteTrivyChecks(out string, policyDirs ...string) error {
	err := fs.WalkDir(policies.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".rego") || strings.HasSuffix(name, "_test.rego") {
			return err
		}
		src, err := fs.ReadFile(policies.FS, name)
		if err != nil {
			return err
		}
		return writeV0(filepath.Join(out, "policies", name), name, src)
	})
	if err != nil {
		return err
	}
	// The user's rules must compile with the bundle, as in the provider; the checks per id are the bundle's.
	if _, err := NewEngine(context.Background(), Options{PolicyDirs: policyDirs}); err != nil {
		return err
	}
	engine, err := Builtin()
	if err != nil {
		return err
	}
	custom, _, err := loadCustom(policyDirs)
	if err != nil {
		return err
	}
	for i, name := range slices.Sorted(maps.Keys(custom)) {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if err := writeV0(filepath.Join(out, "policies", "custom", fmt.Sprintf("%03d_%s", i, filepath.Base(name))), name, src); err != nil {
			return err
		}
	}
	// A warning check for every rule (an error of a design with enforce = false is a warning in conftest) and
	// an error check for the rules that can report errors: Trivy evaluates each check as a query of its own,
	// the plan adapter and every rule again, so a check that can never fire is not free.
	var builtin []string
	for _, rule := range engine.Catalogue() {
		builtin = append(builtin, rule.ID)
		for _, severity := range []string{SeverityError, SeverityWarning} {
			if severity == SeverityError && !slices.Contains(rule.Severities, SeverityError) {
				continue
			}
			if err := writeFile(filepath.Join(out, "checks", strings.ToLower(rule.ID)+"_"+severity+".rego"), trivyCheck(rule, severity)); err != nil {
				return err
			}
		}
	}
	if len(custom) == 0 {
		return nil
	}
	for _, severity := range []string{SeverityError, SeverityWarning} {
		if err := writeFile(filepath.Join(out, "checks", "custom_"+severity+".rego"), trivyCustomCheck(builtin, severity)); err != nil {
			return err
		}
	}
	return nil
}

// writeV0 writes the Rego v1 module src in the v0-compatible form Trivy parses.
func writeV0(path, name string, src []byte) error {
	v0, err := format.SourceWithOpts(name, src, format.Opts{
		RegoVersion:   ast.RegoV0CompatV1,
		ParserOptions: &ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true},
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return writeFile(path, v0)
}

func writeFile(name string, src []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, src, 0o644)
}

// check is the Trivy check of one rule id and severity: the conftest results of that id, deny for errors
// and warn for warnings (where an error of a design with enforce = false is too, as in conftest).
func trivyCheck(rule Rule, severity string) []byte {
	entry := map[string]string{SeverityError: "deny", SeverityWarning: "warn"}[severity]
	remediation := rule.Remediation
	for _, c := range rule.Cases {
		if c.Severity == severity && remediation == "" {
			remediation = c.Remediation
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# METADATA\n# title: %q\n# description: %q\n# scope: package\n# custom:\n", oneLine(rule.Title), oneLine(rule.Description))
	fmt.Fprintf(&b, "#   id: %s\n#   avd_id: %s\n#   short_code: %s\n#   severity: %s\n", rule.ID, rule.ID, rule.Name, trivySeverity[severity])
	fmt.Fprintf(&b, "#   recommended_action: %q\n#   input:\n#     selector:\n#       - type: json\n", oneLine(remediation))
	fmt.Fprintf(&b, "package dynamokeys_trivy.%s_%s\n\nimport rego.v1\n\nimport data.dynamokeys.conftest\n\n", strings.ToLower(rule.ID), severity)
	fmt.Fprintf(&b, "deny contains {\"msg\": r.msg} if {\n\tsome r in conftest.%s\n\tr.rule == %q\n}\n", entry, rule.ID)
	return []byte(b.String())
}

// trivyCustomCheck is the Trivy check of the user's findings of one severity: the conftest results whose
// rule is none of the built-in ids. Of deny, also a result without a rule, which is a malformed finding of a
// user's rule (conftest fails the plan on it too); of warn, the notes without a rule are conftest's alone.
func trivyCustomCheck(builtin []string, severity string) []byte {
	entry := map[string]string{SeverityError: "deny", SeverityWarning: "warn"}[severity]
	var b strings.Builder
	fmt.Fprintf(&b, "# METADATA\n# title: \"Your own rules (dynamokeys.custom.*)\"\n")
	fmt.Fprintf(&b, "# description: \"The findings of the rules in packages dynamokeys.custom.*; each message starts with the finding's own rule id.\"\n")
	fmt.Fprintf(&b, "# scope: package\n# custom:\n#   id: %s\n#   avd_id: %s\n#   short_code: custom\n#   severity: %s\n", TrivyCustomID, TrivyCustomID, trivySeverity[severity])
	fmt.Fprintf(&b, "#   recommended_action: \"Follow the remedy the finding names.\"\n#   input:\n#     selector:\n#       - type: json\n")
	fmt.Fprintf(&b, "package dynamokeys_trivy.custom_%s\n\nimport rego.v1\n\nimport data.dynamokeys.conftest\n\n", severity)
	quoted := make([]string, len(builtin))
	for i, id := range builtin {
		quoted[i] = fmt.Sprintf("%q", id)
	}
	fmt.Fprintf(&b, "builtin := {%s}\n\n", strings.Join(quoted, ", "))
	// object.get, not r.rule: OPA would bind r.rule outside the negation, and a result without a rule
	// would fail the whole body instead of passing it.
	fmt.Fprintf(&b, "deny contains {\"msg\": r.msg} if {\n\tsome r in conftest.%s\n\trule := object.get(r, \"rule\", \"\")\n", entry)
	if severity == SeverityWarning {
		b.WriteString("\trule != \"\"\n")
	}
	b.WriteString("\tnot rule in builtin\n}\n")
	return []byte(b.String())
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
