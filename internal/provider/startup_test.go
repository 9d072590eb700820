package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The start-up benchmarks serve the provider in-process as each provider process Terraform starts does: a
// fresh server per iteration, then the one call of that process. A `terraform plan` whose only use of the
// provider is one function call starts three processes: one for the schema, one per function evaluation
// (validate and plan). scripts/bench-startup.sh times the real processes against a bare framework provider.

func BenchmarkStartupSchema(b *testing.B) {
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		server, err := providerserver.NewProtocol6WithError(New("bench")())()
		if err != nil {
			b.Fatal(err)
		}
		resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(resp.Diagnostics) > 0 {
			b.Fatal(err, resp.Diagnostics)
		}
	}
}

func BenchmarkStartupFunctionCall(b *testing.B) {
	ctx := b.Context()
	id, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "order-1"))
	if err != nil {
		b.Fatal(err)
	}
	count, err := tfprotov6.NewDynamicValue(tftypes.Number, tftypes.NewValue(tftypes.Number, 16))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		server, err := providerserver.NewProtocol6WithError(New("bench")())()
		if err != nil {
			b.Fatal(err)
		}
		resp, err := server.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "shard", Arguments: []*tfprotov6.DynamicValue{&id, &count}})
		if err != nil || resp.Error != nil {
			b.Fatal(err, resp.Error)
		}
	}
}
