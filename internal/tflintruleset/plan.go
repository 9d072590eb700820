package tflintruleset

import (
	"encoding/json"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/zclconf/go-cty/cty"
)

// The AWS provider's resources are mapped to design documents by the policy bundle's plan adapter
// (policies/plan/aws.rego, aws_gsi.rego), the mapping conftest uses on a plan. This file gives that adapter
// what it reads from a plan, built from the configuration: one resource_changes entry per block, with
// change.after holding the statically known values and change.after_unknown marking the rest as a plan marks
// values known only after apply, and configuration.root_module.resources with the references of a standalone
// GSI's table_name. One mapping of the AWS schema to a design, in Rego, for the plan and for TFLint alike.

// awsTableSchema, awsGSISchema and awsVectorIndexSchema are the parts of the AWS provider's schemas the adapter reads.
var (
	awsTableSchema = &hclext.BodySchema{
		Attributes: attributeSchemas("name", "billing_mode", "read_capacity", "write_capacity", "hash_key", "range_key", "region"),
		Blocks: []hclext.BlockSchema{
			{Type: "attribute", Body: &hclext.BodySchema{Attributes: attributeSchemas("name", "type")}},
			// A global table: its replicas, witness and TTL (policies/plan/aws_replicas.rego).
			{Type: "replica", Body: &hclext.BodySchema{Attributes: attributeSchemas("region_name", "consistency_mode")}},
			{Type: "global_table_witness", Body: &hclext.BodySchema{Attributes: attributeSchemas("region_name")}},
			{Type: "ttl", Body: &hclext.BodySchema{Attributes: attributeSchemas("enabled", "attribute_name")}},
			{Type: "local_secondary_index", Body: &hclext.BodySchema{Attributes: attributeSchemas("name", "range_key", "projection_type", "non_key_attributes")}},
			{Type: "global_secondary_index", Body: &hclext.BodySchema{
				Attributes: attributeSchemas("name", "hash_key", "range_key", "projection_type", "non_key_attributes", "read_capacity", "write_capacity"),
				Blocks: []hclext.BlockSchema{
					{Type: "key_schema", Body: &hclext.BodySchema{Attributes: attributeSchemas("attribute_name", "attribute_type", "key_type")}},
					onDemandBlock, warmBlock,
				},
			}},
			onDemandBlock, warmBlock,
		},
	}
	awsGSISchema = &hclext.BodySchema{
		Attributes: attributeSchemas("index_name", "table_name"),
		Blocks: []hclext.BlockSchema{
			{Type: "key_schema", Body: &hclext.BodySchema{Attributes: attributeSchemas("attribute_name", "attribute_type", "key_type")}},
			{Type: "projection", Body: &hclext.BodySchema{Attributes: attributeSchemas("projection_type", "non_key_attributes")}},
			{Type: "provisioned_throughput", Body: &hclext.BodySchema{Attributes: attributeSchemas("read_capacity_units", "write_capacity_units")}},
		},
	}
	// awsVectorIndexSchema is an aws_dynamodb_vector_index (terraform-provider-aws PR #49375): vector_attribute
	// is a single nested block, projection and search_schema are block lists.
	awsVectorIndexSchema = &hclext.BodySchema{
		Attributes: attributeSchemas("index_name", "table_name", "dimensions", "distance_function"),
		Blocks: []hclext.BlockSchema{
			{Type: "vector_attribute", Body: &hclext.BodySchema{Attributes: attributeSchemas("attribute_name")}},
			{Type: "projection", Body: &hclext.BodySchema{Attributes: attributeSchemas("projection_type", "non_key_attributes")}},
			{Type: "search_schema", Body: &hclext.BodySchema{Attributes: attributeSchemas("attribute_name", "attribute_type", "type")}},
		},
	}
	// awsReplicaSchema is an aws_dynamodb_table_replica: the table it joins and its Region.
	awsReplicaSchema = &hclext.BodySchema{Attributes: attributeSchemas("global_table_arn", "region")}
	onDemandBlock    = hclext.BlockSchema{Type: "on_demand_throughput", Body: &hclext.BodySchema{Attributes: attributeSchemas("max_read_request_units", "max_write_request_units")}}
	warmBlock        = hclext.BlockSchema{Type: "warm_throughput", Body: &hclext.BodySchema{Attributes: attributeSchemas("read_units_per_second", "write_units_per_second")}}
)

func attributeSchemas(names ...string) []hclext.AttributeSchema {
	out := make([]hclext.AttributeSchema, len(names))
	for i, n := range names {
		out[i] = hclext.AttributeSchema{Name: n}
	}
	return out
}

// planValues turns a block's evaluated body into a plan's after and after_unknown objects: blocks are lists
// of objects, an unknown value is left out of after and true in after_unknown. unknown collects the dotted
// names of the unknown values and where they are set, for the notices.
func planValues(body *hclext.BodyContent, eval func(hcl.Expression) cty.Value, prefix string, unknown *[]unknownInput) (after, afterUnknown map[string]any) {
	after, afterUnknown = map[string]any{}, map[string]any{}
	for name, a := range body.Attributes {
		v := eval(a.Expr)
		if !v.IsWhollyKnown() {
			afterUnknown[name] = true
			*unknown = append(*unknown, unknownInput{name: prefix + name, rng: a.Expr.Range()})
			continue
		}
		if !v.IsNull() {
			after[name] = jsonValue(v)
		}
	}
	blocksAfter, blocksUnknown := map[string][]any{}, map[string][]any{}
	for _, b := range body.Blocks {
		p := prefix + b.Type + "."
		if b.Type == "global_secondary_index" || b.Type == "local_secondary_index" {
			if n, ok := b.Body.Attributes["name"]; ok {
				if v := eval(n.Expr); v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
					p = prefix + b.Type + "." + v.AsString() + "."
				}
			}
		}
		a, u := planValues(b.Body, eval, p, unknown)
		blocksAfter[b.Type] = append(blocksAfter[b.Type], a)
		blocksUnknown[b.Type] = append(blocksUnknown[b.Type], u)
	}
	for t, list := range blocksAfter {
		after[t] = list
		afterUnknown[t] = blocksUnknown[t]
	}
	return after, afterUnknown
}

// callerSetAttributes are the arguments a reusable module takes from its caller, often through a variable
// whose default is null: null there means the caller sets it, which a plan knows and TFLint does not.
var callerSetAttributes = []string{"name", "hash_key"}

// markCallerSet marks the caller-set attributes that a variable or local leaves null as not known.
func markCallerSet(body *hclext.BodyContent, after, afterUnknown map[string]any, unknown *[]unknownInput) {
	for _, name := range callerSetAttributes {
		a, ok := body.Attributes[name]
		if _, set := after[name]; set || !ok || afterUnknown[name] == true || len(a.Expr.Variables()) == 0 {
			continue
		}
		afterUnknown[name] = true
		*unknown = append(*unknown, unknownInput{name: name, rng: a.Expr.Range()})
	}
}

// jsonValue is a known cty value as encoding/json would decode its JSON: what OPA reads from plan JSON.
func jsonValue(v cty.Value) any {
	if v.IsNull() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString()
	case t == cty.Number:
		return json.Number(v.AsBigFloat().Text('g', -1))
	case t == cty.Bool:
		return v.True()
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := []any{}
		for _, el := range v.AsValueSlice() {
			out = append(out, jsonValue(el))
		}
		return out
	case t.IsObjectType() || t.IsMapType():
		out := map[string]any{}
		for k, el := range v.AsValueMap() {
			out[k] = jsonValue(el)
		}
		return out
	}
	return nil
}

// tableReferences are the resources a standalone GSI's table_name refers to, as the plan's configuration
// lists them: aws_dynamodb_table.<name>.
func tableReferences(expr hcl.Expression) []any {
	var refs []any
	for _, traversal := range expr.Variables() {
		if traversal.RootName() != "aws_dynamodb_table" || len(traversal) < 2 {
			continue
		}
		if step, ok := traversal[1].(hcl.TraverseAttr); ok {
			ref := "aws_dynamodb_table." + step.Name
			if !slices.Contains(refs, any(ref)) {
				refs = append(refs, ref)
			}
		}
	}
	return refs
}
