package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

func TestTagProblems(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, key, value string
		valueKnown       bool
		want             []string
	}{
		{"plain tag", "cost-center", "Orders Team 42", true, nil},
		{"letters and numbers of any script, spaces, every special character", "équipe_名前 1", "a+b-c=d.e_f:g/h ٣", true, nil},
		{"empty value", "team", "", true, nil},
		{"128-character key and 256-character value", strings.Repeat("é", 128), strings.Repeat("ü", 256), true, nil},
		{"empty key", "", "x", true, []string{"a tag key must have 1 to 128 characters; this one is empty."}},
		{"129-character key", strings.Repeat("k", 129), "x", true, []string{"the key has 129 characters; DynamoDB allows at most 128."}},
		{"257-character value", "team", strings.Repeat("v", 257), true, []string{"the value has 257 characters; DynamoDB allows at most 256."}},
		{"reserved prefix", "aws:cloudformation:stack-name", "x", true,
			[]string{`keys starting with "aws:" (in any case) are reserved for the tags AWS assigns; choose another key.`}},
		{"reserved prefix in mixed case", "Aws:team", "x", true,
			[]string{`keys starting with "aws:" (in any case) are reserved for the tags AWS assigns; choose another key.`}},
		{"a prefix that is not the reserved one", "awsteam", "aws:value", true, nil},
		{"characters outside the set, each once", "a*b*c", "x@y!z@", true, []string{
			"the key contains '*'; DynamoDB allows letters, numbers, spaces and + - = . _ : /.",
			"the value contains '@', '!'; DynamoDB allows letters, numbers, spaces and + - = . _ : /.",
		}},
		{"a tab is not a space", "team", "a\tb", true, []string{`the value contains '\t'; DynamoDB allows letters, numbers, spaces and + - = . _ : /.`}},
		{"unknown value: the key alone", "aws:x", strings.Repeat("v", 300), false,
			[]string{`keys starting with "aws:" (in any case) are reserved for the tags AWS assigns; choose another key.`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tagProblems(tt.key, tt.value, tt.valueKnown); !slices.Equal(got, tt.want) {
				t.Errorf("tagProblems(%q, %q) =\n%q\nwant\n%q", tt.key, tt.value, got, tt.want)
			}
		})
	}
}

// TestAccTagRulesOnDefaultTagsAndTagsAll: the provider's default_tags are checked like a table's tags, and
// the merged tags_all must fit on one table; each fails at plan and creates nothing. The cases are planned
// together (expectEachError), each with a provider block of its own (an alias) that its table uses.
func TestAccTagRulesOnDefaultTagsAndTagsAll(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	api := testAPI(t, endpoint)
	var cases []errorCase
	for i, tt := range []struct {
		name, defaultTags, tags, expect string
	}{
		{"reserved prefix in default_tags", `{ "aws:owner" = "platform" }`, `null`,
			`default_tags\.tags\["aws:owner"\]: keys starting with "aws:" \(in any case\) are reserved`},
		{"value too long in default_tags", `{ owner = format("%0300d", 0) }`, `null`,
			`default_tags\.tags\["owner"\]: the value has 300 characters; DynamoDB allows at most 256`},
		{"more default tags than a table carries", `{ for i in range(60) : "d${i}" => "v" }`, `null`,
			`default_tags\.tags has 60 tags; DynamoDB allows at most 50 tags per table`},
		{"default_tags and tags together above the limit", `{ for i in range(30) : "d${i}" => "v" }`, `{ for i in range(30) : "t${i}" => "v" }`,
			`tags_all \(the provider's default_tags merged with tags\) has 60 tags; DynamoDB allows at most 50 tags per table\. Remove 10`},
	} {
		name, label := fmt.Sprintf("bad-tags-%02d", i), caseLabel(i)
		provider := strings.Replace(providerBlockWith(endpoint, "default_tags = { tags = "+tt.defaultTags+" }"),
			`provider "dynamokeys" {`, fmt.Sprintf("provider \"dynamokeys\" {\n  alias = %q", label), 1)
		cases = append(cases, errorCaseOf(tt.name, provider+fmt.Sprintf(`
resource "dynamokeys_sharded_table" %q {
  provider      = dynamokeys.%s
  name          = %q
  partition_key = { name = "pk" }
  tags          = %s
}
`, label, label, name, tt.tags), tt.expect))
	}
	expectEachError(t, providerBlock(endpoint), cases)
	for i, tt := range cases {
		if name := fmt.Sprintf("bad-tags-%02d", i); tableNames(t, api)[name] {
			t.Errorf("%s: table %s exists after its plan was rejected", tt.name, name)
		}
	}
}

// TestAccTagsAllAtTheLimitApplies: 50 tags, some from default_tags and some from the table, some sharing a
// key, are exactly what a table may carry: the apply succeeds.
func TestAccTagsAllAtTheLimitApplies(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "tags-at-the-limit"
	want := map[string]string{}
	for i := range 30 {
		want[fmt.Sprintf("d%d", i)] = "default"
	}
	for i := 25; i < 50; i++ {
		want[fmt.Sprintf("d%d", i)] = "own" // d25 to d29 override a default tag
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkTableGone(api, name),
		Steps: []resource.TestStep{{
			Config: providerBlockWith(endpoint, `default_tags = { tags = { for i in range(30) : "d${i}" => "default" } }`) + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  deletion_protection = false
  partition_key       = { name = "pk" }
  tags                = { for i in range(25, 50) : "d${i}" => "own" }
}
`, name),
			Check: checkTable(api, name, nil, want, "PAY_PER_REQUEST"),
		}},
	})
}
