package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The design attributes are written once, with the resource's schema types, and shared: the data source
// takes the same definitions through dataSourceAttributes (datasource_schema.go), which drops what only a
// resource has (plan modifiers, defaults). Replacement is decided here by plan modifiers: changing a table
// key's name or type, adding or removing the sort key, or changing any LSI replaces the table; templates,
// segments, sharding and traffic are design metadata and never do.

const keyTypeDesc = "Attribute type: S (string, the default), N (number) or B (binary). Other types are reported by rule DK101."

func optionalString(desc string, v ...validator.String) rschema.StringAttribute {
	return rschema.StringAttribute{Optional: true, Description: desc, Validators: v}
}

// defaultedString is optional with a default the resource records; the data source returns the same
// resolved value.
func defaultedString(desc, value string, v ...validator.String) rschema.StringAttribute {
	return rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(value), Description: desc, Validators: v}
}

func requiredString(desc string, modifiers ...planmodifier.String) rschema.StringAttribute {
	return rschema.StringAttribute{Required: true, Description: desc, PlanModifiers: modifiers}
}

// optionalInt and optionalFloat are Number attributes (see numbers.go) holding a whole or any finite number.
func optionalInt(desc string) rschema.NumberAttribute {
	return rschema.NumberAttribute{Optional: true, Description: desc, Validators: []validator.Number{wholeNumberValidator()}}
}

func optionalFloat(desc string) rschema.NumberAttribute {
	return rschema.NumberAttribute{Optional: true, Description: desc, Validators: []validator.Number{finiteNumberValidator()}}
}

func optionalBool(desc string) rschema.BoolAttribute {
	return rschema.BoolAttribute{Optional: true, Description: desc}
}

var projectionValidator = stringvalidator.OneOf(model.ProjectionAll, model.ProjectionKeysOnly, model.ProjectionInclude)

// tableKeyAttributes are the name, type and template of a table key. The name and type replace the table
// when they change; the template is design metadata.
func tableKeyAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"name": requiredString("Name of the key attribute, 1 to "+limitText(model.MaxAttributeNameBytes)+" bytes.", protectedString{stringplanmodifier.RequiresReplace()}),
		"type": rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(model.KeyTypeString),
			Description: keyTypeDesc, PlanModifiers: []planmodifier.String{protectedString{stringplanmodifier.RequiresReplace()}}},
		"template": optionalString("Key template: literal text with {placeholder} segments, e.g. `DAY#{day}#SHARD#{shard}`. " +
			"Placeholder names match [a-z][a-z0-9_]*; {shard} is reserved for the shard suffix; braces cannot appear in literal text."),
	}
}

// indexKeyAttributes are the name and type of an index key attribute, with a cardinality for GSI partition
// attributes.
func indexKeyAttributes(withCardinality bool) map[string]rschema.Attribute {
	attrs := map[string]rschema.Attribute{
		"name": requiredString("Name of the key attribute."),
		"type": defaultedString(keyTypeDesc, model.KeyTypeString),
	}
	if withCardinality {
		attrs["cardinality"] = optionalInt("Number of distinct values of this attribute, used to find hot GSI partitions.")
	}
	return attrs
}

// designInputAttributes are the design inputs (keys, segments, sharding, traffic, indexes).
func designInputAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"partition_key": rschema.SingleNestedAttribute{Required: true, Attributes: tableKeyAttributes(),
			Description: "The table's partition (hash) key and the template of its values (with entities, each entity gives its own)."},
		"sort_key": rschema.SingleNestedAttribute{Optional: true, Attributes: tableKeyAttributes(),
			Description:   "The table's sort (range) key and the template of its values. Omit for a table without a sort key.",
			PlanModifiers: []planmodifier.Object{protectedObject{objectplanmodifier.RequiresReplaceIf(sortKeyAddedOrRemoved, "Adding or removing the sort key replaces the table.", "Adding or removing the sort key replaces the table.")}}},
		"segments": rschema.MapNestedAttribute{Optional: true,
			Description: "One entry per template placeholder other than {shard}, keyed by placeholder name: what the placeholder holds.",
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"kind": rschema.StringAttribute{Required: true,
					Description: "What the segment holds: id (unbounded identifiers), enum (a fixed list of values), time (a time bucket) or number.",
					Validators:  []validator.String{stringvalidator.OneOf(model.SegmentKinds...)}},
				"granularity": optionalString("Time bucket size of a time segment: year, month, week, day, hour, minute, second (rendered like 2006-01-02T15:04:05) or millisecond (a 13-digit epoch).",
					stringvalidator.OneOf(model.TimeGranularities...)),
				"values": rschema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "The values of an enum segment.",
					Validators: []validator.List{listvalidator.SizeAtLeast(1)}},
				"max_length": optionalInt("Longest rendered value in UTF-8 bytes. Defaults: id " + limitText(model.DefaultIDMaxLength) + ", number " +
					limitText(model.DefaultNumberMaxLength) + ", enum the longest value, time from the granularity."),
				"cardinality": optionalInt("Number of distinct values. Defaults: enum the number of values; id, number and time unbounded."),
				"monotonic":   optionalBool("Whether new values only grow (timestamps, sequence numbers). Defaults to true for time segments, false otherwise."),
				"characters": optionalString("The characters an id segment may hold, listed with a-z style ranges: 0-9A-Z for a ULID, 0-9a-f- for a UUID. " +
					"Read by the entity collision check (DK109); without it an id holds no character the templates use as a delimiter (# of CUSTOMER#{customer_id})."),
			}}},
		"sharding": rschema.SingleNestedAttribute{Optional: true, Description: "Write sharding of the partition key with a {shard} suffix.",
			Attributes: shardingAttributes()},
		"traffic": rschema.SingleNestedAttribute{Optional: true,
			Description: "Measured or expected peak traffic. Every field is optional; rules that need a missing number stay silent.",
			Attributes: map[string]rschema.Attribute{
				"writes_per_second":              optionalFloat("Peak writes per second to the whole entity; with `replicas`, every Region's writes together."),
				"reads_per_second":               optionalFloat("Peak reads per second from the whole entity; with `replicas`, each Region's (the busiest Region's)."),
				"item_size_bytes":                optionalInt("Typical item size in bytes, 1 to " + limitText(model.MaxItemSizeBytes) + " (the item size limit). Defaults to " + limitText(model.DefaultItemSizeBytes) + "."),
				"read_consistency":               optionalString("eventual (the default, 0.5 RCU per 4 KB), strong (1 RCU) or transactional (2 RCU).", stringvalidator.OneOf(model.ReadConsistencies...)),
				"transactional_writes":           optionalBool("Whether writes are transactional, which doubles their write units."),
				"hot_key_share":                  optionalFloat("Share of traffic (0 to 1) on the busiest partition-key value. Defaults from the key template: see the capacity model guide."),
				"hottest_item_writes_per_second": optionalFloat("Writes per second to the single busiest item, which no sharding can spread."),
				"hottest_item_reads_per_second":  optionalFloat("Reads per second of the single busiest item."),
				"max_items_per_partition_key":    optionalInt("Most items under one partition-key value (the item collection). Omit for unbounded growth."),
				"average_writes_per_second":      optionalFloat("Average writes per second over a month, for `cost`. Omitted: the peak prices the month, an upper bound."),
				"average_reads_per_second":       optionalFloat("Average reads per second over a month, for `cost`. Omitted: the peak prices the month, an upper bound."),
				"item_count":                     optionalInt("Items in the table (DescribeTable's ItemCount), for storage in `cost`. Omitted: storage is not priced."),
			}},
		"target_utilization": optionalFloat("Share of a partition's throughput one shard may use when the shard count is computed, in (0, 1]. Defaults to " + limitText(model.DefaultTargetUtilization) + "."),
		"local_secondary_indexes": rschema.MapNestedAttribute{Optional: true,
			Description:   "Local secondary indexes keyed by index name (at most " + limitText(model.MaxLocalSecondaryIndexes) + "; they need a table sort key). DynamoDB creates LSIs only with the table: any change replaces it.",
			PlanModifiers: []planmodifier.Map{protectedMap{mapplanmodifier.RequiresReplaceIf(lsisChanged, "Any LSI change replaces the table.", "Any LSI change replaces the table.")}},
			NestedObject:  rschema.NestedAttributeObject{Attributes: lsiAttributes()}},
		"global_secondary_indexes": rschema.MapNestedAttribute{Optional: true,
			Description:  "Global secondary indexes keyed by index name. A changed key or projection deletes and creates that one index; the others are untouched.",
			NestedObject: rschema.NestedAttributeObject{Attributes: gsiAttributes()}},
		"vector_indexes":   vectorIndexesAttribute(),
		"enforce":          optionalBool("When true (the default, or the provider's policy.enforce), error findings fail the plan; when false, every finding is a warning."),
		"observed":         observedInputAttributes()["observed"],
		"observed_indexes": observedInputAttributes()["observed_indexes"],
		"pricing":          pricingAttribute(),
		"access_patterns":  accessPatternsAttribute(),
		"entities":         entitiesAttribute(),
		"migration":        migrationAttribute(),
		"replicas":         replicasAttribute(),
	}
}

// shardingAttributes are the attributes of a sharding block: the design's, and a migration's old one.
func shardingAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"strategy": optionalString("none (the default), calculated (suffix = hash of the source segment, so readers can find an item's shard) or random.",
			stringvalidator.OneOf(model.ShardingStrategies...)),
		"source": optionalString("Segment whose value is hashed by the calculated strategy, e.g. event_id."),
		"count": optionalInt(fmt.Sprintf("Number of shards, 1 to %s. Omit to compute it from traffic: the busiest key's demand over %s WCU and %s RCU per partition at target_utilization.",
			limitText(model.MaxShardCount), limitText(model.PartitionWriteUnitsLimit), limitText(model.PartitionReadUnitsLimit))),
		"scheme_version": optionalInt("Version of the routing scheme, default " + limitText(model.DefaultSchemeVersion) + ". Bump it whenever count, source or strategy change on a live table (rule DK402)."),
	}
}

// lsiAttributes are the attributes of one local secondary index.
func lsiAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"sort_key":           rschema.SingleNestedAttribute{Required: true, Description: "The index sort key.", Attributes: indexKeyAttributes(false)},
		"projection_type":    defaultedString("ALL (the default), KEYS_ONLY or INCLUDE.", model.ProjectionAll, projectionValidator),
		"non_key_attributes": rschema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "Attributes projected by INCLUDE."},
	}
}

// gsiAttributes are the attributes of one global secondary index.
func gsiAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"partition_key": rschema.ListNestedAttribute{Required: true, Description: "1 to 4 partition key attributes (multi-attribute keys).",
			NestedObject: rschema.NestedAttributeObject{Attributes: indexKeyAttributes(true)}},
		"sort_key": rschema.ListNestedAttribute{Optional: true, Description: "0 to 4 sort key attributes.",
			NestedObject: rschema.NestedAttributeObject{Attributes: indexKeyAttributes(false)}},
		"projection_type":      defaultedString("ALL (the default), KEYS_ONLY or INCLUDE.", model.ProjectionAll, projectionValidator),
		"non_key_attributes":   rschema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "Attributes projected by INCLUDE."},
		"read_capacity":        optionalInt("Provisioned read capacity units of the index (PROVISIONED tables only)."),
		"write_capacity":       optionalInt("Provisioned write capacity units of the index (PROVISIONED tables only)."),
		"on_demand_throughput": onDemandAttribute("the index"),
		"warm_throughput":      warmAttribute("index"),
		"contributor_insights": contributorInsightsAttribute("index"),
		"autoscaling":          autoscalingAttribute("index"),
	}
}

// sortKeyAddedOrRemoved replaces the table when the sort key appears or disappears; a change of its name or
// type inside is replaced by the nested attributes' own modifiers.
func sortKeyAddedOrRemoved(_ context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.PlanValue.IsUnknown() && req.StateValue.IsNull() != req.PlanValue.IsNull()
}

// lsisChanged replaces the table when its LSIs differ the way DynamoDB sees them (sameLSI); an LSI map not
// known yet is decided at the next plan.
func lsisChanged(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.PlanValue.IsUnknown() && !lsisEqual(ctx, req.StateValue, req.PlanValue)
}

func computedFloat(desc string) rschema.Float64Attribute {
	return rschema.Float64Attribute{Computed: true, Description: desc}
}

func computedInt(desc string) rschema.Int64Attribute {
	return rschema.Int64Attribute{Computed: true, Description: desc}
}

func computedString(desc string) rschema.StringAttribute {
	return rschema.StringAttribute{Computed: true, Description: desc}
}

var (
	capacityAttribute = rschema.SingleNestedAttribute{Computed: true,
		Description: "Capacity units computed from traffic: units per request, peak demand, the busiest partition-key value's demand before and after sharding, the shards it needs and the read fan-out.",
		Attributes: map[string]rschema.Attribute{
			"write_units_per_write": computedFloat("Write units one write costs: ceil(item size / 1 KB), doubled for transactional writes."),
			"read_units_per_read":   computedFloat("Read units one read costs: ceil(item size / 4 KB) × 0.5 eventual, 1 strong, 2 transactional."),
			"peak_write_units":      computedFloat("Write units per second at peak, whole table; null without traffic.writes_per_second."),
			"peak_read_units":       computedFloat("Read units per second at peak, whole table; null without traffic.reads_per_second."),
			"hot_key_share":         computedFloat("Share of traffic on the busiest partition-key value, given or derived from the template."),
			"hot_key_write_units":   computedFloat("Write units per second of the busiest logical key, before sharding."),
			"hot_key_read_units":    computedFloat("Read units per second of the busiest logical key, before sharding."),
			"per_shard_write_units": computedFloat("Write units per second of each shard of the busiest key; a partition serves " + limitText(model.PartitionWriteUnitsLimit) + "."),
			"per_shard_read_units":  computedFloat("Read units per second of each shard of the busiest key; a partition serves " + limitText(model.PartitionReadUnitsLimit) + "."),
			"read_fanout":           computedInt("Queries needed to read one logical collection: one per shard."),
			"required_shard_count":  computedInt("Shards the busiest key needs at target_utilization, whatever count is configured."),
		}}
	routingAttribute = rschema.SingleNestedAttribute{Computed: true, Description: "The shard routing spec application code must follow.",
		Attributes: map[string]rschema.Attribute{
			"algorithm":      computedString("sha256-be32-mod for calculated sharding (SHA-256 of the UTF-8 source value, first 4 bytes big-endian, mod count), random, or none."),
			"count":          computedInt("Number of shards."),
			"width":          computedInt("Digits of a zero-padded suffix."),
			"source":         computedString("Segment whose value is hashed."),
			"scheme_version": computedInt("Version of the routing scheme."),
		}}
	findingsAttribute = rschema.ListNestedAttribute{Computed: true, Description: "Policy findings on the design, most severe first.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"rule":        computedString("Rule id, e.g. DK303."),
			"name":        computedString("Rule name, e.g. hot-key-demand."),
			"severity":    computedString("error or warning."),
			"message":     computedString("What the rule found, with the numbers."),
			"path":        computedString("Attribute the finding concerns, e.g. traffic.writes_per_second."),
			"remediation": computedString("What to change."),
			"docs_url":    computedString("Where the rule is documented."),
		}}}
)

// designOutputAttributes are the computed attributes of the data source and the resource.
func designOutputAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"shard_count":     computedInt("Number of shards of the partition key: sharding.count, or computed from traffic, or 1 without sharding."),
		"routing":         routingAttribute,
		"findings":        findingsAttribute,
		"ok":              rschema.BoolAttribute{Computed: true, Description: "True when there is no error finding."},
		"report":          computedString("A readable text report: key layout, capacity and a bar chart of per-shard demand against the partition limits."),
		"design_document": designDocumentAttribute,
	}
}

// designFactsAttributes are the data source's further computed attributes, which the resource leaves out of
// its plan (designFactsModel); the capacity numbers follow the capacity model of
// contributing/capacity-model.md.
func designFactsAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"shard_width":            computedInt("Digits of a shard suffix: the length of count - 1, at least 1."),
		"shard_suffixes":         rschema.ListAttribute{Computed: true, ElementType: types.StringType, Description: "Every shard suffix, e.g. \"00\" to \"15\" for 16 shards."},
		"partition_key_template": computedString("The partition-key template as it will be written; null with `entities`, whose entities each write their own (`design_document` has each entity's)."),
		"capacity":               capacityAttribute,
		"cost":                   costAttribute,
		"infracost_usage":        infracostUsageAttribute,
		"migration_plan":         migrationPlanAttribute,
	}
}

// designDocumentAttribute is one line of a plan; contributing/design-document.md ("Encoding") says why.
var designDocumentAttribute = computedString("The analyzed design the policies evaluate, for machines: `" + model.AttributeEncoding +
	"` followed by the document's JSON (the design with defaults applied, every derived fact, schema_version and the " +
	"provider_version that computed it), one line in a plan. The policy bundle reads it from the plan JSON. Read it with " +
	"`provider::dynamokeys::decode_design_document`, or `jq` on `terraform show -json` output; unknown while any input is unknown.")

// The object types of the shared shapes, for building values.
var (
	tableKeyType   = objectType(tableKeyAttributes())
	lsiType        = objectType(lsiAttributes())
	gsiType        = objectType(gsiAttributes())
	lsiSortKeyType = objectType(indexKeyAttributes(false))
	gsiPartKeyType = objectType(indexKeyAttributes(true))
	gsiSortKeyType = objectType(indexKeyAttributes(false))
	capacityType   = objectType(capacityAttribute.Attributes)
	routingType    = objectType(routingAttribute.Attributes)
	findingType    = objectType(findingsAttribute.NestedObject.Attributes)
)

func objectType(attrs map[string]rschema.Attribute) types.ObjectType {
	out := make(map[string]attr.Type, len(attrs))
	for name, a := range attrs {
		out[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: out}
}
