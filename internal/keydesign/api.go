package keydesign

import "github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

// From package model.
const RoutingAlgorithm = model.RoutingAlgorithm
const ShardPlaceholder = model.ShardPlaceholder

type FieldError = model.FieldError
type MissingValueError = model.MissingValueError
type Path = model.Path
type Template = model.Template
type TemplateError = model.TemplateError
type TemplatePart = model.TemplatePart

var FormatShard = model.FormatShard
var ParseTemplate = model.ParseTemplate
var Shard = model.Shard
var ShardSuffix = model.ShardSuffix
var ShardSuffixes = model.ShardSuffixes
var ShardWidth = model.ShardWidth

// From package model.
const KindEnum = model.KindEnum
const KindID = model.KindID
const KindNumber = model.KindNumber
const KindTime = model.KindTime

type ResolvedSegment = model.ResolvedSegment
type Segment = model.Segment
type SegmentKind = model.SegmentKind

var BusyPartitionShare = model.BusyPartitionShare
var DefaultIDMaxLength = model.DefaultIDMaxLength
var DefaultItemSizeBytes = model.DefaultItemSizeBytes
var DefaultMaxGlobalSecondaryIndexes = model.DefaultMaxGlobalSecondaryIndexes
var DefaultNumberMaxLength = model.DefaultNumberMaxLength
var DefaultSchemeVersion = model.DefaultSchemeVersion
var DefaultTargetUtilization = model.DefaultTargetUtilization
var FanoutOverprovisionFactor = model.FanoutOverprovisionFactor
var FanoutWarningShards = model.FanoutWarningShards
var IndexEntryOverheadBytes = model.IndexEntryOverheadBytes
var ItemCollectionLimitBytes = model.ItemCollectionLimitBytes
var ItemCollectionWarnBytes = model.ItemCollectionWarnBytes
var LowCardinalityThreshold = model.LowCardinalityThreshold
var MaxAttributeNameBytes = model.MaxAttributeNameBytes
var MaxGSIKeyAttributes = model.MaxGSIKeyAttributes
var MaxItemSizeBytes = model.MaxItemSizeBytes
var MaxLocalSecondaryIndexes = model.MaxLocalSecondaryIndexes
var MaxNameLength = model.MaxNameLength
var MaxNumberDigits = model.MaxNumberDigits
var MaxProjectedNonKeyAttributes = model.MaxProjectedNonKeyAttributes
var MaxShardCount = model.MaxShardCount
var MaxTagKeyCharacters = model.MaxTagKeyCharacters
var MaxTagValueCharacters = model.MaxTagValueCharacters
var MaxTagsPerTable = model.MaxTagsPerTable
var MinNameLength = model.MinNameLength
var NewTableWarmReadsPerSecond = model.NewTableWarmReadsPerSecond
var NewTableWarmWritesPerSecond = model.NewTableWarmWritesPerSecond
var NumberKeyMaxBytes = model.NumberKeyMaxBytes
var OnDemandTableUnitsQuota = model.OnDemandTableUnitsQuota
var PartitionKeyMaxBytes = model.PartitionKeyMaxBytes
var PartitionReadUnitsLimit = model.PartitionReadUnitsLimit
var PartitionWriteUnitsLimit = model.PartitionWriteUnitsLimit
var QueryPageBytes = model.QueryPageBytes
var ReadUnitBytes = model.ReadUnitBytes
var ReservedTagPrefix = model.ReservedTagPrefix
var SegmentKinds = model.SegmentKinds
var SortKeyMaxBytes = model.SortKeyMaxBytes
var TagSpecialCharacters = model.TagSpecialCharacters
var TimeGranularities = model.TimeGranularities
var WriteUnitBytes = model.WriteUnitBytes
