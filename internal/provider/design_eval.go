package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// evaluateDesign runs the policy rules on a document under the provider's settings, dropping disabled
// rules. Without an evaluator there are no findings.
func evaluateDesign(ctx context.Context, settings policySettings, doc *model.Document) ([]policy.Finding, diag.Diagnostics) {
	var diags diag.Diagnostics
	if settings.evaluator == nil {
		return nil, diags
	}
	// The rules compile on the process's first evaluation, outside its eval_timeout.
	if err := settings.evaluator.Prepare(ctx); err != nil {
		diags.AddError("Key-design policy evaluation failed", fmt.Sprintf("The built-in policies failed to compile: %v. Please report this issue.", err))
		return nil, diags
	}
	ctx, cancel := context.WithTimeout(ctx, settings.evalTimeout)
	defer cancel()
	start := time.Now()
	all, err := settings.evaluator.Evaluate(ctx, doc)
	tflog.Debug(ctx, "dynamokeys policy evaluation", map[string]any{"duration_us": time.Since(start).Microseconds(), "findings": len(all)})
	switch {
	case errors.Is(err, policy.ErrPanic):
		diags.AddError("Key-design policy evaluation failed",
			fmt.Sprintf("%v. This is a defect in dynamokeys or in a policy of policy.policy_dirs: please report it with this "+
				"message and the design (templates, segments, sharding, traffic) that caused it.", err))
		return nil, diags
	case err != nil:
		diags.AddError("Key-design policy evaluation failed",
			fmt.Sprintf("The policies could not be evaluated: %v. Check policy.policy_dirs and policy.eval_timeout in the provider block.", err))
		return nil, diags
	}
	findings := all[:0:0]
	for _, f := range all {
		if !settings.disabledRules[f.Rule] {
			findings = append(findings, f)
		}
	}
	return findings, diags
}

// defaultPolicySettings are the policy settings of an unconfigured provider block.
func defaultPolicySettings() policySettings {
	return policySettings{enforce: true, evalTimeout: DefaultEvalTimeout, disabledRules: map[string]bool{}}
}

// policySettingsOf returns the provider's settings, or the defaults with the built-in rules when the
// provider was not configured (validate-time calls).
func policySettingsOf(data *providerData) policySettings {
	if data != nil {
		return data.policy
	}
	settings := defaultPolicySettings()
	if engine, err := policy.Builtin(); err == nil {
		settings.evaluator = engine
	}
	return settings
}

// providerDataFrom type-asserts the data Configure receives; nil means the provider is not configured yet.
func providerDataFrom(raw any) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	if raw == nil {
		return nil, diags
	}
	data, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. Please report this issue.", raw))
	}
	return data, diags
}

// stampDocument records in doc the provider version and the policy settings it is evaluated under (the
// block's enforce, else the provider's), and returns that enforce. Plan and refresh both stamp the document
// here, so a refresh computes the same document the plan did.
func stampDocument(doc *model.Document, settings policySettings, enforceAttr types.Bool) bool {
	doc.ProviderVersion = settings.providerVersion
	enforce := settings.enforce
	if !enforceAttr.IsNull() && !enforceAttr.IsUnknown() {
		enforce = enforceAttr.ValueBool()
	}
	doc.Policy = &model.PolicySettings{Enforce: enforce, DisabledRules: append([]string{}, slices.Sorted(maps.Keys(settings.disabledRules))...)}
	return enforce
}

// designOutputs is the flow the data source and the resource share: analyze the design, evaluate the
// policies, report the findings (errors only when enforced) and compute the design attributes. Unknown
// inputs give unknown attributes. ok is false when the input itself is invalid.
func designOutputs(ctx context.Context, settings policySettings, in *model.Input, enforceAttr types.Bool) (designOutputModel, diag.Diagnostics, bool) {
	var diags diag.Diagnostics
	model.WithPricingDefaults(in, settings.pricingRegion, "", false)
	doc, errs := keydesign.Analyze(in)
	if len(errs) > 0 {
		diags.Append(fieldErrorDiagnostics(errs)...)
		return designOutputModel{}, diags, false
	}
	diags.Append(fieldWarningDiagnostics(keydesign.Questionable(in))...)
	diags.Append(costDiagnostics(doc)...)
	enforce := stampDocument(doc, settings, enforceAttr)
	findings, evalDiags := evaluateDesign(ctx, settings, doc)
	diags.Append(evalDiags...)
	if diags.HasError() {
		return designOutputModel{}, diags, false
	}
	diags.Append(findingDiagnostics(findings, enforce)...)
	diags.Append(changeSectionDiagnostic(doc, findings)...)
	findings = slices.DeleteFunc(findings, func(f policy.Finding) bool { return model.IsChangeRule(f.Rule) })
	if len(in.Unknown) > 0 {
		return unknownDesignOutputs(), diags, true
	}
	out, flattenDiags := flattenDesign(ctx, doc, findings)
	diags.Append(flattenDiags...)
	return out, diags, true
}

// changeSectionDiagnostic is the report's section "This plan changes" (report.Changes) as one warning of the
// plan: every change the plan makes to the live table, with its figures and the patterns it breaks, in one
// place. It is a diagnostic and not part of the report attribute: the state keeps that attribute, and after
// the apply the next refresh computes it without a change, so a section kept there would show as a change
// of the report (and of every output that reads it) on the next plan. Nothing when no change rule fired.
func changeSectionDiagnostic(doc *model.Document, findings []policy.Finding) diag.Diagnostics {
	var diags diag.Diagnostics
	reported := make([]report.Finding, 0, len(findings))
	for _, f := range findings {
		reported = append(reported, report.Finding{Rule: f.Rule, Name: f.Name, Severity: f.Severity, Message: f.Message, Path: f.Path})
	}
	if section := report.Changes(doc, reported); section != "" {
		title, changes, _ := strings.Cut(section, "\n")
		diags.AddWarning(title, changes)
	}
	return diags
}
