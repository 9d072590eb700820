package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	// The tests start the Terraform CLI some 2,000 times, each a short-lived Go program whose start-up heap
	// the runtime collects again and again at the default GOGC of 100: 400 took 14% off the CLI's CPU time in
	// the suite (contributing/testing.md). The CLI inherits this environment; this process read its own GOGC
	// at start and keeps it. A GOGC the caller set wins.
	if os.Getenv("GOGC") == "" {
		_ = os.Setenv("GOGC", "400")
	}
	// One P per CLI: the tests run several CLIs at once on 2 cores, where a second P buys a short run nothing
	// but GC workers and idle threads spinning for work; the CLI's CPU in the suite fell some 5%. The
	// provider binary the dev_overrides tests start inherits it too; this process keeps its own.
	if os.Getenv("GOMAXPROCS") == "" {
		_ = os.Setenv("GOMAXPROCS", "1")
	}
	// terraform-plugin-testing asks the CLI its version for every TestCase and working directory: a script
	// answers that from one run (testutil.CacheCLIVersion; contributing/testing.md).
	cliDir, err := os.MkdirTemp("", "dynamokeys-cli-")
	if err == nil {
		err = testutil.CacheCLIVersion(cliDir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	undo := localddb.StopAllOnInterrupt()
	code := m.Run()
	undo()
	localddb.StopAll()
	if devBuildDir != "" {
		_ = os.RemoveAll(devBuildDir)
	}
	_ = os.RemoveAll(cliDir)
	os.Exit(code)
}

// testAccDynoxide returns the endpoint of one dynoxide server shared by the package's acceptance tests,
// which run in parallel (resource.ParallelTest) on tables of their own names. One server per test was
// measured as no faster (dynoxide starts in milliseconds; the time goes to the Terraform CLI).
func testAccDynoxide(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make testacc) to run it against a local DynamoDB server")
	}
	return dynoxide.endpoint(t)
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

// devBuildDir holds the provider binary that providerBuild makes; TestMain removes it.
var devBuildDir string

// providerBuild builds the provider binary once per test process, with `make build` itself (so the same
// flags: a `make build` in a copy of the repository finds this binary up to date), into a directory shared
// by every test of the run (a t.TempDir would go with the first test). It returns the binary's path.
var providerBuild = sync.OnceValues(func() (string, error) {
	root, err := testutil.RepoRoot()
	if err != nil {
		return "", err
	}
	if devBuildDir, err = os.MkdirTemp("", "dynamokeys-dev-provider-"); err != nil { //nolint:usetesting // see above
		return "", err
	}
	bin := filepath.Join(devBuildDir, "terraform-provider-dynamokeys")
	defer testutil.Watch("building the provider with make build")()
	build := exec.Command("make", "--no-print-directory", "-s", "build", "BINARY="+bin)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the provider (make build): %w\n%s", err, out)
	}
	return bin, nil
})

// devRequiredProviders names the provider as the dev_overrides of devCLIConfig install it.
const devRequiredProviders = `terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
`

// devCLIConfig writes, into dir, a Terraform CLI configuration whose dev_overrides point at the provider
// binary of providerBuild (no registry, no init). It returns the Terraform CLI and the configuration's path,
// for tests that must run the CLI themselves.
func devCLIConfig(t *testing.T, dir string) (tf, rc string) {
	t.Helper()
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := providerBuild(); err != nil {
		t.Fatal(err)
	}
	rc = filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(rc, []byte(`provider_installation {
  dev_overrides {
    "registry.terraform.io/dynamokeys/dynamokeys" = "`+devBuildDir+`"
    "registry.opentofu.org/dynamokeys/dynamokeys" = "`+devBuildDir+`"
  }
  direct {}
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	return tf, rc
}
