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

// MaxItemSizeBytes is DynamoDB's item size limit, 400 KB (ServiceQuotas "Item size").
const MaxItemSizeBytes = 400 * 1024

// ceilEpsilon keeps float noise (3.0000000000000004) from rounding a whole number up.
const ceilEpsilon = 1e-9

func ceilUnits(x float64) float64 { return math.Ceil(x - ceilEpsilon) }

// WriteUnitsPerWrite is ceil(item size / 1 KB) write units, doubled for transactional writes
// (ProvisionedThroughput.html): a 1.6 KB write costs 2, a 2 KB transactional write 4.
func WriteUnitsPerWrite(itemSizeBytes int64, transactional bool) float64 {
	units := ceilUnits(float64(itemSizeBytes) / WriteUnitBytes)
	if transactional {
		units *= 2
	}
	return units
}

// ReadUnitsPerRead is ceil(item size / 4 KB) read units × 0.5 eventual, 1 strong, 2 transactional
// (ProvisionedThroughput.html): an 8 KB read costs 1, 2 or 4.
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
// the target utilisation: max(1, ceil(hotWCU / (1000·u)), ceil(hotRCU / (3000·u))).
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
