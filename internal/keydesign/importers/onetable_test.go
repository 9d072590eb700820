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
      "SK": {"type": "string", "map": "sk"}
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

// otOf is a OneTable schema of the indexes, models and params given (JSON objects).
func otOf(indexes, models, params string) string {
	return `{"format": "onetable:1.1.0", "indexes": {` + indexes + `}, "models": {` + models + `}, "params": {` + params + `}}`
}

const (
	otIndexes = `"primary": {"hash": "pk", "sort": "sk"}`
	otUser    = `"User": {"pk": {"type": "string", "value": "User#${id}"}, "sk": {"type": "string", "value": "User#"}, "id": {"type": "string"}}`
)

// A key the table cannot have is refused, and the error names where the schema writes it.
func TestFromOneTableSchemaRefusesInvalidKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, schema, want string }{
		{"sort key", otOf(`"primary": {"hash": "pk", "sort": {"name": "sk"}}`, otUser, ``),
			`indexes.primary.sort is {"name":"sk"}: it names the table's sort key attribute`},
		{"projection", otOf(otIndexes+`, "gs1": {"hash": "gpk", "project": "none"}`, otUser, ``),
			`indexes.gs1.project is "none": a projection is "all", "keys" or a list of attributes`},
		{"projection not text", otOf(otIndexes+`, "gs1": {"hash": "gpk", "project": true}`, otUser, ``),
			`indexes.gs1.project is true: a projection is "all", "keys" or a list of attributes`},
		{"a key field of a type OneTable does not know", otOf(otIndexes, `"User": {"pk": {"type": "int"}, "sk": {"type": "string"}}`, ``),
			`models.User.pk.type is "int": a field's type is one of array, arraybuffer, binary, boolean, buffer, date, number, object, set, string`},
		{"a placeholder's field of a type OneTable does not know", otOf(otIndexes, `"User": {"pk": {"type": "string", "value": "User#${id}"}, "sk": {"type": "string"}, "id": {"type": "uuid"}}`, ``),
			`models.User.id.type is "uuid": a field's type is one of array, arraybuffer, binary, boolean, buffer, date, number, object, set, string`},
		{"a boolean key", otOf(otIndexes+`, "gs1": {"hash": "active"}`, otUser+`, "Flag": {"pk": {"type": "string"}, "sk": {"type": "string"}, "active": {"type": "boolean"}}`, ``),
			`models.Flag.active.type is "boolean", which DynamoDB stores as BOOL: the field holds the key attribute active, and a key attribute's type is S, N or B`},
		{"an object key of a local index", otOf(otIndexes+`, "ls1": {"type": "local", "sort": "meta"}`, `"User": {"pk": {"type": "string"}, "sk": {"type": "string"}, "meta": {"type": "object"}}`, ``),
			`models.User.meta.type is "object", which DynamoDB stores as M: the field holds the key attribute meta, and a key attribute's type is S, N or B`},
		{"a key packed into a map", otOf(otIndexes, `"User": {"pk": {"type": "string"}, "status": {"type": "string", "map": "sk.status"}}`, ``),
			`models.User.status.map is "sk.status": it packs the key attribute sk into a map, and a key attribute's type is S, N or B`},
		{"two models write a key as two types", otOf(otIndexes, otUser+`, "Counter": {"pk": {"type": "string", "value": "counter"}, "SK": {"type": "number", "map": "sk"}}`, ``),
			`models.User.sk writes sk as S, where models.Counter.SK writes it as N: a key attribute has one type`},
		{"an epoch date beside a string", otOf(otIndexes+`, "gs1": {"hash": "gpk", "sort": "when"}`,
			`"Event": {"pk": {"type": "string"}, "sk": {"type": "string"}, "gpk": {"type": "string"}, "when": {"type": "date"}}, `+
				`"Note": {"pk": {"type": "string"}, "sk": {"type": "string"}, "gpk": {"type": "string"}, "when": {"type": "string"}}`, ``),
			`models.Note.when writes when as S, where models.Event.when writes it as N: a key attribute has one type`},
	} {
		_, err := FromOneTableSchema([]byte(tt.schema))
		wantError(t, tt.name, err, tt.want)
	}
}

// What names a key, an index, a projection or a type and cannot be read is listed in Skipped with why; the
// key types are the types OneTable writes.
func TestFromOneTableSchemaSaysWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, schema string
		skipped      []string
		keyTypes     string
	}{{
		name:     "params that are no values of their kind",
		schema:   otOf(otIndexes, otUser, `"typeField": ["t"], "isoDates": "true"`),
		skipped:  []string{`params.typeField is ["t"], not a field name: read as _type`, `params.isoDates is "true", not true or false: read as false, dates as numbers`},
		keyTypes: "pk:S sk:S",
	}, {
		name: "indexes that cannot be read",
		schema: otOf(otIndexes+`, "gs1": {"type": "Local", "hash": "gpk"}, "gs2": {"hash": "gpk", "sort": true}, "gs3": {"hash": "gpk", "project": ["a", {"b": 1}, "pk"]}`,
			otUser, ``),
		skipped: []string{
			`index "gs1": its type "Local" is not "local": read as a global index, as OneTable does`,
			`index "gs2": its sort is true, not an attribute name: the index is left out`,
			`index "gs3": project[1] is {"b":1}, not an attribute name: read past`,
			`no model has a field of gpk, a key attribute: it is typed S`,
		},
		keyTypes: "pk:S sk:S gpk:S",
	}, {
		name: "models and fields that cannot be read",
		schema: otOf(otIndexes, otUser+`, "Odd": "model", "Half": {"pk": "string", "sk": {"type": "string"}}, "Nothing": {"sk": {"type": "string"}}, `+
			`"Numbered": {"pk": {"type": "string", "value": 5}, "sk": {"type": "string"}}, "Lost": {"pk": {"type": "string", "value": "L#${missing}"}, "sk": {"type": "string"}}`, ``),
		skipped: []string{
			`model "Half": its field pk is "string", not a field definition: it is left out`,
			`model "Lost": pk's value template "L#${missing}" names ${missing}, which is no field of the model: read as an id`,
			`model "Nothing": no field holds pk, a key attribute of the table: it is left out`,
			`model "Numbered": pk's value is 5, neither a value template nor true, so its template is unknown: it is left out`,
			`model "Odd" is "model", not a map of fields: it is left out`,
		},
		keyTypes: "pk:S sk:S",
	}, {
		name: "saved queries whose sort cannot be read",
		schema: `{"indexes": {` + otIndexes + `, "gs1": {"hash": "gpk"}}, "models": {"User": {"pk": {"type": "string", "value": "User#${id}"}, ` +
			`"sk": {"type": "string", "value": "User#"}, "gpk": {"type": "string", "value": "U#${id}"}, "id": {"type": "string"}}}, "queries": {` +
			`"by gpk": {"index": "gs1", "hash": "U#1", "sort": "x", "operation": "Begins with"}, "contains": {"index": "primary", "hash": "User#1", "sort": "User", "operation": "Contains"}}}`,
		skipped: []string{
			`query "by gpk": its sort "x" is read past: index "gs1" has no sort key`,
			`query "contains": its operation "Contains" is no sort operation (Begins with, Between, Equal, Greater than, Greater than or equal, Less than, Less than or equal): its sort "User" is read past`,
		},
		keyTypes: "pk:S sk:S gpk:S",
	}, {
		// A number is N, an epoch date N, an ISO date S (the field's isoDates over the schema's), a TTL N,
		// a binary S (OneTable writes it as base64 text), a number value template N.
		name: "key types",
		schema: otOf(`"primary": {"hash": "pk", "sort": "sk"}, "g1": {"hash": "n", "sort": "d"}, "g2": {"hash": "iso", "sort": "ttl"}, "g3": {"hash": "bin", "sort": "nv"}`,
			`"A": {"pk": {"type": "string"}, "sk": {"type": "string"}, "n": {"type": "Number"}, "d": {"type": "date"}, "iso": {"type": "date", "isoDates": true}, `+
				`"ttl": {"type": "date", "ttl": true}, "bin": {"type": "binary"}, "nv": {"type": "number", "value": "${n}"}}`, ``),
		keyTypes: "pk:S sk:S n:N d:N iso:S ttl:N bin:S nv:N",
	}} {
		d, err := FromOneTableSchema([]byte(tt.schema))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		wantLines(t, tt.name, "skipped", d.Skipped, tt.skipped)
		wantKeyTypes(t, tt.name, d, tt.keyTypes)
	}
}
