package provider

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TestReplacementIsDocumentedFromPlanModifiers: every attribute of the resource whose plan modifiers
// replace the table says so in its description, and no other attribute claims it.
func TestReplacementIsDocumentedFromPlanModifiers(t *testing.T) {
	ctx := t.Context()
	var resp resource.SchemaResponse
	(&shardedTableResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	replacing := map[string]string{}
	var walk func(prefix string, attrs map[string]rschema.Attribute)
	walk = func(prefix string, attrs map[string]rschema.Attribute) {
		for name, a := range attrs {
			v := reflect.ValueOf(a)
			desc := a.GetDescription()
			note := ""
			if mods := v.FieldByName("PlanModifiers"); mods.IsValid() {
				for i := range mods.Len() {
					if n, ok := replacementNote(ctx, mods.Index(i).Interface()); ok {
						note = n
					}
				}
			}
			switch {
			case note != "" && !strings.Contains(desc, note):
				t.Errorf("%s%s replaces the table but its description does not say %q: %q", prefix, name, note, desc)
			case note == "" && strings.Contains(desc, replacesTableNote):
				t.Errorf("%s%s says %q but no plan modifier replaces the table", prefix, name, replacesTableNote)
			case note != "":
				replacing[prefix+name] = note
			}
			nested := v.FieldByName("Attributes")
			if obj := v.FieldByName("NestedObject"); obj.IsValid() {
				nested = obj.FieldByName("Attributes")
			}
			if inner, ok := reflectedAttributes(nested); ok {
				walk(prefix+name+".", inner)
			}
		}
	}
	walk("", resp.Schema.Attributes)
	for _, want := range []string{"name", "partition_key.name", "partition_key.type", "sort_key", "local_secondary_indexes"} {
		if replacing[want] == "" {
			t.Errorf("%s should replace the table; replacing attributes: %v", want, replacing)
		}
	}
	if got := resp.Schema.Attributes["timeouts"].GetDescription(); !strings.Contains(got, "create 30m, read 5m, update 1h, delete 10m") {
		t.Errorf("timeouts description %q does not state the defaults", got)
	}
}
