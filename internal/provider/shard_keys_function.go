package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

var _ function.Function = (*shardKeysFunction)(nil)

// NewShardKeysFunction returns the shard_keys(template, values, count) function.
func NewShardKeysFunction() function.Function { return &shardKeysFunction{} }

type shardKeysFunction struct{}

func (f *shardKeysFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "shard_keys"
}

func (f *shardKeysFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Every sharded key of a logical key, for fan-out reads",
		Description: "Renders the template once per shard, with `{shard}` set to each zero-padded suffix (\"00\" to \"15\" " +
			"for 16 shards) and every other placeholder from `values`: the keys a reader must query to read one logical " +
			"collection.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "template", Description: "A key template that contains {shard}."},
			function.MapParameter{Name: "values", ElementType: types.StringType, Description: "A value for every placeholder except shard."},
			shardCountParameter(),
		},
		Return: function.ListReturn{ElementType: types.StringType},
	}
}

func (f *shardKeysFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var src string
	var values map[string]string
	var countArg *big.Float
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &src, &values, &countArg))
	if resp.Error != nil {
		return
	}
	tmpl, ferr := parseTemplateArgument(src, 0)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	if !tmpl.HasPlaceholder(model.ShardPlaceholder) {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("template %q has no {shard} placeholder, so every shard would render the same key", src))
		return
	}
	if _, ok := values[model.ShardPlaceholder]; ok {
		resp.Error = function.NewArgumentFuncError(1, "values must not set shard: shard_keys fills {shard} with every suffix")
		return
	}
	count, countErr := shardCountArgument(countArg, 2)
	if resp.Error = countErr; countErr != nil {
		return
	}
	fill := maps.Clone(values)
	if fill == nil {
		fill = map[string]string{}
	}
	keys := make([]string, 0, count)
	for _, suffix := range model.ShardSuffixes(count) {
		fill[model.ShardPlaceholder] = suffix
		key, err := tmpl.Render(fill)
		if err != nil {
			resp.Error = renderError(err, 1)
			return
		}
		keys = append(keys, key)
	}
	resp.Error = resp.Result.Set(ctx, keys)
}
