// Command trivybundle writes the policy bundle in the form Trivy loads as custom checks (policy.WriteTrivyChecks),
// with the user's own rules of any POLICY_DIR (packages dynamokeys.custom.*, as the provider's policy_dirs):
//
//	go run ./internal/cmd/trivybundle OUTPUT_DIR [POLICY_DIR ...]
//	trivy config --config-check OUTPUT_DIR --check-namespaces dynamokeys_trivy --misconfig-scanners json plan.json
//
// Nothing of it is kept by hand: it is generated from the embedded bundle and its catalogue.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

func main() {
	// A flag (-h, --help) is not a directory to write into.
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		fmt.Fprintln(os.Stderr, "usage: trivybundle OUTPUT_DIR [POLICY_DIR ...]")
		os.Exit(2)
	}
	if err := policy.WriteTrivyChecks(os.Args[1], os.Args[2:]...); err != nil {
		fmt.Fprintln(os.Stderr, "trivybundle:", err)
		os.Exit(1)
	}
}
