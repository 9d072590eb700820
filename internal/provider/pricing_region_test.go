package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestAccPricingRegionFollowsTheProvidersRegion: without pricing.region a design is priced in the region
// the provider resolves: its region, else AWS_REGION, else AWS_DEFAULT_REGION (the SDK's order), else
// us-east-1. The data source stays offline: no endpoint, no credentials.
func TestAccPricingRegionFollowsTheProvidersRegion(t *testing.T) {
	// One TestCase, a step per case; each step sets the environment before its CLI runs configure the
	// provider (in this process). Not parallel: the steps set the process's environment.
	var steps []resource.TestStep
	for _, tt := range []struct {
		name, providerRegion, awsRegion, awsDefaultRegion, want string
	}{
		{"AWS_REGION", "", "eu-west-1", "ap-northeast-1", "eu-west-1"},
		{"AWS_DEFAULT_REGION", "", "", "ap-northeast-1", "ap-northeast-1"},
		{"provider region first", "ap-northeast-1", "eu-west-1", "", "ap-northeast-1"},
		{"none", "", "", "", "us-east-1"},
	} {
		provider := `provider "dynamokeys" {}`
		if tt.providerRegion != "" {
			provider = fmt.Sprintf(`provider "dynamokeys" { region = %q }`, tt.providerRegion)
		}
		steps = append(steps, resource.TestStep{
			PreConfig: func() {
				t.Setenv("AWS_REGION", tt.awsRegion)
				t.Setenv("AWS_DEFAULT_REGION", tt.awsDefaultRegion)
			},
			Config: provider + `
data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "USER#{user_id}" }
  segments      = { user_id = { kind = "id" } }
  traffic       = { writes_per_second = 10, reads_per_second = 10 }
}
output "region" { value = data.dynamokeys_keydesign.d.cost.region }
`,
			// tt.name says which setting the region comes from.
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("region", knownvalue.StringExact(tt.want))},
		})
	}
	unitSteps(t, steps...)
}

func TestPricingRegionOrder(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, tt := range []struct {
		configured string
		vars       map[string]string
		want       string
	}{
		{"eu-west-1", map[string]string{"AWS_REGION": "us-west-2"}, "eu-west-1"},
		{"", map[string]string{"AWS_REGION": "us-west-2", "AWS_DEFAULT_REGION": "eu-north-1"}, "us-west-2"},
		{"", map[string]string{"AWS_DEFAULT_REGION": "eu-north-1"}, "eu-north-1"},
		{"", nil, ""},
	} {
		if got := pricingRegion(tt.configured, env(tt.vars)); got != tt.want {
			t.Errorf("pricingRegion(%q, %v) = %q, want %q", tt.configured, tt.vars, got, tt.want)
		}
	}
}
