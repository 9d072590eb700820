package model

import (
	"fmt"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// ObservedInput is one observation given to a design, with the attribute it was given in.
type ObservedInput struct {
	Path Path
	observed.Observation
}

// ForIndex makes the observation the one of the index its observed_indexes key names: an observation that
// names no index takes the key's, and one of another index is refused (its figures would be compared with
// the wrong index's design), with the error on its index_name.
func (o *ObservedInput) ForIndex(name string) *FieldError {
	switch o.IndexName {
	case "":
		o.IndexName = name
	case name:
	default:
		return &FieldError{Path: append(slices.Clone(o.Path), "index_name"), Message: fmt.Sprintf(
			"is the observation of index %q, but it is given for index %q: give each index its own dynamokeys_observed_traffic", o.IndexName, name)}
	}
	return nil
}

// ObservedDoc is an observation in the design document with the facts the DK70x rules read.
type ObservedDoc struct {
	observed.Observation
	// Path is the attribute the observation was given in, where findings on it point.
	Path Path `json:"path"`
	// Measured are the facts Go derived from the observation and the design.
	Measured MeasuredFacts `json:"measured"`
}

// MeasuredFacts compare an observation with the design (contributing/capacity-model.md, "Measured
// traffic"). Units are capacity units per second; a key's units are Contributor Insights'
// ConsumedThroughputUnits, 3 × WCU + RCU.
type MeasuredFacts struct {
	// DeclaredWriteUnits and DeclaredReadUnits are the design's peak demand on the observed table or index:
	// for the table its capacity.peak_*_units, for an index the table's peak writes (every table write may
	// land in it) and no declared reads. Nil when not declared.
	DeclaredWriteUnits *float64 `json:"declared_write_units"`
	DeclaredReadUnits  *float64 `json:"declared_read_units"`
	// ShardCount is the number of shards the key is written with (1 for an index).
	ShardCount int64 `json:"shard_count"`
	// HotKeySource is "measured" (Contributor Insights' most accessed keys) or "design" (the design's
	// hot-key share, when the observation has no key figures); "" when neither is known.
	HotKeySource string `json:"hot_key_source"`
	// HotKey is the busiest measured partition-key value; nil without Contributor Insights' most accessed keys.
	HotKey *string `json:"hot_key"`
	// HotKeyUnits are that key's units per second at its busiest minute (one physical key, one shard of a
	// sharded key); HotKeyPartitionShare is their share of a partition's 3,000 units/s.
	HotKeyUnits          *float64 `json:"hot_key_units"`
	HotKeyPartitionShare *float64 `json:"hot_key_partition_share"`
	// LogicalKeyUnits are the logical key's units per second: a measured key of a sharded table is one of
	// shard_count shards, so its units count shard_count times, at most the table's units at its peak.
	LogicalKeyUnits *float64 `json:"logical_key_units"`
	// RequiredShards are the shards (for an index: the partitions) the busiest logical key needs at the
	// measured peak and target utilisation.
	RequiredShards int64 `json:"required_shards"`
	// WriteLimit and ReadLimit are the most the table or index can serve per second, and the attribute that
	// sets it; nil when nothing bounds it.
	WriteLimit *CapacityLimit `json:"write_limit"`
	ReadLimit  *CapacityLimit `json:"read_limit"`
	// KeysOutsideDesign are measured keys the partition-key template cannot produce (table only).
	KeysOutsideDesign []KeyMismatch `json:"keys_outside_design"`
	// ThrottledKeys are the keys with throttle events, most throttled first.
	ThrottledKeys []string `json:"throttled_keys"`
	// ThrottleEvents is the window's read plus write throttle events; nil when neither was exported.
	ThrottleEvents *float64 `json:"throttle_events"`
	// ThrottleCauses are the causes with throttle events, in the order key_range, provisioned,
	// max_on_demand, account_limit; ThrottleEventsByCause is their sum, to tell events no cause explains.
	ThrottleCauses        []ThrottleCause `json:"throttle_causes"`
	ThrottleEventsByCause float64         `json:"throttle_events_by_cause"`
	// KeyFigures is what Contributor Insights gave: "accessed" (most accessed and throttled keys),
	// "throttled_only" (THROTTLED_KEYS mode) or "none".
	KeyFigures string `json:"key_figures"`
}

// ThrottleCause is the throttle events of one cause, read and write (0 when the side was not exported).
type ThrottleCause struct {
	Cause string  `json:"cause"`
	Read  float64 `json:"read"`
	Write float64 `json:"write"`
}

// CapacityLimit is the most a side of a table or index serves, and the attribute that sets it.
type CapacityLimit struct {
	Units float64 `json:"units"`
	Name  string  `json:"name"`
	Path  Path    `json:"path"`
}

// KeyMismatch is a measured key that the template cannot produce, and why.
type KeyMismatch struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}
