package provider

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

var _ function.Function = (*decodeDesignDocumentFunction)(nil)

// NewDecodeDesignDocumentFunction returns the decode_design_document(design_document) function.
func NewDecodeDesignDocumentFunction() function.Function { return &decodeDesignDocumentFunction{} }

type decodeDesignDocumentFunction struct{}

func (f *decodeDesignDocumentFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "decode_design_document"
}

func (f *decodeDesignDocumentFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Decode a design_document attribute",
		Description: "Returns the JSON text of the design document that a `dynamokeys_sharded_table` or `dynamokeys_keydesign` carries, " +
			"indented: the design with defaults applied and every fact the policies read. In an output, a plan shows the document's " +
			"changes field by field; `jsondecode` gives its values.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "design_document", Description: "The design_document attribute of a dynamokeys_sharded_table or dynamokeys_keydesign."},
		},
		Return: function.StringReturn{},
	}
}

func (f *decodeDesignDocumentFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var value string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &value))
	if resp.Error != nil {
		return
	}
	js, err := model.DecodeAttribute(value)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error()+"; pass the design_document attribute of a dynamokeys resource or data source")
		return
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, js, "", "  "); err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, indented.String())
}
