package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

var _ function.Function = (*shardFunction)(nil)

// NewShardFunction returns the shard(id, count) function.
func NewShardFunction() function.Function { return &shardFunction{} }

type shardFunction struct{}

func (f *shardFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "shard"
}

func (f *shardFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Calculated shard number of an id",
		Description: "Returns the shard of `id` among `count` shards: the first 4 bytes of SHA-256 of the UTF-8 id, read " +
			"big-endian as an unsigned 32-bit integer, modulo `count`. Node.js application code computes the same number with " +
			"`createHash(\"sha256\").update(id).digest().readUInt32BE(0) % count`.",
		Parameters: routingParameters(),
		Return:     function.Int64Return{},
	}
}

func (f *shardFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	id, count, err := routingArguments(ctx, req)
	if resp.Error = err; err != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, keydesign.Shard(id, count))
}

// routingParameters are the (id, count) parameters of shard and shard_suffix.
func routingParameters() []function.Parameter {
	return []function.Parameter{
		function.StringParameter{Name: "id", Description: "The stable id to route, e.g. an order id."},
		function.Int64Parameter{Name: "count", Description: "The number of shards, at least 1."},
	}
}

// routingArguments reads the (id, count) arguments of shard and shard_suffix and checks the count.
func routingArguments(ctx context.Context, req function.RunRequest) (string, int64, *function.FuncError) {
	var id string
	var count int64
	if err := function.ConcatFuncErrors(req.Arguments.Get(ctx, &id, &count)); err != nil {
		return "", 0, err
	}
	return id, count, checkShardCount(count, 1)
}

// checkShardCount validates a count argument at the given argument index.
func checkShardCount(count, argument int64) *function.FuncError {
	if count < 1 {
		return function.NewArgumentFuncError(argument, "count must be at least 1 shard")
	}
	return nil
}
