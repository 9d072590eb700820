package model

import (
	"fmt"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// The cost model's inputs and its result (Derived.Cost); the cost stage computes it and
// contributing/cost-model.md gives every formula with its source.

// Table classes (API_CreateTable TableClass); the price table is keyed by them.
const (
	TableClassStandard           = "STANDARD"
	TableClassInfrequentAccess   = "STANDARD_INFREQUENT_ACCESS"
	BillingPayPerRequest         = "PAY_PER_REQUEST"
	DefaultPricingRegion         = "us-east-1"
	CostModeOnDemand             = "on_demand"
	CostModeProvisioned          = "provisioned"
	SecondsPerHour               = 3600
	RequestUnitsPerMillion       = 1e6
	UnitsPerCapacityFloor        = 1 // DynamoDB provisions at least one unit per table and index
	costRegionSourcePricing      = "pricing"
	CostRegionSourceProvider     = "provider"
	CostRegionSourceDefault      = "default"
	CostRegionSourceReplicas     = "replicas"
	CostPriceSourceTable         = "table"
	CostPriceSourceOverride      = "override"
	CostPriceSourceTableOverride = "table_and_override"
)

// TableClasses lists the valid table classes.
var TableClasses = []string{TableClassStandard, TableClassInfrequentAccess}

// PriceTable is the dated, sourced price table of the data file.
var PriceTable = policies.Bundle.Pricing

// HoursPerMonth is the month the prices are per: AWS's pricing examples use 730 hours.
var HoursPerMonth = Limits.HoursPerMonth

// MaxPriceUSD bounds a price override in dollars: a million dollars per unit, far above any list price,
// keeps every cost finite (the rates and sizes are bounded too).
var MaxPriceUSD = Limits.MaxPriceUSD

// Bases of the monthly request units (CostEstimate.WritesBasis and ReadsBasis).
const (
	BasisDeclaredAverage = "declared_average" // traffic.average_*_per_second
	BasisDeclaredPeak    = "declared_peak"    // traffic.*_per_second held all month: an upper bound
	BasisMeasuredAverage = "measured_average" // observed: the window's consumed units per second
	BasisMeasuredPeak    = "measured_peak"    // observed peak held all month: an upper bound
	BasisPatternPeak     = "access_patterns"  // the access patterns' reads held all month: an upper bound
	BasisNone            = "none"             // no traffic: the figure is unknown
)

// PricingInput is the design's `pricing`: where the table runs, its class and PITR, and prices that replace
// the price table's (negotiated rates, other regions). Nil prices come from the table.
type PricingInput struct {
	Region string
	// RegionSource says where Region came from: "pricing", "provider" (the provider's region) or "" (the
	// default region).
	RegionSource        string
	TableClass          string
	PointInTimeRecovery bool
	Prices              PriceOverrides
	// VectorPrices replace the vector index prices of the price table.
	VectorPrices VectorPriceOverrides
}

// WithPricingDefaults fills what the design's `pricing` leaves out: the provider's region, and on a table the
// table's own class and PITR setting.
func WithPricingDefaults(in *Input, providerRegion, tableClass string, pitr bool) {
	if in.Pricing == nil {
		in.Pricing = &PricingInput{}
	}
	p := in.Pricing
	if p.Region == "" && providerRegion != "" {
		p.Region, p.RegionSource = providerRegion, "provider"
	}
	if p.TableClass == "" {
		p.TableClass = tableClass
	}
	p.PointInTimeRecovery = p.PointInTimeRecovery || pitr
}

// PriceOverrides are explicit prices in dollars; nil keeps the price table's.
type PriceOverrides struct {
	WriteRequestUnitsPerMillion *float64
	ReadRequestUnitsPerMillion  *float64
	WriteCapacityUnitHour       *float64
	ReadCapacityUnitHour        *float64
	StorageGBMonth              *float64
	PITRGBMonth                 *float64
}

// CostEstimate is what the design costs per month in each billing mode. Dollar figures are nil when an
// input they need is missing; Problem says why the whole estimate has no figures.
type CostEstimate struct {
	Region       string `json:"region"`
	RegionSource string `json:"region_source"`
	TableClass   string `json:"table_class"`
	Currency     string `json:"currency"`
	// Prices are the prices used; PriceSource says whether they come from the table, overrides or both, and
	// PricesRetrieved is the table's date.
	Prices          *policies.Prices `json:"prices"`
	PriceSource     string           `json:"price_source"`
	PricesRetrieved string           `json:"prices_retrieved"`
	// PriceStatus says which prices are confirmed list prices (as of the table's date), which the price
	// table's estimates and which the design gives (cost/regions.go).
	PriceStatus PriceStatus `json:"price_status"`
	// Problem is why no dollar figure could be computed ("" when they were).
	Problem string `json:"problem"`

	WritesBasis string `json:"writes_basis"`
	ReadsBasis  string `json:"reads_basis"`
	// TableWriteUnitsPerSecond and ReadUnitsPerSecond are the average demand the month is priced at.
	TableWriteUnitsPerSecond *float64 `json:"table_write_units_per_second"`
	ReadUnitsPerSecond       *float64 `json:"read_units_per_second"`
	// MonthlyWriteRequestUnits counts the table's and every index's; MonthlyReadRequestUnits every read.
	MonthlyWriteRequestUnits *float64    `json:"monthly_write_request_units"`
	MonthlyReadRequestUnits  *float64    `json:"monthly_read_request_units"`
	TableMonthlyWriteUnits   *float64    `json:"table_monthly_write_units"`
	Indexes                  []IndexCost `json:"indexes"`
	// Reads lists each source of read demand: the table, a measured index, and (later) access patterns.
	Reads []ReadCost `json:"reads"`

	// ItemCount, StorageGB and PITRGB are nil without traffic.item_count.
	ItemCount           *int64   `json:"item_count"`
	StorageGB           *float64 `json:"storage_gb"`
	PointInTimeRecovery bool     `json:"point_in_time_recovery"`
	PITRGB              *float64 `json:"pitr_gb"`

	// ProvisionedWriteCapacity and ProvisionedReadCapacity are the table's and indexes' units that
	// provisioned mode would pay for every hour; CapacityBasis says how they were chosen.
	ProvisionedWriteCapacity *float64 `json:"provisioned_write_capacity"`
	ProvisionedReadCapacity  *float64 `json:"provisioned_read_capacity"`
	CapacityBasis            string   `json:"capacity_basis"`

	OnDemand    *ModeCost `json:"on_demand"`
	Provisioned *ModeCost `json:"provisioned"`

	// Replicas prices each replica Region of a global table, and AllRegions sums them (cost/regions.go);
	// absent for a single-Region table.
	Replicas   []RegionCost    `json:"replicas,omitempty"`
	AllRegions *AllRegionsCost `json:"all_regions,omitempty"`

	// ChosenMode is the table's billing mode ("on_demand" or "provisioned"; "" for a design without a
	// table), CheaperMode the mode with the smaller total.
	ChosenMode  string `json:"chosen_mode"`
	CheaperMode string `json:"cheaper_mode"`
	// ChosenExcessShare is how much more the chosen mode costs than the other, as a share of the other's
	// total: 0 when it is the cheaper, nil when not established (the chosen mode is on-demand priced at peak
	// traffic, an upper bound, or a figure is missing). ChosenExcessMonthly is the same in dollars.
	ChosenExcessShare   *float64 `json:"chosen_excess_share"`
	ChosenExcessMonthly *float64 `json:"chosen_excess_monthly"`
	// BreakEvenUtilization is the average use of the provisioned capacity below which on-demand is cheaper;
	// Utilization is the design's average use of it.
	BreakEvenUtilization *float64 `json:"break_even_utilization"`
	Utilization          *float64 `json:"utilization"`
}

// ModeCost is one billing mode's monthly dollars. Storage and PITR are nil without an item count; Total is
// the sum of the known parts, nil unless both writes and reads are known (a part without traffic is 0).
type ModeCost struct {
	TableWrites float64  `json:"table_writes"`
	IndexWrites float64  `json:"index_writes"`
	Reads       float64  `json:"reads"`
	Storage     *float64 `json:"storage"`
	PITR        *float64 `json:"pitr"`
	Total       *float64 `json:"total"`
}

// IndexCost is one secondary index's share of the writes: every table write that carries the index's key
// attributes writes an index entry of the projected size.
type IndexCost struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "gsi" or "lsi"
	// EntryBytes is the projected entry (ALL: the item; KEYS_ONLY: the keys; INCLUDE: the keys and the
	// included attributes, estimated), WriteUnitsPerWrite ceil(EntryBytes / 1 KB) (×2 transactional).
	EntryBytes         int64   `json:"entry_bytes"`
	WriteUnitsPerWrite float64 `json:"write_units_per_write"`
	// ReducibleWriteUnits is how many of WriteUnitsPerWrite a KEYS_ONLY entry would save: 0 when the
	// projection costs no more than the keys alone, or when a declared access pattern reads the index for
	// more than the keys (DK902 fires only where projecting less helps).
	ReducibleWriteUnits float64 `json:"reducible_write_units"`
	// ItemShare is the share of table writes that carry the index key (1 unless the index is sparse).
	ItemShare float64 `json:"item_share"`
	// WritesBasis is the table's writes basis, or measured_* when observed_indexes gives the index's own.
	WritesBasis         string   `json:"writes_basis"`
	MonthlyWriteUnits   *float64 `json:"monthly_write_units"`
	OnDemandWriteCost   *float64 `json:"on_demand_write_cost"`
	ProvisionedCapacity *float64 `json:"provisioned_write_capacity"`
	ProvisionedCost     *float64 `json:"provisioned_write_cost"`
	// ShareOfTableWrites is the index's on-demand write cost over the table's own (DK902).
	ShareOfTableWrites *float64 `json:"share_of_table_writes"`
	// Path is the index's attribute, where DK902 points.
	Path Path `json:"path"`
	// Entities are the entities of a single-table design whose items the index holds, each with its own
	// entry (capacity.EntityIndexCost); nil without entities.
	Entities []IndexEntityWrite `json:"entities,omitempty"`
}

// IndexEntityWrite is one entity's entry in an index: its projected size and write units per write.
type IndexEntityWrite struct {
	Entity             string   `json:"entity"`
	EntryBytes         int64    `json:"entry_bytes"`
	WriteUnitsPerWrite float64  `json:"write_units_per_write"`
	WritesPerSecond    *float64 `json:"writes_per_second"`
}

// ReadCost is one source of read demand.
type ReadCost struct {
	Source             string   `json:"source"`
	Basis              string   `json:"basis"`
	MonthlyReadUnits   float64  `json:"monthly_read_units"`
	OnDemandCost       float64  `json:"on_demand_cost"`
	ProvisionedUnits   float64  `json:"provisioned_read_capacity"`
	ProvisionedCost    float64  `json:"provisioned_cost"`
	PeakUnitsPerSec    *float64 `json:"peak_units_per_second"`
	AverageUnitsPerSec float64  `json:"average_units_per_second"`
}

// Thresholds of the cost rules (DK901, DK902), from the data file: a chosen billing mode costing more than
// BillingModeCostExcessShare times the other, an index's writes costing more than IndexWriteCostShare times
// the table's own, either only above CostWarningMinMonthlyUSD a month.
var (
	BillingModeCostExcessShare = Limits.BillingModeCostExcessShare
	IndexWriteCostShare        = Limits.IndexWriteCostShare
	CostWarningMinMonthlyUSD   = Limits.CostWarningMinMonthlyUSD
)

// ByName lists the overrides by their attribute names.
func (o PriceOverrides) ByName() map[string]*float64 {
	return map[string]*float64{
		"write_request_units_per_million": o.WriteRequestUnitsPerMillion,
		"read_request_units_per_million":  o.ReadRequestUnitsPerMillion,
		"write_capacity_unit_hour":        o.WriteCapacityUnitHour,
		"read_capacity_unit_hour":         o.ReadCapacityUnitHour,
		"storage_gb_month":                o.StorageGBMonth,
		"pitr_gb_month":                   o.PITRGBMonth,
	}
}

// Incomplete says why the modes are not compared ("" when they are): the side whose traffic is unknown.
func (c *CostEstimate) Incomplete() string {
	if c == nil || c.OnDemand == nil {
		return ""
	}
	var missing []string
	if c.WritesBasis == BasisNone {
		missing = append(missing, "writes (traffic.writes_per_second or average_writes_per_second, or observed writes)")
	}
	if c.ReadsBasis == BasisNone {
		missing = append(missing, "reads (traffic.reads_per_second or average_reads_per_second, or observed reads)")
	}
	if len(missing) == 0 {
		return ""
	}
	return "the modes are not compared (no totals, cheaper mode or break-even utilization): the design gives no " +
		strings.Join(missing, " and no ")
}

// InfracostUsage is the usage-file entry Infracost reads for an aws_dynamodb_table: monthly request units
// (the table's and its indexes' writes, every read), storage and PITR GB, rounded up to the whole numbers
// Infracost takes. Figures the design does not give are left out.
func (c *CostEstimate) InfracostUsage() map[string]int64 {
	out := map[string]int64{}
	if c == nil {
		return out
	}
	put := func(key string, v *float64) {
		if v != nil {
			out[key] = int64(CeilUnits(*v))
		}
	}
	put("monthly_write_request_units", c.MonthlyWriteRequestUnits)
	put("monthly_read_request_units", c.MonthlyReadRequestUnits)
	put("storage_gb", c.StorageGB)
	put("pitr_backup_storage_gb", c.PITRGB)
	return out
}

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

// Wording says which prices are confirmed list prices (with the date of their source), which the price
// table's estimates and which the design gives; the report and the cost output print it.
func (s PriceStatus) Wording() string {
	var parts []string
	if len(s.Confirmed) > 0 {
		parts = append(parts, fmt.Sprintf("confirmed list prices (sources as of %s) for %s", s.SourceDate, priceList(s.Confirmed)))
	}
	if len(s.Estimated) > 0 {
		parts = append(parts, "estimates, not confirmed list prices, for "+priceList(s.Estimated))
	}
	if len(s.Given) > 0 {
		parts = append(parts, "the design's own prices for "+priceList(s.Given))
	}
	return strings.Join(parts, "; ")
}

// priceLabels name the prices in the report.
var priceLabels = map[string]string{
	"write_request_units_per_million": "write request units", "read_request_units_per_million": "read request units",
	"write_capacity_unit_hour": "write capacity units", "read_capacity_unit_hour": "read capacity units",
	"storage_gb_month": "storage", "pitr_gb_month": "PITR",
}

func priceList(names []string) string {
	labels := make([]string, 0, len(names))
	for _, n := range names {
		labels = append(labels, priceLabels[n])
	}
	return strings.Join(labels, ", ")
}
