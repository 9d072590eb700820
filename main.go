// Command terraform-provider-dynamokeys serves the dynamokeys Terraform provider over protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3" (goreleaser does this).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	// Started by hand with -debug, the provider writes its logs to the developer's terminal, which keeps them.
	if !debug {
		if err := silenceUnreadLogs(os.Environ(), os.Setenv); err != nil {
			log.Fatal(err.Error())
		}
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/dynamokeys/dynamokeys",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}

// Documentation: the rule reference from the rules' METADATA, then docs/ with tfplugindocs.
//go:generate bash scripts/docs.sh
