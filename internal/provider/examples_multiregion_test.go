package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// The multi-region example module feeds the AWS provider's aws_dynamodb_table, which cannot be installed
// here (no registry access), so the module as a whole is never planned. What is checked instead:
//
//   - TestAccExamplesPlan plans its dynamokeys half (variables, the data source, the locals that shape its
//     outputs, and the design outputs), with table.tf, outputs.tf and the aws requirement removed
//     (multiRegionDataSourceHalf);
//   - TestMultiRegionExampleReplicas evaluates that half with the provider and checks the values the
//     locals hand to aws_dynamodb_table: keys, attribute definitions with resolved types, and the index
//     blocks (hash_key/range_key, or key_schema for a multi-attribute key; projection ALL by default);
//   - TestMultiRegionExampleTableText checks that table.tf wires every one of those locals into the right
//     argument, that every local it reads exists, and that the module is terraform fmt clean.
//
// Not checked: that the AWS provider accepts table.tf (its schema, the key_schema block, replica arguments).
const multiRegionModule = "examples/modules/multi-region-table"

// multiRegionDataSourceHalf keeps the dynamokeys half of the module in a copy of it.
func multiRegionDataSourceHalf(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"table.tf", "outputs.tf"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	versions := "terraform {\n  required_providers {\n    dynamokeys = { source = \"dynamokeys/dynamokeys\" }\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "versions.tf"), []byte(versions), 0o600); err != nil {
		t.Fatal(err)
	}
}

// examplePreparers adapt the copy of an example directory before TestAccExamplesPlan plans it.
var examplePreparers = map[string]func(t *testing.T, dir string){
	multiRegionModule: multiRegionDataSourceHalf,
}

func readModuleFile(t *testing.T, name string) string {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, multiRegionModule, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMultiRegionExampleReplicas: the module's key design carries its Regions, consistency and witness to the
// data source, which prices every Region and fails an MRSC plan that breaks a limit before aws_dynamodb_table
// is applied. Its first step also checks the values the locals hand to aws_dynamodb_table (the wiring).
func TestMultiRegionExampleReplicas(t *testing.T) {
	t.Parallel()
	attr := func(name, typ string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(name), "type": knownvalue.StringExact(typ)})
	}
	element := func(name, keyType string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"attribute_name": knownvalue.StringExact(name), "key_type": knownvalue.StringExact(keyType)})
	}
	variables := readModuleFile(t, "variables.tf")
	half := readModuleFile(t, "keydesign.tf") + readModuleFile(t, "design_outputs.tf")
	with := func(defaults ...string) string {
		v := variables
		for i := 0; i+1 < len(defaults); i += 2 {
			v = strings.Replace(v, defaults[i], defaults[i+1], 1)
		}
		return v + half
	}
	region := func() knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"on_demand": knownvalue.NotNull(), "provisioned": knownvalue.NotNull()})
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: with(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValueAtPath("cost_per_region", tfjsonpath.New("regions"), knownvalue.MapExact(map[string]knownvalue.Check{
						"us-east-1": region(), "eu-west-1": region(), "ap-northeast-1": region(),
					})),
					statecheck.ExpectKnownOutputValueAtPath("cost_per_region", tfjsonpath.New("all_regions").AtMapKey("on_demand"), knownvalue.NotNull()),
					statecheck.ExpectKnownOutputValue("hash_key", knownvalue.StringExact("pk")),
					statecheck.ExpectKnownOutputValue("range_key", knownvalue.StringExact("sk")),
					// Sorted by name; created_at is N as declared, the rest resolve to S.
					statecheck.ExpectKnownOutputValue("attributes", knownvalue.ListExact([]knownvalue.Check{
						attr("created_at", "N"), attr("pk", "S"), attr("region", "S"), attr("sk", "S"), attr("status", "S"), attr("tenant_id", "S"),
					})),
					statecheck.ExpectKnownOutputValue("global_secondary_indexes", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name": knownvalue.StringExact("by_status"), "hash_key": knownvalue.StringExact("status"),
							"range_key": knownvalue.StringExact("created_at"), "key_schema": knownvalue.ListSizeExact(0),
							"projection_type": knownvalue.StringExact("KEYS_ONLY"), "non_key_attributes": knownvalue.Null(),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name": knownvalue.StringExact("by_tenant_region"), "hash_key": knownvalue.Null(), "range_key": knownvalue.Null(),
							"key_schema": knownvalue.ListExact([]knownvalue.Check{
								element("tenant_id", "HASH"), element("region", "HASH"), element("created_at", "RANGE"),
							}),
							"projection_type": knownvalue.StringExact("ALL"), "non_key_attributes": knownvalue.Null(),
						}),
					})),
				},
			},
			{
				// MRSC across the US, EU and AP Region sets.
				Config:      with(`default     = "eventual"`, `default     = "strong"`),
				ExpectError: expectError(`DK604 .*cannot span Region sets`),
			},
			{
				// MRSC in the US Region set with two replicas and a witness passes.
				Config: with(`default     = "eventual"`, `default     = "strong"`, `default     = ["eu-west-1", "ap-northeast-1"]`, `default     = ["us-east-2"]`,
					`type        = string
  default     = null`, `type        = string
  default     = "us-west-2"`),
			},
		},
	})
}

func TestMultiRegionExampleTableText(t *testing.T) {
	table := readModuleFile(t, "table.tf")
	for _, wiring := range []string{
		`resource "aws_dynamodb_table" "this"`,
		`hash_key\s+= local\.hash_key\n`,
		`range_key\s+= local\.range_key\n`,
		`(?s)dynamic "attribute" \{\s+for_each = local\.attributes\s+content \{\s+name = attribute\.value\.name\s+type = attribute\.value\.type`,
		`(?s)dynamic "global_secondary_index" \{\s+for_each = local\.global_secondary_indexes\s+content \{`,
		`name\s+= global_secondary_index\.value\.name\n`,
		`hash_key\s+= global_secondary_index\.value\.hash_key\n`,
		`range_key\s+= global_secondary_index\.value\.range_key\n`,
		`projection_type\s+= global_secondary_index\.value\.projection_type\n`,
		`non_key_attributes\s+= global_secondary_index\.value\.non_key_attributes\n`,
		`(?s)dynamic "key_schema" \{\s+for_each = global_secondary_index\.value\.key_schema\s+content \{\s+attribute_name = key_schema\.value\.attribute_name\s+key_type\s+= key_schema\.value\.key_type`,
		`(?s)dynamic "replica" \{\s+for_each = var\.replica_regions\s+content \{\s+region_name\s+= replica\.value\s+consistency_mode\s+= upper\(var\.consistency\)`,
		`(?s)dynamic "global_table_witness" \{\s+for_each = var\.witness_region == null \? \[\] : \[var\.witness_region\]\s+content \{\s+region_name = global_table_witness\.value`,
		`region\s+= var\.region\n`,
		`stream_view_type = "NEW_AND_OLD_IMAGES"`,
	} {
		if !regexp.MustCompile(wiring).MatchString(table) {
			t.Errorf("table.tf does not match %s", wiring)
		}
	}
	keydesign := readModuleFile(t, "keydesign.tf")
	for _, m := range regexp.MustCompile(`local\.(\w+)`).FindAllStringSubmatch(table, -1) {
		if !regexp.MustCompile(`(?m)^  ` + m[1] + `\s+=`).MatchString(keydesign) {
			t.Errorf("table.tf reads local.%s, which keydesign.tf does not define", m[1])
		}
	}

	tf, err := testutil.EnsureTerraformCLI()
	if err != nil {
		t.Fatal(err)
	}
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tf, "fmt", "-check", "-diff", "-recursive", filepath.Join(root, multiRegionModule))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("terraform fmt -check: %v\n%s", err, strings.TrimSpace(string(out)))
	}
}
