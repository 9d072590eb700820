// Package keydesign is the facade of dynamokeys' key-design analysis: Analyze turns a design's Input into the
// Document the policies evaluate, through the model stage (internal/keydesign/model: input and document types,
// templates, segments, routing, the entity model) and the later stages, each a package of its own (capacity,
// replicas, patterns, measured, cost, migration; the report in internal/keydesign/report). It imports nothing
// from Terraform, AWS or OPA.
//
// This file re-exports the stages' API, so that callers import keydesign alone.
package keydesign

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/migration"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

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

// From package model.
const AttributeEncoding = model.AttributeEncoding
const BasisDeclaredAverage = model.BasisDeclaredAverage
const BasisDeclaredPeak = model.BasisDeclaredPeak
const BasisMeasuredAverage = model.BasisMeasuredAverage
const BasisMeasuredPeak = model.BasisMeasuredPeak
const BasisNone = model.BasisNone
const BasisPatternPeak = model.BasisPatternPeak
const DocumentSchemaVersion = model.DocumentSchemaVersion
const KeyTypeBinary = model.KeyTypeBinary
const KeyTypeNumber = model.KeyTypeNumber
const KeyTypeString = model.KeyTypeString
const ProjectionAll = model.ProjectionAll
const ProjectionInclude = model.ProjectionInclude
const ProjectionKeysOnly = model.ProjectionKeysOnly
const ReadEventual = model.ReadEventual
const ReadStrong = model.ReadStrong
const ReadTransactional = model.ReadTransactional
const StrategyCalculated = model.StrategyCalculated
const StrategyNone = model.StrategyNone
const StrategyRandom = model.StrategyRandom
const TableClassInfrequentAccess = model.TableClassInfrequentAccess
const TableClassStandard = model.TableClassStandard

type AccessPattern = model.AccessPattern
type AccessPatternDoc = model.AccessPatternDoc
type AllRegionsCost = model.AllRegionsCost
type Autoscaling = model.Autoscaling
type BackfillDoc = model.BackfillDoc
type BackfillThrottle = model.BackfillThrottle
type Capacity = model.Capacity
type CapacityLimit = model.CapacityLimit
type CapacityRange = model.CapacityRange
type CollectionDoc = model.CollectionDoc
type CollectionEstimate = model.CollectionEstimate
type Conventions = model.Conventions
type CostEstimate = model.CostEstimate
type Derived = model.Derived
type Document = model.Document
type EntitiesDoc = model.EntitiesDoc
type Entity = model.Entity
type EntityCollision = model.EntityCollision
type EntityDoc = model.EntityDoc
type EntityIndexKey = model.EntityIndexKey
type EntityOverlap = model.EntityOverlap
type EntityTraffic = model.EntityTraffic
type GSIDoc = model.GSIDoc
type GSIEntityDoc = model.GSIEntityDoc
type GlobalSecondaryIndex = model.GlobalSecondaryIndex
type IndexCost = model.IndexCost
type IndexEntityWrite = model.IndexEntityWrite
type IndexKeyAttribute = model.IndexKeyAttribute
type IndexKeyDoc = model.IndexKeyDoc
type Input = model.Input
type Key = model.Key
type KeyAttributeRef = model.KeyAttributeRef
type KeyDoc = model.KeyDoc
type KeyFacts = model.KeyFacts
type KeyMismatch = model.KeyMismatch
type LSIDoc = model.LSIDoc
type LayoutDoc = model.LayoutDoc
type LayoutInput = model.LayoutInput
type LayoutOverlap = model.LayoutOverlap
type LocalSecondaryIndex = model.LocalSecondaryIndex
type MeasuredFacts = model.MeasuredFacts
type MigrationDoc = model.MigrationDoc
type MigrationEntity = model.MigrationEntity
type MigrationInput = model.MigrationInput
type MigrationPattern = model.MigrationPattern
type ModeCost = model.ModeCost
type ObservedDoc = model.ObservedDoc
type ObservedInput = model.ObservedInput
type PatternFacts = model.PatternFacts
type PatternPhaseRead = model.PatternPhaseRead
type PhaseLayouts = model.PhaseLayouts
type PlaceholderRef = model.PlaceholderRef
type PolicySettings = model.PolicySettings
type PriceOverrides = model.PriceOverrides
type PriceStatus = model.PriceStatus
type PricingInput = model.PricingInput
type ReadConsistency = model.ReadConsistency
type ReadCost = model.ReadCost
type RegionCost = model.RegionCost
type ReplicaFacts = model.ReplicaFacts
type ReplicaRegion = model.ReplicaRegion
type Replicas = model.Replicas
type ReplicasFacts = model.ReplicasFacts
type Routing = model.Routing
type SegmentRef = model.SegmentRef
type Sharding = model.Sharding
type ShardingDoc = model.ShardingDoc
type SortCondition = model.SortCondition
type SortConditionDoc = model.SortConditionDoc
type StepDoc = model.StepDoc
type SuggestedIndex = model.SuggestedIndex
type TableDoc = model.TableDoc
type ThrottleCause = model.ThrottleCause
type Traffic = model.Traffic
type TrafficDoc = model.TrafficDoc
type UnitPair = model.UnitPair
type UnservedKey = model.UnservedKey

var BillingModeCostExcessShare = model.BillingModeCostExcessShare
var CostWarningMinMonthlyUSD = model.CostWarningMinMonthlyUSD
var DecodeAttribute = model.DecodeAttribute
var EncodeAttribute = model.EncodeAttribute
var HoursPerMonth = model.HoursPerMonth
var IndexWriteCostShare = model.IndexWriteCostShare
var MaxPriceUSD = model.MaxPriceUSD
var PriceTable = model.PriceTable
var ReadConsistencies = model.ReadConsistencies
var ShardingStrategies = model.ShardingStrategies
var TableClasses = model.TableClasses

// From package model.

const (
	CollectionGiven      = model.CollectionGiven
	CollectionTemplate   = model.CollectionTemplate
	CollectionTimeBucket = model.CollectionTimeBucket
	CollectionUnbounded  = model.CollectionUnbounded
)

const (
	MaxRequestsPerSecond    = model.MaxRequestsPerSecond
	MaxItemsPerPartitionKey = model.MaxItemsPerPartitionKey
	MaxCapacityUnits        = model.MaxCapacityUnits
)

var MaxSegmentLength = model.MaxSegmentLength

// From package capacity.
const ShareEntities = capacity.ShareEntities
const ShareGiven = capacity.ShareGiven
const ShareKeyCardinality = capacity.ShareKeyCardinality
const ShareNoTemplate = capacity.ShareNoTemplate
const ShareTimeBucket = capacity.ShareTimeBucket
const ShareUndeclaredPlaceholder = capacity.ShareUndeclaredPlaceholder

var ReadUnitsPerRead = capacity.ReadUnitsPerRead
var RequiredShards = capacity.RequiredShards
var WriteUnitsPerWrite = capacity.WriteUnitsPerWrite

// From package capacity.

// From package model: the document's vocabulary.
const TableKeyIndex = model.TableKeyIndex
const SortEqual = model.SortEqual
const SortLess = model.SortLess
const SortLessEqual = model.SortLessEqual
const SortGreater = model.SortGreater
const SortGreaterEqual = model.SortGreaterEqual
const SortBetween = model.SortBetween
const SortBeginsWith = model.SortBeginsWith

var SortConditions = model.SortConditions

const IndexKindTable = model.IndexKindTable
const IndexKindLSI = model.IndexKindLSI
const IndexKindGSI = model.IndexKindGSI
const MaxItemsPerQuery = model.MaxItemsPerQuery
const PhaseDualWrite = model.PhaseDualWrite
const PhaseBackfill = model.PhaseBackfill
const PhaseReadNew = model.PhaseReadNew
const PhaseDone = model.PhaseDone

var MigrationPhases = model.MigrationPhases

const KeyFiguresAccessed = model.KeyFiguresAccessed
const KeyFiguresThrottledOnly = model.KeyFiguresThrottledOnly
const KeyFiguresNone = model.KeyFiguresNone
const MeasuredShareMeasured = model.MeasuredShareMeasured
const MeasuredShareDesign = model.MeasuredShareDesign
const PeakMeasured = model.PeakMeasured
const PeakDeclared = model.PeakDeclared
const ConsistencyEventual = model.ConsistencyEventual
const ConsistencyStrong = model.ConsistencyStrong

var ReplicaConsistencies = model.ReplicaConsistencies
var MRSCRegions = model.MRSCRegions
var MRSCRegionSets = model.MRSCRegionSets
var MRSCDocs = model.MRSCDocs

const ReplicaWritesShare = model.ReplicaWritesShare
const ReplicaWritesPerRegion = model.ReplicaWritesPerRegion
const ReplicaWritesEqual = model.ReplicaWritesEqual
const LayoutOld = model.LayoutOld
const LayoutNew = model.LayoutNew

var PriceNames = model.PriceNames

// From package report.
type ReportFinding = report.Finding

var Report = report.Text
var FormatNumber = report.FormatNumber
var FormatShare = report.FormatShare
var SameLayout = migration.SameLayout
