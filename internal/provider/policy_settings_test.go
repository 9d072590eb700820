package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// bundleReports is a plan check: the policy bundle's conftest entry points on the plan's JSON report exactly
// these "RULE:severity:deny|warn" results for address.
type bundleReports struct {
	address string
	want    []string
}

func (c bundleReports) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	planJSON, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	deny, warn, err := policy.EvaluatePlan(ctx, planJSON)
	if err != nil {
		resp.Error = err
		return
	}
	got := []string{}
	for kind, results := range map[string][]policy.PlanResult{"deny": deny, "warn": warn} {
		for _, r := range results {
			if r.Address == c.address {
				got = append(got, fmt.Sprintf("%s:%s:%s", r.Rule, r.Severity, kind))
			}
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(c.want))
	if !slices.Equal(got, want) {
		resp.Error = fmt.Errorf("the bundle reported %v for %s, want %v", got, c.address, want)
	}
}

// TestPolicySettingsReachTheBundle: the provider's policy.disabled_rules and policy.enforce travel in the
// design document, and the bundle on the plan JSON disables the same rules and, with enforce off, reports
// errors as warn results, as the provider did. Without the settings the bundle would deny DK301 and DK303
// on this design (the provider would fail the plan).
func TestPolicySettingsReachTheBundle(t *testing.T) {
	t.Parallel()
	// One TestCase, a step per setting: the steps hold a data source only.
	var steps []resource.TestStep
	for _, c := range map[string]struct {
		policy string
		want   []string
	}{
		"disabled":              {`disabled_rules = ["DK301", "DK303"]`, []string{}},
		"enforce off":           {`enforce = false`, []string{"DK301:error:warn", "DK303:error:warn"}},
		"enforce off, disabled": {"enforce = false\n    disabled_rules = [\"DK301\"]", []string{"DK303:error:warn"}},
	} {
		steps = append(steps, resource.TestStep{
			Config: fmt.Sprintf("provider \"dynamokeys\" {\n  policy = {\n    %s\n  }\n}\n", c.policy) + fmt.Sprintf(dailyLogUnsharded, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				bundleReports{"data.dynamokeys_keydesign.log", c.want},
			}},
		})
	}
	unitSteps(t, steps...)
}
