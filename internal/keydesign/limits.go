// Package keydesign holds the pure logic of dynamokeys: key templates, segments, capacity-unit math,
// shard counts and routing, and the Design document the policies evaluate. It imports nothing from
// Terraform, AWS or OPA.
package keydesign

// DynamoDB limits and unit sizes. Every number the rules rely on lives here, with the page it comes from:
// pages of the Amazon DynamoDB Developer Guide (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/),
// or of the API Reference where marked API (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/).
const (
	// PartitionWriteUnitsLimit is the write throughput of one physical partition, in WCU/s
	// (bp-partition-key-design; warm-throughput-scenarios).
	PartitionWriteUnitsLimit = 1000
	// PartitionReadUnitsLimit is the read throughput of one physical partition, in RCU/s
	// (bp-partition-key-design; warm-throughput-scenarios).
	PartitionReadUnitsLimit = 3000

	// WriteUnitBytes is the item size covered by one write unit (ProvisionedThroughput.html).
	WriteUnitBytes = 1024
	// ReadUnitBytes is the item size covered by one strongly consistent read unit (ProvisionedThroughput.html).
	ReadUnitBytes = 4096

	// PartitionKeyMaxBytes is the longest partition key value (ServiceQuotas "Partition key length").
	PartitionKeyMaxBytes = 2048
	// SortKeyMaxBytes is the longest sort key value (ServiceQuotas "Sort key length").
	SortKeyMaxBytes = 1024

	// ItemCollectionLimitBytes caps an item collection on a table with an LSI: 10 GB
	// (LSI.html#LSI.ItemCollections.SizeLimit).
	ItemCollectionLimitBytes = 10 * 1024 * 1024 * 1024
	// ItemCollectionWarnBytes is the 8 GB level at which AWS suggests alarming
	// (LSI.html#LSI.ItemCollections.SizeLimit).
	ItemCollectionWarnBytes = 8 * 1024 * 1024 * 1024
	// IndexEntryOverheadBytes is the per-entry overhead of a secondary index entry (LSI.html, GSI.html
	// storage considerations).
	IndexEntryOverheadBytes = 100

	// MaxLocalSecondaryIndexes is the fixed LSI limit per table (ServiceQuotas; LSI.html).
	MaxLocalSecondaryIndexes = 5
	// DefaultMaxGlobalSecondaryIndexes is the default, adjustable GSI quota per table (ServiceQuotas).
	DefaultMaxGlobalSecondaryIndexes = 20
	// MaxProjectedNonKeyAttributes caps INCLUDE non-key attributes across all indexes of a table (ServiceQuotas).
	MaxProjectedNonKeyAttributes = 100
	// MaxGSIKeyAttributes is the most attributes in a multi-attribute GSI partition or sort key
	// (GSI.DesignPattern.MultiAttributeKeys).
	MaxGSIKeyAttributes = 4

	// OnDemandTableUnitsQuota is the default on-demand quota of read and of write request units per table,
	// GSIs included (ServiceQuotas "Throughput default quotas").
	OnDemandTableUnitsQuota = 40000
	// NewTableWarmWritesPerSecond and NewTableWarmReadsPerSecond are a new on-demand table's default warm
	// throughput (on-demand-capacity-mode; warm-throughput.html).
	NewTableWarmWritesPerSecond = 4000
	NewTableWarmReadsPerSecond  = 12000

	// MinNameLength and MaxNameLength bound table and index names (HowItWorks.NamingRulesDataTypes).
	MinNameLength = 3
	MaxNameLength = 255
	// MaxAttributeNameBytes bounds key attribute names (API_KeySchemaElement).
	MaxAttributeNameBytes = 255
	// MaxNumberDigits is the precision of a DynamoDB number (ServiceQuotas "Number").
	MaxNumberDigits = 38
)

// Defaults of the design inputs, applied when the configuration leaves an attribute out. These are
// dynamokeys choices, not AWS limits.
const (
	// DefaultItemSizeBytes is one write unit's worth of item: the smallest item costs the same.
	DefaultItemSizeBytes = WriteUnitBytes
	// DefaultTargetUtilization sizes shards at 80% of a partition's throughput, keeping 20% headroom.
	DefaultTargetUtilization = 0.8
	// DefaultIDMaxLength bounds an id segment without max_length (a UUID is 36 bytes; 64 leaves room for
	// prefixed ids).
	DefaultIDMaxLength = 64
	// DefaultNumberMaxLength bounds a number segment's text: MaxNumberDigits digits, a sign and a decimal
	// point.
	DefaultNumberMaxLength = MaxNumberDigits + 2
	// DefaultSchemeVersion is the routing scheme version of a new design.
	DefaultSchemeVersion = 1
)

// Thresholds of the design rules, read by the Rego rules through the limits data. These are dynamokeys
// choices, not AWS limits.
const (
	// LowCardinalityThreshold: a partition key (or GSI partition key) with fewer distinct values than this
	// spreads load over too few partitions (DK302 and the GSI rules).
	LowCardinalityThreshold = 100
	// FanoutWarningShards: more shards than this make every read of a logical key a large scatter-gather.
	FanoutWarningShards = 100
	// FanoutOverprovisionFactor: a fixed shard count more than this many times the required count is
	// over-sharded (reads fan out for no write benefit).
	FanoutOverprovisionFactor = 4
)

// BusyPartitionShare is the share of a partition's write throughput above which a partition-key value
// counts as busy for the monotonic-sort-key rule (DK305).
const BusyPartitionShare = 0.5
