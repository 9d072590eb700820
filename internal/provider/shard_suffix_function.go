package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

var _ function.Function = (*shardSuffixFunction)(nil)

// NewShardSuffixFunction returns the shard_suffix(id, count) function.
func NewShardSuffixFunction() function.Function { return &shardSuffixFunction{} }

type shardSuffixFunction struct{}

func (f *shardSuffixFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "shard_suffix"
}

func (f *shardSuffixFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Zero-padded calculated shard suffix of an id",
		Description: "Returns `shard(id, count)` zero-padded to the number of digits of `count - 1` (at least 1): " +
			"\"07\" for shard 7 of 16. Node.js: `String(shard).padStart(String(count - 1).length, \"0\")`.",
		Parameters: routingParameters(),
		Return:     function.StringReturn{},
	}
}

func (f *shardSuffixFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	id, count, err := routingArguments(ctx, req)
	if resp.Error = err; err != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, model.ShardSuffix(id, count))
}
