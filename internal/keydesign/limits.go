// Package keydesign holds the pure logic of dynamokeys: key templates, segments, capacity-unit math,
// shard counts and routing, and the Design document the policies evaluate. It imports nothing from
// Terraform, AWS or OPA.
package keydesign

// DynamoDB limits and unit sizes. Every number the rules rely on lives here, with the page it comes from
// (AWS DynamoDB Developer Guide unless marked API); contributing/capacity-model.md lists them with the URLs.
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

// Defaults of the design inputs, and the design thresholds of the rules (contributing/capacity-model.md).
const (
	DefaultItemSizeBytes      = 1024
	DefaultTargetUtilization  = 0.8
	DefaultIDMaxLength        = 64
	DefaultNumberMaxLength    = 40
	DefaultSchemeVersion      = 1
	LowCardinalityThreshold   = 100
	FanoutWarningShards       = 100
	FanoutOverprovisionFactor = 4
)

// BusyPartitionShare is the share of a partition's write throughput above which a partition-key value
// counts as busy for the monotonic-sort-key rule (DK305).
const BusyPartitionShare = 0.5
