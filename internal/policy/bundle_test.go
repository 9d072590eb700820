package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestEveryRuleHasCompleteMetadata checks the catalogue the docs and diagnostics are built from.
func TestEveryRuleHasCompleteMetadata(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range e.Catalogue() {
		ids[r.ID] = true
		if r.Name == "" || r.Title == "" || r.Description == "" || len(r.Severities) == 0 {
			t.Errorf("%s has incomplete METADATA: %+v", r.ID, r)
		}
		if text := fmt.Sprint(r); strings.Contains(text, "${") {
			t.Errorf("%s refers to a limit the data file does not have: %s", r.ID, text)
		}
		if r.Blocks != 1 {
			t.Errorf("%s is declared by %d METADATA blocks; a rule has exactly one (custom.cases for several severities or remedies)", r.ID, r.Blocks)
		}
		if (r.Remediation == "") == (len(r.Cases) == 0) {
			t.Errorf("%s needs either custom.remediation or custom.cases, not both or neither: %+v", r.ID, r)
		}
		for _, c := range r.Cases {
			if c.When == "" || c.Remediation == "" || (c.Severity != SeverityError && c.Severity != SeverityWarning) {
				t.Errorf("%s case %q is incomplete: %+v", r.ID, c.Name, c)
			}
		}
		if !strings.HasSuffix(r.DocsURL, "#"+strings.ToLower(r.ID)) {
			t.Errorf("%s docs URL %s", r.ID, r.DocsURL)
		}
	}
	for _, id := range strings.Fields("DK101 DK102 DK103 DK104 DK105 DK106 DK107 DK108 DK201 DK202 DK203 DK204 " +
		"DK301 DK302 DK303 DK304 DK305 DK401 DK402 DK403 DK404 DK405 DK406 DK407 DK408 DK501 DK502 DK503 DK504 DK505 DK506 DK507 DK508 DK509 DK510 DK511 DK512 DK601 DK602 DK603 DK604 DK605 DK606 " +
		"DK801 DK802 DK803 DK804 DK805 DK806 DK807 DK808") {
		if !ids[id] {
			t.Errorf("rule %s of the catalogue is missing from the bundle", id)
		}
	}
}

// caseSeverity reads the severity of a body built with lib.finding_case(meta, "case", ...): the meta argument
// names a rule of the same module whose METADATA lists the cases. ok is false for any other body.
func caseSeverity(t *testing.T, m *ast.Module, rule *ast.Rule) (string, bool) {
	t.Helper()
	if rule.Head.Key == nil {
		return "", false
	}
	call, isCall := rule.Head.Key.Value.(ast.Call)
	if !isCall || len(call) != 5 || call[0].String() != "lib.finding_case" {
		return "", false
	}
	metaName, caseName := call[1].String(), ""
	if s, isString := call[2].Value.(ast.String); isString {
		caseName = string(s)
	}
	for _, r := range m.Rules {
		if r.Head.Name.String() != metaName {
			continue
		}
		for _, a := range r.Annotations {
			cases, _ := a.Custom["cases"].(map[string]any)
			c, _ := cases[caseName].(map[string]any)
			if sev := stringField(c, "severity"); sev != "" {
				return sev, true
			}
		}
	}
	t.Errorf("%s:%d: lib.finding_case(%s, %q, …) names no case of a METADATA block in the module", m.Package.Location.File, rule.Location.Row, metaName, caseName)
	return "", true
}

// TestRuleHeadsMatchSeverity: conftest's deny reads data.dynamokeys.errors and warn data.dynamokeys.warnings,
// so a rule body filed under the wrong head would fail a plan on a warning or let an error pass. A body of
// a rule with several cases takes its severity from the case it names.
func TestRuleHeadsMatchSeverity(t *testing.T) {
	modules, err := BundleModules(false)
	if err != nil {
		t.Fatal(err)
	}
	wantHead := map[string]string{SeverityError: "errors", SeverityWarning: "warnings"}
	checked := 0
	for name, m := range modules {
		if !strings.HasPrefix(m.Package.Path.String(), "data.dynamokeys.rules.") {
			continue
		}
		for _, rule := range m.Rules {
			var severity string
			for _, a := range rule.Annotations {
				severity = stringField(a.Custom, "severity")
			}
			head := rule.Head.Name.String()
			if sev, isCase := caseSeverity(t, m, rule); isCase && severity == "" {
				severity = sev
			}
			if severity == "" {
				if head == "errors" || head == "warnings" {
					t.Errorf("%s:%d: %s body without a METADATA severity", name, rule.Location.Row, head)
				}
				continue
			}
			checked++
			if head != wantHead[severity] {
				t.Errorf("%s:%d: a rule of severity %s is filed under %q; use %q", name, rule.Location.Row, severity, head, wantHead[severity])
			}
		}
	}
	if checked < 28 {
		t.Errorf("checked %d rule bodies with METADATA, want at least one per rule of the catalogue", checked)
	}
}
