package tflintruleset

import (
	"strings"
	"testing"
)

// The AWS provider's aws_dynamodb_vector_index (terraform-provider-aws PR #49375) is joined to the table its
// table_name refers to, as a standalone GSI is, and its findings are reported on its own block.
func TestAWSVectorIndexesThroughThePlanAdapter(t *testing.T) {
	t.Parallel()
	src := `resource "aws_dynamodb_table" "docs" {
  name         = "docs"
  billing_mode = "PROVISIONED"
  hash_key     = "doc_id"
  attribute {
    name = "doc_id"
    type = "S"
  }
}

resource "aws_dynamodb_vector_index" "by_doc" {
  table_name        = aws_dynamodb_table.docs.name
  index_name        = "by_doc"
  dimensions        = 5000
  distance_function = "COSINE"
  vector_attribute {
    attribute_name = "embedding"
  }
  projection {
    projection_type = "KEYS_ONLY"
  }
  search_schema {
    attribute_name = "doc_id"
    attribute_type = "S"
    type           = "HASH"
  }
}
`
	// The table is PROVISIONED (DK504, on billing_mode); the index's dimensions are out of range (DK506, on
	// dimensions) and its HASH is the table's only key, a value per item (DK509, on the HASH's search_schema).
	assertIssues(t, map[string]string{"main.tf": src},
		"dynamokeys_dk504 Error main.tf:3,3-31 DK504",
		"dynamokeys_dk506 Error main.tf:14,3-27 DK506",
		"dynamokeys_dk509 Warning main.tf:22,3-16 DK509",
	)
}

// Dimensions from a variable without a default are not judged: one notice names them, on the value.
func TestAWSVectorIndexUnknownDimensions(t *testing.T) {
	t.Parallel()
	src := `variable "dimensions" {
  type = number
}

resource "aws_dynamodb_table" "docs" {
  name         = "docs"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "tenant_id"
  range_key    = "doc_id"
  attribute {
    name = "tenant_id"
    type = "S"
  }
  attribute {
    name = "doc_id"
    type = "S"
  }
}

resource "aws_dynamodb_vector_index" "by_tenant" {
  table_name       = aws_dynamodb_table.docs.name
  index_name       = "by_tenant"
  dimensions       = var.dimensions
  vector_attribute {
    attribute_name = "embedding"
  }
  projection {
    projection_type = "KEYS_ONLY"
  }
  search_schema {
    attribute_name = "tenant_id"
    attribute_type = "S"
    type           = "HASH"
  }
}
`
	assertIssues(t, map[string]string{"main.tf": src}, "dynamokeys_unknown_inputs Notice main.tf:23,22-36 dynamokeys:")
	for _, is := range runRules(t, map[string]string{"main.tf": src}) {
		if is.Rule.Name() == UnknownInputsRule && !strings.Contains(is.Message, "dimensions") {
			t.Errorf("the notice does not name the unknown input: %s", is.Message)
		}
	}
}
