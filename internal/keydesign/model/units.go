package model

import "math"

// ReadConsistency is the read mode that sets the read-unit multiplier.
type ReadConsistency string

// Read consistencies (HowItWorks.ReadWriteCapacityMode).
const (
	ReadEventual      ReadConsistency = "eventual"
	ReadStrong        ReadConsistency = "strong"
	ReadTransactional ReadConsistency = "transactional"
)

// ReadConsistencies lists the valid consistencies.
var ReadConsistencies = []string{string(ReadEventual), string(ReadStrong), string(ReadTransactional)}

// CeilEpsilon keeps float noise (3.0000000000000004) from rounding a whole number up.
const CeilEpsilon = 1e-9

func CeilUnits(x float64) float64 { return math.Ceil(x - CeilEpsilon) }

func SaturatingMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// Bases of the item-collection estimate (CollectionEstimate.Basis).
const (
	CollectionGiven      = "given"       // traffic.max_items_per_partition_key
	CollectionTemplate   = "template"    // what the sort-key template can render (a constant: one item)
	CollectionTimeBucket = "time_bucket" // the hot key's writes over one time bucket
	CollectionUnbounded  = "unbounded"   // nothing bounds the items under one key
)
