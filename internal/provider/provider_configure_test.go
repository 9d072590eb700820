package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configureProvider calls ConfigureProvider over the protocol with the given policy block.
func configureProvider(t *testing.T, disabled []string) *tfprotov6.ConfigureProviderResponse {
	t.Helper()
	ctx := t.Context()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	objType, ok := schema.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("provider schema type is %T, not an object", schema.Provider.ValueType())
	}
	policyType, ok := objType.AttributeTypes["policy"].(tftypes.Object)
	if !ok {
		t.Fatalf("policy attribute type is %T, not an object", objType.AttributeTypes["policy"])
	}
	rules := make([]tftypes.Value, len(disabled))
	for i, id := range disabled {
		rules[i] = tftypes.NewValue(tftypes.String, id)
	}
	policyValues := map[string]tftypes.Value{}
	for name, typ := range policyType.AttributeTypes {
		policyValues[name] = tftypes.NewValue(typ, nil)
	}
	policyValues["disabled_rules"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, rules)
	values := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	values["policy"] = tftypes.NewValue(policyType, policyValues)
	config, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, values))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestConfigureWarnsOnUnknownDisabledRule(t *testing.T) {
	t.Parallel()
	resp := configureProvider(t, []string{"DK303", "DK999"})
	var warnings []string
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Errorf("unexpected error: %s: %s", d.Summary, d.Detail)
		}
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			warnings = append(warnings, d.Detail)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `"DK999" is not a dynamokeys rule id`) {
		t.Errorf("warnings = %q; want one about DK999 only", warnings)
	}
}

func TestAllRulesDisabledSkipsEvaluation(t *testing.T) {
	t.Parallel()
	engine, diags := loadPolicyEngine(t.Context(), nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	all := map[string]bool{}
	for _, r := range engine.Catalogue() {
		all[r.ID] = true
	}
	if !allRulesDisabled(engine, all) {
		t.Error("every rule disabled must skip the evaluation")
	}
	delete(all, "DK303")
	if allRulesDisabled(engine, all) {
		t.Error("one enabled rule must keep the evaluation")
	}
}
