//go:build deps

package main

// Built with -tags deps, the bare provider also links the libraries dynamokeys links (the AWS SDK clients
// and credential chain, OPA), whose package initialisation every process pays whether it uses them or not:
// what is left between this build and dynamokeys is dynamokeys' own start-up.
import (
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	_ "github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/open-policy-agent/opa/v1/format"
	_ "github.com/open-policy-agent/opa/v1/rego"
)
