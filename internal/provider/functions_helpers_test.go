package provider

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// functionsAvailable fails a function test on a CLI older than 1.8 (provider functions need Terraform ≥ 1.8;
// scripts/terraform-cli.sh builds OpenTofu 1.12): an old CLI is a broken test setup, not a reason to skip.
var functionsAvailable = []tfversion.TerraformVersionCheck{tfversion.RequireAbove(tfversion.Version1_8_0)}

// functionPart is some calls of a provider function and their checks; its outputs and resources have names
// no other part uses, so that the parts plan together (TestProviderFunctions).
type functionPart struct {
	config   string
	preApply []plancheck.PlanCheck
	state    []statecheck.StateCheck
}

// TestImporterFunctions plans the examples' model files, each converted by its function and planned with the
// keydesign data source, in one configuration: a test case each cost some twelve CLI runs.
func TestImporterFunctions(t *testing.T) {
	t.Parallel()
	var config strings.Builder
	var state []statecheck.StateCheck
	for _, p := range []functionPart{workbenchModelPart(t), oneTableSchemaPart(t), mcpSchemaPart(t)} {
		config.WriteString(p.config)
		state = append(state, p.state...)
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{{Config: config.String(), ConfigStateChecks: state}},
	})
}

// TestProviderFunctions plans the routing and document functions' calls, known and unknown, in one
// configuration: a test case each cost some twelve CLI runs.
func TestProviderFunctions(t *testing.T) {
	t.Parallel()
	var config strings.Builder
	var preApply []plancheck.PlanCheck
	var state []statecheck.StateCheck
	for _, p := range slices.Concat(shardParts(t), shardSuffixParts(t), shardKeysParts(), renderKeyParts(), decodeDesignDocumentParts()) {
		config.WriteString(p.config)
		preApply = append(preApply, p.preApply...)
		state = append(state, p.state...)
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   functionsAvailable,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config.String(),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: preApply},
			ConfigStateChecks: state,
		}},
	})
}

type nodeVector struct {
	ID     string `json:"id"`
	Count  int64  `json:"count"`
	Shard  int64  `json:"shard"`
	Suffix string `json:"suffix"`
}

// nodeVectors loads the routing vectors Node.js computed (scripts/routing-vectors.js), keeping the ids an
// HCL string literal can hold without escapes beyond Go's %q.
func nodeVectors(t *testing.T) []nodeVector {
	t.Helper()
	raw, err := os.ReadFile("../keydesign/model/testdata/routing_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []nodeVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out []nodeVector
	for _, v := range file.Vectors {
		// HCL normalises string literals to Unicode NFC, so an id with combining marks reaches the function
		// in its composed form; keydesign's own tests cover those ids byte for byte.
		if strings.IndexFunc(v.ID, func(r rune) bool { return unicode.Is(unicode.Mn, r) }) >= 0 ||
			strings.Contains(v.ID, "${") || strings.Contains(v.ID, "%{") || len(v.ID) > 300 ||
			strings.IndexFunc(v.ID, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			continue
		}
		out = append(out, v)
	}
	return out
}

// expectError compiles a diagnostic pattern that tolerates Terraform's line wrapping: every space matches
// any run of whitespace, and . matches newlines.
func expectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(pattern, " ", `\s+`))
}
