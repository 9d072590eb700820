package policy

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// trivySeverity maps the bundle's severities to Trivy's.
var trivySeverity = map[string]string{SeverityError: "HIGH", SeverityWarning: "MEDIUM"}

// WriteTrivyChecks writes the embedded bundle in the form Trivy loads as custom checks into out: every module
// v0-compatible under out/policies (Trivy parses user checks as Rego v0), and under out/checks one check
// package per rule id and severity (Trivy reads one id and severity per package, from its METADATA), namespace
// dynamokeys_trivy, reporting the conftest entry points' results of that id on plan JSON (input selector json).
func WriteTrivyChecks(out string) error {
	err := fs.WalkDir(policies.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".rego") || strings.HasSuffix(name, "_test.rego") {
			return err
		}
		src, err := fs.ReadFile(policies.FS, name)
		if err != nil {
			return err
		}
		v0, err := format.SourceWithOpts(name, src, format.Opts{
			RegoVersion:   ast.RegoV0CompatV1,
			ParserOptions: &ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true},
		})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return writeFile(filepath.Join(out, "policies", name), v0)
	})
	if err != nil {
		return err
	}
	engine, err := NewEngine(context.Background(), Options{})
	if err != nil {
		return err
	}
	// Both severities for every rule: an error of a design with enforce = false is a warning in conftest.
	for _, rule := range engine.Catalogue() {
		for _, severity := range []string{SeverityError, SeverityWarning} {
			if err := writeFile(filepath.Join(out, "checks", strings.ToLower(rule.ID)+"_"+severity+".rego"), trivyCheck(rule, severity)); err != nil {
				return err
			}
		}
	}
	return nil
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
