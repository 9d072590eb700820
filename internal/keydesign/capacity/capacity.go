// Package capacity is the capacity model: everything dynamokeys derives from traffic, in the order it is
// computed.
//
//  1. Units per request: a write costs ceil(item size / 1 KB) write units (×2 transactional); a read costs
//     ceil(item size / 4 KB) read units × 0.5 eventual, 1 strong, 2 transactional.
//  2. Hot-key share: the busiest partition-key value's share of traffic, given or derived from the
//     partition key's segments.
//  3. Hot demand = rate × units per request × share. Required shards = max(1, ceil(hot WCU / (1,000·u)),
//     ceil(hot RCU / (3,000·u))), u the target utilisation. Per-shard demand = hot demand / shard count;
//     read fan-out = shard count.
//  4. GSI hot partition: every table write lands in the index, spread over its partition-key values.
//  5. Item collection (what the 10 GB LSI limit caps): items per key × (item size + one entry per LSI:
//     ALL or INCLUDE → item size + 100 bytes, KEYS_ONLY → key bytes + 100 bytes).
//
// The results live in Derived.Capacity, Derived.RequiredShards, Derived.ShardCount, GSIDoc and
// Derived.Collection (model/document.go); the AWS limits they are compared with are in model/limits.go.
package capacity

import (
	"fmt"
	"math"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Request-unit multipliers (ProvisionedThroughput.html, "Read capacity units" and "Write capacity units"):
// an eventually consistent read of up to 4 KB costs half a read unit, a strongly consistent one a whole
// unit, a transactional one two; a transactional write costs two write units per KB.
const (
	EventualReadFactor       = 0.5
	strongReadFactor         = 1
	transactionalReadFactor  = 2
	transactionalWriteFactor = 2
)

// Sources of the hot-key share (Capacity.HotKeyShareSource).
const (
	ShareGiven                 = "given"                  // traffic.hot_key_share
	ShareNoTemplate            = "no_template"            // no partition key template: 0
	ShareUndeclaredPlaceholder = "undeclared_placeholder" // a placeholder has no segment: 0
	ShareTimeBucket            = "time_bucket"            // 1 / the other segments' cardinalities
	ShareKeyCardinality        = "key_cardinality"        // 1 / all segments' cardinalities
	ShareEntities              = "entities"               // the busiest collection's units / every entity's
)

// WriteUnitsPerWrite is ceil(item size / WriteUnitBytes) write units, doubled for transactional writes
// (ProvisionedThroughput.html).
func WriteUnitsPerWrite(itemSizeBytes int64, transactional bool) float64 {
	units := model.CeilUnits(float64(itemSizeBytes) / model.WriteUnitBytes)
	if transactional {
		units *= transactionalWriteFactor
	}
	return units
}

// ReadUnitsPerRead is ceil(item size / ReadUnitBytes) read units × 0.5 eventual, 1 strong, 2 transactional
// (ProvisionedThroughput.html).
func ReadUnitsPerRead(itemSizeBytes int64, consistency model.ReadConsistency) (float64, error) {
	units := model.CeilUnits(float64(itemSizeBytes) / model.ReadUnitBytes)
	switch consistency {
	case model.ReadEventual, "":
		return units * EventualReadFactor, nil
	case model.ReadStrong:
		return units * strongReadFactor, nil
	case model.ReadTransactional:
		return units * transactionalReadFactor, nil
	}
	return 0, fmt.Errorf("unknown read consistency %q", consistency)
}

// RequiredShards is the number of shards that brings the busiest logical key under a partition's limits at
// the target utilisation u: max(1, ceil(hotWCU / (PartitionWriteUnitsLimit·u)), ceil(hotRCU / (PartitionReadUnitsLimit·u))).
func RequiredShards(hotWriteUnits, hotReadUnits, targetUtilization float64) int64 {
	if targetUtilization <= 0 || targetUtilization > 1 {
		targetUtilization = model.DefaultTargetUtilization
	}
	w := model.CeilUnits(hotWriteUnits / (model.PartitionWriteUnitsLimit * targetUtilization))
	r := model.CeilUnits(hotReadUnits / (model.PartitionReadUnitsLimit * targetUtilization))
	n := math.Max(1, math.Max(w, r))
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(n)
}

// GSIHotPartitionWriteUnits is the write demand on an index's busiest partition: every table write lands in
// the index, all into one partition when the index key is time-bucketed, else spread over its
// partition-key values; nil without writes or a bounded cardinality.
func GSIHotPartitionWriteUnits(peakWriteUnits *float64, g model.GSIDoc) *float64 {
	switch {
	case peakWriteUnits == nil:
		return nil
	case g.TimeBucketed:
		return model.Ptr(*peakWriteUnits)
	case g.PartitionKeyCardinality != nil:
		return model.Ptr(*peakWriteUnits / float64(*g.PartitionKeyCardinality))
	}
	return nil
}

// LSISortKeyBytes bounds an LSI sort key value that has no template: a number takes at most
// NumberKeyMaxBytes; strings and binaries get the id default.
func LSISortKeyBytes(keyType string) int64 {
	if keyType == model.KeyTypeNumber {
		return model.NumberKeyMaxBytes
	}
	return model.DefaultIDMaxLength
}
