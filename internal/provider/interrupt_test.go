package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// TestInterruptStopsAHangingApply: against an endpoint that never answers, with generous timeouts, one
// interrupt (Ctrl-C) ends the apply promptly, and no table is recorded.
func TestInterruptStopsAHangingApply(t *testing.T) {
	t.Parallel() // mostly waiting: on the silent endpoint, then for the interrupt to land
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	endpoint, called := silentEndpointCalled(t)
	config := `
terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
` + silentProviderBlock(endpoint, "10m") + `
resource "dynamokeys_sharded_table" "t" {
  name          = "interrupted-orders"
  partition_key = { name = "pk" }
  timeouts      = { create = "30m" }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_REATTACH_PROVIDERS="+serveInProcess(t).reattach, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
	run := func(args ...string) *exec.Cmd {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		return cmd
	}
	if out, err := run("init", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	apply := run("apply", "-auto-approve", "-no-color")
	var output lockedOutput
	apply.Stdout, apply.Stderr = &output, &output
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- apply.Wait() }()
	// Interrupt once the create is in flight: its CreateTable call has reached the silent endpoint, where it
	// waits, however long the plan took on a busy machine. ("Creating..." is printed before the provider's
	// Create starts: an interrupt then can land before the call whose context it would cancel.)
	stopWatch := testutil.Watch("waiting for the apply to call CreateTable")
	select {
	case err := <-done:
		t.Fatalf("the apply ended before it called CreateTable (%v):\n%s", err, output.String())
	case <-called:
	}
	stopWatch()
	interrupted := time.Now()
	if err := apply.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Without the interrupt, the create would wait on the silent endpoint for request_timeout (10m) per
	// attempt; a bound well under that, scaled for slow machines, tells the two apart.
	stopBound := testutil.Scaled(3 * time.Minute)
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("an interrupted apply succeeded:\n%s", output.String())
		}
		if !strings.Contains(output.String(), "Interrupt received") {
			t.Errorf("the interrupt did not reach the apply:\n%s", output.String())
		}
	case <-time.After(stopBound):
		_ = apply.Process.Kill()
		t.Fatalf("one interrupt did not stop the apply within %v (raise %s on a slow machine):\n%s", stopBound, testutil.WaitScaleEnv, output.String())
	}
	t.Logf("the apply stopped %v after the interrupt", time.Since(interrupted).Round(time.Millisecond))
	state, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err == nil && strings.Contains(string(state), "interrupted-orders") {
		t.Errorf("the interrupted create recorded a table it never made:\n%s", state)
	}
}

// lockedOutput collects a command's output while the test reads it.
type lockedOutput struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *lockedOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *lockedOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
