package tflintruleset

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/zclconf/go-cty/cty"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// designRange is where a finding's path lies in a dynamokeys block: the attribute, then as deep into its
// object and tuple literals as the path goes (segments.day.granularity is the granularity item of the day
// segment). A path the configuration does not spell out (a default, a value from a variable) points at the
// deepest part it does, and a path outside every attribute at the block's header.
func designRange(block *hclext.Block, path model.Path) hcl.Range {
	if len(path) == 0 {
		return block.DefRange
	}
	a, ok := block.Body.Attributes[path[0]]
	if !ok {
		return block.DefRange
	}
	rng, expr := a.Range, a.Expr
	for _, step := range path[1:] {
		next, r, ok := literalChild(expr, step)
		if !ok {
			break
		}
		expr, rng = next, r
	}
	return rng
}

// literalChild is the item named step of an object literal or the element at index step of a tuple literal,
// with its range (key and value for an object item).
func literalChild(expr hcl.Expression, step string) (hcl.Expression, hcl.Range, bool) {
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			key, diags := item.KeyExpr.Value(nil)
			if diags.HasErrors() || !key.IsKnown() || key.IsNull() || key.Type() != cty.String || key.AsString() != step {
				continue
			}
			return item.ValueExpr, hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range()), true
		}
	case *hclsyntax.TupleConsExpr:
		if i, err := strconv.Atoi(step); err == nil && i >= 0 && i < len(e.Exprs) {
			return e.Exprs[i], e.Exprs[i].Range(), true
		}
	}
	return nil, hcl.Range{}, false
}

func attributeRange(body *hclext.BodyContent, name string, fallback hcl.Range) hcl.Range {
	if a, ok := body.Attributes[name]; ok {
		return a.Range
	}
	return fallback
}

// awsTableAttributes map the first step of a document path to the aws_dynamodb_table attribute that sets it.
var awsTableAttributes = map[string]string{
	"partition_key": "hash_key", "sort_key": "range_key", "name": "name", "billing_mode": "billing_mode",
	"read_capacity": "read_capacity", "write_capacity": "write_capacity",
}

// awsPart is the attribute or nested block type of aws_dynamodb_table that sets what a finding's path is on.
func awsPart(path model.Path) string {
	if len(path) == 0 {
		return ""
	}
	if attrName, ok := awsTableAttributes[path[0]]; ok {
		return attrName
	}
	return map[string]string{
		"global_secondary_indexes": "global_secondary_index", "local_secondary_indexes": "local_secondary_index",
		"on_demand_throughput": "on_demand_throughput", "warm_throughput": "warm_throughput",
		"replica": "replica", "ttl": "ttl",
	}[path[0]]
}

// findingPart is the argument or block of the AWS provider's resources a finding's path is set by: a vector
// index's dimensions or search_schema, else the table's (awsPart).
func findingPart(path model.Path) string {
	if len(path) > 2 && path[0] == "vector_indexes" {
		return map[string]string{"dimensions": "dimensions", "distance_function": "distance_function", "partition_key": "search_schema"}[path[2]]
	}
	return awsPart(path)
}

// awsTableRange is where a finding's path lies in an aws_dynamodb_table block: the attribute or nested block
// the AWS provider sets it with (partition_key is hash_key, a GSI is its global_secondary_index block).
func awsTableRange(block *hclext.Block, path model.Path, name func(*hclext.Block) string) hcl.Range {
	if len(path) == 0 {
		return block.DefRange
	}
	if attrName, ok := awsTableAttributes[path[0]]; ok {
		return attributeRange(block.Body, attrName, block.DefRange)
	}
	switch path[0] {
	case "on_demand_throughput", "warm_throughput", "replica", "ttl":
		for _, b := range block.Body.Blocks {
			if b.Type == path[0] {
				return b.DefRange
			}
		}
	case "global_secondary_indexes", "local_secondary_indexes":
		blockType := map[string]string{"global_secondary_indexes": "global_secondary_index", "local_secondary_indexes": "local_secondary_index"}[path[0]]
		n := 0
		for _, b := range block.Body.Blocks {
			if b.Type != blockType {
				continue
			}
			// An index whose name is known only after apply is named by its place (the plan adapter's
			// stand-in, policies/plan/aws.rego).
			if len(path) > 1 && (name(b) == path[1] || path[1] == fmt.Sprintf("%s[%d] (name known after apply)", blockType, n)) {
				return indexBlockRange(b, path[2:])
			}
			n++
		}
	}
	return block.DefRange
}

// indexBlockRange is where the rest of a GSI or LSI path lies in its global_secondary_index or
// local_secondary_index block.
func indexBlockRange(b *hclext.Block, rest model.Path) hcl.Range {
	if len(rest) == 0 {
		return b.DefRange
	}
	if r, ok := keySchemaRange(b, rest); ok {
		return r
	}
	attrName := map[string]string{"partition_key": "hash_key", "sort_key": "range_key"}[rest[0]]
	if attrName == "" {
		attrName = rest[0]
	}
	return attributeRange(b.Body, attrName, b.DefRange)
}

// keySchemaRange finds partition_key.N or sort_key.N among key_schema blocks (key_type HASH or RANGE).
func keySchemaRange(b *hclext.Block, rest model.Path) (hcl.Range, bool) {
	keyType := map[string]string{"partition_key": "HASH", "sort_key": "RANGE"}[rest[0]]
	if keyType == "" {
		return hcl.Range{}, false
	}
	var matching []*hclext.Block
	for _, k := range b.Body.Blocks {
		if k.Type != "key_schema" {
			continue
		}
		if a, ok := k.Body.Attributes["key_type"]; ok {
			if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.AsString() == keyType {
				matching = append(matching, k)
			}
		}
	}
	if len(matching) == 0 {
		return hcl.Range{}, false
	}
	i := 0
	if len(rest) > 1 {
		if n, err := strconv.Atoi(rest[1]); err == nil && n >= 0 && n < len(matching) {
			i = n
		}
	}
	return matching[i].DefRange, true
}

// standaloneKinds are the standalone index resources and the document path their findings lie under.
var standaloneKinds = map[string]string{
	"aws_dynamodb_global_secondary_index": "global_secondary_indexes",
	"aws_dynamodb_vector_index":           "vector_indexes",
}

// standaloneRange is where a finding's path lies in a standalone index resource's block.
func standaloneRange(block *hclext.Block, path model.Path) hcl.Range {
	if len(path) > 0 && path[0] == "vector_indexes" {
		return vectorIndexRange(block, path)
	}
	return standaloneGSIRange(block, path)
}

// vectorIndexRange is where a finding's path lies in an aws_dynamodb_vector_index block: the dimensions, the
// HASH's search_schema block (partition_key), or the index_name.
func vectorIndexRange(block *hclext.Block, path model.Path) hcl.Range {
	fallback := attributeRange(block.Body, "index_name", block.DefRange)
	if len(path) < 3 {
		return fallback
	}
	switch path[2] {
	case "dimensions", "distance_function":
		return attributeRange(block.Body, path[2], fallback)
	case "partition_key":
		for _, b := range block.Body.Blocks {
			if b.Type != "search_schema" {
				continue
			}
			if t, ok := b.Body.Attributes["type"]; ok {
				if v, diags := t.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && v.AsString() == "HASH" {
					return b.DefRange
				}
			}
		}
	}
	return fallback
}

// standaloneGSIRange is where a finding's path lies in an aws_dynamodb_global_secondary_index block: the
// key_schema block of the key, the projection block, the provisioned_throughput block, or the index_name.
func standaloneGSIRange(block *hclext.Block, path model.Path) hcl.Range {
	if len(path) < 3 || path[0] != "global_secondary_indexes" {
		return attributeRange(block.Body, "index_name", block.DefRange)
	}
	rest := path[2:]
	if r, ok := keySchemaRange(block, rest); ok {
		return r
	}
	blockType := map[string]string{
		"projection_type": "projection", "non_key_attributes": "projection",
		"read_capacity": "provisioned_throughput", "write_capacity": "provisioned_throughput",
	}[rest[0]]
	for _, b := range block.Body.Blocks {
		if b.Type == blockType {
			return b.DefRange
		}
	}
	return attributeRange(block.Body, "index_name", block.DefRange)
}
