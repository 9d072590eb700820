package provider

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the Terraform CLI.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"dynamokeys": providerserver.NewProtocol6WithError(New("test")()),
}

// TestMain finds a Terraform CLI (terraform-plugin-testing needs an absolute TF_ACC_TERRAFORM_PATH and must
// not try to download one), and stops every local DynamoDB server when the tests end or are interrupted.
func TestMain(m *testing.M) {
	if _, err := testutil.EnsureTerraformCLI(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Keep the AWS SDK away from the instance metadata service: nothing here runs on EC2.
	_ = os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	undo := localddb.StopAllOnInterrupt()
	code := m.Run()
	undo()
	localddb.StopAll()
	os.Exit(code)
}

var (
	dynoxideOnce   sync.Once
	dynoxideServer *localddb.Server
	dynoxideErr    error
)

// testAccDynoxide returns the endpoint of one dynoxide server shared by the package's acceptance tests,
// which run in parallel (resource.ParallelTest) on tables of their own names. One server per test was
// measured as no faster (dynoxide starts in milliseconds; the time goes to the Terraform CLI).
func testAccDynoxide(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make testacc) to run it against a local DynamoDB server")
	}
	dynoxideOnce.Do(func() { dynoxideServer, dynoxideErr = localddb.Start(localddb.Dynoxide, localddb.Options{}) })
	if dynoxideErr != nil {
		t.Fatalf("starting dynoxide: %v", dynoxideErr)
	}
	return dynoxideServer.Endpoint
}

// providerBlock configures the provider against a local endpoint with static test credentials.
func providerBlock(endpoint string) string { return providerBlockWith(endpoint, "") }

// providerBlockWith is providerBlock with extra provider arguments.
func providerBlockWith(endpoint, extra string) string {
	return fmt.Sprintf(`
provider "dynamokeys" {
  region     = "us-east-1"
  endpoint   = %[1]q
  access_key = "test"
  secret_key = "test"
  %[2]s
}
`, endpoint, extra)
}
