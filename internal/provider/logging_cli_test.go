package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The provider binary turns the SDKs' loggers off only when no TF_LOG variable asks for logs (main.go's
// silenceUnreadLogs): asked, the framework's and the protocol's trace lines still reach the CLI's log.
func TestProviderLogsWhenAsked(t *testing.T) {
	t.Parallel()
	tf, rc := devCLIConfig(t, t.TempDir())
	dir := t.TempDir()
	config := devRequiredProviders + `provider "dynamokeys" {}
data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "tf.log")
	cmd := exec.Command(tf, "plan", "-input=false", "-no-color", "-lock=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_LOG_PROVIDER=TRACE", "TF_LOG_PATH="+logFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	logged, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, subsystem := range []string{"sdk.framework", "sdk.proto"} {
		if !strings.Contains(string(logged), subsystem) {
			t.Errorf("TF_LOG_PROVIDER=TRACE: the log has no %s line", subsystem)
		}
	}
}
