package tflintruleset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"
)

// misspelledIssues runs every rule on files and returns the issues of UnknownAttributeRule.
func misspelledIssues(t *testing.T, files map[string]string) helper.Issues {
	t.Helper()
	var out helper.Issues
	for _, is := range runRules(t, files) {
		if is.Rule.Name() == UnknownAttributeRule {
			out = append(out, is)
		}
	}
	return out
}

// misspelled is the issue of key written where the schema's object path has no such attribute.
func misspelled(key, path, meant string, rng hcl.Range) *helper.Issue {
	return &helper.Issue{
		Rule: withSeverity{}, Range: rng,
		Message: fmt.Sprintf("dynamokeys: `%s` is not an attribute of `%s`; %s (Terraform drops an attribute the schema does not have "+
			"from a nested object before the provider sees it, so it would be planned and checked without it)", key, path, meant),
	}
}

// at is a range on one line of main.tf.
func at(line, startCol, endCol int) hcl.Range {
	return hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: line, Column: startCol}, End: hcl.Pos{Line: line, Column: endCol}}
}

// A design with a misspelling at each depth and in each kind of expression, and the same design spelled
// right.
const misspelledDesign = `locals {
  base_traffic = { item_size_bytes = 800, read_consistancy = "eventual" }
  tables = {
    orders = { traffic = { writes_per_secnd = 10 } }
  }
}

data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}#{customer_id}" }
  segments = {
    day         = { kind = "time", granularty = "day" }
    customer_id = { kind = "id" }
  }
  traffic = merge(local.base_traffic, { writes_per_secnd = 5 })
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customer_id", cardnality = 1000 }] }
  }
  entities = { for name in ["a", "b"] : name => {
    keys    = { pk = "DAY#{day}#{customer_id}" }
    traffic = { item_sise_bytes = 400 }
  } }
  migration = { phase = "done", from = { sharding = { stratgy = "none" } } }
}

resource "dynamokeys_sharded_table" "tables" {
  for_each      = local.tables
  name          = each.key
  partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }
  segments      = { customer_id = { kind = "id" } }
  traffic       = each.value.traffic
  point_in_time_recovery = var.pitr ? { enabled = true } : { enabeld = false }
}

data "dynamokeys_observed_traffic" "orders" {
  table_name = "orders"
  timeouts   = { reed = "5m" }
}

provider "dynamokeys" {
  policy = { enforec = false }
}

variable "pitr" {
  type    = bool
  default = true
}
`

var spelledRight = strings.NewReplacer(
	"read_consistancy", "read_consistency", "writes_per_secnd", "writes_per_second", "granularty", "granularity",
	"cardnality", "cardinality", "item_sise_bytes", "item_size_bytes", "stratgy", "strategy", "enabeld", "enabled",
	"reed", "read", "enforec", "enforce",
)

func TestUnknownAttributesAtTheirOwnRange(t *testing.T) {
	t.Parallel()
	helper.AssertIssues(t, helper.Issues{
		// Through a local, at the local's line: once, though merge and the table both read locals.
		misspelled("read_consistancy", "traffic", "did you mean `read_consistency`?", at(2, 43, 72)),
		// Through local.tables and each.value of the for_each that reads it.
		misspelled("writes_per_secnd", "traffic", "did you mean `writes_per_second`?", at(4, 28, 49)),
		// A map keyed by the user, walked by value.
		misspelled("granularty", "segments.day", "did you mean `granularity`?", at(11, 36, 54)),
		// Inside merge(...).
		misspelled("writes_per_secnd", "traffic", "did you mean `writes_per_second`?", at(14, 41, 61)),
		// A list of objects inside a map.
		misspelled("cardnality", "global_secondary_indexes.by_customer.partition_key[0]", "did you mean `cardinality`?", at(16, 62, 79)),
		// The value of a for expression.
		misspelled("item_sise_bytes", "entities[*].traffic", "did you mean `item_size_bytes`?", at(20, 17, 38)),
		// Three objects deep.
		misspelled("stratgy", "migration.from.sharding", "did you mean `strategy`?", at(22, 55, 71)),
		// Either branch of a conditional, on the resource.
		misspelled("enabeld", "point_in_time_recovery", "did you mean `enabled`?", at(31, 62, 77)),
		// The observed-traffic data source and the provider block.
		misspelled("reed", "timeouts", "did you mean `read`?", at(36, 18, 29)),
		misspelled("enforec", "policy", "did you mean `enforce`?", at(40, 14, 29)),
	}, misspelledIssues(t, map[string]string{"main.tf": misspelledDesign}))

	if got := misspelledIssues(t, map[string]string{"main.tf": spelledRight.Replace(misspelledDesign)}); len(got) > 0 {
		t.Errorf("the design spelled right reports %d unknown attributes: %v", len(got), got[0].Message)
	}
}

func TestUnknownAttributeWithoutACloseName(t *testing.T) {
	t.Parallel()
	files := map[string]string{"main.tf": `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "ID#{id}" }
  segments      = { id = { kind = "id" } }
  sharding      = { something = 1 }
}
`}
	helper.AssertIssues(t, helper.Issues{
		misspelled("something", "sharding", "its attributes are `count`, `scheme_version`, `source`, `strategy`", at(4, 21, 34)),
	}, misspelledIssues(t, files))
}

// What the rule cannot see it leaves alone: a variable's value, a function's result, a for expression's
// computed keys, a key that is an expression; an argument Terraform itself reports (a top-level one) is not
// this rule's; a local that reads itself ends the walk.
func TestUnknownAttributesLeavesAloneWhatItCannotSee(t *testing.T) {
	t.Parallel()
	files := map[string]string{"main.tf": `variable "traffic" {
  type    = any
  default = { writes_per_secnd = 1 }
}

locals {
  loop  = local.loop2
  loop2 = local.loop
  key   = "writes_per_secnd"
}

data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "ID#{id}" }
  segments      = { id = { kind = "id" } }
  traffic       = var.traffic
  sharding      = jsondecode("{\"stratgy\": \"none\"}")
  pricing       = { for k in ["regoin"] : k => "x" }
  sort_key      = { (local.key) = 1 }
  target_utilization = local.loop
  not_an_argument    = { foo = 1 }
}
`}
	if got := misspelledIssues(t, files); len(got) > 0 {
		t.Errorf("reported what it cannot see: %v", got[0].Message)
	}
}
