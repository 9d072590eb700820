package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// evaluateDesign runs the policy rules on a document under the provider's settings, dropping disabled
// rules. Without an evaluator there are no findings.
func evaluateDesign(ctx context.Context, settings policySettings, doc *keydesign.Document) ([]policy.Finding, diag.Diagnostics) {
	var diags diag.Diagnostics
	if settings.evaluator == nil {
		return nil, diags
	}
	ctx, cancel := context.WithTimeout(ctx, settings.evalTimeout)
	defer cancel()
	start := time.Now()
	all, err := settings.evaluator.Evaluate(ctx, doc)
	tflog.Debug(ctx, "dynamokeys policy evaluation", map[string]any{"duration_us": time.Since(start).Microseconds(), "findings": len(all)})
	if err != nil {
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
