package keydesign

import (
	"fmt"
	"math"
)

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

// ceilEpsilon keeps float noise (3.0000000000000004) from rounding a whole number up.
const ceilEpsilon = 1e-9

func ceilUnits(x float64) float64 { return math.Ceil(x - ceilEpsilon) }

// WriteUnitsPerWrite is ceil(item size / WriteUnitBytes) write units, doubled for transactional writes
// (ProvisionedThroughput.html).
func WriteUnitsPerWrite(itemSizeBytes int64, transactional bool) float64 {
	units := ceilUnits(float64(itemSizeBytes) / WriteUnitBytes)
	if transactional {
		units *= 2
	}
	return units
}

// ReadUnitsPerRead is ceil(item size / ReadUnitBytes) read units × 0.5 eventual, 1 strong, 2 transactional
// (ProvisionedThroughput.html).
func ReadUnitsPerRead(itemSizeBytes int64, consistency ReadConsistency) (float64, error) {
	units := ceilUnits(float64(itemSizeBytes) / ReadUnitBytes)
	switch consistency {
	case ReadEventual, "":
		return units * 0.5, nil
	case ReadStrong:
		return units, nil
	case ReadTransactional:
		return units * 2, nil
	}
	return 0, fmt.Errorf("unknown read consistency %q", consistency)
}

// RequiredShards is the number of shards that brings the busiest logical key under a partition's limits at
// the target utilisation u: max(1, ceil(hotWCU / (PartitionWriteUnitsLimit·u)), ceil(hotRCU / (PartitionReadUnitsLimit·u))).
func RequiredShards(hotWriteUnits, hotReadUnits, targetUtilization float64) int64 {
	if targetUtilization <= 0 || targetUtilization > 1 {
		targetUtilization = DefaultTargetUtilization
	}
	w := ceilUnits(hotWriteUnits / (PartitionWriteUnitsLimit * targetUtilization))
	r := ceilUnits(hotReadUnits / (PartitionReadUnitsLimit * targetUtilization))
	n := math.Max(1, math.Max(w, r))
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(n)
}
