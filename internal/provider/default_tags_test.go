package provider

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestMergeTagsResourceWins(t *testing.T) {
	got := mergeTags(map[string]string{"env": "dev", "owner": "platform"}, map[string]string{"owner": "orders", "app": "shop"})
	want := map[string]string{"env": "dev", "owner": "orders", "app": "shop"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mergeTags = %v, want %v", got, want)
	}
}

func TestWithoutDefaultsKeepsOverrides(t *testing.T) {
	got := withoutDefaults(map[string]string{"env": "dev", "owner": "orders", "app": "shop"}, map[string]string{"env": "dev", "owner": "platform"})
	want := map[string]string{"owner": "orders", "app": "shop"} // owner overrides the default with another value
	if !reflect.DeepEqual(got, want) {
		t.Errorf("withoutDefaults = %v, want %v", got, want)
	}
}

func TestPlanTagsAllUnknown(t *testing.T) {
	ctx := t.Context()
	defaults := defaultTags{tags: map[string]string{"env": "dev"}}
	partly := types.MapValueMust(types.StringType, map[string]attr.Value{"a": types.StringValue("1"), "b": types.StringUnknown()})
	for name, tc := range map[string]struct {
		defaults defaultTags
		own      types.Map
	}{
		"unknown tags":           {defaults, types.MapUnknown(types.StringType)},
		"a tag value unknown":    {defaults, partly},
		"unknown default_tags":   {defaultTags{unknown: true}, types.MapNull(types.StringType)},
		"unknown in both places": {defaultTags{unknown: true}, partly},
	} {
		got, diags := planTagsAll(ctx, tc.defaults, tc.own)
		if diags.HasError() || !got.IsUnknown() {
			t.Errorf("%s: tags_all = %v (%v), want unknown", name, got, diags)
		}
	}
	got, _ := planTagsAll(ctx, defaults, types.MapNull(types.StringType))
	if want := stringMap(map[string]string{"env": "dev"}); !got.Equal(want) {
		t.Errorf("no resource tags: tags_all = %v, want %v", got, want)
	}
	got, _ = planTagsAll(ctx, defaultTags{}, types.MapNull(types.StringType))
	if got.IsNull() || got.IsUnknown() || len(got.Elements()) != 0 {
		t.Errorf("no tags at all: tags_all = %v, want a known empty map (what the table reports back)", got)
	}
}

func TestReadTags(t *testing.T) {
	defaults := defaultTags{tags: map[string]string{"env": "dev", "owner": "platform"}}
	table := map[string]string{"env": "dev", "owner": "orders", "rogue": "yes"}
	configured := stringMap(map[string]string{"owner": "orders"})

	// A managed table: tags keep the configuration, tags_all is what the table carries.
	m := shardedTableModel{Tags: configured, TagsAll: stringMap(map[string]string{"env": "dev", "owner": "orders"})}
	readTags(table, defaults, &m)
	if !m.Tags.Equal(configured) || !m.TagsAll.Equal(stringMap(table)) {
		t.Errorf("managed: tags = %v, tags_all = %v", m.Tags, m.TagsAll)
	}

	// An import: tags are the table's tags minus those equal to a default.
	m = shardedTableModel{Tags: types.MapNull(types.StringType), TagsAll: types.MapNull(types.StringType)}
	readTags(table, defaults, &m)
	if want := stringMap(map[string]string{"owner": "orders", "rogue": "yes"}); !m.Tags.Equal(want) || !m.TagsAll.Equal(stringMap(table)) {
		t.Errorf("import: tags = %v, want %v; tags_all = %v", m.Tags, want, m.TagsAll)
	}

	// An import of a table carrying only default tags: tags stay null, as in a configuration without tags.
	m = shardedTableModel{Tags: types.MapNull(types.StringType), TagsAll: types.MapNull(types.StringType)}
	readTags(map[string]string{"env": "dev"}, defaults, &m)
	if !m.Tags.IsNull() {
		t.Errorf("import of default tags only: tags = %v, want null", m.Tags)
	}

	// An endpoint that does not report tags leaves both alone.
	m = shardedTableModel{Tags: configured, TagsAll: configured}
	readTags(nil, defaults, &m)
	if !m.Tags.Equal(configured) || !m.TagsAll.Equal(configured) {
		t.Errorf("unreported: tags = %v, tags_all = %v", m.Tags, m.TagsAll)
	}
}

// expectUnchanged checks that the planned change of address leaves each attribute as it was.
type expectUnchanged struct {
	address string
	attrs   []string
}

func (e expectUnchanged) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != e.address || rc.Change == nil {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		for _, a := range e.attrs {
			if !reflect.DeepEqual(before[a], after[a]) {
				resp.Error = fmt.Errorf("%s.%s changes from %v to %v", e.address, a, before[a], after[a])
				return
			}
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change of %s", e.address)
}

func tagsValue(tags map[string]string) knownvalue.Check {
	checks := map[string]knownvalue.Check{}
	for k, v := range tags {
		checks[k] = knownvalue.StringExact(v)
	}
	return knownvalue.MapExact(checks)
}

// TestAccShardedTableDefaultTags: default tags applied and overridden by a resource tag; a change in the
// provider block is an in-place update; a tag changed, added or removed outside Terraform is a diff of
// tags_all that apply reverts; an import reads tags and tags_all back with no diff.
func TestAccShardedTableDefaultTags(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "default-tags-orders"
	config := func(defaults string) string {
		return providerBlockWith(endpoint, "default_tags = { tags = "+defaults+" }") +
			smallTableResource(name, `deletion_protection = false
  tags = { owner = "orders", app = "shop" }`)
	}
	own := map[string]string{"owner": "orders", "app": "shop"}
	dev := map[string]string{"env": "dev", "owner": "orders", "app": "shop"}
	prod := map[string]string{"env": "prod", "owner": "orders", "app": "shop"}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{
			{
				// The framework's post-apply plan must be empty: no perpetual diff of tags or tags_all.
				Config: config(`{ env = "dev", owner = "platform" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags_all"), tagsValue(dev)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags"), tagsValue(own)),
					statecheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags_all"), tagsValue(dev)),
				},
				Check: checkTable(api, name, nil, dev, "PAY_PER_REQUEST"),
			},
			{
				Config: config(`{ env = "prod", owner = "platform" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags_all"), tagsValue(prod)),
					expectUnchanged{smallAddress, []string{"tags"}},
				}},
				Check: checkTable(api, name, nil, prod, "PAY_PER_REQUEST"),
			},
			{
				// Out of band: a default tag changed, a tag added, a resource tag removed.
				PreConfig: func() {
					ctx := t.Context()
					out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: out.Table.TableArn, Tags: []dtypes.Tag{
						{Key: aws.String("env"), Value: aws.String("rogue")}, {Key: aws.String("extra"), Value: aws.String("yes")}}}); err != nil {
						t.Fatal(err)
					}
					if _, err := api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: out.Table.TableArn, TagKeys: []string{"app"}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(`{ env = "prod", owner = "platform" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(smallAddress, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags_all"), tagsValue(prod)),
					expectUnchanged{smallAddress, []string{"tags"}},
				}},
				Check: checkTable(api, name, nil, prod, "PAY_PER_REQUEST"),
			},
			{
				ResourceName: smallAddress, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: smallTableMetadata,
			},
			{
				// Through an import block: the plan fills in design metadata only; tags and tags_all stay.
				ResourceName:       smallAddress,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithID,
				ImportStateId:      name,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					expectUnchanged{smallAddress, []string{"tags", "tags_all"}},
					plancheck.ExpectKnownValue(smallAddress, tfjsonpath.New("tags"), tagsValue(own)),
				}},
			},
		},
	})
}

// TestShardedTableTagsAllUnknownWithUnknownTags: a tag value known only after apply makes tags_all unknown
// in the plan, instead of a merge that apply would contradict.
func TestShardedTableTagsAllUnknownWithUnknownTags(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlockWith("http://127.0.0.1:1", `default_tags = { tags = { env = "dev" } }`) + `
resource "terraform_data" "owner" {
  input = "orders"
}
` + smallTableResource("unknown-tags", `tags = { owner = terraform_data.owner.output }`),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(smallAddress, tfjsonpath.New("tags_all")),
			}},
		}},
	})
}
