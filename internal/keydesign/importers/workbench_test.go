package importers

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A game's model in Workbench 3.0's layout: the items in the table's TableData, facets with aliases. The
// player facet's aliases are written as templates; the game facet's sort alias is a label that misspells
// the samples' literal (as AWS's own gaming sample does), and one of its items has another shape.
const wbGame = `{
  "ModelName": "Game",
  "ModelMetadata": {"Author": "", "DateCreated": "Jan 5, 2026", "AWSService": "Amazon DynamoDB", "Version": "3.0"},
  "DataModel": [{
    "TableName": "Battle",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"},
      "SortKey": {"AttributeName": "GSI1SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    "TableFacets": [
      {"FacetName": "PlayerProfile", "KeyAttributeAlias": {"PartitionKeyAlias": "PLAYER#<PlayerId>", "SortKeyAlias": "PROFILE"},
       "NonKeyAttributes": ["name"], "DataAccess": {"MySql": {}}},
      {"FacetName": "GameMatch", "KeyAttributeAlias": {"PartitionKeyAlias": "GameId", "SortKeyAlias": "#METEADATA#playerID"},
       "NonKeyAttributes": ["joined", "GSI1PK", "GSI1SK"],
       "TableData": [
         {"PK": {"S": "GAME#g1"}, "SK": {"S": "#METADATA#player001"}, "joined": {"S": "2026-01-05"}, "GSI1PK": {"S": "MAP#forest"}, "GSI1SK": {"S": "2026-01-05T10:00:00"}},
         {"PK": {"S": "GAME#g2"}, "SK": {"S": "#METADATA#player002"}, "joined": {"S": "2026-01-06"}, "GSI1PK": {"S": "MAP#desert"}, "GSI1SK": {"S": "2026-01-06T11:30:00"}},
         {"PK": {"S": "GAME#g3"}, "SK": {"S": "#METADATA#player003"}, "joined": {"S": "2026-01-06"}, "GSI1PK": {"S": "MAP#forest"}, "GSI1SK": {"S": "2026-01-06T12:00:00"}},
         {"PK": {"S": "GAME#g4"}, "SK": {"S": "METADATA"}, "joined": {"S": "2026-01-07"}}
       ]}
    ],
    "TableData": [
      {"PK": {"S": "PLAYER#p1"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ana"}},
      {"PK": {"S": "PLAYER#p2"}, "SK": {"S": "PROFILE"}, "name": {"S": "Bo"}},
      {"PK": {"S": "PLAYER#p3"}, "SK": {"S": "PROFILE"}, "name": {"S": "Cy"}},
      {"PK": {"S": "PLAYER#p4"}, "SK": {"S": "PROFILE#v2"}, "name": {"S": "Di"}}
    ],
    "BillingMode": "PAY_PER_REQUEST"
  }]
}`

// mismatchLines are the mismatches as lines: entity, attribute, value and why.
func mismatchLines(ms []Mismatch) []string {
	var lines []string
	for _, m := range ms {
		lines = append(lines, m.Entity+" "+m.Attribute+" "+m.Value+": "+m.Why)
	}
	return lines
}

func entity(t *testing.T, entities []model.Entity, name string) model.Entity {
	t.Helper()
	for _, e := range entities {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no entity %q among %+v", name, entities)
	return model.Entity{}
}

// analyzeDesign plans the converted design with keydesign: it must be a valid design.
func analyzeDesign(t *testing.T, d *Design) *model.Document {
	t.Helper()
	in := &model.Input{Kind: "keydesign", PartitionKey: d.PartitionKey, SortKey: d.SortKey, GlobalSecondaryIndexes: d.GlobalSecondaryIndexes,
		Segments: d.Segments, Entities: d.Entities, AccessPatterns: d.AccessPatterns}
	doc, errs := keydesign.Analyze(in)
	for _, e := range errs {
		t.Errorf("the converted design is invalid: %v", e)
	}
	if doc == nil {
		t.FailNow()
	}
	return doc
}

func TestFromWorkbenchModelFacets(t *testing.T) {
	t.Parallel()
	d, err := FromWorkbenchModel([]byte(wbGame), "Battle")
	if err != nil {
		t.Fatal(err)
	}
	if d.PartitionKey != (model.Key{Name: "PK", Type: "S"}) || d.SortKey.Name != "SK" {
		t.Errorf("keys %+v %+v", d.PartitionKey, d.SortKey)
	}
	if g := d.GlobalSecondaryIndexes; len(g) != 1 || g[0].Name != "GSI1" || g[0].ProjectionType != model.ProjectionKeysOnly {
		t.Errorf("GSIs %+v", g)
	}
	// The player's aliases are templates, the items of the table's TableData its samples.
	if got := entity(t, d.Entities, "player_profile").Keys; !maps.Equal(got, map[string]string{"PK": "PLAYER#{player_id}", "SK": "PROFILE"}) {
		t.Errorf("player keys %v", got)
	}
	// The game's templates come from its samples: the alias's misspelt literal is not taken, its word
	// names the placeholder; the GSI keys are typed from the values.
	want := map[string]string{"PK": "GAME#{game_id}", "SK": "#METADATA#{player_id}", "GSI1PK": "MAP#{map_id}", "GSI1SK": "{gsi1sk_time}"}
	if got := entity(t, d.Entities, "game_match").Keys; !maps.Equal(got, want) {
		t.Errorf("game keys %v, want %v", got, want)
	}
	if s := d.Segments["gsi1sk_time"]; s.Kind != model.KindTime || s.Granularity != "second" {
		t.Errorf("gsi1sk_time %+v", s)
	}
	inferred := map[string]Inferred{}
	for _, in := range d.Inferred {
		inferred[in.Entity+"."+in.Attribute] = in
	}
	if _, ok := inferred["player_profile.PK"]; ok {
		t.Errorf("the modeler's template is listed as inferred: %+v", d.Inferred)
	}
	if in := inferred["game_match.SK"]; in.Template != "#METADATA#{player_id}" || len(in.Samples) != 4 || in.Samples[3] != "METADATA" {
		t.Errorf("inferred game SK %+v", in)
	}
	if len(d.Inferred) != 5 {
		t.Errorf("inferred %+v", d.Inferred)
	}
	mismatches := mismatchLines(d.Mismatches)
	wantMismatches := []string{
		"player_profile SK PROFILE#v2: a sample value of another shape than the entity's other samples",
		`game_match SK #METEADATA#playerID: the alias writes "METEADATA" where the sample items hold "METADATA"`,
		"game_match SK METADATA: a sample value of another shape than the entity's other samples",
	}
	if !slices.Equal(mismatches, wantMismatches) {
		t.Errorf("mismatches\n%s\nwant\n%s", strings.Join(mismatches, "\n"), strings.Join(wantMismatches, "\n"))
	}
	if len(d.Collisions) != 0 || len(d.Skipped) != 0 {
		t.Errorf("collisions %+v skipped %q", d.Collisions, d.Skipped)
	}
	doc := analyzeDesign(t, &d.Design)
	if c := doc.Derived.Entities.Collisions; len(c) != 0 {
		t.Errorf("collisions %+v", c)
	}
}

// A model in the older layout (Workbench 1.0 and 2.0 kept the items in each facet's TableData), with
// fields and a version this code has never seen, and a copy-paste slip: the account facet holds a user's
// profile item, so two facets write PK=USER#u1, SK=PROFILE.
const wbAccounts = `{
  "ModelName": "Accounts", "ModelMetadata": {"Version": "9.9", "Future": {"x": [1, 2]}}, "Unknown": true,
  "DataModel": [{
    "TableName": "Accounts",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}, "SortKey": {"AttributeName": "sk", "AttributeType": "S"}},
    "NonKeyAttributes": "read past",
    "TableFacets": [
      {"FacetName": "User", "KeyAttributeAlias": {"PartitionKeyAlias": "pk", "SortKeyAlias": 7}, "NonKeyAttributes": [{"odd": 1}],
       "TableData": [{"pk": {"S": "USER#u1"}, "sk": {"S": "PROFILE"}}, {"pk": {"S": "USER#u2"}, "sk": {"S": "PROFILE"}}, {"pk": {"BOOL": true}}]},
      {"FacetName": "Account", "KeyAttributeAlias": {"PartitionKeyAlias": "pk", "SortKeyAlias": "sk"},
       "TableData": [{"pk": {"S": "USER#u1"}, "sk": {"S": "PROFILE"}}, {"pk": {"S": "ACCOUNT#a1"}, "sk": {"S": "PROFILE"}}, {"pk": {"S": "ACCOUNT#a2"}, "sk": {"S": "PROFILE"}}]},
      {"FacetName": "Invoice", "KeyAttributeAlias": {"PartitionKeyAlias": "AccountId", "SortKeyAlias": "InvoiceDate"}}
    ]
  }, {"TableName": 42}]
}`

func TestFromWorkbenchModelCollision(t *testing.T) {
	t.Parallel()
	d, err := FromWorkbenchModel([]byte(wbAccounts), "Accounts")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != 2 || d.Entities[0].Name != "user" || d.Entities[1].Name != "account" {
		t.Fatalf("entities %+v", d.Entities)
	}
	if got := d.Entities[0].Keys; !maps.Equal(got, map[string]string{"pk": "USER#{user_id}", "sk": "PROFILE"}) {
		t.Errorf("user keys %v", got)
	}
	want := []Collision{{Entities: []string{"user", "account"}, Key: map[string]string{"pk": "USER#u1", "sk": "PROFILE"}}}
	if len(d.Collisions) != 1 || !slices.Equal(d.Collisions[0].Entities, want[0].Entities) || !maps.Equal(d.Collisions[0].Key, want[0].Key) {
		t.Errorf("collisions %+v, want %+v", d.Collisions, want)
	}
	// The invoice facet has labels for aliases and no items: nothing to read its keys from. What is read
	// past is said: the table's NonKeyAttributes that are no list, the user's attribute that is no name.
	wantSkipped := []string{
		`NonKeyAttributes is "read past", not a list of attribute definitions: read past`,
		`facet "User": NonKeyAttributes[0] is {"odd":1}, not an attribute name: read past`,
		`facet "Invoice": its PartitionKeyAlias "AccountId" is no template and no sample item holds pk: write the alias as a template (USER#<UserId>) or add sample items`,
	}
	if !slices.Equal(d.Skipped, wantSkipped) {
		t.Errorf("skipped\n%s\nwant\n%s", strings.Join(d.Skipped, "\n"), strings.Join(wantSkipped, "\n"))
	}
	// The user's third item holds a BOOL where its partition key is, and no sort key: DynamoDB refuses it.
	wantMismatches := []string{
		`user pk true: a sample value of type BOOL: a key attribute's type is S, N or B`,
		`user sk : facet "User": TableData[2] has no sk: every item holds the table's key attributes`,
	}
	if got := mismatchLines(d.Mismatches); !slices.Equal(got, wantMismatches) {
		t.Errorf("mismatches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantMismatches, "\n"))
	}
	// The account facet's templates can render the user's key: the plan's DK109 reports it too.
	doc := analyzeDesign(t, &d.Design)
	if c := doc.Derived.Entities.Collisions; len(c) != 1 {
		t.Errorf("analysis collisions %+v", c)
	}
}

// A model with no facets, as a table's export: one entity, its items the samples; the items of another
// shape than most are mismatches. The sort key is a number.
const wbCatalog = `{
  "ModelName": "Catalog", "ModelMetadata": {"Version": "3.0"},
  "DataModel": [{
    "TableName": "ProductCatalog",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "Version", "AttributeType": "N"}},
    "TableData": [
      {"PK": {"S": "BRANDS"}, "Version": {"N": "1"}}, {"PK": {"S": "BRANDS"}, "Version": {"N": "2"}},
      {"PK": {"S": "CATEGORIES"}, "Version": {"N": "1"}}, {"PK": {"S": "CATEGORIES"}, "Version": {"N": "2"}},
      {"PK": {"S": "P#1"}, "Version": {"N": "1"}}
    ]
  }]
}`

func TestFromWorkbenchModelTableDataOnly(t *testing.T) {
	t.Parallel()
	d, err := FromWorkbenchModel([]byte(wbCatalog), "ProductCatalog")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != 1 || d.Entities[0].Name != "product_catalog" {
		t.Fatalf("entities %+v", d.Entities)
	}
	if got := d.Entities[0].Keys; !maps.Equal(got, map[string]string{"PK": "{pk}", "Version": "{version_id}"}) {
		t.Errorf("keys %v", got)
	}
	if s := d.Segments["pk"]; s.Kind != model.KindEnum || !slices.Equal(s.Values, []string{"BRANDS", "CATEGORIES"}) {
		t.Errorf("pk segment %+v", s)
	}
	if s := d.Segments["version_id"]; s.Kind != model.KindNumber || d.SortKey.Type != model.KeyTypeNumber {
		t.Errorf("version segment %+v, sort key %+v", s, d.SortKey)
	}
	if len(d.Mismatches) != 1 || d.Mismatches[0].Value != "P#1" || d.Mismatches[0].Template != "{pk}" {
		t.Errorf("mismatches %+v", d.Mismatches)
	}
	analyzeDesign(t, &d.Design)
}

func TestFromWorkbenchModelErrors(t *testing.T) {
	t.Parallel()
	for _, bad := range []struct{ model, table, want string }{
		{`{"DataModel": [`, "T", "is not a NoSQL Workbench data model: unexpected EOF"},
		{`{"tables": []}`, "T", "it has no DataModel list of tables"},
		{wbGame, "Nope", `has no table "Nope": its tables are "Battle"`},
		{`{"DataModel": [{"TableName": "T", "KeyAttributes": {}}]}`, "T", `table "T": KeyAttributes.PartitionKey has no AttributeName`},
	} {
		if _, err := FromWorkbenchModel([]byte(bad.model), bad.table); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want %q", err, bad.want)
		}
	}
}

func TestInferenceParts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"TenantId": "tenant_id", "playerID": "player_id", "GSI1PK": "gsi1pk", "HTTPServer": "http_server",
		"Order Items": "order_items", "2fa": "v_2fa", "": "v"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	if got := shape(tokenize("ORDER#2026-01-05T10:30:00#1001")); got != "\x00#\x00#\x00" {
		t.Errorf("a date's colons split it: %q", got)
	}
	for _, tt := range []struct {
		values []string
		want   model.Segment
	}{
		{[]string{"2026-01-05", "2026-02-01"}, model.Segment{Kind: model.KindTime, Granularity: "day"}},
		{[]string{"2026-01", "2026-02"}, model.Segment{Kind: model.KindTime, Granularity: "month"}},
		{[]string{"2026-01-05", "2026-02"}, model.Segment{Kind: model.KindID}},
		{[]string{"42", "-7"}, model.Segment{Kind: model.KindNumber}},
		{[]string{"open", "closed", "open", "closed"}, model.Segment{Kind: model.KindEnum, Values: []string{"open", "closed"}}},
		// Two words seen once each are no evidence of an enum.
		{[]string{"open", "closed"}, model.Segment{Kind: model.KindID}},
	} {
		got := segmentOf(tt.values)
		if got.Kind != tt.want.Kind || got.Granularity != tt.want.Granularity || !slices.Equal(got.Values, tt.want.Values) {
			t.Errorf("segmentOf(%q) = %+v, want %+v", tt.values, got, tt.want)
		}
	}
	if s := segmentOf([]string{"2026-01-05T10:30:15.123Z"}); s.Granularity != "millisecond" || *s.MaxLength != 24 {
		t.Errorf("ISO milliseconds %+v", s)
	}
	if s := segmentOf([]string{"8d4f5e2a-1b3c-4d5e-8f90-123456789abc"}); *s.Characters != "0-9a-f-" || *s.MaxLength != 36 {
		t.Errorf("uuid %+v", s)
	}
	for alias, want := range map[string]string{"TENANT#<TenantId>#USER#<UserId>": "TENANT#{tenant_id}#USER#{user_id}",
		"ORDER#${orderId}": "ORDER#{order_id}", "{id}": "{id}"} {
		if got, err := aliasTemplate(alias); err != nil || got == nil || got.Source != want {
			t.Errorf("aliasTemplate(%q) = %v %v, want %q", alias, got, err, want)
		}
	}
	for _, alias := range []string{"PK", "USER#UserId", "A{b"} {
		if got, err := aliasTemplate(alias); got != nil || err != nil {
			t.Errorf("%q read as a template: %v %v", alias, got, err)
		}
	}
	if got, err := aliasTemplate("ORDER#<OrderId>}"); got != nil || err == nil {
		t.Errorf("an alias written as a template that is none: %v %v", got, err)
	}
}

// wbTable is a model of one table T with the fields given (JSON object members).
func wbTable(fields string) string {
	return `{"ModelName": "M", "ModelMetadata": {"Version": "3.0"}, "DataModel": [{"TableName": "T", ` + fields + `}]}`
}

const (
	wbKeys  = `"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}}`
	wbUsers = `"TableData": [{"PK": {"S": "USER#u1"}, "SK": {"S": "PROFILE"}}, {"PK": {"S": "USER#u2"}, "SK": {"S": "PROFILE"}}]`
	wbGSI   = `"GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}}, ` +
		`"Projection": {"ProjectionType": "ALL"}}]`
)

// A key type DynamoDB does not know, or two types of one attribute, would convert to a table of other keys:
// the model is refused, and the error names the attribute.
func TestFromWorkbenchModelRefusesInvalidKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, model, want string }{
		{"partition key type", wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "X"}}, ` + wbUsers),
			`table "T": KeyAttributes.PartitionKey.AttributeType is "X": a key attribute's type is S, N or B`},
		{"partition key type not text", wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": 1}}`),
			`table "T": KeyAttributes.PartitionKey.AttributeType is 1: a key attribute's type is S, N or B`},
		{"sort key type", wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "BOOL"}}`),
			`table "T": KeyAttributes.SortKey.AttributeType is "BOOL": a key attribute's type is S, N or B`},
		{"sort key type in lower case", wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "n"}}`),
			`table "T": KeyAttributes.SortKey.AttributeType is "n": a key attribute's type is S, N or B`},
		{"sort key without a name", wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeType": "S"}}`),
			`table "T": KeyAttributes.SortKey is {"AttributeType":"S"}: it has no AttributeName`},
		{"GSI key type", wbTable(wbKeys + `, "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "X"}}}]`),
			`table "T": GSI "G": KeyAttributes.PartitionKey.AttributeType is "X": a key attribute's type is S, N or B`},
		{"multi-attribute GSI key type", wbTable(wbKeys + `, "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}, ` +
			`"SortKey": [{"AttributeName": "A", "AttributeType": "S"}, {"AttributeName": "B", "AttributeType": "M"}]}}]`),
			`table "T": GSI "G": KeyAttributes.SortKey[1].AttributeType is "M": a key attribute's type is S, N or B`},
		{"LSI key type", wbTable(wbKeys + `, "LocalSecondaryIndexes": [{"IndexName": "L", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, ` +
			`"SortKey": {"AttributeName": "created", "AttributeType": "X"}}}]`),
			`table "T": LSI "L": KeyAttributes.SortKey.AttributeType is "X": a key attribute's type is S, N or B`},
		{"attribute definition of an index key", wbTable(wbKeys + `, ` + wbGSI + `, "NonKeyAttributes": [{"AttributeName": "GPK", "AttributeType": "BOOL"}]`),
			`table "T": NonKeyAttributes[0].AttributeType is "BOOL": GPK is a key attribute of GSI "G", and a key attribute's type is S, N or B`},
		{"GSI types a table key otherwise", wbTable(wbKeys + `, "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "SK", "AttributeType": "N"}}}]`),
			`table "T": GSI "G": KeyAttributes.PartitionKey types SK as N, where KeyAttributes.SortKey types it S: an attribute has one type`},
		{"attribute definition types an index key otherwise", wbTable(wbKeys + `, ` + wbGSI + `, "NonKeyAttributes": [{"AttributeName": "GPK", "AttributeType": "N"}]`),
			`table "T": NonKeyAttributes[0] types GPK as N, where GSI "G": KeyAttributes.PartitionKey types it S: an attribute has one type`},
		{"projection", wbTable(wbKeys + `, "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}}, ` +
			`"Projection": {"ProjectionType": "KEYS"}}]`),
			`table "T": GSI "G": Projection.ProjectionType is "KEYS": a projection is ALL, KEYS_ONLY or INCLUDE`},
		{"two indexes of one name", wbTable(wbKeys + `, "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}}}], ` +
			`"LocalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "B", "AttributeType": "S"}}}]`),
			`table "T": two indexes are named "G": an index's name is its own`},
		{"two tables of one name", `{"DataModel": [{"TableName": "T", ` + wbKeys + `}, {"TableName": "T", ` + wbKeys + `}]}`,
			`has 2 tables named "T": which one to read is unknown; name each table once`},
	} {
		_, err := FromWorkbenchModel([]byte(tt.model), "T")
		wantError(t, tt.name, err, tt.want)
	}
}

// What of a model names a key, an index, a projection, a type, an alias or a facet and cannot be read is
// listed in Skipped, or in Mismatches for a sample item, with why; the key types say what each was read as.
func TestFromWorkbenchModelSaysWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, model         string
		skipped, mismatches []string
		keyTypes            string
	}{{
		name: "a sort key alias on a table without a sort key",
		model: wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}, ` +
			`"TableFacets": [{"FacetName": "User", "KeyAttributeAlias": {"PartitionKeyAlias": "USER#<UserId>", "SortKeyAlias": "PROFILE"}}]`),
		skipped:  []string{`facet "User": its SortKeyAlias "PROFILE" is read past: the table has no sort key`},
		keyTypes: "PK:S",
	}, {
		name: "key attributes without a type",
		model: wbTable(`"KeyAttributes": {"PartitionKey": {"AttributeName": "PK"}, "SortKey": {"AttributeName": "SK", "AttributeType": "N"}}, ` +
			`"GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK"}, "SortKey": {"AttributeName": "SK"}}, "Projection": {"ProjectionType": "ALL"}}], ` +
			`"NonKeyAttributes": [{"AttributeName": "GPK", "AttributeType": "N"}, {"AttributeName": "flag", "AttributeType": "BOOL"}], ` +
			`"TableData": [{"PK": {"S": "A"}, "SK": {"N": "1"}}]`),
		// GPK is typed by its attribute definition, SK by the table: only PK is typed S for want of a type.
		skipped:  []string{`KeyAttributes.PartitionKey has no AttributeType: PK is typed S`},
		keyTypes: "PK:S SK:N GPK:N",
	}, {
		name: "indexes that cannot be read",
		model: wbTable(wbKeys + `, "GlobalSecondaryIndexes": [` +
			`{"KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}}}, ` +
			`{"IndexName": "NoPartition", "KeyAttributes": {"SortKey": {"AttributeName": "A", "AttributeType": "S"}}}, ` +
			`{"IndexName": "NoSortName", "KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}, "SortKey": {"AttributeType": "S"}}}, ` +
			`{"IndexName": "NoListName", "KeyAttributes": {"PartitionKey": [{"AttributeName": "A", "AttributeType": "S"}, "B"]}}, ` +
			`{"IndexName": "NoProjection", "KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}}}, ` +
			`{"IndexName": "KeysListed", "KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}}, "Projection": {"ProjectionType": "keys_only", "NonKeyAttributes": ["x"]}}, ` +
			`{"IndexName": "Include", "KeyAttributes": {"PartitionKey": {"AttributeName": "A", "AttributeType": "S"}}, "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", {"y": 1}]}}], ` +
			`"LocalSecondaryIndexes": [{"IndexName": "L", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "created", "AttributeType": "N"}}}], ` +
			wbUsers),
		skipped: []string{
			`GlobalSecondaryIndexes[0] has no IndexName: the index is left out`,
			`GSI "NoPartition": KeyAttributes.PartitionKey has no AttributeName: the index is left out`,
			`GSI "NoSortName": KeyAttributes.SortKey is {"AttributeType":"S"}: it has no AttributeName: the index is left out`,
			`GSI "NoListName": KeyAttributes.PartitionKey[1] is "B": it has no AttributeName: the index is left out`,
			`GSI "NoProjection": it has no Projection.ProjectionType: read as ALL`,
			`GSI "KeysListed": its Projection.NonKeyAttributes x are read past: they are for an INCLUDE projection, and this one is KEYS_ONLY`,
			`GSI "Include": Projection.NonKeyAttributes[1] is {"y":1}, not an attribute name: read past`,
			`LSI "L": a local secondary index; add it as local_secondary_indexes`,
		},
		keyTypes: "PK:S SK:S A:S",
	}, {
		name: "index lists and attribute definitions that are no lists",
		model: wbTable(wbKeys + `, "GlobalSecondaryIndexes": {"G": {}}, "LocalSecondaryIndexes": "L", ` +
			`"NonKeyAttributes": [{"AttributeType": "S"}, "name"], ` + wbUsers),
		skipped: []string{
			`GlobalSecondaryIndexes is {"G":{}}, not a list of indexes: no index of it is read`,
			`LocalSecondaryIndexes is "L", not a list of indexes: no index of it is read`,
			`NonKeyAttributes[0] is {"AttributeType":"S"}, not an attribute definition: read past`,
			`NonKeyAttributes[1] is "name", not an attribute definition: read past`,
		},
		keyTypes: "PK:S SK:S",
	}, {
		name: "facets that cannot be read",
		model: wbTable(wbKeys + `, "TableFacets": [` +
			`"User", ` +
			`{"KeyAttributeAlias": {"PartitionKeyAlias": "USER#<UserId>", "SortKeyAlias": "PROFILE"}, "TableData": "none"}, ` +
			`{"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "USER#<UserId>}", "SortKeyAlias": {"alias": "ORDER"}}, ` +
			`"TableData": [{"PK": {"S": "USER#u1"}, "SK": {"S": "ORDER#1"}}, {"PK": {"S": "USER#u2"}, "SK": {"S": "ORDER#2"}}, 7]}, ` +
			`{"FacetName": "Misc", "KeyAttributeAlias": "PK", "NonKeyAttributes": "all"}]`),
		skipped: []string{
			`TableFacets[0] is "User", not a facet: read past`,
			`TableFacets[1] has no FacetName: its entity is named facet_2`,
			`facet "facet_2": TableData is "none", not a list of items: read past`,
			`facet "Order": TableData[2] is 7, not an item: read past`,
			`facet "Order": its PartitionKeyAlias "USER#<UserId>}" is written as a template but is none ` +
				`(character 15: "}" without a matching "{": braces may only surround a placeholder name): its key is inferred from the sample items`,
			`facet "Order": its SortKeyAlias is {"alias":"ORDER"}, not text: read past`,
			`facet "Misc": NonKeyAttributes is "all", not a list of attribute names: read past`,
			`facet "Misc": its KeyAttributeAlias is "PK", not the aliases of its keys: read past`,
			`facet "Misc": its PartitionKeyAlias "" is no template and no sample item holds PK: write the alias as a template (USER#<UserId>) or add sample items`,
		},
		keyTypes: "PK:S SK:S",
	}, {
		name: "sample items DynamoDB would refuse",
		model: wbTable(wbKeys + `, ` + wbGSI + `, "TableFacets": [{"FacetName": "User", "KeyAttributeAlias": {"PartitionKeyAlias": "USER#<UserId>", "SortKeyAlias": "PROFILE"}, ` +
			`"NonKeyAttributes": ["name"], "TableData": [{"PK": {"S": "USER#u3"}, "SK": {"N": "1"}}, {"PK": {"BOOL": true}, "SK": {"S": "PROFILE"}}, {"PK": {"S": "USER#u4"}}]}], ` +
			`"TableData": [{"PK": {"S": "USER#u1"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ana"}, "GPK": {"L": []}}, ` +
			`{"PK": {"S": "USER#u2"}, "SK": {"S": "PROFILE"}, "name": {"S": "Bo"}, "GPK": {"S": "g"}}, ` +
			`{"PK": {"S": "USER#u1"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ana"}}, {"SK": {"S": "PROFILE"}, "name": {"S": "Bo"}}, {"PK": {"NULL": true}, "SK": {"S": "X"}}]`),
		skipped: []string{
			`TableData[2]: it has the key of TableData[0] (PK="USER#u1", SK="PROFILE"): one item is read`,
			`TableData[3]: it holds no S, N or B value of PK, a key attribute of the table: no facet can hold it`,
			`TableData[4]: it holds no S, N or B value of PK, a key attribute of the table: no facet can hold it`,
		},
		mismatches: []string{
			`user SK 1: a sample value of type N where SK is of type S`,
			`user PK true: a sample value of type BOOL: a key attribute's type is S, N or B`,
			`user SK : facet "User": TableData[2] has no SK: every item holds the table's key attributes`,
			`user GPK []: a sample value of type L: a key attribute's type is S, N or B`,
		},
		keyTypes: "PK:S SK:S GPK:S",
	}} {
		d, err := FromWorkbenchModel([]byte(tt.model), "T")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		wantLines(t, tt.name, "skipped", d.Skipped, tt.skipped)
		wantLines(t, tt.name, "mismatches", mismatchLines(d.Mismatches), tt.mismatches)
		wantKeyTypes(t, tt.name, &d.Design, tt.keyTypes)
	}
}
