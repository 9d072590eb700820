package policy

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// TestToValuePromotesEmbeddedFields: an observation embedded in the document's observed entries reaches
// the rules with its fields at the top of the entry, as in the design_document JSON the bundle reads.
func TestToValuePromotesEmbeddedFields(t *testing.T) {
	in := tableDesign()
	writes, units := 2500.0, 1200.0
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: observed.Observation{
		TableName: "orders", Traffic: observed.Traffic{WritesPerSecond: &writes},
		TopKeys: []observed.Key{{Key: "CUSTOMER#1", UnitsPerSecond: &units}},
	}}}
	direct := assertToValueMatchesJSON(t, analyzed(t, in))
	traffic, err := direct.Find(ast.MustParseRef("x.observed[0].traffic.writes_per_second")[1:])
	if err != nil || traffic.Compare(ast.Number("2500")) != 0 {
		t.Errorf("observed[0].traffic.writes_per_second = %v, %v", traffic, err)
	}
}
