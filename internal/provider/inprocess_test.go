package provider

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// inProcessServer is the provider served from this test process, as Terraform's debug mode serves one.
type inProcessServer struct {
	// reattach is the TF_REATTACH_PROVIDERS value that points a Terraform or OpenTofu CLI at the server.
	reattach string
	// stop stops the server and waits until it has; the test's cleanup calls it too.
	stop func()
}

// serveInProcess serves the provider from this test process and returns the server. A CLI reaches it without
// `terraform init` and without starting a provider process: each such process would pay the provider's
// start-up (package initialisation, the plugin handshake's certificate, parsing and compiling the policies),
// which this process pays once. The provider reads its environment from this process, not from the CLI's:
// a test whose configuration leaves settings to the environment (AWS_ENDPOINT_URL_DYNAMODB, credentials)
// runs the built provider instead (devCLIConfig). Serve one per CLI run when runs may overlap: a server
// keeps the provider configuration of the last run that configured it.
func serveInProcess(t *testing.T) inProcessServer {
	t.Helper()
	// Not t.Context(): that ends before the test's cleanups, which may run the CLI too (a destroy).
	ctx, cancel := context.WithCancel(context.Background()) //nolint:usetesting // see above
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go func() {
		_ = tf6server.Serve("registry.terraform.io/dynamokeys/dynamokeys", providerserver.NewProtocol6(New("test")()),
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithLoggingSink(t), tf6server.WithoutLogStderrOverride())
	}()
	stop := func() {
		cancel()
		<-closed
	}
	t.Cleanup(stop)
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-reattach:
	case <-time.After(testutil.Scaled(time.Minute)):
		t.Fatal("the in-process provider did not start within a minute")
	}
	provider := map[string]any{
		"Protocol": string(cfg.Protocol), "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": true,
		"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
	}
	// The source "dynamokeys/dynamokeys" means registry.terraform.io to Terraform and registry.opentofu.org to
	// OpenTofu: name the server under both, so that either CLI finds it instead of looking in its registry.
	raw, err := json.Marshal(map[string]any{
		"registry.terraform.io/dynamokeys/dynamokeys": provider,
		"registry.opentofu.org/dynamokeys/dynamokeys": provider,
	})
	if err != nil {
		t.Fatal(err)
	}
	return inProcessServer{reattach: string(raw), stop: stop}
}
