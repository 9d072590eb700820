// Command tflint-ruleset-dynamokeys is the TFLint plugin of dynamokeys: the key-design rules of the provider
// and the policy bundle, run by TFLint on a configuration before any plan. TFLint starts it; see the TFLint
// guide of the provider's documentation for the plugin block of .tflint.hcl.
package main

import (
	"fmt"
	"os"

	"github.com/terraform-linters/tflint-plugin-sdk/plugin"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/tflintruleset"
)

// version is set by the release build (-X main.version=...); TFLint compares it with the plugin block's
// version.
var version = "0.0.0-dev"

func main() {
	ruleset, err := tflintruleset.NewRuleSet(version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tflint-ruleset-dynamokeys: loading the embedded rules:", err)
		os.Exit(1)
	}
	plugin.Serve(&plugin.ServeOpts{RuleSet: ruleset})
}
