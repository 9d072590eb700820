package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
)

func optionalString(desc string, v ...validator.String) spec {
	return spec{kind: kindString, desc: desc, stringValidators: v}
}
func withDefault(s spec, value string) spec {
	s.resourceDefault = value
	return s
}
func requiredString(desc string) spec { return spec{kind: kindString, mode: modeRequired, desc: desc} }

// optionalInt and optionalFloat are Number attributes (see numbers.go) holding a whole or any finite number.
func optionalInt(desc string) spec {
	return spec{kind: kindNumber, desc: desc, numberValidators: []validator.Number{wholeNumberValidator()}}
}
func optionalFloat(desc string) spec {
	return spec{kind: kindNumber, desc: desc, numberValidators: []validator.Number{finiteNumberValidator()}}
}
func optionalBool(desc string) spec { return spec{kind: kindBool, desc: desc} }
func computed(kind specKind, desc string, children map[string]spec) spec {
	return spec{kind: kind, mode: modeComputed, desc: desc, children: children}
}

const keyTypeDesc = "Attribute type: S (string, the default), N (number) or B (binary). Other types are reported by rule DK101."

var projectionValidator = stringvalidator.OneOf(keydesign.ProjectionAll, keydesign.ProjectionKeysOnly, keydesign.ProjectionInclude)

// designInputSpecs are the design inputs (keys, segments, sharding, traffic, indexes), shared by the data
// source and the resource.
func designInputSpecs() map[string]spec {
	tableKey := func(what string, required bool) spec {
		s := spec{kind: kindObject, desc: what, children: map[string]spec{
			"name": requiredString("Name of the key attribute, 1 to " + limitText(keydesign.MaxAttributeNameBytes) + " bytes."),
			"type": withDefault(optionalString(keyTypeDesc), keydesign.KeyTypeString),
			"template": optionalString("Key template: literal text with {placeholder} segments, e.g. `DAY#{day}#SHARD#{shard}`. " +
				"Placeholder names match [a-z][a-z0-9_]*; {shard} is reserved for the shard suffix; braces cannot appear in literal text."),
		}}
		if required {
			s.mode = modeRequired
		}
		return s
	}
	indexKeyAttribute := func(withCardinality bool) map[string]spec {
		children := map[string]spec{
			"name": requiredString("Name of the key attribute."),
			"type": withDefault(optionalString(keyTypeDesc), keydesign.KeyTypeString),
		}
		if withCardinality {
			children["cardinality"] = optionalInt("Number of distinct values of this attribute, used to find hot GSI partitions.")
		}
		return children
	}
	return map[string]spec{
		"partition_key": tableKey("The table's partition (hash) key and the template of its values.", true),
		"sort_key":      tableKey("The table's sort (range) key and the template of its values. Omit for a table without a sort key.", false),
		"segments": {kind: kindObjectMap, desc: "One entry per template placeholder other than {shard}, keyed by placeholder name: what the placeholder holds.",
			children: map[string]spec{
				"kind": {kind: kindString, mode: modeRequired, desc: "What the segment holds: id (unbounded identifiers), enum (a fixed list of values), time (a time bucket) or number.",
					stringValidators: []validator.String{stringvalidator.OneOf(keydesign.SegmentKinds...)}},
				"granularity": optionalString("Time bucket size of a time segment: year, month, week, day, hour, minute, second (rendered like 2006-01-02T15:04:05) or millisecond (a 13-digit epoch).",
					stringvalidator.OneOf(keydesign.TimeGranularities...)),
				"values": {kind: kindStringList, desc: "The values of an enum segment.", listValidators: []validator.List{listvalidator.SizeAtLeast(1)}},
				"max_length": optionalInt("Longest rendered value in UTF-8 bytes. Defaults: id " + limitText(keydesign.DefaultIDMaxLength) + ", number " +
					limitText(keydesign.DefaultNumberMaxLength) + ", enum the longest value, time from the granularity."),
				"cardinality": optionalInt("Number of distinct values. Defaults: enum the number of values; id, number and time unbounded."),
				"monotonic":   optionalBool("Whether new values only grow (timestamps, sequence numbers). Defaults to true for time segments, false otherwise."),
			}},
		"sharding": {kind: kindObject, desc: "Write sharding of the partition key with a {shard} suffix.", children: map[string]spec{
			"strategy": optionalString("none (the default), calculated (suffix = hash of the source segment, so readers can find an item's shard) or random.",
				stringvalidator.OneOf(keydesign.ShardingStrategies...)),
			"source": optionalString("Segment whose value is hashed by the calculated strategy, e.g. event_id."),
			"count": optionalInt(fmt.Sprintf("Number of shards, 1 to %s. Omit to compute it from traffic: the busiest key's demand over %s WCU and %s RCU per partition at target_utilization.",
				limitText(keydesign.MaxShardCount), limitText(keydesign.PartitionWriteUnitsLimit), limitText(keydesign.PartitionReadUnitsLimit))),
			"scheme_version": optionalInt("Version of the routing scheme, default " + limitText(keydesign.DefaultSchemeVersion) + ". Bump it whenever count, source or strategy change on a live table (rule DK402)."),
		}},
		"traffic": {kind: kindObject, desc: "Measured or expected peak traffic. Every field is optional; rules that need a missing number stay silent.", children: map[string]spec{
			"writes_per_second":              optionalFloat("Peak writes per second to the whole entity."),
			"reads_per_second":               optionalFloat("Peak reads per second from the whole entity."),
			"item_size_bytes":                optionalInt("Typical item size in bytes, 1 to " + limitText(keydesign.MaxItemSizeBytes) + " (the item size limit). Defaults to " + limitText(keydesign.DefaultItemSizeBytes) + "."),
			"read_consistency":               optionalString("eventual (the default, 0.5 RCU per 4 KB), strong (1 RCU) or transactional (2 RCU).", stringvalidator.OneOf(keydesign.ReadConsistencies...)),
			"transactional_writes":           optionalBool("Whether writes are transactional, which doubles their write units."),
			"hot_key_share":                  optionalFloat("Share of traffic (0 to 1) on the busiest partition-key value. Defaults from the key template: see the capacity model guide."),
			"hottest_item_writes_per_second": optionalFloat("Writes per second to the single busiest item, which no sharding can spread."),
			"hottest_item_reads_per_second":  optionalFloat("Reads per second of the single busiest item."),
			"max_items_per_partition_key":    optionalInt("Most items under one partition-key value (the item collection). Omit for unbounded growth."),
		}},
		"target_utilization": optionalFloat("Share of a partition's throughput one shard may use when the shard count is computed, in (0, 1]. Defaults to " + limitText(keydesign.DefaultTargetUtilization) + "."),
		"local_secondary_indexes": {kind: kindObjectMap, desc: "Local secondary indexes keyed by index name (at most " + limitText(keydesign.MaxLocalSecondaryIndexes) + "; they need a table sort key).", children: map[string]spec{
			"sort_key":           {kind: kindObject, mode: modeRequired, desc: "The index sort key.", children: indexKeyAttribute(false)},
			"projection_type":    withDefault(optionalString("ALL (the default), KEYS_ONLY or INCLUDE.", projectionValidator), keydesign.ProjectionAll),
			"non_key_attributes": {kind: kindStringList, desc: "Attributes projected by INCLUDE."},
		}},
		"global_secondary_indexes": {kind: kindObjectMap, desc: "Global secondary indexes keyed by index name.", children: map[string]spec{
			"partition_key":      {kind: kindObjectList, mode: modeRequired, desc: "1 to 4 partition key attributes (multi-attribute keys).", children: indexKeyAttribute(true)},
			"sort_key":           {kind: kindObjectList, desc: "0 to 4 sort key attributes.", children: indexKeyAttribute(false)},
			"projection_type":    withDefault(optionalString("ALL (the default), KEYS_ONLY or INCLUDE.", projectionValidator), keydesign.ProjectionAll),
			"non_key_attributes": {kind: kindStringList, desc: "Attributes projected by INCLUDE."},
			"read_capacity":      optionalInt("Provisioned read capacity units of the index (PROVISIONED tables only)."),
			"write_capacity":     optionalInt("Provisioned write capacity units of the index (PROVISIONED tables only)."),
		}},
		"enforce": optionalBool("When true (the default, or the provider's policy.enforce), error findings fail the plan; when false, every finding is a warning."),
	}
}

var (
	capacitySpec = computed(kindObject, "Capacity units computed from traffic: units per request, peak demand, the busiest partition-key value's demand before and after sharding, the shards it needs and the read fan-out.", map[string]spec{
		"write_units_per_write": computed(kindFloat64, "Write units one write costs: ceil(item size / 1 KB), doubled for transactional writes.", nil),
		"read_units_per_read":   computed(kindFloat64, "Read units one read costs: ceil(item size / 4 KB) × 0.5 eventual, 1 strong, 2 transactional.", nil),
		"peak_write_units":      computed(kindFloat64, "Write units per second at peak, whole table; null without traffic.writes_per_second.", nil),
		"peak_read_units":       computed(kindFloat64, "Read units per second at peak, whole table; null without traffic.reads_per_second.", nil),
		"hot_key_share":         computed(kindFloat64, "Share of traffic on the busiest partition-key value, given or derived from the template.", nil),
		"hot_key_write_units":   computed(kindFloat64, "Write units per second of the busiest logical key, before sharding.", nil),
		"hot_key_read_units":    computed(kindFloat64, "Read units per second of the busiest logical key, before sharding.", nil),
		"per_shard_write_units": computed(kindFloat64, "Write units per second of each shard of the busiest key; a partition serves "+limitText(keydesign.PartitionWriteUnitsLimit)+".", nil),
		"per_shard_read_units":  computed(kindFloat64, "Read units per second of each shard of the busiest key; a partition serves "+limitText(keydesign.PartitionReadUnitsLimit)+".", nil),
		"read_fanout":           computed(kindInt64, "Queries needed to read one logical collection: one per shard.", nil),
		"required_shard_count":  computed(kindInt64, "Shards the busiest key needs at target_utilization, whatever count is configured.", nil),
	})
	routingSpec = computed(kindObject, "The shard routing spec application code must follow.", map[string]spec{
		"algorithm":      computed(kindString, "sha256-be32-mod for calculated sharding (SHA-256 of the UTF-8 source value, first 4 bytes big-endian, mod count), random, or none.", nil),
		"count":          computed(kindInt64, "Number of shards.", nil),
		"width":          computed(kindInt64, "Digits of a zero-padded suffix.", nil),
		"source":         computed(kindString, "Segment whose value is hashed.", nil),
		"scheme_version": computed(kindInt64, "Version of the routing scheme.", nil),
	})
	findingsSpec = computed(kindObjectList, "Policy findings on the design, most severe first.", map[string]spec{
		"rule":        computed(kindString, "Rule id, e.g. DK303.", nil),
		"name":        computed(kindString, "Rule name, e.g. hot-key-demand.", nil),
		"severity":    computed(kindString, "error or warning.", nil),
		"message":     computed(kindString, "What the rule found, with the numbers.", nil),
		"path":        computed(kindString, "Attribute the finding concerns, e.g. traffic.writes_per_second.", nil),
		"remediation": computed(kindString, "What to change.", nil),
		"docs_url":    computed(kindString, "Where the rule is documented.", nil),
	})
)

// designOutputSpecs are the computed attributes of the data source and the resource; the capacity numbers
// follow the capacity model of contributing/capacity-model.md.
func designOutputSpecs() map[string]spec {
	return map[string]spec{
		"shard_count":            computed(kindInt64, "Number of shards of the partition key: sharding.count, or computed from traffic, or 1 without sharding.", nil),
		"shard_width":            computed(kindInt64, "Digits of a shard suffix: the length of count - 1, at least 1.", nil),
		"shard_suffixes":         computed(kindStringList, "Every shard suffix, e.g. \"00\" to \"15\" for 16 shards.", nil),
		"partition_key_template": computed(kindString, "The partition-key template as it will be written.", nil),
		"capacity":               capacitySpec,
		"routing":                routingSpec,
		"findings":               findingsSpec,
		"ok":                     computed(kindBool, "True when there is no error finding.", nil),
		"report":                 computed(kindString, "A readable text report: key layout, capacity and a bar chart of per-shard demand against the partition limits.", nil),
		"design_document": computed(kindString, "The analyzed design as JSON, the document the policies evaluate: the design with defaults applied, "+
			"every derived fact, schema_version and the provider_version that computed it (without prior, and with an empty address). "+
			"The policy bundle reads it from the plan JSON; unknown while any input is unknown.", nil),
	}
}
