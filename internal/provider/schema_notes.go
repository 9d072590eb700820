package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// replacesTableNote ends the description of an attribute whose change always replaces the table.
const replacesTableNote = "Changing it replaces the table."

// withSchemaNotes completes the resource's descriptions from the schema itself, so the argument reference
// cannot drift from what the plan does: an attribute with a RequiresReplace plan modifier says that it
// replaces the table (or when, for a conditional one, in the modifier's own words), and an attribute with a
// static default states it when its description does not already. Nested attributes are walked too.
func withSchemaNotes(ctx context.Context, attrs map[string]rschema.Attribute) map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(attrs))
	for name, a := range attrs {
		v := reflect.New(reflect.TypeOf(a)).Elem()
		v.Set(reflect.ValueOf(a))
		desc := v.FieldByName("Description")
		var notes []string
		if mods := v.FieldByName("PlanModifiers"); mods.IsValid() {
			for i := range mods.Len() {
				if note, ok := replacementNote(ctx, mods.Index(i).Interface()); ok && !strings.Contains(desc.String(), note) {
					notes = append(notes, note)
				}
			}
		}
		if def := v.FieldByName("Default"); def.IsValid() && !def.IsNil() && !strings.Contains(strings.ToLower(desc.String()), "default") {
			if d, ok := def.Interface().(interface{ Description(context.Context) string }); ok {
				notes = append(notes, "Defaults to "+strings.TrimPrefix(d.Description(ctx), "value defaults to ")+".")
			}
		}
		if len(notes) > 0 && desc.IsValid() {
			desc.SetString(strings.TrimSpace(desc.String() + " " + strings.Join(notes, " ")))
		}
		nested := v.FieldByName("Attributes")
		if obj := v.FieldByName("NestedObject"); obj.IsValid() {
			nested = obj.FieldByName("Attributes")
		}
		if inner, ok := reflectedAttributes(nested); ok {
			nested.Set(reflect.ValueOf(withSchemaNotes(ctx, inner)))
		}
		if a, ok := v.Interface().(rschema.Attribute); ok {
			out[name] = a
		}
	}
	return out
}

// reflectedAttributes returns the nested attributes a reflected Attributes field holds, if any.
func reflectedAttributes(field reflect.Value) (map[string]rschema.Attribute, bool) {
	if !field.IsValid() || field.IsNil() {
		return nil, false
	}
	attrs, ok := field.Interface().(map[string]rschema.Attribute)
	return attrs, ok
}

// replacementNote says whether a plan modifier is one of the framework's RequiresReplace modifiers (every
// RequiresReplace, RequiresReplaceIf and RequiresReplaceIfConfigured is a requiresReplaceIfModifier of its
// type's planmodifier package), and what to write: replacesTableNote for an unconditional one, the
// modifier's description for a conditional one.
func replacementNote(ctx context.Context, modifier any) (string, bool) {
	if w, ok := modifier.(interface{ wrapped() any }); ok {
		modifier = w.wrapped() // a replacement refused for a protected table is still a replacement
	}
	t := reflect.TypeOf(modifier)
	if t.Name() != "requiresReplaceIfModifier" || !strings.HasPrefix(t.PkgPath(), "github.com/hashicorp/terraform-plugin-framework/resource/schema/") {
		return "", false
	}
	d, ok := modifier.(interface{ Description(context.Context) string })
	if !ok {
		return "", false
	}
	if text := d.Description(ctx); !strings.Contains(text, "will destroy and recreate the resource") {
		return text, true
	}
	return replacesTableNote, true
}

// timeoutsDescription states the operation timeouts' defaults from the constants the resource uses.
func timeoutsDescription() string {
	return fmt.Sprintf("How long each operation may take, as a Go duration (\"45m\"); each covers every wait of the operation. "+
		"Defaults: create %s, read %s, update %s, delete %s.", shortDuration(defaultCreateTimeout), shortDuration(defaultReadTimeout),
		shortDuration(defaultUpdateTimeout), shortDuration(defaultDeleteTimeout))
}

func shortDuration(d time.Duration) string {
	return strings.Replace(strings.Replace(d.String(), "m0s", "m", 1), "h0m", "h", 1)
}
