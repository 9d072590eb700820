package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// unchangedTableConfig describes audited tables as they are, with no design metadata: what
// `terraform query -generate-config-out` writes for them, one resource each, named by auditedTableAddress.
func unchangedTableConfig(endpoint string, tables ...auditedTable) string {
	var b strings.Builder
	b.WriteString(providerBlock(endpoint))
	for _, table := range tables {
		fmt.Fprintf(&b, "resource \"dynamokeys_sharded_table\" %q {\n  name                = %q\n  deletion_protection = false\n",
			strings.TrimPrefix(auditedTableAddress(table), "dynamokeys_sharded_table."), table.name)
		fmt.Fprintf(&b, "  partition_key       = { name = %q, type = \"S\" }\n", table.pk)
		if table.sk != "" {
			fmt.Fprintf(&b, "  sort_key            = { name = %q, type = \"S\" }\n", table.sk)
		}
		if table.gsiPK != "" {
			fmt.Fprintf(&b, "  global_secondary_indexes = {\n    by_%[1]s = { partition_key = [{ name = %[1]q, type = \"S\" }], projection_type = \"KEYS_ONLY\" }\n  }\n", table.gsiPK)
		}
		if len(table.tags) > 0 {
			b.WriteString("  tags = {\n")
			for _, k := range slices.Sorted(maps.Keys(table.tags)) {
				fmt.Fprintf(&b, "    %s = %q\n", k, table.tags[k])
			}
			b.WriteString("  }\n")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// auditedTableAddress is the address unchangedTableConfig gives a table's resource.
func auditedTableAddress(table auditedTable) string {
	return "dynamokeys_sharded_table." + strings.ReplaceAll(table.name, "-", "_")
}

// expectFindingRules checks the rule ids of the resource's findings, in the plan or the state.
func expectFindingRules(rules []string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(rules))
	for _, rule := range rules {
		checks = append(checks, knownvalue.ObjectPartial(map[string]knownvalue.Check{"rule": knownvalue.StringExact(rule)}))
	}
	return knownvalue.ListExact(checks)
}

// TestAccShardedTableImportUnchanged adopts tables made outside Terraform, with a configuration that
// describes each as it is (no design yet), as the audit's generated configuration does. Every way in plans
// no change: `terraform import` then a plan, an import block by name, by identity (Terraform or OpenTofu ≥
// 1.12) and by generated configuration. The read that follows an import fills the computed design outputs
// from what the table shows, so the first plan does not "change" them, and their findings are the audit's:
// DK302 on a status-named partition key, DK301 on a date-named one, none on a clean table. One TestCase
// holds the three tables, one resource each: every import step imports one of them (an import-block step
// plans it out of a copy of the state without it), and the plan and state checks look at each.
func TestAccShardedTableImportUnchanged(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	api := testAPI(t, endpoint)
	tables := []auditedTable{
		{name: "quiet-orders-prod", pk: "order_status", sk: "order_id"},
		{name: "quiet-events-prod", pk: "event_date", sk: "event_id", gsiPK: "email", tags: map[string]string{"team": "payments", "env": "prod"}},
		{name: "quiet-customers", pk: "customer_id", sk: "order_id", gsiPK: "email"},
	}
	for _, table := range tables {
		if err := createAuditedTable(t.Context(), api, table); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = api.DeleteTable(context.WithoutCancel(t.Context()), &dynamodb.DeleteTableInput{TableName: aws.String(table.name)})
		})
	}
	// What the audit finds on each table, before any import.
	server, schemas := listServer(t, endpoint)
	audit := map[string][]string{}
	for _, r := range listTables(t, server, schemas, map[string]tftypes.Value{"name_prefix": tftypes.NewValue(tftypes.String, "quiet-")}, false, 0) {
		audit[fmt.Sprint(r.identity["name"])] = warnedRules(r.warnings)
	}
	want := map[string][]string{"quiet-orders-prod": {"DK302"}, "quiet-events-prod": {"DK301"}, "quiet-customers": {}}
	for _, table := range tables {
		if !slices.Equal(audit[table.name], want[table.name]) {
			t.Fatalf("the audit of %s finds %v; want %v", table.name, audit[table.name], want[table.name])
		}
	}

	config := unchangedTableConfig(endpoint, tables...)
	findings := func(table auditedTable) knownvalue.Check { return expectFindingRules(want[table.name]) }
	quiet := func(table auditedTable, address string) resource.ImportPlanChecks {
		return resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectEmptyPlan(),
			plancheck.ExpectKnownValue(address, tfjsonpath.New("findings"), findings(table)),
		}}
	}
	var (
		imports, importBlocks, identities, generated []resource.TestStep
		planChecks                                   = []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
		stateChecks                                  []statecheck.StateCheck
	)
	for _, table := range tables {
		address := auditedTableAddress(table)
		// terraform import (into the TestCase's state), then a plan of the same configuration.
		imports = append(imports, resource.TestStep{
			Config: config, ResourceName: address, ImportState: true, ImportStateId: table.name, ImportStatePersist: true,
		})
		planChecks = append(planChecks, plancheck.ExpectKnownValue(address, tfjsonpath.New("findings"), findings(table)))
		stateChecks = append(stateChecks,
			statecheck.ExpectKnownValue(address, tfjsonpath.New("findings"), findings(table)),
			statecheck.ExpectKnownValue(address, tfjsonpath.New("design_document"), knownvalue.StringRegexp(expectError(`^dk1:`))),
		)
		importBlocks = append(importBlocks, resource.TestStep{
			Config: config, ResourceName: address, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: table.name,
			ImportPlanChecks: quiet(table, address),
		})
		identities = append(identities, resource.TestStep{
			Config: config, ResourceName: address, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
			SkipFunc:         stepNeedsCLI(t, 1, 12, "import by resource identity"),
			ImportPlanChecks: quiet(table, address),
		})
		// The configuration Terraform generates for an import block, planned as generated: the step imports
		// the table again as dynamokeys_sharded_table.generated, next to the three in the state.
		generated = append(generated, resource.TestStep{
			Config: config, ResourceName: address, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: table.name,
			GenerateConfig:   true,
			ImportPlanChecks: quiet(table, "dynamokeys_sharded_table.generated"),
		})
	}
	steps := append(imports, resource.TestStep{
		Config:            config,
		ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: planChecks},
		ConfigStateChecks: stateChecks,
	})
	steps = append(steps, importBlocks...)
	steps = append(steps, identities...)
	steps = append(steps, generated...)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
