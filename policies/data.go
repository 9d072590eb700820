package policies

import (
	_ "embed" // the data file
)

// DataJSON is the bundle's data file, dynamokeys/source/data.json: every DynamoDB limit, the rules'
// thresholds, the design defaults, the docs base URL and the bundle version. Go reads it as Data from
// data_gen.go, Rego from data.rego, both generated from it (internal/cmd/datamodule), so that loading the
// rules loads the limits with them.
//
//go:embed dynamokeys/source/data.json
var DataJSON []byte

// Data is the decoded data file.
type Data struct {
	// DataFormat is the version of the data file's shape, which the rules check before they evaluate anything
	// (data.dynamokeys.data_format), bumped when a key is added, renamed or removed or changes meaning.
	DataFormat int `json:"data_format"`
	// Version is the bundle's version: "dev" in the repository, the release version in a release's bundle.
	Version string `json:"version"`
	// DocsBase is the rule reference's URL; a finding's docs_url is DocsBase#<rule id>.
	DocsBase string `json:"docs_base"`
	Limits   Limits `json:"limits"`
	// Pricing is the price table of the cost model.
	Pricing Pricing `json:"pricing"`
	// NameHints are the words that make a bare key attribute name a time bucket or few values.
	NameHints NameHints `json:"name_hints"`
}

// NameHints is the one table of how a key attribute known only by its name and type reads: the rules split
// the name into words (snake_case, kebab-case, camelCase) and match whole words. The rule reference prints
// it.
type NameHints struct {
	Note string `json:"note"`
	// LowCardinalityWords make a name few-valued when they are its last word (order_status, logLevel).
	LowCardinalityWords []string `json:"low_cardinality_words"`
	// BooleanPrefixes make a name of two or more words few-valued when they are its first (is_active).
	BooleanPrefixes []string `json:"boolean_prefixes"`
	// TimeBucketWords make a name a time bucket, whatever its type (order_date, eventDay).
	TimeBucketWords []string `json:"time_bucket_words"`
	// TimestampWords make a string a time (a date or a bucket, possibly); a number named so holds epoch
	// values, each its own key.
	TimestampWords []string `json:"timestamp_words"`
}

// Limits are DynamoDB's limits (AWS DynamoDB Developer Guide pages in contributing/capacity-model.md), the
// rules' design thresholds and the defaults of the design inputs.
type Limits struct {
	PartitionWriteUnits       int64   `json:"partition_write_units"`
	PartitionReadUnits        int64   `json:"partition_read_units"`
	QueryPageBytes            int64   `json:"query_page_bytes"`
	WriteUnitBytes            int64   `json:"write_unit_bytes"`
	ReadUnitBytes             int64   `json:"read_unit_bytes"`
	PartitionKeyMaxBytes      int64   `json:"partition_key_max_bytes"`
	SortKeyMaxBytes           int64   `json:"sort_key_max_bytes"`
	MaxItemSizeBytes          int64   `json:"max_item_size_bytes"`
	BytesPerGB                int64   `json:"bytes_per_gb"`
	ItemCollectionGB          int64   `json:"item_collection_gb"`
	ItemCollectionWarnGB      int64   `json:"item_collection_warn_gb"`
	IndexEntryOverheadBytes   int64   `json:"index_entry_overhead_bytes"`
	NumberKeyMaxBytes         int64   `json:"number_key_max_bytes"`
	MaxLSIs                   int64   `json:"max_lsis"`
	MaxGSIs                   int64   `json:"max_gsis"`
	MaxProjectedAttributes    int64   `json:"max_projected_attributes"`
	MaxGSIKeyAttributes       int64   `json:"max_gsi_key_attributes"`
	OnDemandTableUnits        int64   `json:"on_demand_table_units"`
	NewTableWriteUnits        int64   `json:"new_table_write_units"`
	NewTableReadUnits         int64   `json:"new_table_read_units"`
	MinNameLength             int64   `json:"min_name_length"`
	MaxNameLength             int64   `json:"max_name_length"`
	NameCharacters            string  `json:"name_characters"`
	MaxAttributeNameBytes     int64   `json:"max_attribute_name_bytes"`
	MaxNumberDigits           int64   `json:"max_number_digits"`
	MaxShardCount             int64   `json:"max_shard_count"`
	MinRecoveryPeriodDays     int64   `json:"min_recovery_period_days"`
	MaxRecoveryPeriodDays     int64   `json:"max_recovery_period_days"`
	MaxTagsPerTable           int64   `json:"max_tags_per_table"`
	MaxTagKeyCharacters       int64   `json:"max_tag_key_characters"`
	MaxTagValueCharacters     int64   `json:"max_tag_value_characters"`
	TagSpecialCharacters      string  `json:"tag_special_characters"`
	ReservedTagPrefix         string  `json:"reserved_tag_prefix"`
	LowCardinality            int64   `json:"low_cardinality"`
	FanoutShards              int64   `json:"fanout_shards"`
	FanoutOverprovisionFactor int64   `json:"fanout_overprovision_factor"`
	BusyPartitionShare        float64 `json:"busy_partition_share"`
	DefaultItemSizeBytes      int64   `json:"default_item_size_bytes"`
	DefaultTargetUtilization  float64 `json:"default_target_utilization"`
	DefaultIDMaxLength        int64   `json:"default_id_max_length"`
	DefaultNumberMaxLength    int64   `json:"default_number_max_length"`
	DefaultSchemeVersion      int64   `json:"default_scheme_version"`
	// Cost thresholds (DK901, DK902) and the month the prices are per (contributing/cost-model.md).
	BillingModeCostExcessShare float64 `json:"billing_mode_cost_excess_share"`
	IndexWriteCostShare        float64 `json:"index_write_cost_share"`
	CostWarningMinMonthlyUSD   float64 `json:"cost_warning_min_monthly_usd"`
	HoursPerMonth              float64 `json:"hours_per_month"`
	// BackfillMaxHours is how long a migration's backfill may run before DK408 warns.
	BackfillMaxHours float64 `json:"backfill_max_hours"`
	// MaxPriceUSD bounds each pricing.prices override: far above any list price (cents per unit), so that
	// every cost stays a finite number.
	MaxPriceUSD float64 `json:"max_price_usd"`
	// IndexUpdatesPerUpdateTable is how many GSI creates or deletes one UpdateTable call takes (GSI.OnlineOps),
	// and BillingSwitchesToOnDemandPerDay how often a table may switch from provisioned to on-demand in a
	// 24-hour window (switching.capacitymode): the change-quota rule (DK008).
	IndexUpdatesPerUpdateTable      int64 `json:"index_updates_per_update_table"`
	BillingSwitchesToOnDemandPerDay int64 `json:"billing_switches_to_on_demand_per_day"`
	// TTLChangesIntervalHours is how long DynamoDB refuses another UpdateTimeToLive call on a table after one
	// (UpdateTimeToLive): moving TTL to another attribute takes two (DK008).
	TTLChangesIntervalHours int64 `json:"ttl_changes_interval_hours"`
	// TableClassUpdates is how many table class updates (STANDARD ⇄ STANDARD_INFREQUENT_ACCESS) a table takes
	// in a trailing period of TableClassUpdateWindowDays, 30 (Developer Guide, "Table classes",
	// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.TableClasses.html): DK008.
	TableClassUpdates          int64 `json:"table_class_updates"`
	TableClassUpdateWindowDays int64 `json:"table_class_update_window_days"`
	// CapacityDecreasesAnyTimePerDay is how many decreases of a table's or GSI's provisioned read or write
	// capacity DynamoDB takes at any time in a UTC day, and CapacityDecreasesPerDay the most in a day with the
	// one more it takes in each hour that had no decrease (Developer Guide, "Quotas in Amazon DynamoDB",
	// "Decreasing provisioned throughput",
	// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html): DK008.
	CapacityDecreasesAnyTimePerDay int64 `json:"capacity_decreases_any_time_per_day"`
	CapacityDecreasesPerDay        int64 `json:"capacity_decreases_per_day"`
	// Multi-Region strong consistency (DK604, DK605): the Regions an MRSC global table must span (replicas
	// and witness together), the Region sets it cannot leave, and the AWS page that states both (global
	// tables' "Consistency modes").
	MRSCRegions    int64               `json:"mrsc_regions"`
	MRSCRegionSets map[string][]string `json:"mrsc_region_sets"`
	MRSCDocs       string              `json:"mrsc_docs"`
	// Vector indexes (DK504–DK510): at most MaxVectorIndexes per table, dimensions and TopK within their
	// bounds (VectorSearchWorkingWith; VectorSearchTroubleshooting), each dimension a 32-bit float
	// (VectorSearchWorkingWith), VectorHashWriteBytesPerSecond of vector writes and
	// VectorHashSearchBytesPerSecond of search (data examined) per HASH value (VectorSearchBestPractices), responses of at most VectorResponseBytes with no pagination
	// (VectorSearch.Requirements), VectorRequestMinBytes metered per request (VectorSearchMonitoring), and
	// VectorHashFewValues, the design threshold below which a HASH gives no spread.
	MaxVectorIndexes              int64 `json:"max_vector_indexes"`
	MinVectorDimensions           int64 `json:"min_vector_dimensions"`
	MaxVectorDimensions           int64 `json:"max_vector_dimensions"`
	VectorBytesPerDimension       int64 `json:"vector_bytes_per_dimension"`
	MinVectorTopK                 int64 `json:"min_vector_top_k"`
	MaxVectorTopK                 int64 `json:"max_vector_top_k"`
	VectorHashWriteBytesPerSecond int64 `json:"vector_hash_write_bytes_per_second"`
	// VectorHashSearchBytesPerSecond is the search one HASH value takes, in bytes examined a second.
	VectorHashSearchBytesPerSecond int64 `json:"vector_hash_search_bytes_per_second"`
	VectorResponseBytes            int64 `json:"vector_response_bytes"`
	VectorHashFewValues            int64 `json:"vector_hash_few_values"`
	VectorRequestMinBytes          int64 `json:"vector_request_min_bytes"`
}

// Pricing is the dated, sourced DynamoDB price table the cost model reads: list prices per region and
// table class.
type Pricing struct {
	Currency string `json:"currency"`
	// Retrieved is the date the table was checked against its sources.
	Retrieved string   `json:"retrieved"`
	Sources   []string `json:"sources"`
	Note      string   `json:"note"`
	// Regions maps a region and a table class (STANDARD, STANDARD_INFREQUENT_ACCESS) to its prices.
	Regions map[string]map[string]Prices `json:"regions"`
	// Vector is the price table of vector indexes, apart from the table's.
	Vector VectorPricing `json:"vector"`
}

// VectorPricing is the price table of vector indexes: bytes written, bytes searched and index storage, per
// Region; Note says where the prices come from.
type VectorPricing struct {
	Note    string                  `json:"note"`
	Regions map[string]VectorPrices `json:"regions"`
}

// VectorPrices are one Region's vector index prices in dollars; Confirmed names those confirmed as list
// prices (none yet: the others are the secondary copies' figures, which the cost output marks unconfirmed).
type VectorPrices struct {
	WriteGB        float64  `json:"write_gb"`
	SearchGB       float64  `json:"search_gb"`
	StorageGBMonth float64  `json:"storage_gb_month"`
	Confirmed      []string `json:"confirmed"`
}

// Prices are one region's and table class's list prices in dollars; Note says which are not confirmed.
type Prices struct {
	WriteRequestUnitsPerMillion float64 `json:"write_request_units_per_million"`
	ReadRequestUnitsPerMillion  float64 `json:"read_request_units_per_million"`
	WriteCapacityUnitHour       float64 `json:"write_capacity_unit_hour"`
	ReadCapacityUnitHour        float64 `json:"read_capacity_unit_hour"`
	StorageGBMonth              float64 `json:"storage_gb_month"`
	PITRGBMonth                 float64 `json:"pitr_gb_month"`
	Note                        string  `json:"note"`
	// Confirmed names the prices (by their keys above) confirmed as list prices from the sources on the
	// table's retrieved date; the others are estimates (scaled from another region or class, or not
	// confirmed), which Note explains. The report and cost output say which is which.
	Confirmed []string `json:"confirmed"`
}

// Bundle is the data file as Go reads it: the literal internal/cmd/datamodule writes from it into data_gen.go
// (TestDataGoIsGenerated there fails when it is stale).
var Bundle = bundle
