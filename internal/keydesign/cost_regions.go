package keydesign

import (
	"math"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// The cost of a global table (replicas.go) and where each price comes from.
//
// Every replica Region pays for every write: the Region's own writes as writes and the other Regions' as
// replicated writes, which since the price cut of November 2024 cost what a single-Region write costs
// (https://aws.amazon.com/dynamodb/pricing/on-demand/, "Global tables"). So each Region's table and index
// writes are the global writes at that Region's prices. Each Region stores the whole table and serves its
// own reads (traffic.reads_per_second is each Region's). A TTL delete is free where the item expires and a
// replicated write in every other Region: a Region pays for the TTL deletes of the other Regions, by their
// write shares. A witness stores no table and takes no writes the account pays for ("A witness does not
// incur storage or write costs", V2globaltables_HowItWorks.html).

// RegionCost is one replica Region's monthly dollars.
type RegionCost struct {
	Region     string  `json:"region"`
	WriteShare float64 `json:"write_share"`
	// Prices are the Region's prices, PriceSource whether from the table, overrides or both, and PriceStatus
	// which are confirmed list prices and which estimates.
	Prices      *policies.Prices `json:"prices"`
	PriceSource string           `json:"price_source"`
	PriceStatus PriceStatus      `json:"price_status"`
	// ReplicatedTTLDeleteUnits are the other Regions' TTL deletes this Region performs, in write units per
	// second (priced with the table writes); 0 without TTL.
	ReplicatedTTLDeleteUnits float64   `json:"replicated_ttl_delete_units"`
	OnDemand                 *ModeCost `json:"on_demand"`
	Provisioned              *ModeCost `json:"provisioned"`
}

// AllRegionsCost is the global table's monthly total in each billing mode, every replica Region together;
// nil totals when a Region's total is unknown.
type AllRegionsCost struct {
	OnDemand    *float64 `json:"on_demand"`
	Provisioned *float64 `json:"provisioned"`
}

// PriceStatus sorts the prices used by where they come from (price names as in pricing.prices).
type PriceStatus struct {
	// Confirmed are list prices confirmed from the price table's sources, as of SourceDate.
	Confirmed  []string `json:"confirmed"`
	SourceDate string   `json:"source_date"`
	// Estimated are the price table's estimates (scaled from another region or class, or not confirmed).
	Estimated []string `json:"estimated"`
	// Given are the prices the design states (pricing.prices or a Region's prices).
	Given []string `json:"given"`
}

// priceNames are the prices in the order the report lists them.
var priceNames = []string{"write_request_units_per_million", "read_request_units_per_million",
	"write_capacity_unit_hour", "read_capacity_unit_hour", "storage_gb_month", "pitr_gb_month"}

// priceStatus says, for each price of a Region and class, whether it is a confirmed list price, an estimate
// of the price table, or given by the design.
func priceStatus(region, class string, o PriceOverrides) PriceStatus {
	st := PriceStatus{Confirmed: []string{}, Estimated: []string{}, Given: []string{}, SourceDate: PriceTable.Retrieved}
	listed, ok := PriceTable.Regions[region][class]
	given := o.byName()
	for _, name := range priceNames {
		switch {
		case given[name] != nil:
			st.Given = append(st.Given, name)
		case ok && slices.Contains(listed.Confirmed, name):
			st.Confirmed = append(st.Confirmed, name)
		default:
			st.Estimated = append(st.Estimated, name)
		}
	}
	return st
}

// replicaCosts prices every replica Region (est is the pricing Region's estimate) and sums them.
func (a *analyzer) replicaCosts(doc *Document, est *CostEstimate, p PricingInput) {
	f := doc.Derived.Replicas
	est.Replicas = []RegionCost{}
	all := &AllRegionsCost{OnDemand: ptr(0.0), Provisioned: ptr(0.0)}
	for _, rf := range f.Regions {
		rp := p
		rp.Region, rp.RegionSource, rp.Prices = rf.Region, costRegionSourceReplicas, a.replicaOverrides(rf.Region)
		r := a.estimate(doc, rp)
		rc := RegionCost{Region: rf.Region, WriteShare: rf.WriteShare, Prices: r.Prices, PriceSource: r.PriceSource,
			PriceStatus: r.PriceStatus, OnDemand: r.OnDemand, Provisioned: r.Provisioned}
		if ttl := f.TTLDeletesPerSecond; ttl != nil && r.Prices != nil && len(f.Regions) > 1 {
			rc.ReplicatedTTLDeleteUnits = *ttl * (1 - rf.WriteShare) * doc.Derived.Capacity.WriteUnitsPerWrite
			addTTLDeletes(&rc, r.Prices, doc.TargetUtilization)
		}
		for _, pair := range []struct {
			mode *ModeCost
			sum  **float64
		}{{rc.OnDemand, &all.OnDemand}, {rc.Provisioned, &all.Provisioned}} {
			switch {
			case *pair.sum == nil:
			case pair.mode == nil || pair.mode.Total == nil:
				*pair.sum = nil
			default:
				**pair.sum += *pair.mode.Total
			}
		}
		est.Replicas = append(est.Replicas, rc)
	}
	est.AllRegions = all
}

// addTTLDeletes prices a Region's replicated TTL deletes with its table writes: on demand by the units, and
// provisioned by the capacity they need at the target utilisation.
func addTTLDeletes(rc *RegionCost, pr *policies.Prices, u float64) {
	units := rc.ReplicatedTTLDeleteUnits
	if units <= 0 {
		return
	}
	od := units * secondsPerMonth() / requestUnitsPerMillion * pr.WriteRequestUnitsPerMillion
	pv := math.Ceil(units/u-ceilEpsilon) * HoursPerMonth * pr.WriteCapacityUnitHour
	for _, add := range []struct {
		m *ModeCost
		v float64
	}{{rc.OnDemand, od}, {rc.Provisioned, pv}} {
		if add.m == nil {
			continue
		}
		add.m.TableWrites += add.v
		if add.m.Total != nil {
			add.m.Total = ptr(*add.m.Total + add.v)
		}
	}
}
