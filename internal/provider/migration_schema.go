package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The `migration` input of the keydesign data source and the resource, and the data source's
// `migration_plan` output: a key-scheme migration from the layout the existing items were written in
// (keydesign/migration.go). Design metadata like traffic: it never touches the table.

func migrationAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "A key-scheme migration: the layout the existing items were written in (`from`) and the phase the application is in. " +
			"DynamoDB keeps every item under the key it was written with, so a change of key templates or sharding on a live table needs " +
			"one (rule DK406). The phases, in order: `dual_write` (writers write both layouts, readers read the old), `backfill` (old " +
			"items are rewritten under the new keys), `read_new` (readers read the new layout, writers still write both), `done` (only " +
			"the new layout; the old items deleted). Moving to a later phase skipping one is DK407; moving back is a rollback. The report " +
			"lists the steps with the backfill's items, units, cost and hours; DK408 warns when the backfill throttles or runs too long. " +
			"Design metadata: it never changes the table. See the guide on migrating a key scheme.",
		Attributes: map[string]rschema.Attribute{
			"phase": rschema.StringAttribute{Required: true, Description: "dual_write, backfill, read_new or done.",
				Validators: []validator.String{stringvalidator.OneOf(model.MigrationPhases...)}},
			"from": rschema.SingleNestedAttribute{Required: true,
				Description: "The layout being left: what differs from the design, as the existing items were written. " +
					"A plan that changes the keys without a migration (DK406) prints this block for the table's layout.",
				Attributes: map[string]rschema.Attribute{
					"partition_key_template": optionalString("The old partition-key template (a design without entities), e.g. `DAY#{day}`. Omitted: unchanged."),
					"sort_key_template":      optionalString("The old sort-key template (a design without entities). Omitted: unchanged."),
					"entities": rschema.MapNestedAttribute{Optional: true,
						Description: "The old key templates of the entities that are re-keyed, keyed by entity name, with the shape of `entities`. An entity not listed keeps its keys.",
						NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
							"keys": rschema.MapAttribute{Required: true, ElementType: types.StringType,
								Description: "Every key template the entity's old items carry, keyed by attribute name."},
						}}},
					"sharding": rschema.SingleNestedAttribute{Optional: true,
						Description: "The old sharding, with the count the items were written with. Omitted: unchanged.",
						Attributes:  shardingAttributes()},
				}},
			"backfill_write_units_per_second": optionalFloat("The backfill's rate in table write units per second, above 0. Omitted: the " +
				"headroom the design leaves beside the production peak (dual writes included) under a partition's, the table's and each " +
				"capped GSI's throughput at target_utilization."),
		}}
}

// migrationPlanAttribute is the data source's `migration_plan`: derived.migration for machines that feed
// application configuration (both routings) or dashboards (the backfill).
var migrationPlanAttribute = rschema.SingleNestedAttribute{Computed: true,
	Description: "What the `migration` means, null without one: both routing specs (so that code can compute either layout), each " +
		"entity's old and new keys, each access pattern's old and new key and the layout its readers read in the current phase, and " +
		"the backfill's figures.",
	Attributes: map[string]rschema.Attribute{
		"phase":       computedString("The current phase."),
		"old_routing": routingAttribute,
		"new_routing": routingAttribute,
		"entities": rschema.MapNestedAttribute{Computed: true, Description: "Each entity's keys in both layouts (the key \"\" is a table without entities).",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"old_keys": rschema.MapAttribute{Computed: true, ElementType: types.StringType, Description: "Key templates of the old layout by attribute."},
				"new_keys": rschema.MapAttribute{Computed: true, ElementType: types.StringType, Description: "Key templates of the new layout by attribute."},
				"changed":  rschema.BoolAttribute{Computed: true, Description: "Whether its items move (a template or, for a sharded key, the routing changes)."},
				"writes":   rschema.ListAttribute{Computed: true, ElementType: types.StringType, Description: "The layouts its writers write in the current phase."},
			}}},
		"access_patterns": rschema.MapNestedAttribute{Computed: true, Description: "Each access pattern in both layouts.",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"old_key":               rschema.ListAttribute{Computed: true, ElementType: types.StringType, Description: "What its key reads in the old layout."},
				"new_key":               rschema.ListAttribute{Computed: true, ElementType: types.StringType, Description: "What its key reads in the new layout."},
				"changed":               rschema.BoolAttribute{Computed: true, Description: "Whether a reader of one layout misses the other's items."},
				"reads":                 computedString("The layout its readers read in the current phase: old or new."),
				"queries_per_call":      computedInt("Queries per call in the current phase."),
				"both_queries_per_call": computedInt("Queries per call of a reader of both layouts: the old fan-out plus the new."),
			}}},
		"backfill": rschema.SingleNestedAttribute{Computed: true, Description: "The rewrite of the old items and their deletion; counts are null without item_count.",
			Attributes: map[string]rschema.Attribute{
				"items":                           computedFloat("Items to rewrite."),
				"scan_read_units":                 computedFloat("Read units of the Scan that reads them (the whole table, eventually consistent)."),
				"put_write_units":                 computedFloat("Table write units of the rewrites, LSI entries included."),
				"delete_write_units":              computedFloat("Table write units of deleting the old items, LSI entries included."),
				"write_units":                     computedFloat("Every write unit of the rewrites and the deletes, GSIs included."),
				"cost":                            computedFloat("The on-demand price of the Scan, the rewrites and the deletes, in dollars."),
				"rate":                            computedFloat("The rate in table write units per second: the declared one, else the headroom."),
				"headroom_write_units_per_second": computedFloat("The rate that fits beside the production peak at target_utilization."),
				"hours":                           computedFloat("Hours the rewrite takes at the rate."),
				"delete_hours":                    computedFloat("Hours the deletion of the old items takes at the rate."),
			}},
	}}

var migrationPlanType = objectType(migrationPlanAttribute.Attributes)

type migrationPlanModel struct {
	Phase          types.String                    `tfsdk:"phase"`
	OldRouting     routingModel                    `tfsdk:"old_routing"`
	NewRouting     routingModel                    `tfsdk:"new_routing"`
	Entities       map[string]migrationEntityPlan  `tfsdk:"entities"`
	AccessPatterns map[string]migrationPatternPlan `tfsdk:"access_patterns"`
	Backfill       migrationBackfillPlan           `tfsdk:"backfill"`
}

type routingModel struct {
	Algorithm     types.String `tfsdk:"algorithm"`
	Count         types.Int64  `tfsdk:"count"`
	Width         types.Int64  `tfsdk:"width"`
	Source        types.String `tfsdk:"source"`
	SchemeVersion types.Int64  `tfsdk:"scheme_version"`
}

type migrationEntityPlan struct {
	OldKeys map[string]string `tfsdk:"old_keys"`
	NewKeys map[string]string `tfsdk:"new_keys"`
	Changed bool              `tfsdk:"changed"`
	Writes  []string          `tfsdk:"writes"`
}

type migrationPatternPlan struct {
	OldKey             []string `tfsdk:"old_key"`
	NewKey             []string `tfsdk:"new_key"`
	Changed            bool     `tfsdk:"changed"`
	Reads              string   `tfsdk:"reads"`
	QueriesPerCall     int64    `tfsdk:"queries_per_call"`
	BothQueriesPerCall int64    `tfsdk:"both_queries_per_call"`
}

type migrationBackfillPlan struct {
	Items            types.Float64 `tfsdk:"items"`
	ScanReadUnits    types.Float64 `tfsdk:"scan_read_units"`
	PutWriteUnits    types.Float64 `tfsdk:"put_write_units"`
	DeleteWriteUnits types.Float64 `tfsdk:"delete_write_units"`
	WriteUnits       types.Float64 `tfsdk:"write_units"`
	Cost             types.Float64 `tfsdk:"cost"`
	Rate             types.Float64 `tfsdk:"rate"`
	Headroom         types.Float64 `tfsdk:"headroom_write_units_per_second"`
	Hours            types.Float64 `tfsdk:"hours"`
	DeleteHours      types.Float64 `tfsdk:"delete_hours"`
}

func routingValue(r model.Routing) routingModel {
	return routingModel{Algorithm: types.StringValue(r.Algorithm), Count: types.Int64Value(r.Count), Width: types.Int64Value(int64(r.Width)),
		Source: types.StringValue(r.Source), SchemeVersion: types.Int64Value(r.SchemeVersion)}
}

// migrationPlanOutput is the data source's migration_plan for a document: null without a migration,
// unknown while it is.
func migrationPlanOutput(ctx context.Context, doc *model.Document) (types.Object, diag.Diagnostics) {
	md := doc.Derived.Migration
	if md == nil {
		if slices.Contains(doc.Unknown, "derived.migration") {
			return types.ObjectUnknown(migrationPlanType.AttrTypes), nil
		}
		return types.ObjectNull(migrationPlanType.AttrTypes), nil
	}
	m := migrationPlanModel{Phase: types.StringValue(md.Phase), OldRouting: routingValue(md.OldRouting), NewRouting: routingValue(md.NewRouting),
		Entities: map[string]migrationEntityPlan{}, AccessPatterns: map[string]migrationPatternPlan{}}
	for _, e := range md.Entities {
		ep := migrationEntityPlan{OldKeys: orEmptyMap(e.OldKeys), NewKeys: orEmptyMap(e.NewKeys), Changed: e.Changed, Writes: []string{}}
		if md.PhaseIndex >= 0 && md.PhaseIndex < len(e.Writes) {
			ep.Writes = e.Writes[md.PhaseIndex].Layouts
		}
		m.Entities[e.Name] = ep
	}
	for _, p := range md.Patterns {
		pp := migrationPatternPlan{OldKey: p.OldKey, NewKey: p.NewKey, Changed: p.Changed, BothQueriesPerCall: p.BothQueriesPerCall}
		if md.PhaseIndex >= 0 && md.PhaseIndex < len(p.Reads) {
			pp.Reads, pp.QueriesPerCall = p.Reads[md.PhaseIndex].Layout, p.Reads[md.PhaseIndex].QueriesPerCall
		}
		m.AccessPatterns[p.Name] = pp
	}
	b := md.Backfill
	m.Backfill = migrationBackfillPlan{Items: floatOrNull(b.Items), ScanReadUnits: floatOrNull(b.ScanReadUnits),
		PutWriteUnits: floatOrNull(b.PutWriteUnits), DeleteWriteUnits: floatOrNull(b.DeleteWriteUnits), WriteUnits: floatOrNull(b.WriteUnits),
		Cost: floatOrNull(b.Cost), Rate: types.Float64Value(b.Rate), Headroom: types.Float64Value(b.HeadroomWriteUnitsPerSecond),
		Hours: floatOrNull(b.Hours), DeleteHours: floatOrNull(b.DeleteHours)}
	obj, diags := types.ObjectValueFrom(ctx, migrationPlanType.AttrTypes, m)
	if diags.HasError() {
		diags.AddError("Encoding the migration plan failed", fmt.Sprintf("%v. Please report this issue with the design that caused it.", strings.TrimSpace(fmt.Sprint(diags))))
	}
	return obj, diags
}

func orEmptyMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
