// Command bareprovider is the yardstick of scripts/bench-startup.sh: a terraform-plugin-framework provider
// with nothing but a shard(id, count) function, served under dynamokeys' address, so that the start-up of the
// real provider can be compared with what the framework itself costs.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return bare{} }, providerserver.ServeOpts{
		Address:         "registry.terraform.io/dynamokeys/dynamokeys",
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}

type bare struct{}

var _ provider.ProviderWithFunctions = bare{}

func (bare) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "dynamokeys"
}

func (bare) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (bare) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (bare) Resources(context.Context) []func() resource.Resource { return nil }

func (bare) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (bare) Functions(context.Context) []func() function.Function {
	return []func() function.Function{func() function.Function { return shard{} }}
}

type shard struct{}

func (shard) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "shard"
}

func (shard) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Parameters: []function.Parameter{function.StringParameter{Name: "id"}, function.Int64Parameter{Name: "count"}},
		Return:     function.Int64Return{},
	}
}

func (shard) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var id string
	var count int64
	if resp.Error = req.Arguments.Get(ctx, &id, &count); resp.Error != nil {
		return
	}
	if count < 1 {
		resp.Error = function.NewArgumentFuncError(1, "count must be at least 1")
		return
	}
	sum := sha256.Sum256([]byte(id))
	resp.Error = resp.Result.Set(ctx, int64(binary.BigEndian.Uint32(sum[:4]))%count)
}
