package model

import (
	"slices"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// Prices: the price table's prices for a Region and class, with a design's overrides applied
// (contributing/cost-md). The cost, replica and migration stages all price through these.

// ResolvePrices starts from the price table's prices for the region and class and applies the overrides;
// without a table entry every override is needed, and the missing ones are listed.
func ResolvePrices(region, class string, o PriceOverrides) (policies.Prices, string, []string) {
	base, listed := PriceTable.Regions[region][class]
	var missing []string
	overridden := false
	set := func(name string, dst *float64, v *float64) {
		switch {
		case v != nil:
			*dst = *v
			overridden = true
		case !listed:
			missing = append(missing, name)
		}
	}
	set("write_request_units_per_million", &base.WriteRequestUnitsPerMillion, o.WriteRequestUnitsPerMillion)
	set("read_request_units_per_million", &base.ReadRequestUnitsPerMillion, o.ReadRequestUnitsPerMillion)
	set("write_capacity_unit_hour", &base.WriteCapacityUnitHour, o.WriteCapacityUnitHour)
	set("read_capacity_unit_hour", &base.ReadCapacityUnitHour, o.ReadCapacityUnitHour)
	set("storage_gb_month", &base.StorageGBMonth, o.StorageGBMonth)
	set("pitr_gb_month", &base.PITRGBMonth, o.PITRGBMonth)
	switch {
	case !listed:
		base.Note = "given in pricing.prices"
		return base, CostPriceSourceOverride, missing
	case overridden:
		return base, CostPriceSourceTableOverride, nil
	}
	return base, CostPriceSourceTable, nil
}

// PriceStatusOf says, for each price of a Region and class, whether it is a confirmed list price, an estimate
// of the price table, or given by the design.
func PriceStatusOf(region, class string, o PriceOverrides) PriceStatus {
	st := PriceStatus{Confirmed: []string{}, Estimated: []string{}, Given: []string{}, SourceDate: PriceTable.Retrieved}
	listed, ok := PriceTable.Regions[region][class]
	given := o.ByName()
	for _, name := range PriceNames {
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
