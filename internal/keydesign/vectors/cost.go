package vectors

import (
	"cmp"
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// A vector index is metered apart from the table's request units: the bytes its writes put in the index
// (a write costs only when an indexed attribute changes, so every write of a member is an upper bound) and
// the bytes its searches examine and return, each request at least 1 KB (VectorSearchMonitoring); its storage
// is billed apart, and items without a vector use none (VectorSearchStorage). A search's examined bytes are
// not known from the design, so the searched bytes are what it returns: a lower bound. The prices are the
// price table's vector prices of the pricing Region, which it marks unconfirmed, or pricing.vector_prices.

// cost prices the index per month.
func (a *indexAnalysis) cost() {
	c := &a.d.Cost
	in := a.m.Input
	seconds := model.HoursPerMonth * 3600
	gb := float64(model.Limits.BytesPerGB)
	var region string
	var given model.VectorPriceOverrides
	if in.Pricing != nil {
		region, given = in.Pricing.Region, in.Pricing.VectorPrices
	}
	c.Region = cmp.Or(region, model.DefaultPricingRegion)

	writes, writesKnown := 0.0, len(a.members) > 0
	storage, storageKnown := 0.0, len(a.members) > 0
	for _, mb := range a.members {
		perItem := float64(max(mb.doc.WriteBytesPerItem, model.VectorRequestMinBytes))
		if mb.averageWrites == nil {
			writesKnown = false
		} else {
			writes += *mb.averageWrites * perItem * seconds / gb
		}
		if mb.itemCount == nil {
			storageKnown = false
		} else {
			storage += float64(*mb.itemCount) * float64(mb.doc.WriteBytesPerItem) / gb
		}
	}
	searched, searchKnown := 0.0, true
	for _, s := range a.d.Searches {
		if s.ReadsPerSecond == nil || s.ResponseBytes == nil {
			searchKnown = false
			continue
		}
		searched += *s.ReadsPerSecond * float64(max(*s.ResponseBytes, model.VectorRequestMinBytes)) * seconds / gb
	}
	if writesKnown {
		c.WriteGBPerMonth = &writes
	}
	if searchKnown {
		c.SearchGBPerMonth = &searched
	}
	if storageKnown {
		c.StorageGB = &storage
	}

	prices := resolvePrices(c.Region, given)
	c.Prices = prices
	if prices == nil {
		return
	}
	times := func(x *float64, price float64) *float64 {
		if x == nil {
			return nil
		}
		return model.Ptr(*x * price)
	}
	c.WriteMonthlyUSD = times(c.WriteGBPerMonth, prices.WriteGB)
	c.SearchMonthlyUSD = times(c.SearchGBPerMonth, prices.SearchGB)
	c.StorageMonthlyUSD = times(c.StorageGB, prices.StorageGBMonth)
	if c.WriteMonthlyUSD != nil && c.SearchMonthlyUSD != nil && c.StorageMonthlyUSD != nil {
		c.MonthlyUSD = model.Ptr(*c.WriteMonthlyUSD + *c.SearchMonthlyUSD + *c.StorageMonthlyUSD)
	}
}

// resolvePrices are the Region's vector prices with the design's overrides; nil when the price table has
// none for the Region and the design does not give all three.
func resolvePrices(region string, given model.VectorPriceOverrides) *model.VectorPricesUsed {
	table := model.PriceTable.Vector
	listed, ok := table.Regions[region]
	out := &model.VectorPricesUsed{WriteGB: listed.WriteGB, SearchGB: listed.SearchGB, StorageGBMonth: listed.StorageGBMonth,
		Unconfirmed: []string{}, Given: []string{}, Note: table.Note}
	for _, p := range []struct {
		name string
		dst  *float64
		v    *float64
	}{{"write_gb", &out.WriteGB, given.WriteGB}, {"search_gb", &out.SearchGB, given.SearchGB}, {"storage_gb_month", &out.StorageGBMonth, given.StorageGBMonth}} {
		switch {
		case p.v != nil:
			*p.dst = *p.v
			out.Given = append(out.Given, p.name)
		case !ok:
			return nil
		case !slices.Contains(listed.Confirmed, p.name):
			out.Unconfirmed = append(out.Unconfirmed, p.name)
		}
	}
	if !ok {
		out.Note = "given in pricing.vector_prices"
	}
	return out
}
