package importers

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A schema.json in the MCP server's format: the textbook user table with a profile, addresses and orders
// by date, and a sparse status GSI that only orders write.
const mcpUsers = `{
  "tables": [{
    "table_config": {"table_name": "Users", "partition_key": "pk", "sort_key": "sk"},
    "gsi_list": [{"name": "ByStatus", "partition_key": "status_pk", "sort_key": "created"}],
    "entities": {
      "UserProfile": {
        "entity_type": "USER", "pk_template": "USER#{user_id}", "sk_template": "PROFILE",
        "fields": [{"name": "user_id", "type": "uuid", "required": true}],
        "access_patterns": [
          {"pattern_id": 1, "name": "get_user", "description": "", "operation": "GetItem", "return_type": "single_entity",
           "parameters": [{"name": "user_id", "type": "string"}]},
          {"pattern_id": 2, "name": "create_user", "description": "", "operation": "PutItem", "return_type": "success_flag",
           "parameters": [{"name": "user", "type": "entity", "entity_type": "UserProfile"}]}
        ]
      },
      "UserOrder": {
        "entity_type": "ORDER", "pk_template": "USER#{user_id}", "sk_template": "ORDER#{order_date}#{order_id}",
        "gsi_mappings": [{"name": "ByStatus", "pk_template": "STATUS#{status}", "sk_template": "{created}"}],
        "fields": [{"name": "user_id", "type": "uuid", "required": true}, {"name": "order_date", "type": "string", "required": true},
                   {"name": "order_id", "type": "string", "required": true}, {"name": "status", "type": "string", "required": true},
                   {"name": "created", "type": "integer", "required": true}],
        "access_patterns": [
          {"pattern_id": 3, "name": "orders_between", "description": "", "operation": "Query", "return_type": "entity_list", "range_condition": "between",
           "parameters": [{"name": "user_id", "type": "string"}, {"name": "from", "type": "string"}, {"name": "to", "type": "string"}]},
          {"pattern_id": 4, "name": "orders_by_status", "description": "", "operation": "Query", "return_type": "entity_list", "index_name": "ByStatus",
           "range_condition": ">=", "parameters": [{"name": "status", "type": "string"}, {"name": "since", "type": "integer"}]},
          {"pattern_id": 5, "name": "all_orders", "description": "", "operation": "Scan", "return_type": "entity_list", "parameters": []}
        ]
      }
    }
  }, {"table_config": {"table_name": "Other", "partition_key": "id"}, "entities": {}}]
}`

func TestFromMCPSchema(t *testing.T) {
	t.Parallel()
	d, err := FromMCPSchema([]byte(mcpUsers), "Users")
	if err != nil {
		t.Fatal(err)
	}
	if d.PartitionKey != (model.Key{Name: "pk", Type: "S"}) || d.SortKey.Name != "sk" {
		t.Errorf("keys %+v %+v", d.PartitionKey, d.SortKey)
	}
	// created is an integer alone in its template: the GSI's sort key is a number.
	if g := d.GlobalSecondaryIndexes[0]; g.PartitionKey[0].Type != "S" || g.SortKey[0].Type != "N" || g.ProjectionType != model.ProjectionAll {
		t.Errorf("GSI %+v", g)
	}
	if s := d.Segments["user_id"]; s.Kind != model.KindID || *s.MaxLength != 36 || *s.Characters != "0-9a-f-" {
		t.Errorf("user_id %+v", s)
	}
	if d.Segments["created"].Kind != model.KindNumber {
		t.Errorf("created %+v", d.Segments["created"])
	}
	if len(d.Entities) != 2 || d.Entities[0].Name != "user_order" || d.Entities[1].Name != "user_profile" {
		t.Fatalf("entities %+v", d.Entities)
	}
	if got := d.Entities[0].Keys; got["GSI1PK"] != "" || got["status_pk"] != "STATUS#{status}" || got["created"] != "{created}" {
		t.Errorf("order keys %v", got)
	}
	patterns := map[string]model.AccessPattern{}
	for _, ap := range d.AccessPatterns {
		patterns[ap.Name] = ap
	}
	if ap := patterns["get_user"]; !slices.Equal(ap.Equals, []string{"user_id"}) || ap.Sort != nil || !slices.Equal(ap.Entities, []string{"user_profile"}) {
		t.Errorf("get_user %+v", ap)
	}
	if ap := patterns["orders_between"]; !slices.Equal(ap.Equals, []string{"user_id"}) || *ap.Sort != (model.SortCondition{On: "order_date", Condition: model.SortBetween}) {
		t.Errorf("orders_between %+v %+v", ap, ap.Sort)
	}
	if ap := patterns["orders_by_status"]; *ap.Index != "ByStatus" || !slices.Equal(ap.Equals, []string{"status"}) || ap.Sort.On != "created" {
		t.Errorf("orders_by_status %+v", ap)
	}
	if len(d.Skipped) != 2 || !strings.Contains(d.Skipped[0], "create_user (PutItem)") && !strings.Contains(d.Skipped[1], "create_user (PutItem)") {
		t.Errorf("skipped %q", d.Skipped)
	}
	// The converted design is a design: it analyses, with no collision.
	in := &model.Input{Kind: "keydesign", PartitionKey: d.PartitionKey, SortKey: d.SortKey, GlobalSecondaryIndexes: d.GlobalSecondaryIndexes,
		Segments: d.Segments, Entities: d.Entities, AccessPatterns: d.AccessPatterns}
	doc := analyzed(t, in)
	if len(doc.Derived.Entities.Collisions) != 0 {
		t.Errorf("collisions %+v", doc.Derived.Entities.Collisions)
	}
	for _, f := range doc.Derived.AccessPatterns {
		if !f.Serves || !f.SortExpressible {
			t.Errorf("%s is not served: %+v", f.Name, f)
		}
	}
	for _, bad := range []struct{ schema, table, want string }{
		{"{", "Users", "is not a schema.json"},
		{mcpUsers, "Nope", `has no table "Nope": its tables are "Users", "Other"`},
		{strings.Replace(mcpUsers, `"name": "ByStatus", "pk_template"`, `"name": "ByNothing", "pk_template"`, 1), "Users", `names the GSI "ByNothing"`},
	} {
		if _, err := FromMCPSchema([]byte(bad.schema), bad.table); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want %q", err, bad.want)
		}
	}
}

// A menu modelled as the MCP server's examples do: a GSI sorted by the category and the table's own sort key,
// whose mapping refers to that attribute's value ({sort_key}) rather than giving it a new template.
const mcpMenu = `{"tables": [{
  "table_config": {"table_name": "Menu", "partition_key": "partition_key", "sort_key": "sort_key"},
  "gsi_list": [{"name": "ByCategory", "partition_key": "restaurant_id", "sort_key": ["category", "sort_key"]}],
  "entities": {
    "Product": {"pk_template": "RESTAURANT#{restaurant_id}", "sk_template": "MENU#{category}#{product_id}",
      "gsi_mappings": [{"name": "ByCategory", "pk_template": "{restaurant_id}", "sk_template": ["{category}", "{sort_key}"]}],
      "fields": [{"name": "restaurant_id", "type": "string"}, {"name": "category", "type": "string"}, {"name": "product_id", "type": "string"}]},
    "Restaurant": {"pk_template": "RESTAURANT#{restaurant_id}", "sk_template": "PROFILE",
      "fields": [{"name": "restaurant_id", "type": "string"}]},
    "Review": {"pk_template": "RESTAURANT#{restaurant_id}", "sk_template": "REVIEW#{review_id}",
      "fields": [{"name": "restaurant_id", "type": "string"}, {"name": "review_id", "type": "string"}]}
  }}]}`

func TestFromMCPSchemaIndexReusesTableKey(t *testing.T) {
	t.Parallel()
	d, err := FromMCPSchema([]byte(mcpMenu), "Menu")
	if err != nil {
		t.Fatal(err)
	}
	var product model.Entity
	for _, e := range d.Entities {
		if e.Name == "product" {
			product = e
		}
	}
	want := map[string]string{"partition_key": "RESTAURANT#{restaurant_id}", "sort_key": "MENU#{category}#{product_id}",
		"restaurant_id": "{restaurant_id}", "category": "{category}"}
	if !maps.Equal(product.Keys, want) {
		t.Errorf("product keys %v, want %v", product.Keys, want)
	}
	if _, ok := d.Segments["sort_key"]; ok {
		t.Errorf("the table's sort key became a segment: %v", d.Segments)
	}
	in := &model.Input{Kind: "keydesign", PartitionKey: d.PartitionKey, SortKey: d.SortKey, GlobalSecondaryIndexes: d.GlobalSecondaryIndexes,
		Segments: d.Segments, Entities: d.Entities, AccessPatterns: d.AccessPatterns}
	doc := analyzed(t, in)
	if got := doc.Derived.Entities.Collisions; len(got) != 0 {
		t.Errorf("collisions %+v", got)
	}
	for _, f := range doc.Derived.AccessPatterns {
		if len(f.EntityOverlaps) != 0 {
			t.Errorf("%s overlaps %+v", f.Name, f.EntityOverlaps)
		}
	}
}

// What the model says that the design cannot hold is listed, not dropped: a second GSI mapping that gives
// an attribute another template, parameters that fill no key placeholder. A Query of mixed data on a
// constant sort key reads the whole collection, every entity under that partition-key value.
const mcpSocial = `{"tables": [{
  "table_config": {"table_name": "Social", "partition_key": "pk", "sort_key": "sk"},
  "gsi_list": [{"name": "ByA", "partition_key": "gpk", "sort_key": "when"}, {"name": "ByB", "partition_key": "gpk2", "sort_key": "when"}],
  "entities": {
    "Profile": {"pk_template": "U#{user_id}", "sk_template": "PROFILE",
      "gsi_mappings": [{"name": "ByA", "pk_template": "A#{user_id}", "sk_template": "{created}"},
                       {"name": "ByB", "pk_template": "B#{user_id}", "sk_template": "DAY#{day}"}],
      "fields": [{"name": "user_id", "type": "string"}, {"name": "created", "type": "integer"}, {"name": "day", "type": "string"}],
      "access_patterns": [
        {"pattern_id": 1, "name": "profile_and_posts", "operation": "Query", "return_type": "mixed_data",
         "parameters": [{"name": "user_id", "type": "string"}]},
        {"pattern_id": 2, "name": "profile", "operation": "GetItem", "return_type": "single_entity",
         "parameters": [{"name": "user_id", "type": "string"}]}]},
    "Post": {"pk_template": "U#{user_id}", "sk_template": "POST#{post_date}#{post_id}",
      "fields": [{"name": "user_id", "type": "string"}, {"name": "post_date", "type": "string"}, {"name": "post_id", "type": "string"}],
      "access_patterns": [
        {"pattern_id": 3, "name": "posts_between", "operation": "Query", "return_type": "entity_list",
         "parameters": [{"name": "user_id", "type": "string"}, {"name": "start_date", "type": "string"}, {"name": "end_date", "type": "string"}]}]},
    "Group": {"pk_template": "G#{group_id}", "sk_template": "META", "fields": [{"name": "group_id", "type": "string"}]}
  }}]}`

func TestFromMCPSchemaSaysWhatItCannotHold(t *testing.T) {
	t.Parallel()
	d, err := FromMCPSchema([]byte(mcpSocial), "Social")
	if err != nil {
		t.Fatal(err)
	}
	var profile model.Entity
	for _, e := range d.Entities {
		if e.Name == "profile" {
			profile = e
		}
	}
	if profile.Keys["when"] != "{created}" {
		t.Errorf("when = %q, want the first mapping's {created}", profile.Keys["when"])
	}
	want := []string{
		"posts_between (Query): its parameters start_date, end_date fill no key placeholder (a filter, or a range the model does not declare); read as a Query of the key alone",
		`entity Profile: the sk_template of ByB gives when the template "DAY#{day}", but an earlier key gives it "{created}"; one attribute holds one value per item, so the first is kept`,
	}
	if !slices.Equal(d.Skipped, want) {
		t.Errorf("skipped\n%q\nwant\n%q", d.Skipped, want)
	}
	patterns := map[string]model.AccessPattern{}
	for _, ap := range d.AccessPatterns {
		patterns[ap.Name] = ap
	}
	if ap := patterns["profile_and_posts"]; !slices.Equal(ap.Entities, []string{"post", "profile"}) || !slices.Equal(ap.Equals, []string{"user_id"}) || ap.Sort != nil {
		t.Errorf("profile_and_posts %+v: want the whole U#{user_id} collection, post and profile", ap)
	}
	if ap := patterns["profile"]; !slices.Equal(ap.Entities, []string{"profile"}) {
		t.Errorf("profile %+v", ap)
	}
	in := &model.Input{Kind: "keydesign", PartitionKey: d.PartitionKey, SortKey: d.SortKey, GlobalSecondaryIndexes: d.GlobalSecondaryIndexes,
		Segments: d.Segments, Entities: d.Entities, AccessPatterns: d.AccessPatterns}
	doc := analyzed(t, in)
	for _, f := range doc.Derived.AccessPatterns {
		if len(f.EntityOverlaps) != 0 {
			t.Errorf("%s overlaps %+v", f.Name, f.EntityOverlaps)
		}
	}
}

func analyzed(t *testing.T, in *model.Input) *model.Document {
	t.Helper()
	doc, errs := keydesign.Analyze(in)
	if len(errs) > 0 {
		t.Fatalf("the converted design does not analyse: %v", errs)
	}
	return doc
}

// Two entities whose names read as one design name are refused.
func TestFromMCPSchemaRefusesTwoEntitiesOfOneName(t *testing.T) {
	t.Parallel()
	twice := strings.Replace(mcpUsers, `"UserOrder": {`, `"user_profile": {"entity_type": "X", "pk_template": "USER#{user_id}", "sk_template": "X", "fields": []}, "UserOrder": {`, 1)
	if _, err := FromMCPSchema([]byte(twice), "Users"); err == nil || !strings.Contains(err.Error(), `both read as "user_profile"`) {
		t.Errorf("error %v", err)
	}
}

// mcpTableOf is a schema.json of one table T: its table_config's keys, its gsi_list and its entities (JSON).
func mcpTableOf(keys, gsis, entities string) string {
	return `{"tables": [{"table_config": {"table_name": "T", ` + keys + `}, "gsi_list": [` + gsis + `], "entities": {` + entities + `}}]}`
}

const (
	mcpKeys = `"partition_key": "pk", "sort_key": "sk"`
	mcpUser = `"User": {"pk_template": "USER#{user_id}", "sk_template": "PROFILE", "fields": [{"name": "user_id", "type": "string"}]}`
)

// A key the table cannot have is refused, and the error names where the schema writes it.
func TestFromMCPSchemaRefusesInvalidKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, schema, want string }{
		{"projection", mcpTableOf(mcpKeys, `{"name": "G", "partition_key": "gpk", "projection": "KEYS"}`, mcpUser),
			`table "T": GSI "G": projection is "KEYS": a projection is ALL, KEYS_ONLY or INCLUDE`},
		{"GSI without a name", mcpTableOf(mcpKeys, `{"partition_key": "gpk"}`, mcpUser),
			`table "T": gsi_list[0] has no name`},
		{"two GSIs of one name", mcpTableOf(mcpKeys, `{"name": "G", "partition_key": "a"}, {"name": "G", "partition_key": "b"}`, mcpUser),
			`table "T": gsi_list names two GSIs "G": a GSI's name is its own`},
		{"a key field of a type the schema has not", mcpTableOf(mcpKeys, ``,
			`"Score": {"pk_template": "GAME#{game_id}", "sk_template": "{score}", "fields": [{"name": "game_id", "type": "string"}, {"name": "score", "type": "float"}]}`),
			`table "T": entity "Score": sk_template "{score}" names {score}, a field of type "float": a key is built of string, integer, decimal, boolean and uuid fields`},
		{"a key field that is a list", mcpTableOf(mcpKeys, ``,
			`"Post": {"pk_template": "TAGS#{tags}", "sk_template": "POST", "fields": [{"name": "tags", "type": "array", "item_type": "string"}]}`),
			`table "T": entity "Post": pk_template "TAGS#{tags}" names {tags}, a field of type "array": a key is built of string, integer, decimal, boolean and uuid fields`},
		{"no pk_template", mcpTableOf(mcpKeys, ``, `"User": {"sk_template": "PROFILE", "fields": []}`),
			`table "T": entity "User" has no pk_template`},
		{"no sk_template", mcpTableOf(mcpKeys, ``, `"User": {"pk_template": "USER#{user_id}", "fields": [{"name": "user_id", "type": "string"}]}`),
			`table "T": entity "User" has no sk_template: the table's sort key sk needs one`},
		{"a GSI mapping without pk_template", mcpTableOf(mcpKeys, `{"name": "G", "partition_key": "gpk", "sort_key": "gsk"}`,
			`"User": {"pk_template": "USER#{user_id}", "sk_template": "PROFILE", "gsi_mappings": [{"name": "G", "sk_template": "X"}], "fields": [{"name": "user_id", "type": "string"}]}`),
			`table "T": entity "User": the gsi_mapping of G has no pk_template`},
		{"two tables of one name", `{"tables": [{"table_config": {"table_name": "T", "partition_key": "a"}}, {"table_config": {"table_name": "T", "partition_key": "b"}}]}`,
			`has 2 tables named "T": which one to read is unknown; name each table once`},
	} {
		_, err := FromMCPSchema([]byte(tt.schema), "T")
		wantError(t, tt.name, err, tt.want)
	}
}

// What the design cannot hold is listed in Skipped with why, and the rest converts.
func TestFromMCPSchemaSaysWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, schema string
		skipped      []string
	}{{
		name: "a sort key template on a table or GSI without a sort key",
		schema: mcpTableOf(`"partition_key": "pk"`, `{"name": "G", "partition_key": "gpk"}`,
			`"User": {"pk_template": "USER#{user_id}", "sk_template": "PROFILE", "gsi_mappings": [{"name": "G", "pk_template": "ALL", "sk_template": "{user_id}"}], `+
				`"fields": [{"name": "user_id", "type": "string"}]}`),
		skipped: []string{
			`entity User: sk_template "PROFILE" is read past: the table has no sort key`,
			`entity User: the sk_template of G "{user_id}" is read past: GSI G has no sort key`,
		},
	}, {
		name: "placeholders without a field, with a format",
		schema: mcpTableOf(mcpKeys, ``,
			`"Order": {"pk_template": "USER#{user_id}", "sk_template": "ORDER#{created:%Y-%m-%d}#{order_id}", "fields": [{"name": "created", "type": "string"}, {"name": "order_id", "type": "uuid"}]}`),
		skipped: []string{
			`entity Order: pk_template "USER#{user_id}" names {user_id}, which is none of its fields: read as an id`,
			`entity Order: sk_template "ORDER#{created:%Y-%m-%d}#{order_id}" writes {created:%Y-%m-%d}: the format is read past, the placeholder is typed from its field`,
		},
	}, {
		name: "included attributes of a projection of all attributes",
		schema: mcpTableOf(mcpKeys, `{"name": "G", "partition_key": "gpk", "projection": "all", "included_attributes": ["a", "b"]}, `+
			`{"name": "H", "partition_key": "hpk", "projection": "INCLUDE", "included_attributes": ["c"]}`, mcpUser),
		skipped: []string{`GSI G: its included_attributes a, b are read past: they are for an INCLUDE projection, and this one is ALL`},
	}, {
		name: "patterns of an operation or a range condition the schema does not know",
		schema: mcpTableOf(mcpKeys, ``, `"User": {"pk_template": "USER#{user_id}", "sk_template": "ORDER#{day}", `+
			`"fields": [{"name": "user_id", "type": "string"}, {"name": "day", "type": "string"}], "access_patterns": [`+
			`{"pattern_id": 1, "name": "get", "operation": "Get", "parameters": [{"name": "user_id", "type": "string"}]}, `+
			`{"pattern_id": 2, "name": "since", "operation": "Query", "range_condition": "after", "parameters": [{"name": "user_id", "type": "string"}, {"name": "d", "type": "string"}]}, `+
			`{"pattern_id": 3, "name": "remove", "operation": "DeleteItem", "parameters": [{"name": "user_id", "type": "string"}]}]}`),
		skipped: []string{
			`get (Get): its operation "Get" is none the schema knows (GetItem, BatchGetItem, Query, Scan or a write)`,
			`since (Query): its range_condition "after" is none of =, <, <=, >, >=, between, begins_with`,
			`remove (DeleteItem): a write, which is no access pattern`,
		},
	}} {
		d, err := FromMCPSchema([]byte(tt.schema), "T")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		wantLines(t, tt.name, "skipped", d.Skipped, tt.skipped)
	}
}
