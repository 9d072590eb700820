package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// dataSourceAttributes gives the data source the resource's definitions of the shared design attributes:
// the same types, descriptions and validators, without what only a resource has (plan modifiers). An
// attribute with a default in the resource is optional and computed in the data source, which returns the
// resolved default (type "S", projection "ALL") so that its outputs can feed another resource as they are.
func dataSourceAttributes(attrs map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = dataSourceAttribute(a)
		if what, ok := resourceOnlySettings[name]; ok {
			out[name] = withDescription(out[name], what+" of the index in dynamokeys_sharded_table. The data source "+
				"accepts it so that one GSI map can feed both, and ignores it: no rule reads it here.")
		}
	}
	return out
}

// resourceOnlySettings are the GSI settings that act on a table (and feed the capacity rules from the
// table's settings); the data source's design has no table, so its page must not describe their effect.
var resourceOnlySettings = map[string]string{
	"on_demand_throughput": "The on-demand caps",
	"warm_throughput":      "The warm throughput",
	"contributor_insights": "Contributor Insights",
	"autoscaling":          "The autoscaling range",
}

func withDescription(a dschema.Attribute, description string) dschema.Attribute {
	if a, ok := a.(dschema.SingleNestedAttribute); ok {
		a.Description = description
		return a
	}
	panic(fmt.Sprintf("withDescription: %T is not a resource-only setting's shape", a))
}

func dataSourceAttribute(a rschema.Attribute) dschema.Attribute {
	switch a := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed || a.Default != nil,
			Description: a.Description, Validators: a.Validators, Sensitive: a.Sensitive}
	case rschema.NumberAttribute:
		return dschema.NumberAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description, Validators: a.Validators}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description, Validators: a.Validators}
	case rschema.Float64Attribute:
		return dschema.Float64Attribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description, Validators: a.Validators}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed || a.Default != nil, Description: a.Description, Validators: a.Validators}
	case rschema.ListAttribute:
		return dschema.ListAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description,
			ElementType: a.ElementType, Validators: a.Validators}
	case rschema.MapAttribute:
		return dschema.MapAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description,
			ElementType: a.ElementType, Validators: a.Validators}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description,
			Validators: a.Validators, Attributes: dataSourceAttributes(a.Attributes)}
	case rschema.MapNestedAttribute:
		return dschema.MapNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description,
			Validators: a.Validators, NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttributes(a.NestedObject.Attributes)}}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Description: a.Description,
			Validators: a.Validators, NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttributes(a.NestedObject.Attributes)}}
	}
	// A new attribute kind in the shared shapes must be added above; the schema tests build both schemas.
	panic(fmt.Sprintf("dataSourceAttribute: no data source form for %T", a))
}

// resolvedDefaults are the values the data source returns for attributes left out: the defaults the
// resource records (key type S, projection ALL).
var resolvedDefaults = map[string]string{"type": model.KeyTypeString, "projection_type": model.ProjectionAll}

// withResolvedDefaults returns v with every null attribute named in resolvedDefaults set to its default, in
// v and in the objects, maps and lists it holds. Unknown values stay unknown.
func withResolvedDefaults(v attr.Value) attr.Value {
	if v.IsNull() || v.IsUnknown() {
		return v
	}
	switch v := v.(type) {
	case types.Object:
		attrs := make(map[string]attr.Value, len(v.Attributes()))
		for name, a := range v.Attributes() {
			if def, ok := resolvedDefaults[name]; ok && a.IsNull() {
				a = types.StringValue(def)
			}
			attrs[name] = withResolvedDefaults(a)
		}
		return types.ObjectValueMust(v.AttributeTypes(context.Background()), attrs)
	case types.Map:
		elems := make(map[string]attr.Value, len(v.Elements()))
		for k, e := range v.Elements() {
			elems[k] = withResolvedDefaults(e)
		}
		return types.MapValueMust(v.ElementType(context.Background()), elems)
	case types.List:
		elems := make([]attr.Value, 0, len(v.Elements()))
		for _, e := range v.Elements() {
			elems = append(elems, withResolvedDefaults(e))
		}
		return types.ListValueMust(v.ElementType(context.Background()), elems)
	}
	return v
}
