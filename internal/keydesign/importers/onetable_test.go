package importers

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A OneTable schema of accounts, users and invoices: ${_type} prefixes, a zero-padded invoice number, a
// mapped attribute, an ISO date, a GSI by e-mail that users alone write, a value computed by code, a
// field and a version this code does not know, and saved queries.
const otSchema = `{
  "format": "onetable:1.1.0", "version": "0.9.0", "description": "x", "extensions": {"tool": {"any": 1}},
  "indexes": {
    "primary": {"hash": "pk", "sort": "sk"},
    "gs1": {"hash": "gs1pk", "sort": "gs1sk", "project": ["email", "name"]},
    "ls1": {"type": "local", "sort": "created"}
  },
  "params": {"typeField": "_type", "isoDates": true, "future": "x"},
  "models": {
    "Account": {
      "pk": {"type": "string", "value": "${_type}#${id}"},
      "sk": {"type": "string", "value": "${_type}#"},
      "id": {"type": "string", "generate": "ulid"},
      "plan": {"type": "string", "enum": ["free", "pro"]}
    },
    "User": {
      "pk": {"type": "string", "value": "Account#${accountId}"},
      "sk": {"type": "string", "value": "${_type}#${email}"},
      "gs1pk": {"type": "string", "value": "${_type}#${email}"},
      "gs1sk": {"type": "string", "value": "${_type}#"},
      "accountId": {"type": "string"},
      "email": {"type": "string", "required": true},
      "name": {"type": "string"}
    },
    "Invoice": {
      "pk": {"type": "string", "value": "Account#${accountId}"},
      "sk": {"type": "string", "value": "${_type}#${issued}#${number:8:0}"},
      "gs1pk": {"type": "string", "value": true},
      "accountId": {"type": "string"},
      "issued": {"type": "date"},
      "number": {"type": "number"}
    },
    "Counter": {
      "PK": {"type": "string", "value": "counter", "map": "pk"},
      "SK": {"type": "number", "map": "sk"}
    },
    "Broken": {
      "pk": {"type": "string", "value": true},
      "sk": {"type": "string", "value": "x"}
    }
  },
  "queries": {
    "Invoices of an account": {"index": "primary", "hash": "Account#01HZX", "sort": "Invoice#2026", "operation": "Begins with",
      "model": "Invoice", "limit": 100, "schema": "Current", "type": "Entity"},
    "User by email": {"index": "gs1", "hash": "User#ana@example.com", "operation": "Equal", "limit": 1, "type": "Query"},
    "Everything": {"index": "primary", "type": "Scan", "limit": 100},
    "Lost": {"index": "gs9", "hash": "x", "type": "Query"},
    "Nobody": {"index": "primary", "hash": "Nobody#1", "type": "Query"}
  },
  "items": []
}`

func TestFromOneTableSchema(t *testing.T) {
	t.Parallel()
	d, err := FromOneTableSchema([]byte(otSchema))
	if err != nil {
		t.Fatal(err)
	}
	if d.PartitionKey != (model.Key{Name: "pk", Type: "S"}) || d.SortKey.Name != "sk" {
		t.Errorf("keys %+v %+v", d.PartitionKey, d.SortKey)
	}
	if g := d.GlobalSecondaryIndexes; len(g) != 1 || g[0].Name != "gs1" || g[0].ProjectionType != model.ProjectionInclude ||
		!slices.Equal(g[0].NonKeyAttributes, []string{"email", "name"}) {
		t.Errorf("GSIs %+v", g)
	}
	names := []string{}
	for _, e := range d.Entities {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"account", "counter", "invoice", "user"}) {
		t.Errorf("entities %q", names)
	}
	for name, want := range map[string]map[string]string{
		"account": {"pk": "Account#{id}", "sk": "Account#"},
		"user":    {"pk": "Account#{account_id}", "sk": "User#{email}", "gs1pk": "User#{email}", "gs1sk": "User#"},
		"invoice": {"pk": "Account#{account_id}", "sk": "Invoice#{issued}#{number}"},
		// A mapped field is its attribute's template; a key field without a value is its own placeholder.
		"counter": {"pk": "counter", "sk": "{sk}"},
	} {
		if got := entity(t, d.Entities, name).Keys; !maps.Equal(got, want) {
			t.Errorf("%s keys %v, want %v", name, got, want)
		}
	}
	if s := d.Segments["number"]; s.Kind != model.KindNumber || s.MaxLength == nil || *s.MaxLength != 8 {
		t.Errorf("padded number %+v", s)
	}
	if s := d.Segments["issued"]; s.Kind != model.KindTime || s.Granularity != "millisecond" || *s.MaxLength != 24 {
		t.Errorf("ISO date %+v", s)
	}
	if s := d.Segments["id"]; *s.Characters != "0-9A-Z" || *s.MaxLength != 26 {
		t.Errorf("ulid %+v", s)
	}
	wantSkipped := []string{
		`index "ls1": a local secondary index; add it as local_secondary_indexes`,
		`model "Broken": pk's value is computed by code (value: true), so its template is unknown: it is left out`,
		`model "Invoice": gs1pk's value is computed by code (value: true), so its template is unknown: it is in no index "gs1"`,
		`query "Everything": a Scan; dynamokeys checks the reads that use a key`,
		`query "Lost": its index "gs9" is not among the schema's indexes (or is local)`,
		`query "Nobody": no model's pk template on index "primary" renders its hash "Nobody#1"`,
	}
	if !slices.Equal(d.Skipped, wantSkipped) {
		t.Errorf("skipped\n%s\nwant\n%s", strings.Join(d.Skipped, "\n"), strings.Join(wantSkipped, "\n"))
	}
	patterns := map[string]model.AccessPattern{}
	for _, ap := range d.AccessPatterns {
		patterns[ap.Name] = ap
	}
	if ap := patterns["invoices_of_an_account"]; !slices.Equal(ap.Entities, []string{"invoice"}) || !slices.Equal(ap.Equals, []string{"account_id"}) ||
		ap.Sort == nil || *ap.Sort != (model.SortCondition{On: "issued", Condition: model.SortBeginsWith}) || ap.Index != nil {
		t.Errorf("invoices_of_an_account %+v", ap)
	}
	if ap := patterns["user_by_email"]; !slices.Equal(ap.Entities, []string{"user"}) || *ap.Index != "gs1" || !slices.Equal(ap.Equals, []string{"email"}) {
		t.Errorf("user_by_email %+v", ap)
	}
	if len(d.AccessPatterns) != 2 {
		t.Errorf("patterns %+v", d.AccessPatterns)
	}
	doc := analyzeDesign(t, d)
	if c := doc.Derived.Entities.Collisions; len(c) != 0 {
		t.Errorf("collisions %+v", c)
	}
	for _, f := range doc.Derived.AccessPatterns {
		if !f.Serves {
			t.Errorf("%s is not served: %+v", f.Name, f)
		}
	}
}

func TestFromOneTableSchemaErrors(t *testing.T) {
	t.Parallel()
	for _, bad := range []struct{ schema, want string }{
		{`{"indexes": `, "is not a OneTable schema: unexpected EOF"},
		{`{"indexes": {"gs1": {"hash": "a"}}, "models": {"A": {}}}`, "it has no indexes.primary.hash"},
		{`{"indexes": {"primary": {"hash": "pk"}}}`, "it has no models"},
		{`[1, 2]`, "it has no indexes.primary.hash"},
	} {
		if _, err := FromOneTableSchema([]byte(bad.schema)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want %q", err, bad.want)
		}
	}
}
