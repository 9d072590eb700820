package model

import (
	"cmp"
	"maps"
	"slices"
)

// Replicas is the design's `replicas`: the Regions of a global table, each Region's writes, the
// consistency mode and a witness Region.
type Replicas struct {
	// Regions maps each replica Region to its share of the writes or its writes per second, and its prices
	// when the price table lacks them.
	Regions map[string]ReplicaRegion
	// Consistency is "eventual" (multi-Region eventual consistency, the default) or "strong" (MRSC).
	Consistency string
	// Witness is the witness Region of an MRSC table with two replicas; nil without one.
	Witness *string
	// TTLDeletesPerSecond is the rate at which TTL expires items; nil when the table uses no TTL. A TTL
	// delete is free in the Region that expires the item, and a replicated write in every other Region.
	TTLDeletesPerSecond *float64
}

// ReplicaRegion is one replica Region of the design.
type ReplicaRegion struct {
	// WriteShare is the Region's share of traffic.writes_per_second; WritesPerSecond its own writes instead.
	WriteShare      *float64
	WritesPerSecond *float64
	// Prices replace the price table's in this Region (needed for a Region the table lacks).
	Prices PriceOverrides
}

// ReplicasFacts are the facts of the global table the replica rules (DK604–DK606) and the report read.
type ReplicasFacts struct {
	// Consistency is "eventual" or "strong"; Witness the witness Region or nil.
	Consistency string  `json:"consistency"`
	Witness     *string `json:"witness"`
	// Regions are the replica Regions, sorted; RegionCount counts them and the witness.
	Regions     []ReplicaFacts `json:"regions"`
	RegionCount int            `json:"region_count"`
	// DuplicateRegions are Regions listed more than once (a map cannot, so a design's list is empty; an
	// aws_dynamodb_table's replica blocks can).
	DuplicateRegions []string `json:"duplicate_regions"`
	// WriteShareSum is the sum of the Regions' write shares, and WriteSharesSumToOne whether it is 1 (within
	// float noise); with writes per Region the shares are each Region's part of their sum.
	WriteShareSum       float64 `json:"write_share_sum"`
	WriteSharesSumToOne bool    `json:"write_shares_sum_to_one"`
	// WritesBasis says how the writes were split: "write_share", "writes_per_region" or "equal" (no Region
	// says: an equal share each).
	WritesBasis string `json:"writes_basis"`
	// GlobalWritesPerSecond is every Region's writes together, which every replica performs; nil without
	// write traffic. TTLDeletesPerSecond is the TTL deletes (nil: no TTL), replicated like writes.
	GlobalWritesPerSecond *float64 `json:"global_writes_per_second"`
	TTLDeletesPerSecond   *float64 `json:"ttl_deletes_per_second"`
	// TTL is true when the table uses TTL (DK605: MRSC does not support it).
	TTL bool `json:"ttl"`
	// HotKeyWriteUnits is the busiest key's write demand on its partition in every Region: every Region's
	// writes to it (derived.capacity.hot_key_write_units, which already counts them).
	HotKeyWriteUnits *float64 `json:"hot_key_write_units"`
}

// ReplicaFacts is one replica Region.
type ReplicaFacts struct {
	Region     string  `json:"region"`
	WriteShare float64 `json:"write_share"`
	// WritesPerSecond are the writes the application makes in this Region; ReplicatedWritesPerSecond those
	// the other Regions' writes (and TTL deletes) replicate into it. Nil without write traffic.
	WritesPerSecond           *float64 `json:"writes_per_second"`
	ReplicatedWritesPerSecond *float64 `json:"replicated_writes_per_second"`
	// RegionSet is the MRSC Region set the Region belongs to ("" when none).
	RegionSet string `json:"region_set"`
}

// HasReplicas is true for a design with a replica or a witness; an empty `replicas` is a single-Region table.
func (r *Replicas) HasReplicas() bool {
	return r != nil && (len(r.Regions) > 0 || r.Witness != nil)
}

// Over fills the prices o leaves nil from base.
func (o PriceOverrides) Over(base PriceOverrides) PriceOverrides {
	pick := func(x, y *float64) *float64 { return cmp.Or(x, y) }
	return PriceOverrides{
		WriteRequestUnitsPerMillion: pick(o.WriteRequestUnitsPerMillion, base.WriteRequestUnitsPerMillion),
		ReadRequestUnitsPerMillion:  pick(o.ReadRequestUnitsPerMillion, base.ReadRequestUnitsPerMillion),
		WriteCapacityUnitHour:       pick(o.WriteCapacityUnitHour, base.WriteCapacityUnitHour),
		ReadCapacityUnitHour:        pick(o.ReadCapacityUnitHour, base.ReadCapacityUnitHour),
		StorageGBMonth:              pick(o.StorageGBMonth, base.StorageGBMonth),
		PITRGBMonth:                 pick(o.PITRGBMonth, base.PITRGBMonth),
	}
}

// RegionSetOf is the MRSC Region set of a Region, "" when it is in none.
func RegionSetOf(region string) string {
	for _, name := range slices.Sorted(maps.Keys(MRSCRegionSets)) {
		if slices.Contains(MRSCRegionSets[name], region) {
			return name
		}
	}
	return ""
}

// RegionPrices are a Region's explicit prices: its own, over pricing.prices in the pricing Region.
func (in *Input) RegionPrices(region string) PriceOverrides {
	o := in.Replicas.Regions[region].Prices
	if p := in.Pricing; p != nil && p.Region == region {
		o = o.Over(p.Prices)
	}
	return o
}

// ReplicatedTTLDeletes is the TTL deletes every Region's partitions apply, 0 for a single-Region table (whose
// TTL deletes consume no write throughput).
func (in *Input) ReplicatedTTLDeletes() float64 {
	if r := in.Replicas; r.HasReplicas() && len(r.Regions) > 1 && r.TTLDeletesPerSecond != nil {
		return *r.TTLDeletesPerSecond
	}
	return 0
}
