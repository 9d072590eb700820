package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// badInput is one careless or hostile input and the diagnostic it must produce. Design inputs are given as
// attributes of a dynamokeys_sharded_table (the riskier path: nothing may reach DynamoDB), with these
// defaults unless the case sets them.
type badInput struct {
	name   string
	attrs  string // attributes inside the resource or data source block
	expect string // regexp on the Terraform output: the attribute path or rule id and what is wrong
}

const (
	defaultPartitionKey = `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}" }`
	defaultSortKey      = `sort_key = { name = "sk", template = "ORDER#{order_id}" }`
	defaultSegments     = `segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id" }
  }`
)

// withDefaults adds the default keys and segments the case does not set itself.
func withDefaults(attrs string) string {
	out := []string{attrs}
	for _, d := range []struct{ name, value string }{{"partition_key", defaultPartitionKey}, {"sort_key", defaultSortKey}, {"segments", defaultSegments}} {
		if !regexp.MustCompile(`(?m)^\s*` + d.name + `\s*=`).MatchString(attrs) {
			out = append(out, d.value)
		}
	}
	return strings.Join(out, "\n  ")
}

// tableBadInputs are rejected at plan; the test also proves that no table of that name exists afterwards.
// Deletion protection stays at its default (on), so a table that a faulty plan let through would survive
// the test's final destroy and be found.
var tableBadInputs = []badInput{
	// Templates.
	{"template never closed", `partition_key = { name = "pk", template = "CUSTOMER#{customer_id" }`, `partition_key\.template: template .* is malformed`},
	{"empty placeholder", `partition_key = { name = "pk", template = "CUSTOMER#{}" }`, `partition_key\.template: template .* is malformed`},
	{"upper-case placeholder", `partition_key = { name = "pk", template = "CUSTOMER#{Customer}" }`, `partition_key\.template: template .* is malformed`},
	{"brace in literal text", `sort_key = { name = "sk", template = "ORDER}#{order_id}" }`, `sort_key\.template: template .* is malformed`},
	{"undeclared placeholder", `partition_key = { name = "pk", template = "TENANT#{tenant}" }`, `DK104`},
	{"number key with text", `partition_key = { name = "pk", type = "N", template = "CUSTOMER#{customer_id}" }`, `DK105`},
	{"segment named shard", `segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id" }
    shard       = { kind = "id" }
  }`, `segments\.shard: \{shard\} is reserved`},
	{"partition key too long", `segments = {
    customer_id = { kind = "id", max_length = 3000 }
    order_id    = { kind = "id" }
  }`, `DK102`},
	{"sort key too long", `segments = {
    customer_id = { kind = "id" }
    order_id    = { kind = "id", max_length = 2000 }
  }`, `DK103`},
	// Segments.
	{"unknown segment kind", `segments = {
    customer_id = { kind = "uuid" }
    order_id    = { kind = "id" }
  }`, `segments\["customer_id"\]\.kind value must be one of`},
	{"time without granularity", `segments = {
    customer_id = { kind = "time" }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.granularity: a time segment needs a granularity`},
	{"unknown granularity", `segments = {
    customer_id = { kind = "time", granularity = "fortnight" }
    order_id    = { kind = "id" }
  }`, `segments\["customer_id"\]\.granularity value must be one of`},
	{"granularity on an id", `segments = {
    customer_id = { kind = "id", granularity = "day" }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.granularity: granularity applies only to time segments`},
	{"values on an id", `segments = {
    customer_id = { kind = "id", values = ["a"] }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.values: values apply only to enum segments`},
	{"enum without values", `segments = {
    customer_id = { kind = "enum" }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.values: an enum segment needs at least one value`},
	{"enum value twice", `segments = {
    customer_id = { kind = "enum", values = ["a", "a"] }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.values: value "a" is listed twice`},
	{"max_length zero", `segments = {
    customer_id = { kind = "id", max_length = 0 }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.max_length: max_length must be at least 1`},
	{"max_length beyond any item", `segments = {
    customer_id = { kind = "id", max_length = 1e12 }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.max_length: must be at most 409,600 bytes`},
	{"max_length not whole", `segments = {
    customer_id = { kind = "id", max_length = 2.5 }
    order_id    = { kind = "id" }
  }`, `segments\["customer_id"\]\.max_length must be a whole number, got 2\.5`},
	{"cardinality zero", `segments = {
    customer_id = { kind = "id", cardinality = 0 }
    order_id    = { kind = "id" }
  }`, `segments\.customer_id\.cardinality: cardinality must be at least 1`},
	// Sharding.
	{"unknown strategy", `sharding = { strategy = "modulo" }`, `sharding\.strategy`},
	{"shard count zero", `sharding = { strategy = "calculated", source = "order_id", count = 0 }`, `sharding\.count: must be between 1 and 100000`},
	{"shard count above the maximum", `sharding = { strategy = "calculated", source = "order_id", count = 100001 }`, `sharding\.count: must be between 1 and 100000`},
	{"shard count not whole", `sharding = { strategy = "calculated", source = "order_id", count = 2.5 }`, `sharding\.count must be a whole number, got 2\.5`},
	{"scheme version zero", `sharding = { strategy = "calculated", source = "order_id", count = 2, scheme_version = 0 }`, `sharding\.scheme_version: must be ≥ 1`},
	{"calculated without source", `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}#{shard}" }
  sharding = { strategy = "calculated", count = 4 }`, `DK405`},
	{"sharding without shard placeholder", `sharding = { strategy = "calculated", source = "order_id", count = 4 }`, `DK403`},
	{"shard placeholder without sharding", `partition_key = { name = "pk", template = "CUSTOMER#{customer_id}#{shard}" }`, `DK403`},
	// Migrations.
	{"unknown migration phase", `migration = { phase = "cutover", from = { partition_key_template = "C#{customer_id}" } }`, `migration\.phase value must be one of`},
	{"migration from the same layout", `migration = { phase = "dual_write", from = {} }`, `migration\.from: the old layout is the design's own`},
	{"backfill rate zero", `migration = { phase = "dual_write", from = { partition_key_template = "C#{customer_id}" }, backfill_write_units_per_second = 0 }`,
		`migration\.backfill_write_units_per_second: must be a write rate above 0`},
	{"old template malformed", `migration = { phase = "dual_write", from = { partition_key_template = "C#{customer_id" } }`,
		`migration\.from\.partition_key_template: template .* is malformed`},
	{"old shard count missing", `migration = { phase = "backfill", from = { sharding = { strategy = "calculated", source = "order_id" } } }`,
		`migration\.from\.sharding\.count: state the shard count the old items were written with`},
	// Traffic.
	{"negative writes", `traffic = { writes_per_second = -1 }`, `traffic\.writes_per_second: must be a finite number ≥ 0`},
	{"writes beyond any table", `traffic = { writes_per_second = 1e308, item_size_bytes = 409600 }`, `traffic\.writes_per_second: must be at most 1,000,000,000 per second`},
	{"writes beyond a float", `traffic = { writes_per_second = 1e400 }`, `traffic\.writes_per_second must be a number within the range of a 64-bit float`},
	{"reads beyond any table", `traffic = { reads_per_second = 2e9 }`, `traffic\.reads_per_second: must be at most 1,000,000,000 per second`},
	{"hottest item beyond any table", `traffic = { hottest_item_writes_per_second = 1e10 }`, `traffic\.hottest_item_writes_per_second: must be at most`},
	{"item size zero", `traffic = { item_size_bytes = 0 }`, `traffic\.item_size_bytes: must be between 1 and 409600`},
	{"item size above 400 KB", `traffic = { item_size_bytes = 409601 }`, `traffic\.item_size_bytes: must be between 1 and 409600`},
	{"item size not whole", `traffic = { item_size_bytes = 800.5 }`, `traffic\.item_size_bytes must be a whole number`},
	{"unknown read consistency", `traffic = { read_consistency = "linearizable" }`, `traffic\.read_consistency`},
	{"hot key share above one", `traffic = { hot_key_share = 1.5 }`, `traffic\.hot_key_share: is a share of traffic and must be between 0 and 1`},
	{"negative items per key", `traffic = { max_items_per_partition_key = -1 }`, `traffic\.max_items_per_partition_key: must be ≥ 0`},
	{"items per key beyond any table", `traffic = { max_items_per_partition_key = 1e13 }`, `traffic\.max_items_per_partition_key: must be at most 1,000,000,000,000`},
	{"target utilization zero", `target_utilization = 0`, `target_utilization: must be in \(0, 1\]`},
	{"target utilization above one", `target_utilization = 1.2`, `target_utilization: must be in \(0, 1\]`},
	{"hot key beyond a partition", `traffic = { writes_per_second = 5000, hot_key_share = 1 }`, `DK303`},
	{"hot item beyond a partition", `traffic = { hottest_item_writes_per_second = 2000 }`, `DK304`},
	// Indexes.
	{"one attribute, two types: table and GSI", `global_secondary_indexes = {
    by_sk = { partition_key = [{ name = "sk", type = "N" }] }
  }`, `global_secondary_indexes\.by_sk\.partition_key\[0\]\.type: attribute "sk" is type N here but S at sort_key`},
	{"one attribute, two types: LSI and GSI", `local_secondary_indexes = {
    by_created = { sort_key = { name = "created", type = "N" } }
  }
  global_secondary_indexes = {
    by_created = { partition_key = [{ name = "customer" }], sort_key = [{ name = "created", type = "S" }] }
  }`, `attribute "created" is type`},
	{"GSI and LSI with one name", `local_secondary_indexes = {
    by_created = { sort_key = { name = "created" } }
  }
  global_secondary_indexes = {
    by_created = { partition_key = [{ name = "customer" }] }
  }`, `global_secondary_indexes\.by_created: index name "by_created" is also the name of a local secondary index`},
	{"GSI without partition attributes", `global_secondary_indexes = {
    by_nothing = { partition_key = [] }
  }`, `DK108`},
	{"GSI with five partition attributes", `global_secondary_indexes = {
    by_five = { partition_key = [{ name = "a" }, { name = "b" }, { name = "c" }, { name = "d" }, { name = "e" }] }
  }`, `DK108`},
	{"attribute twice in one GSI key", `global_secondary_indexes = {
    by_twice = { partition_key = [{ name = "region" }], sort_key = [{ name = "region" }] }
  }`, `global_secondary_indexes\.by_twice\.sort_key\[0\]\.name: attribute "region" is already in this index's key`},
	{"INCLUDE without attributes", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], projection_type = "INCLUDE" }
  }`, `global_secondary_indexes\.by_region\.non_key_attributes: projection_type = "INCLUDE" needs at least one`},
	{"non-key attributes with ALL", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], non_key_attributes = ["total"] }
  }`, `global_secondary_indexes\.by_region\.non_key_attributes: non_key_attributes apply only to projection_type = "INCLUDE"`},
	{"projected attribute twice", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], projection_type = "INCLUDE", non_key_attributes = ["total", "total"] }
  }`, `global_secondary_indexes\.by_region\.non_key_attributes: "total" is listed twice`},
	{"unknown projection", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], projection_type = "SOME" }
  }`, `projection_type`},
	{"GSI cardinality zero", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region", cardinality = 0 }] }
  }`, `global_secondary_indexes\.by_region\.partition_key\[0\]\.cardinality: must be at least 1`},
	{"six LSIs", `local_secondary_indexes = {
    l1 = { sort_key = { name = "a1" } }
    l2 = { sort_key = { name = "a2" } }
    l3 = { sort_key = { name = "a3" } }
    l4 = { sort_key = { name = "a4" } }
    l5 = { sort_key = { name = "a5" } }
    l6 = { sort_key = { name = "a6" } }
  }`, `DK201`},
	{"LSI without a table sort key", `sort_key = null
  local_secondary_indexes = {
    by_created = { sort_key = { name = "created" } }
  }`, `DK202`},
	{"LSI sorted by the partition key", `local_secondary_indexes = {
    by_pk = { sort_key = { name = "pk" } }
  }`, `local_secondary_indexes\.by_pk\.sort_key\.name: the LSI sort key is the table's partition key`},
	{"bool key type", `partition_key = { name = "pk", type = "BOOL", template = "CUSTOMER#{customer_id}" }`, `DK101`},
	{"one-letter index name", `global_secondary_indexes = {
    g = { partition_key = [{ name = "region" }] }
  }`, `DK107`},
	// Table settings.
	{"table name too short", ``, `DK107`},
	{"sort key is the partition key", `sort_key = { name = "pk", template = "ORDER#{order_id}" }`, `sort_key\.name: the sort key and the partition key are both "pk"`},
	{"provisioned without capacity", `billing_mode = "PROVISIONED"`, `Missing provisioned capacity`},
	{"capacity on demand", `read_capacity = 5`, `Capacity without PROVISIONED billing`},
	{"capacity zero", `billing_mode = "PROVISIONED"
  read_capacity = 0
  write_capacity = 5`, `read_capacity: must be between 1 and 1,000,000,000 capacity units, got 0`},
	{"capacity not whole", `billing_mode = "PROVISIONED"
  read_capacity = 2.5
  write_capacity = 5`, `read_capacity must be a whole number, got 2\.5`},
	{"capacity beyond any table", `billing_mode = "PROVISIONED"
  read_capacity = 5e9
  write_capacity = 5`, `read_capacity: must be between 1 and 1,000,000,000 capacity units`},
	{"index capacity on demand", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], read_capacity = 5 }
  }`, `Index capacity without PROVISIONED billing`},
	{"unknown billing mode", `billing_mode = "SERVERLESS"`, `billing_mode`},
	{"unknown table class", `table_class = "GLACIER"`, `table_class`},
	{"TTL without attribute", `ttl = { enabled = true }`, `ttl is enabled but has no attribute_name`},
	{"on-demand caps on a provisioned table", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 5
  on_demand_throughput = { max_read_request_units = 100 }`, `on_demand_throughput of the table applies only to billing_mode = "PAY_PER_REQUEST"`},
	{"autoscaling on an on-demand table", `autoscaling = { write = { min = 5, max = 100 } }`, `autoscaling of the table describes an application autoscaling target`},
	{"index autoscaling on an on-demand table", `global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], autoscaling = { read = { min = 1, max = 10 } } }
  }`, `autoscaling of GSI by_region describes an application autoscaling target`},
	{"index caps on a provisioned table", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 5
  global_secondary_indexes = {
    by_region = { partition_key = [{ name = "region" }], read_capacity = 5, write_capacity = 5, on_demand_throughput = { max_write_request_units = 10 } }
  }`, `on_demand_throughput of GSI by_region applies only to billing_mode = "PAY_PER_REQUEST"`},
	{"capacity outside the autoscaling range", `billing_mode = "PROVISIONED"
  read_capacity = 5
  write_capacity = 500
  autoscaling = { write = { min = 5, max = 100 } }`, `write_capacity of the table is 500, outside its autoscaling range 5 to 100`},
	// Settings switched off by their own block, with a value for the feature.
	{"recovery period with recovery off", `point_in_time_recovery = { enabled = false, recovery_period_in_days = 7 }`, `point_in_time_recovery\.recovery_period_in_days applies only with enabled = true`},
	{"view type of a disabled stream", `stream = { enabled = false, view_type = "NEW_IMAGE" }`, `stream\.view_type applies only with enabled = true`},
	{"KMS key with encryption off", `server_side_encryption = { enabled = false, kms_key_arn = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab" }`, `server_side_encryption\.kms_key_arn applies only with enabled = true`},
	// TTL on a key attribute that can never hold a number.
	{"TTL on the string partition key", `ttl = { attribute_name = "pk" }`, `ttl\.attribute_name is "pk", the key attribute at partition_key of type S`},
	{"TTL on a binary GSI key", `ttl = { attribute_name = "expires" }
  global_secondary_indexes = {
    by_expiry = { partition_key = [{ name = "region" }], sort_key = [{ name = "expires", type = "B" }] }
  }`, `ttl\.attribute_name is "expires", the key attribute at global_secondary_indexes\.by_expiry\.sort_key\[0\] of type B`},
	{"TTL on a string LSI sort key", `ttl = { attribute_name = "created" }
  local_secondary_indexes = {
    by_created = { sort_key = { name = "created" } }
  }`, `ttl\.attribute_name is "created", the key attribute at local_secondary_indexes\.by_created\.sort_key of type S`},
	// Tags DynamoDB refuses.
	{"reserved tag prefix", `tags = { "aws:team" = "orders" }`, `tags\["aws:team"\]: keys starting with "aws:" \(in any case\) are reserved`},
	{"reserved tag prefix in capitals", `tags = { "AWS:Team" = "orders" }`, `tags\["AWS:Team"\]: keys starting with "aws:"`},
	{"empty tag key", `tags = { "" = "orders" }`, `a tag key must have 1 to 128 characters; this one is empty`},
	{"tag key too long", `tags = { (format("%0129d", 0)) = "orders" }`, `the key has 129 characters; DynamoDB allows at most 128`},
	{"tag value too long", `tags = { team = format("%0257d", 0) }`, `tags\["team"\]: the value has 257 characters; DynamoDB allows at most 256`},
	{"tag value with a character DynamoDB refuses", `tags = { owner = "orders@example.com" }`, `tags\["owner"\]: the value contains '@'; DynamoDB allows letters, numbers, spaces and \+ - = \. _ : /`},
	{"tag key with a character DynamoDB refuses", `tags = { "cost*center" = "42" }`, `tags\["cost\*center"\]: the key contains '\*'`},
	{"more tags than a table carries", `tags = { for i in range(51) : "tag${i}" => "v" }`, `tags has 51 tags; DynamoDB allows at most 50 tags per table\. Remove 1 of them`},
}

// tableNames lists every table on the server.
func tableNames(t *testing.T, api *dynamodb.Client) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	pages := dynamodb.NewListTablesPaginator(api, &dynamodb.ListTablesInput{})
	for pages.HasMorePages() {
		page, err := pages.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range page.TableNames {
			names[n] = true
		}
	}
	return names
}

// TestAccBadInputCreatesNoTable plans every bad input against dynoxide and DynamoDB Local: each fails at
// plan with its own error, so no table is ever created. Nothing is applied, so an input refused only at
// apply (after CreateTable could have run) fails here as one that gets no error. The inputs are planned
// together (expectEachError): a bad input never depends on the others.
func TestAccBadInputCreatesNoTable(t *testing.T) {
	forEachServer(t, testAccBadInputCreatesNoTable)
}

func testAccBadInputCreatesNoTable(t *testing.T, server testServer) {
	t.Helper()
	cases := make([]errorCase, len(tableBadInputs))
	for i, tt := range tableBadInputs {
		name := fmt.Sprintf("bad-input-%02d", i)
		if tt.name == "table name too short" {
			name = "ab"
		}
		cases[i] = errorCaseOf(tt.name, fmt.Sprintf(`
resource "dynamokeys_sharded_table" %q {
  name = %q
  %s
}
`, caseLabel(i), name, withDefaults(tt.attrs)), tt.expect)
	}
	expectEachError(t, providerBlock(server.endpoint), cases)
}

// offlineBadInputs are rejected without any server: the provider block, the data source and the functions.
var offlineBadInputs = []badInput{
	{"endpoint not http", `provider "dynamokeys" { endpoint = "ftp://127.0.0.1:8000" }`, `endpoint = "ftp://127\.0\.0\.1:8000" is not an absolute http\(s\) URL`},
	{"endpoint not a URL", `provider "dynamokeys" { endpoint = "localhost" }`, `endpoint = "localhost" is not an absolute http\(s\) URL`},
	{"negative retries", `provider "dynamokeys" { max_retries = -1 }`, `max_retries`},
	{"bad eval timeout", `provider "dynamokeys" {
  policy = { eval_timeout = "soon" }
}`, `policy\.eval_timeout = "soon" is not a positive duration`},
	{"zero request timeout", `provider "dynamokeys" { request_timeout = "0s" }`, `request_timeout = "0s" is not a positive duration`},
	{"access key alone", `provider "dynamokeys" { access_key = "AKIA" }`, `secret_key`},
	{"policy dir missing", `provider "dynamokeys" {
  policy = { policy_dirs = ["/nonexistent/dynamokeys-policies"] }
}`, `Policies in policy_dirs cannot be loaded`},
	{"data source count not whole", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "DAY#{day}#{shard}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  sharding      = { strategy = "random", count = 1.5 }
}`, `sharding\.count must be a whole number, got 1\.5`},
	{"data source writes beyond a float", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  traffic       = { writes_per_second = 1e400 }
}`, `traffic\.writes_per_second must be a number within the range of a 64-bit float`},
	{"data source two types", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  global_secondary_indexes = { by_pk = { partition_key = [{ name = "pk", type = "B" }] } }
}`, `attribute "pk" is type B here but S at partition_key`},
	{"replica region without prices", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "A#{id}" }
  segments      = { id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "sa-east-1" = {} } }
}`, `replicas\.regions\.sa-east-1\.prices: the price table has no STANDARD prices for sa-east-1`},
	{"witness also a replica", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "A#{id}" }
  segments      = { id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {} }, consistency = "strong", witness = "us-east-2" }
}`, `replicas\.witness: us-east-2 is also a replica Region`},
	{"MRSC with an LSI", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "A#{id}" }
  sort_key      = { name = "sk", template = "B#{id}" }
  segments      = { id = { kind = "id" } }
  local_secondary_indexes = { by_date = { sort_key = { name = "created" } } }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {}, "us-west-2" = {} }, consistency = "strong" }
}`, `DK605[\s\S]*do not support LSIs`},
	{"MRSC with two Regions", `data "dynamokeys_keydesign" "d" {
  partition_key = { name = "pk", template = "A#{id}" }
  segments      = { id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "us-east-2" = {} }, consistency = "strong" }
}`, `DK604[\s\S]*exactly 3 Regions`},
	{"replicas on the resource", `resource "dynamokeys_sharded_table" "t" {
  name          = "orders"
  partition_key = { name = "pk", template = "A#{id}" }
  segments      = { id = { kind = "id" } }
  replicas      = { regions = { "us-east-1" = {}, "eu-west-1" = {} } }
}`, `does not create replicas[\s\S]*examples/modules/multi-region-table`},
	{"shard count not whole", `output "x" { value = provider::dynamokeys::shard("order-1", 2.5) }`, `count must be a whole number of shards, got 2\.5`},
	{"shard count zero", `output "x" { value = provider::dynamokeys::shard("order-1", 0) }`, `count must be from 1 to 100000 shards`},
	{"shard suffix count too big", `output "x" { value = provider::dynamokeys::shard_suffix("order-1", 1e6) }`, `count must be from 1 to 100000 shards`},
	{"shard keys count not whole", `output "x" { value = provider::dynamokeys::shard_keys("A#{shard}", {}, 0.5) }`, `count must be a whole number of shards`},
	{"render key missing value", `output "x" { value = provider::dynamokeys::render_key("A#{day}", {}) }`, `Invalid value for "values" parameter`},
	{"render key malformed", `output "x" { value = provider::dynamokeys::render_key("A#{day", { day = "x" }) }`, `Invalid value for "template" parameter`},
}

// TestBadInputOffline plans the inputs rejected without any server together (expectEachError); a provider
// block of a case gets an alias of its own, and a data source that uses it so that it is configured.
func TestBadInputOffline(t *testing.T) {
	t.Parallel()
	requireProviderFunctions(t) // the function cases
	cases := make([]errorCase, len(offlineBadInputs))
	for i, tt := range offlineBadInputs {
		label := caseLabel(i)
		config := regexp.MustCompile(`^(\w+ "[\w]+" )"\w+"`).ReplaceAllString(tt.attrs, `$1"`+label+`"`)
		if provider, ok := strings.CutPrefix(tt.attrs, `provider "dynamokeys" {`); ok {
			body := strings.TrimSuffix(strings.TrimSpace(provider), "}")
			config = fmt.Sprintf("provider \"dynamokeys\" {\n  alias = %q\n  %s\n}\n", label, strings.TrimSpace(body)) +
				fmt.Sprintf("data \"dynamokeys_keydesign\" %q {\n  provider = dynamokeys.%s\n", label, label) +
				"  partition_key = { name = \"pk\", template = \"A#{id}\" }\n  segments = { id = { kind = \"id\" } }\n}\n"
		} else if strings.HasPrefix(tt.attrs, "output ") {
			config = strings.Replace(tt.attrs, `output "x"`, `output "`+label+`"`, 1)
		}
		cases[i] = errorCaseOf(tt.name, config, tt.expect)
	}
	expectEachError(t, `provider "dynamokeys" {}`, cases)
}
