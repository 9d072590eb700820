package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const minimalDesign = `
data "dynamokeys_keydesign" "orders" {
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
}
`

// TestAccProviderAgainstDynoxide: the provider configured with a local endpoint and static credentials
// creates a table on that server (seen there through the SDK, keys included) and deletes it on destroy.
func TestAccProviderAgainstDynoxide(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "provider-endpoint-orders"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{{
			Config: smallTable(endpoint, name, "deletion_protection = false"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
			},
			Check: checkKeySchema(api, name, "pk", "sk"),
		}},
	})
}

// TestProviderWorksUnconfigured shows that no provider attribute is required and nothing is contacted.
func TestProviderWorksUnconfigured(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `provider "dynamokeys" {}` + minimalDesign,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.dynamokeys_keydesign.orders", tfjsonpath.New("ok"), knownvalue.Bool(true)),
			},
		}},
	})
}

func TestProviderInvalidConfiguration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		block  string
		expect string
	}{
		{"endpoint without scheme", `endpoint = "127.0.0.1:8000"`, `Invalid endpoint URL.*not an absolute http\(s\) URL`},
		{"endpoint with another scheme", `endpoint = "ftp://127.0.0.1"`, `Invalid endpoint URL.*endpoint`},
		{"relative endpoint", `endpoint = "/dynamodb"`, `Invalid endpoint URL`},
		{"cloudwatch endpoint without scheme", `cloudwatch_endpoint = "127.0.0.1:4566"`, `Invalid endpoint URL.*cloudwatch_endpoint.*not an absolute http\(s\) URL`},
		{"negative max_retries", `max_retries = -1`, `max_retries.*at least 0`},
		{"unparsable eval_timeout", `policy = { eval_timeout = "soon" }`, `Invalid duration.*"soon" is not a positive duration`},
		{"zero eval_timeout", `policy = { eval_timeout = "0s" }`, `Invalid duration`},
		{"access_key without secret_key", `access_key = "AKIDEXAMPLE"`, `secret_key.*must be specified`},
		{"secret_key without access_key", `secret_key = "x"`, `access_key.*must be specified`},
	}
	// Each case is a provider configuration of its own (an alias) and a data source that uses it, so that it
	// is configured; they are planned together (expectEachError).
	cases := make([]errorCase, len(tests))
	for i, tt := range tests {
		label := caseLabel(i)
		cases[i] = errorCaseOf(tt.name, fmt.Sprintf("provider \"dynamokeys\" {\n  alias = %q\n  %s\n}\n", label, tt.block)+
			strings.Replace(minimalDesign, `"orders" {`, fmt.Sprintf("%q {\n  provider = dynamokeys.%s", label, label), 1), tt.expect)
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}
