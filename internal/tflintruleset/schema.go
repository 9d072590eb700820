package tflintruleset

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// SchemaTreeJSON is the attribute tree of the provider's schemas (internal/cmd/schematree writes it from
// internal/provider, whose framework this plugin must not import): what the rule of unknown attributes reads.
// TestSchemaTreeIsGenerated fails when it differs from the provider's schemas.
//
//go:generate go run ../cmd/schematree schema_tree.json
//go:embed schema_tree.json
var SchemaTreeJSON []byte

// SchemaTree is the attributes of the provider's configuration, resources and data sources, as Terraform
// sees them over the plugin protocol.
type SchemaTree struct {
	Provider    *SchemaNode            `json:"provider"`
	Resources   map[string]*SchemaNode `json:"resources"`
	DataSources map[string]*SchemaNode `json:"data_sources"`
}

// SchemaNode is the shape of one value in a schema: an object with Attributes, a map, list or set whose
// every value is Each, or (neither) a value with no attributes of its own to check.
type SchemaNode struct {
	Attributes map[string]*SchemaNode `json:"attributes,omitempty"`
	Each       *SchemaNode            `json:"each,omitempty"`
}

var schemaTree = sync.OnceValues(func() (*SchemaTree, error) {
	var tree SchemaTree
	if err := json.Unmarshal(SchemaTreeJSON, &tree); err != nil {
		return nil, fmt.Errorf("the embedded schema tree: %w", err)
	}
	return &tree, nil
})
