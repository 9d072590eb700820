package model

import (
	"maps"
	"slices"
)

// The document's vocabulary: the values its fields and the inputs take, which the stages write and the
// policies read.

// TableKeyIndex names the table's own key in AccessPattern.Index.
const TableKeyIndex = "table"

// Sort-key conditions of a Query's key condition expression (API_Query, KeyConditionExpression).
const (
	SortEqual        = "="
	SortLess         = "<"
	SortLessEqual    = "<="
	SortGreater      = ">"
	SortGreaterEqual = ">="
	SortBetween      = "between"
	SortBeginsWith   = "begins_with"
)

// SortConditions lists the valid sort conditions.
var SortConditions = []string{SortEqual, SortLess, SortLessEqual, SortGreater, SortGreaterEqual, SortBetween, SortBeginsWith}

// Kinds of key that can serve a pattern (PatternFacts.IndexKind).
const (
	IndexKindTable = "table"
	IndexKindLSI   = "lsi"
	IndexKindGSI   = "gsi"
)

// Bounds of the pattern inputs, beyond which no real query goes; they keep the numbers finite.
const (
	// MaxItemsPerQuery bounds items: a billion items is far beyond what one Query call reads.
	MaxItemsPerQuery = 1_000_000_000
)

// Migration phases, in order (MigrationInput.Phase).
const (
	PhaseDualWrite = "dual_write"
	PhaseBackfill  = "backfill"
	PhaseReadNew   = "read_new"
	PhaseDone      = "done"
)

// MigrationPhases lists the phases in the order a migration goes through them.
var MigrationPhases = []string{PhaseDualWrite, PhaseBackfill, PhaseReadNew, PhaseDone}

// KeyFigures values.
const (
	KeyFiguresAccessed      = "accessed"
	KeyFiguresThrottledOnly = "throttled_only"
	KeyFiguresNone          = "none"
)

// HotKeySource values.
const (
	MeasuredShareMeasured = "measured"
	MeasuredShareDesign   = "design"
)

// Sources of an index's demand (GSIDoc.PeakSource).
const (
	PeakMeasured = "measured" // observed_indexes
	PeakDeclared = "declared" // the table's peak writes, an upper bound
)

// Replica consistency modes (replicas.consistency).
const (
	ConsistencyEventual = "eventual"
	ConsistencyStrong   = "strong"
)

// ReplicaConsistencies lists the valid consistency modes.
var ReplicaConsistencies = []string{ConsistencyEventual, ConsistencyStrong}

// MRSC limits from the data file: the Regions an MRSC global table spans (replicas and witness), and the
// Region sets it cannot leave (V2globaltables_HowItWorks.html, "Consistency modes").
var (
	MRSCRegions    = Limits.MRSCRegions
	MRSCRegionSets = Limits.MRSCRegionSets
	MRSCDocs       = Limits.MRSCDocs
)

// Bases of the replica write split (ReplicasFacts.WritesBasis).
const (
	ReplicaWritesShare     = "write_share"
	ReplicaWritesPerRegion = "writes_per_region"
	ReplicaWritesEqual     = "equal"
)

// PriceNames are the prices in the order the report lists them.
var PriceNames = []string{"write_request_units_per_million", "read_request_units_per_million",
	"write_capacity_unit_hour", "read_capacity_unit_hour", "storage_gb_month", "pitr_gb_month"}

// Layouts a reader or writer uses in a phase.
const (
	LayoutOld = "old"
	LayoutNew = "new"
)

// SumValues is the sum of a map's values, added in key order so that the sum is the same every run.
func SumValues(m map[string]float64) float64 {
	var s float64
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s += m[k]
	}
	return s
}

// BillingProvisioned is the billing mode with capacity units (API_BillingModeSummary); any other is on-demand.
const BillingProvisioned = "PROVISIONED"
