// Command schematree writes internal/tflintruleset/schema_tree.json: the attributes of the provider's
// configuration, resources and data sources as the provider serves them over the plugin protocol, which the
// TFLint ruleset walks a configuration against (one schema, no second copy). `make generate` runs it.
//
//	go run ./internal/cmd/schematree internal/tflintruleset/schema_tree.json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/provider"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/tflintruleset"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: schematree OUTPUT.json")
		os.Exit(2)
	}
	out, err := generate(context.Background())
	if err == nil {
		err = os.WriteFile(os.Args[1], out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "schematree:", err)
		os.Exit(1)
	}
}

// generate is the file's content: the tree of the provider's schemas, indented, with a final newline.
func generate(ctx context.Context) ([]byte, error) {
	server := providerserver.NewProtocol6(provider.New("schematree")())()
	resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return nil, fmt.Errorf("the provider's schema: %s: %s", d.Summary, d.Detail)
		}
	}
	tree := tflintruleset.SchemaTree{
		Provider:    block(resp.Provider.Block),
		Resources:   map[string]*tflintruleset.SchemaNode{},
		DataSources: map[string]*tflintruleset.SchemaNode{},
	}
	for name, s := range resp.ResourceSchemas {
		tree.Resources[name] = block(s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		tree.DataSources[name] = block(s.Block)
	}
	out, err := json.MarshalIndent(tree, "", " ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// block is a schema's attributes. Nested blocks are left out: Terraform checks what is written in a block
// against its schema itself.
func block(b *tfprotov6.SchemaBlock) *tflintruleset.SchemaNode {
	node := &tflintruleset.SchemaNode{Attributes: map[string]*tflintruleset.SchemaNode{}}
	for _, a := range b.Attributes {
		node.Attributes[a.Name] = attribute(a)
	}
	return node
}

func attribute(a *tfprotov6.SchemaAttribute) *tflintruleset.SchemaNode {
	if a.NestedType == nil {
		return typed(a.Type)
	}
	object := &tflintruleset.SchemaNode{Attributes: map[string]*tflintruleset.SchemaNode{}}
	for _, nested := range a.NestedType.Attributes {
		object.Attributes[nested.Name] = attribute(nested)
	}
	if a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle {
		return object
	}
	return &tflintruleset.SchemaNode{Each: object}
}

// typed is the node of an attribute given by its type alone: an object type's attributes (Terraform drops
// the others when it converts the value), a collection's element; a primitive or dynamic value is a leaf.
func typed(t tftypes.Type) *tflintruleset.SchemaNode {
	switch t := t.(type) {
	case tftypes.Object:
		node := &tflintruleset.SchemaNode{Attributes: map[string]*tflintruleset.SchemaNode{}}
		for name, at := range t.AttributeTypes {
			node.Attributes[name] = typed(at)
		}
		return node
	case tftypes.Map:
		return collection(typed(t.ElementType))
	case tftypes.List:
		return collection(typed(t.ElementType))
	case tftypes.Set:
		return collection(typed(t.ElementType))
	}
	return &tflintruleset.SchemaNode{}
}

// collection is a map, list or set of element, or a leaf when its elements have nothing to check.
func collection(element *tflintruleset.SchemaNode) *tflintruleset.SchemaNode {
	if element.Attributes == nil && element.Each == nil {
		return &tflintruleset.SchemaNode{}
	}
	return &tflintruleset.SchemaNode{Each: element}
}
