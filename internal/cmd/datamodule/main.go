// Command datamodule writes policies/data.rego, the bundle's data file rendered as Rego rules
// (policy.DataModule), so that the rules and their limits load together. `make generate` runs it.
//
//	go run ./internal/cmd/datamodule policies/data.rego
package main

import (
	"fmt"
	"os"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: datamodule OUTPUT.rego")
		os.Exit(2)
	}
	src, err := policy.DataModule()
	if err == nil {
		err = os.WriteFile(os.Args[1], src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "datamodule:", err)
		os.Exit(1)
	}
}
