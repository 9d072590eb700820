package model

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// Limits is the bundle's data file (policies/dynamokeys/source/data.json), the one place that holds every DynamoDB
// limit, threshold and default; contributing/capacity-model.md cites the AWS page of each. The names below
// are the Go view of it, typed for the arithmetic that uses them.
var Limits = policies.Bundle.Limits

// DynamoDB limits and unit sizes.
var (
	// PartitionWriteUnitsLimit and PartitionReadUnitsLimit are one physical partition's throughput in WCU/s
	// and RCU/s (bp-partition-key-design; warm-throughput-scenarios).
	PartitionWriteUnitsLimit = float64(Limits.PartitionWriteUnits)
	PartitionReadUnitsLimit  = float64(Limits.PartitionReadUnits)

	// QueryPageBytes is the most data one Query request reads before it returns a page (API_Query: "A single
	// Query operation will read up to the maximum number of items set (if using the Limit parameter) or a
	// maximum of 1 MB of data").
	QueryPageBytes = Limits.QueryPageBytes

	// WriteUnitBytes and ReadUnitBytes are the item sizes one write unit and one strongly consistent read
	// unit cover (ProvisionedThroughput.html).
	WriteUnitBytes = float64(Limits.WriteUnitBytes)
	ReadUnitBytes  = float64(Limits.ReadUnitBytes)

	// PartitionKeyMaxBytes and SortKeyMaxBytes bound key values (ServiceQuotas "Partition key length",
	// "Sort key length").
	PartitionKeyMaxBytes = Limits.PartitionKeyMaxBytes
	SortKeyMaxBytes      = Limits.SortKeyMaxBytes

	// MaxItemSizeBytes is the item size limit (ServiceQuotas "Item size").
	MaxItemSizeBytes = Limits.MaxItemSizeBytes

	// ItemCollectionLimitBytes caps an item collection on a table with an LSI, and ItemCollectionWarnBytes
	// is where AWS suggests alarming (LSI.html#LSI.ItemCollections.SizeLimit).
	ItemCollectionLimitBytes = Limits.ItemCollectionGB * Limits.BytesPerGB
	ItemCollectionWarnBytes  = Limits.ItemCollectionWarnGB * Limits.BytesPerGB
	// IndexEntryOverheadBytes is the per-entry overhead of a secondary index entry (LSI.html, GSI.html
	// storage considerations).
	IndexEntryOverheadBytes = Limits.IndexEntryOverheadBytes
	// NumberKeyMaxBytes bounds a number key value without a template: the digits of the largest number,
	// two per byte, plus sign and exponent.
	NumberKeyMaxBytes = Limits.NumberKeyMaxBytes

	// MaxLocalSecondaryIndexes is the fixed LSI limit per table (ServiceQuotas; LSI.html).
	MaxLocalSecondaryIndexes = Limits.MaxLSIs
	// DefaultMaxGlobalSecondaryIndexes is the default, adjustable GSI quota per table (ServiceQuotas).
	DefaultMaxGlobalSecondaryIndexes = Limits.MaxGSIs
	// MaxProjectedNonKeyAttributes caps INCLUDE non-key attributes across all indexes of a table (ServiceQuotas).
	MaxProjectedNonKeyAttributes = Limits.MaxProjectedAttributes
	// MaxGSIKeyAttributes is the most attributes in a multi-attribute GSI partition or sort key
	// (GSI.DesignPattern.MultiAttributeKeys).
	MaxGSIKeyAttributes = Limits.MaxGSIKeyAttributes

	// OnDemandTableUnitsQuota is the default on-demand quota of read and of write request units per table,
	// GSIs included (ServiceQuotas "Throughput default quotas").
	OnDemandTableUnitsQuota = Limits.OnDemandTableUnits
	// NewTableWarmWritesPerSecond and NewTableWarmReadsPerSecond are a new on-demand table's default warm
	// throughput (on-demand-capacity-mode; warm-throughput.html).
	NewTableWarmWritesPerSecond = Limits.NewTableWriteUnits
	NewTableWarmReadsPerSecond  = Limits.NewTableReadUnits

	// MinNameLength and MaxNameLength bound table and index names (HowItWorks.NamingRulesDataTypes).
	MinNameLength = Limits.MinNameLength
	MaxNameLength = Limits.MaxNameLength
	// MaxAttributeNameBytes bounds key attribute names (API_KeySchemaElement).
	MaxAttributeNameBytes = Limits.MaxAttributeNameBytes
	// MaxNumberDigits is the precision of a DynamoDB number (ServiceQuotas "Number").
	MaxNumberDigits = Limits.MaxNumberDigits

	// Tags (API_Tag; TaggingRestrictions): at most MaxTagsPerTable per table; keys of 1 to
	// MaxTagKeyCharacters and values of at most MaxTagValueCharacters Unicode characters, made of letters,
	// numbers, white space and TagSpecialCharacters; keys starting with ReservedTagPrefix are AWS-assigned.
	MaxTagsPerTable       = Limits.MaxTagsPerTable
	MaxTagKeyCharacters   = Limits.MaxTagKeyCharacters
	MaxTagValueCharacters = Limits.MaxTagValueCharacters
	TagSpecialCharacters  = Limits.TagSpecialCharacters
	ReservedTagPrefix     = Limits.ReservedTagPrefix

	// MaxShardCount bounds shard counts so that suffix lists stay printable; far above any sane design.
	MaxShardCount = Limits.MaxShardCount
)

// Defaults of the design inputs, applied when the configuration leaves an attribute out, and the
// thresholds of the design rules. These are dynamokeys choices, not AWS limits:
//   - DefaultItemSizeBytes is one write unit's worth of item: the smallest item costs the same.
//   - DefaultTargetUtilization sizes shards at 80% of a partition's throughput, keeping 20% headroom.
//   - DefaultIDMaxLength bounds an id segment without max_length (a UUID is 36 bytes; 64 leaves room for
//     prefixed ids); DefaultNumberMaxLength a number segment's text (MaxNumberDigits, a sign and a point).
//   - LowCardinalityThreshold: fewer distinct partition-key values spread load over too few partitions
//     (DK302 and the GSI rules). FanoutWarningShards: more shards make every read a large scatter-gather.
//     FanoutOverprovisionFactor: a fixed count this many times the required one is over-sharded.
//   - BusyPartitionShare: the share of a partition's write throughput above which a partition-key value
//     counts as busy for the monotonic-sort-key rule (DK305).
var (
	DefaultItemSizeBytes      = Limits.DefaultItemSizeBytes
	DefaultTargetUtilization  = Limits.DefaultTargetUtilization
	DefaultIDMaxLength        = Limits.DefaultIDMaxLength
	DefaultNumberMaxLength    = Limits.DefaultNumberMaxLength
	DefaultSchemeVersion      = Limits.DefaultSchemeVersion
	LowCardinalityThreshold   = Limits.LowCardinality
	FanoutWarningShards       = Limits.FanoutShards
	FanoutOverprovisionFactor = Limits.FanoutOverprovisionFactor
	BusyPartitionShare        = Limits.BusyPartitionShare
)

// Upper bounds of the numeric design inputs. They are far above anything a DynamoDB table does, so no real
// design is refused; they exist so that every derived number stays finite and readable (a rate of 1e308
// writes per second would overflow the capacity math to infinity).
const (
	// MaxRequestsPerSecond bounds the traffic rates: a billion requests per second, far beyond the busiest
	// tables AWS has reported (tens of millions per second across a whole service).
	MaxRequestsPerSecond = 1_000_000_000
	// MaxItemsPerPartitionKey bounds traffic.max_items_per_partition_key: a trillion items.
	MaxItemsPerPartitionKey = 1_000_000_000_000
	// MaxCapacityUnits bounds provisioned read and write capacity of a table or index.
	MaxCapacityUnits = 1_000_000_000
)

// MaxSegmentLength bounds a segment's max_length: no attribute value exceeds the item size limit.
var MaxSegmentLength = MaxItemSizeBytes
