package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// spec describes an attribute once for both the data source and the resource, which share the design
// inputs (keys, segments, sharding, traffic, indexes) and the computed outputs (shard count, capacity,
// routing, findings, report) but use different schema packages.
type spec struct {
	kind     specKind
	mode     specMode
	desc     string
	children map[string]spec // object, object map and object list kinds

	// resourceDefault, when set, makes a string attribute Optional+Computed with this default in the
	// resource (the data source reads null as the same default).
	resourceDefault string

	stringValidators []validator.String
	int64Validators  []validator.Int64
	floatValidators  []validator.Float64
	numberValidators []validator.Number
	listValidators   []validator.List
}

type specKind int

const (
	kindString specKind = iota
	kindInt64
	kindFloat64
	kindNumber
	kindBool
	kindStringList
	kindObject
	kindObjectMap
	kindObjectList
)

type specMode int

const (
	modeOptional specMode = iota
	modeRequired
	modeComputed
)

func (s spec) attrType() attr.Type {
	switch s.kind {
	case kindString:
		return types.StringType
	case kindInt64:
		return types.Int64Type
	case kindFloat64:
		return types.Float64Type
	case kindNumber:
		return types.NumberType
	case kindBool:
		return types.BoolType
	case kindStringList:
		return types.ListType{ElemType: types.StringType}
	case kindObject:
		return s.objectType()
	case kindObjectMap:
		return types.MapType{ElemType: s.objectType()}
	default:
		return types.ListType{ElemType: s.objectType()}
	}
}

func (s spec) objectType() types.ObjectType {
	types_ := make(map[string]attr.Type, len(s.children))
	for name, child := range s.children {
		types_[name] = child.attrType()
	}
	return types.ObjectType{AttrTypes: types_}
}

func (s spec) dataSource() dschema.Attribute {
	req, opt, comp := s.mode == modeRequired, s.mode == modeOptional, s.mode == modeComputed
	switch s.kind {
	case kindString:
		return dschema.StringAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.stringValidators}
	case kindInt64:
		return dschema.Int64Attribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.int64Validators}
	case kindFloat64:
		return dschema.Float64Attribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.floatValidators}
	case kindNumber:
		return dschema.NumberAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.numberValidators}
	case kindBool:
		return dschema.BoolAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc}
	case kindStringList:
		return dschema.ListAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, ElementType: types.StringType, Validators: s.listValidators}
	case kindObject:
		return dschema.SingleNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Attributes: s.dataSourceChildren()}
	case kindObjectMap:
		return dschema.MapNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc,
			NestedObject: dschema.NestedAttributeObject{Attributes: s.dataSourceChildren()}}
	default:
		return dschema.ListNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.listValidators,
			NestedObject: dschema.NestedAttributeObject{Attributes: s.dataSourceChildren()}}
	}
}

func (s spec) dataSourceChildren() map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(s.children))
	for name, child := range s.children {
		out[name] = child.dataSource()
	}
	return out
}

func (s spec) resource() rschema.Attribute {
	req, opt, comp := s.mode == modeRequired, s.mode == modeOptional, s.mode == modeComputed
	switch s.kind {
	case kindString:
		a := rschema.StringAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.stringValidators}
		if s.resourceDefault != "" {
			a.Computed, a.Default = true, stringdefault.StaticString(s.resourceDefault)
		}
		return a
	case kindInt64:
		return rschema.Int64Attribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.int64Validators}
	case kindFloat64:
		return rschema.Float64Attribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.floatValidators}
	case kindNumber:
		return rschema.NumberAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.numberValidators}
	case kindBool:
		return rschema.BoolAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc}
	case kindStringList:
		return rschema.ListAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, ElementType: types.StringType, Validators: s.listValidators}
	case kindObject:
		return rschema.SingleNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Attributes: s.resourceChildren()}
	case kindObjectMap:
		return rschema.MapNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc,
			NestedObject: rschema.NestedAttributeObject{Attributes: s.resourceChildren()}}
	default:
		return rschema.ListNestedAttribute{Required: req, Optional: opt, Computed: comp, Description: s.desc, Validators: s.listValidators,
			NestedObject: rschema.NestedAttributeObject{Attributes: s.resourceChildren()}}
	}
}

func (s spec) resourceChildren() map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(s.children))
	for name, child := range s.children {
		out[name] = child.resource()
	}
	return out
}
