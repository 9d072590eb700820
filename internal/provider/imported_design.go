package provider

import (
	"context"
	"maps"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/importers"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The object the model-import functions (from_mcp_schema, from_workbench_model, from_onetable_schema)
// return: a design's inputs, each attribute the argument of dynamokeys_keydesign of the same name, and
// skipped; a function adds what its model says beside them.

var (
	importedKeyType     = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "type": types.StringType}}
	importedGSIType     = types.ObjectType{AttrTypes: map[string]attr.Type{"partition_key": types.ListType{ElemType: importedKeyType}, "sort_key": types.ListType{ElemType: importedKeyType}, "projection_type": types.StringType, "non_key_attributes": types.ListType{ElemType: types.StringType}}}
	importedSegmentType = types.ObjectType{AttrTypes: map[string]attr.Type{"kind": types.StringType, "granularity": types.StringType, "values": types.ListType{ElemType: types.StringType}, "max_length": types.NumberType, "characters": types.StringType}}
	importedEntityType  = types.ObjectType{AttrTypes: map[string]attr.Type{"keys": types.MapType{ElemType: types.StringType}}}
	importedSortType    = types.ObjectType{AttrTypes: map[string]attr.Type{"on": types.StringType, "condition": types.StringType}}
	importedPatternType = types.ObjectType{AttrTypes: map[string]attr.Type{"entities": types.ListType{ElemType: types.StringType}, "index": types.StringType, "equals": types.ListType{ElemType: types.StringType}, "sort": importedSortType, "consistency": types.StringType}}
	importedDesignTypes = map[string]attr.Type{
		"partition_key": importedKeyType, "sort_key": importedKeyType, "global_secondary_indexes": types.MapType{ElemType: importedGSIType},
		"segments": types.MapType{ElemType: importedSegmentType}, "entities": types.MapType{ElemType: importedEntityType},
		"access_patterns": types.MapType{ElemType: importedPatternType}, "skipped": types.ListType{ElemType: types.StringType},
	}
)

// importedDesignReturn is the attribute types of the object: the design's inputs and extra.
func importedDesignReturn(extra map[string]attr.Type) map[string]attr.Type {
	out := maps.Clone(importedDesignTypes)
	maps.Copy(out, extra)
	return out
}

type importedKeyModel struct {
	Name types.String `tfsdk:"name"`
	Type types.String `tfsdk:"type"`
}

type importedGSIModel struct {
	PartitionKey     []importedKeyModel `tfsdk:"partition_key"`
	SortKey          []importedKeyModel `tfsdk:"sort_key"`
	ProjectionType   types.String       `tfsdk:"projection_type"`
	NonKeyAttributes []string           `tfsdk:"non_key_attributes"`
}

type importedSegmentModel struct {
	Kind        types.String `tfsdk:"kind"`
	Granularity types.String `tfsdk:"granularity"`
	Values      []string     `tfsdk:"values"`
	MaxLength   *big.Float   `tfsdk:"max_length"`
	Characters  types.String `tfsdk:"characters"`
}

type importedEntityModel struct {
	Keys map[string]string `tfsdk:"keys"`
}

type importedSortModel struct {
	On        types.String `tfsdk:"on"`
	Condition types.String `tfsdk:"condition"`
}

type importedPatternModel struct {
	Entities    []string           `tfsdk:"entities"`
	Index       types.String       `tfsdk:"index"`
	Equals      []string           `tfsdk:"equals"`
	Sort        *importedSortModel `tfsdk:"sort"`
	Consistency types.String       `tfsdk:"consistency"`
}

type importedDesignModel struct {
	PartitionKey           importedKeyModel                `tfsdk:"partition_key"`
	SortKey                *importedKeyModel               `tfsdk:"sort_key"`
	GlobalSecondaryIndexes map[string]importedGSIModel     `tfsdk:"global_secondary_indexes"`
	Segments               map[string]importedSegmentModel `tfsdk:"segments"`
	Entities               map[string]importedEntityModel  `tfsdk:"entities"`
	AccessPatterns         map[string]importedPatternModel `tfsdk:"access_patterns"`
	Skipped                []string                        `tfsdk:"skipped"`
}

func importedKeys(keys []model.IndexKeyAttribute) []importedKeyModel {
	out := make([]importedKeyModel, len(keys))
	for i, k := range keys {
		out[i] = importedKeyModel{Name: types.StringValue(k.Name), Type: types.StringValue(k.Type)}
	}
	return out
}

// importedDesignObject is the design's inputs as the functions' object; extra, a struct whose tfsdk fields
// are extraTypes, adds the attributes a function returns beside them.
func importedDesignObject(ctx context.Context, d *importers.Design, extraTypes map[string]attr.Type, extra any) (types.Object, diag.Diagnostics) {
	m := importedDesignModel{
		PartitionKey:           importedKeyModel{Name: types.StringValue(d.PartitionKey.Name), Type: types.StringValue(d.PartitionKey.Type)},
		GlobalSecondaryIndexes: map[string]importedGSIModel{}, Segments: map[string]importedSegmentModel{}, Entities: map[string]importedEntityModel{},
		AccessPatterns: map[string]importedPatternModel{}, Skipped: append([]string{}, d.Skipped...),
	}
	if d.SortKey != nil {
		m.SortKey = &importedKeyModel{Name: types.StringValue(d.SortKey.Name), Type: types.StringValue(d.SortKey.Type)}
	}
	for _, g := range d.GlobalSecondaryIndexes {
		m.GlobalSecondaryIndexes[g.Name] = importedGSIModel{PartitionKey: importedKeys(g.PartitionKey), SortKey: importedKeys(g.SortKey),
			ProjectionType: types.StringValue(g.ProjectionType), NonKeyAttributes: g.NonKeyAttributes}
	}
	for name, s := range d.Segments {
		seg := importedSegmentModel{Kind: types.StringValue(string(s.Kind)), Values: s.Values, Characters: types.StringPointerValue(s.Characters),
			Granularity: types.StringNull()}
		if s.Granularity != "" {
			seg.Granularity = types.StringValue(s.Granularity)
		}
		if s.MaxLength != nil {
			seg.MaxLength = new(big.Float).SetInt64(*s.MaxLength)
		}
		m.Segments[name] = seg
	}
	for _, e := range d.Entities {
		m.Entities[e.Name] = importedEntityModel{Keys: e.Keys}
	}
	for _, ap := range d.AccessPatterns {
		p := importedPatternModel{Entities: slices.Clone(ap.Entities), Index: types.StringPointerValue(ap.Index), Equals: append([]string{}, ap.Equals...),
			Consistency: types.StringNull()}
		if ap.Consistency != "" {
			p.Consistency = types.StringValue(ap.Consistency)
		}
		if ap.Sort != nil {
			p.Sort = &importedSortModel{On: types.StringValue(ap.Sort.On), Condition: types.StringValue(ap.Sort.Condition)}
		}
		m.AccessPatterns[ap.Name] = p
	}
	obj, diags := types.ObjectValueFrom(ctx, importedDesignTypes, m)
	if diags.HasError() || extra == nil {
		return obj, diags
	}
	more, extraDiags := types.ObjectValueFrom(ctx, extraTypes, extra)
	diags.Append(extraDiags...)
	if diags.HasError() {
		return obj, diags
	}
	attrs := maps.Clone(obj.Attributes())
	maps.Copy(attrs, more.Attributes())
	return types.ObjectValue(importedDesignReturn(extraTypes), attrs)
}
