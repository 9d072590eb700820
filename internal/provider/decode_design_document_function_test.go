package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// decodeDesignDocumentParts check that the function returns the indented JSON of an encoded document and of
// the plain JSON earlier versions recorded; the data source test decodes a real document with it.
func decodeDesignDocumentParts() []functionPart {
	encoded := `dk1:{\"schema_version\":1,\"derived\":{\"shard_count\":4}}`
	return []functionPart{{
		config: `
output "decoded_encoded" {
  value = provider::dynamokeys::decode_design_document("` + encoded + `")
}
output "decoded_plain" {
  value = provider::dynamokeys::decode_design_document("{\"schema_version\":1}")
}
`,
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("decoded_encoded", knownvalue.StringExact("{\n  \"schema_version\": 1,\n  \"derived\": {\n    \"shard_count\": 4\n  }\n}")),
			statecheck.ExpectKnownOutputValue("decoded_plain", knownvalue.StringExact("{\n  \"schema_version\": 1\n}")),
		},
	}}
}

// TestDecodeDesignDocumentFunctionErrors plans the bad arguments together (expectEachFunctionError).
func TestDecodeDesignDocumentFunctionErrors(t *testing.T) {
	t.Parallel()
	expectEachFunctionError(t, []functionErrorCase{
		{"not a document", `decode_design_document("hello")`, `Invalid value for "design_document" parameter: not a design document: it starts\s+neither with "dk1:" nor with a JSON object`},
		{"not JSON after the prefix", `decode_design_document("dk1:***")`, `Invalid value for "design_document" parameter.*is not a JSON object`},
	})
}
