package provider

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
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
	resp.Error = resp.Result.Set(ctx, model.Shard(id, count))
}

// routingParameters are the (id, count) parameters of shard and shard_suffix.
func routingParameters() []function.Parameter {
	return []function.Parameter{
		function.StringParameter{Name: "id", Description: "The stable id to route, e.g. an order id."},
		shardCountParameter(),
	}
}

// shardCountParameter is a Number, not an Int64: the framework converts 2.5 for an Int64 parameter with an
// internal error, while a number reaches shardCountArgument, which says what is wrong with the argument.
func shardCountParameter() function.NumberParameter {
	return function.NumberParameter{Name: "count", Description: fmt.Sprintf("The number of shards, a whole number from 1 to %d.", model.MaxShardCount)}
}

// routingArguments reads the (id, count) arguments of shard and shard_suffix and checks the count.
func routingArguments(ctx context.Context, req function.RunRequest) (string, int64, *function.FuncError) {
	var id string
	var count *big.Float
	if err := function.ConcatFuncErrors(req.Arguments.Get(ctx, &id, &count)); err != nil {
		return "", 0, err
	}
	n, err := shardCountArgument(count, 1)
	return id, n, err
}

// shardCountArgument checks the count argument at the given index: a whole number of shards from 1 to
// the maximum.
func shardCountArgument(count *big.Float, argument int64) (int64, *function.FuncError) {
	if count == nil || !count.IsInt() {
		return 0, function.NewArgumentFuncError(argument, fmt.Sprintf("count must be a whole number of shards, got %s", numberString(count)))
	}
	n, accuracy := count.Int64()
	if accuracy != big.Exact || n < 1 || n > model.MaxShardCount {
		return 0, function.NewArgumentFuncError(argument, fmt.Sprintf("count must be from 1 to %d shards, got %s", model.MaxShardCount, numberString(count)))
	}
	return n, nil
}
