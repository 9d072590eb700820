package cost

import (
	"math"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// The cost of a global table (the replicas stage) and where each price comes from.
//
// Every replica Region pays for every write: the Region's own writes as writes and the other Regions' as
// replicated writes, which since the price cut of November 2024 cost what a single-Region write costs
// (https://aws.amazon.com/dynamodb/pricing/on-demand/, "Global tables"). So each Region's table and index
// writes are the global writes at that Region's prices. Each Region stores the whole table and serves its
// own reads (traffic.reads_per_second is each Region's). A TTL delete is free where the item expires and a
// replicated write in every other Region: a Region pays for the TTL deletes of the other Regions, by their
// write shares. A witness stores no table and takes no writes the account pays for ("A witness does not
// incur storage or write costs", V2globaltables_HowItWorks.html).

// replicaCosts prices every replica Region (est is the pricing Region's estimate) and sums them.
func replicaCosts(design *model.Model, traffic *capacity.TableTraffic, doc *designFacts, est *model.CostEstimate, p model.PricingInput) {
	f := doc.Replicas
	est.Replicas = []model.RegionCost{}
	all := &model.AllRegionsCost{OnDemand: model.Ptr(0.0), Provisioned: model.Ptr(0.0)}
	for _, rf := range f.Regions {
		rp := p
		rp.Region, rp.RegionSource, rp.Prices = rf.Region, model.CostRegionSourceReplicas, design.Input.RegionPrices(rf.Region)
		r := estimate(design, traffic, doc, rp)
		rc := model.RegionCost{Region: rf.Region, WriteShare: rf.WriteShare, Prices: r.Prices, PriceSource: r.PriceSource,
			PriceStatus: r.PriceStatus, OnDemand: r.OnDemand, Provisioned: r.Provisioned}
		if ttl := f.TTLDeletesPerSecond; ttl != nil && r.Prices != nil && len(f.Regions) > 1 {
			rc.ReplicatedTTLDeleteUnits = *ttl * (1 - rf.WriteShare) * doc.Capacity.WriteUnitsPerWrite
			addTTLDeletes(&rc, r.Prices, doc.TargetUtilization)
		}
		for _, pair := range []struct {
			mode *model.ModeCost
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
func addTTLDeletes(rc *model.RegionCost, pr *policies.Prices, u float64) {
	units := rc.ReplicatedTTLDeleteUnits
	if units <= 0 {
		return
	}
	od := units * secondsPerMonth() / model.RequestUnitsPerMillion * pr.WriteRequestUnitsPerMillion
	pv := math.Ceil(units/u-model.CeilEpsilon) * model.HoursPerMonth * pr.WriteCapacityUnitHour
	for _, add := range []struct {
		m *model.ModeCost
		v float64
	}{{rc.OnDemand, od}, {rc.Provisioned, pv}} {
		if add.m == nil {
			continue
		}
		add.m.TableWrites += add.v
		if add.m.Total != nil {
			add.m.Total = model.Ptr(*add.m.Total + add.v)
		}
	}
}
