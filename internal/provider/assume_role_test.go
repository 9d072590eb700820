package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

func TestExpandAssumeRole(t *testing.T) {
	got := expandAssumeRole(&assumeRoleModel{RoleARN: types.StringValue("arn:aws:iam::123456789012:role/deployer"),
		SessionName: types.StringValue("terraform"), ExternalID: types.StringValue("ext-42"), Duration: types.StringValue("2h")})
	want := dynamo.AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/deployer", SessionName: "terraform", ExternalID: "ext-42", Duration: 2 * time.Hour}
	if got == nil || *got != want {
		t.Errorf("expandAssumeRole = %+v, want %+v", got, want)
	}
	if expandAssumeRole(nil) != nil {
		t.Error("no assume_role must assume nothing")
	}
	unknown := expandAssumeRole(&assumeRoleModel{RoleARN: types.StringUnknown()})
	if unknown == nil || unknown.RoleARN != "" || unknown.Duration != 0 {
		t.Errorf("an unknown role ARN must still ask for a role (and fail when used), got %+v", unknown)
	}
}

// TestProviderAssumeRoleValidation: each assume_role argument is checked at plan time, naming the attribute
// path; a valid block plans without calling STS (the client is built on first use).
func TestProviderAssumeRoleValidation(t *testing.T) {
	t.Parallel()
	config := func(assumeRole string) string {
		return providerBlockWith("http://127.0.0.1:1", "assume_role = "+assumeRole) + smallTableResource("assume-role-orders", "")
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config(`{ role_arn = "arn:aws:iam::123456789012:user/someone" }`),
				ExpectError: regexp.MustCompile(`(?s)assume_role.role_arn.*must be an IAM role ARN`),
				PlanOnly:    true,
			},
			{
				Config:      config(`{ role_arn = "arn:aws:iam::123456789012:role/deployer", duration = "10m" }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid assume_role duration.*assume_role.duration = "10m".*"15m" to "12h"`),
				PlanOnly:    true,
			},
			{
				Config:      config(`{ role_arn = "arn:aws:iam::123456789012:role/deployer", duration = "13h" }`),
				ExpectError: regexp.MustCompile(`(?s)assume_role.duration = "13h"`),
				PlanOnly:    true,
			},
			{
				Config:      config(`{ role_arn = "arn:aws:iam::123456789012:role/deployer", session_name = "a b" }`),
				ExpectError: regexp.MustCompile(`(?s)assume_role.session_name.*2 to 64`),
				PlanOnly:    true,
			},
			{
				Config:      config(`{ role_arn = "arn:aws:iam::123456789012:role/deployer", external_id = "x" }`),
				ExpectError: regexp.MustCompile(`(?s)assume_role.external_id.*between 2 and 1224`),
				PlanOnly:    true,
			},
			{
				Config: config(`{ role_arn = "arn:aws-us-gov:iam::123456789012:role/path/deployer", session_name = "terraform@ci",
    external_id = "ext-42", duration = "12h" }`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}
