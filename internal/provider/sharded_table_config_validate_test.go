package provider

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// cliDiagnostic is a diagnostic of `terraform validate -json`, as compared here.
type cliDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Snippet  *struct {
		Code string `json:"code"`
	} `json:"snippet"`
}

// settingWarningCases are the meaningless combinations: the configuration is valid, and validating it gives
// exactly these warnings. A case with no warning is a valid combination that must stay silent.
//
// Each warning carries its attribute's path; the CLI shows it on the line of that attribute when the path
// names a top-level attribute. When it goes deeper into an object (the detail names the whole path),
// Terraform before 1.14 and OpenTofu show the resource's first line (resourceLine) and later Terraform the
// line of the nested attribute: either passes. A warning without a path would show no line at all.
var settingWarningCases = []struct {
	name, attrs string
	want        []string // "summary: detail", in order
	lines       []string // the code of each warning's line
}{
	{"empty on-demand caps", `on_demand_throughput = {}`,
		[]string{"Setting with no effect: on_demand_throughput of the table sets no figure, so it changes nothing; remove it, or set one of its attributes."},
		[]string{`on_demand_throughput = {}`}},
	{"empty warm throughput", `warm_throughput = {}`,
		[]string{"Setting with no effect: warm_throughput of the table sets no figure, so it changes nothing; remove it, or set one of its attributes."},
		[]string{`warm_throughput = {}`}},
	{"empty autoscaling", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 5
  autoscaling = {}`,
		[]string{"Setting with no effect: autoscaling of the table sets no figure, so it changes nothing; remove it, or set one of its attributes."},
		[]string{`autoscaling = {}`}},
	{"warm throughput above the on-demand cap", `on_demand_throughput = { max_write_request_units = 500 }
  warm_throughput = { write_units_per_second = 8000, read_units_per_second = 20000 }`,
		[]string{"Warm throughput above the on-demand cap: warm_throughput.write_units_per_second of the table is 8,000, above its " +
			"on_demand_throughput.max_write_request_units of 500: requests above the cap are throttled, so the warmth above it is never used. " +
			"Lower the warm throughput to the cap, or raise the cap."},
		[]string{resourceLine}},
	{"GSI warm throughput above the GSI's cap", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], on_demand_throughput = { max_read_request_units = 100 }, warm_throughput = { read_units_per_second = 15000 } }
  }`,
		[]string{"Warm throughput above the on-demand cap: warm_throughput.read_units_per_second of GSI by_region is 15,000, above its " +
			"on_demand_throughput.max_read_request_units of 100: requests above the cap are throttled, so the warmth above it is never used. " +
			"Lower the warm throughput to the cap, or raise the cap."},
		[]string{resourceLine}},
	{"valid: features explicitly off", `stream = { enabled = false }
  point_in_time_recovery = { enabled = false }
  server_side_encryption = { enabled = false }
  ttl = { enabled = false, attribute_name = "expires_at" }`, nil, nil},
	{"valid: TTL on a number key attribute", `ttl = { attribute_name = "expires" }
  global_secondary_indexes = {
    by_expiry = { partition_key = [{ name = "region" }], sort_key = [{ name = "expires", type = "N" }] }
  }`, nil, nil},
	{"valid: warm throughput within the caps", `on_demand_throughput = { max_read_request_units = 20000, max_write_request_units = 8000 }
  warm_throughput = { read_units_per_second = 20000, write_units_per_second = 8000 }`, nil, nil},
}

const resourceLine = `resource "dynamokeys_sharded_table" "t" {`

// nestedLines is lines with each resourceLine replaced by the configuration line that sets the warning's
// nested attribute, as later Terraform shows it: the line of attrs that holds warm_throughput.
func nestedLines(lines []string, attrs string) []string {
	out := slices.Clone(lines)
	for i, line := range out {
		if line != resourceLine {
			continue
		}
		for _, l := range strings.Split(attrs, "\n") {
			if strings.Contains(l, "warm_throughput") {
				out[i] = strings.TrimSpace(l)
			}
		}
	}
	return out
}

// TestAccSettingWarnings validates each case with the real CLI and the provider served in this process, and
// compares the whole list of warnings.
func TestAccSettingWarnings(t *testing.T) {
	t.Parallel()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 to build the provider and run the CLI")
	}
	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range settingWarningCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			config := devRequiredProviders + `
provider "dynamokeys" {}

resource "dynamokeys_sharded_table" "t" {
  name = "warned-orders"
  ` + withDefaults(tt.attrs) + `
}
`
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
			server := serveInProcess(t)
			defer server.stop()
			cmd := exec.Command(tf, "validate", "-json", "-no-color")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+server.reattach, "CHECKPOINT_DISABLE=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			var result struct {
				Valid       bool            `json:"valid"`
				Diagnostics []cliDiagnostic `json:"diagnostics"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &result); err != nil {
				t.Fatalf("validate: %v %v\n%s\n%s", runErr, err, stdout.String(), stderr.String())
			}
			if !result.Valid {
				t.Fatalf("the configuration is not valid:\n%s", stdout.String())
			}
			var got, lines []string
			for _, d := range result.Diagnostics {
				if d.Severity != "warning" {
					continue
				}
				got = append(got, d.Summary+": "+d.Detail)
				if d.Snippet != nil {
					lines = append(lines, strings.TrimSpace(d.Snippet.Code))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings\n%q\nwant\n%q", got, tt.want)
			}
			if !slices.Equal(lines, tt.lines) && !slices.Equal(lines, nestedLines(tt.lines, tt.attrs)) {
				t.Errorf("warnings on the lines\n%q\nwant\n%q", lines, tt.lines)
			}
		})
	}
}
