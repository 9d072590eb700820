// Command trivybundle writes the policy bundle in the form Trivy loads as custom checks (policy.WriteTrivyChecks):
//
//	go run ./internal/cmd/trivybundle OUTPUT_DIR
//	trivy config --config-check OUTPUT_DIR --check-namespaces dynamokeys_trivy --misconfig-scanners json plan.json
//
// Nothing of it is kept by hand: it is generated from the embedded bundle and its catalogue.
package main

import (
	"fmt"
	"os"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: trivybundle OUTPUT_DIR")
		os.Exit(2)
	}
	if err := policy.WriteTrivyChecks(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "trivybundle:", err)
		os.Exit(1)
	}
}
