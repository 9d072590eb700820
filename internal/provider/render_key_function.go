package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

var _ function.Function = (*renderKeyFunction)(nil)

// NewRenderKeyFunction returns the render_key(template, values) function.
func NewRenderKeyFunction() function.Function { return &renderKeyFunction{} }

type renderKeyFunction struct{}

func (f *renderKeyFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "render_key"
}

func (f *renderKeyFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Render a key template",
		Description: "Fills every `{placeholder}` of a key template such as `DAY#{day}#SHARD#{shard}` from the `values` map. " +
			"A placeholder without a value is an error.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "template", Description: "A key template: literal text and {name} placeholders."},
			function.MapParameter{Name: "values", ElementType: types.StringType, Description: "A value for every placeholder, keyed by placeholder name."},
		},
		Return: function.StringReturn{},
	}
}

func (f *renderKeyFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var src string
	var values map[string]string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &src, &values))
	if resp.Error != nil {
		return
	}
	tmpl, ferr := parseTemplateArgument(src, 0)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	key, err := tmpl.Render(values)
	if err != nil {
		resp.Error = renderError(err, 1)
		return
	}
	resp.Error = resp.Result.Set(ctx, key)
}

func parseTemplateArgument(src string, argument int64) (*model.Template, *function.FuncError) {
	tmpl, err := model.ParseTemplate(src)
	if err != nil {
		return nil, function.NewArgumentFuncError(argument, fmt.Sprintf("template %q is malformed at %v", src, err))
	}
	return tmpl, nil
}

func renderError(err error, valuesArgument int64) *function.FuncError {
	var missing *model.MissingValueError
	if errors.As(err, &missing) {
		return function.NewArgumentFuncError(valuesArgument,
			fmt.Sprintf("values has no entry for placeholder {%s}: add %s = \"...\"", missing.Placeholder, missing.Placeholder))
	}
	return function.NewFuncError(err.Error())
}
