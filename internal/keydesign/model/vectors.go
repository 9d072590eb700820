package model

// Vector indexes: a table's third kind of index, searched with SearchVectors (approximate nearest
// neighbours). The input as written, and the facts the vectors stage derives (derived.vector_indexes). The
// AWS pages each fact comes from are named where it is used: DynamoDB Developer Guide VectorSearchWorkingWith,
// VectorSearch.Requirements, VectorSearchBestPractices, VectorSearchDataSync, VectorSearchMonitoring and
// VectorSearchStorage; API reference API_CreateVectorIndexAction and API_SearchSchemaElement.

// Distance functions of a vector index (API_CreateVectorIndexAction).
const (
	DistanceCosine     = "COSINE"
	DistanceDotProduct = "DOT_PRODUCT"
	DistanceEuclidean  = "EUCLIDEAN"
)

// DistanceFunctions lists the valid distance functions.
var DistanceFunctions = []string{DistanceCosine, DistanceDotProduct, DistanceEuclidean}

// Vector index limits, from the data file.
var (
	// MaxVectorIndexes is the most vector indexes a table has (VectorSearchWorkingWith).
	MaxVectorIndexes = Limits.MaxVectorIndexes
	// MinVectorDimensions and MaxVectorDimensions bound an index's dimensions, MinVectorTopK and MaxVectorTopK
	// a search's TopK (VectorSearchWorkingWith; VectorSearchTroubleshooting).
	MinVectorDimensions = Limits.MinVectorDimensions
	MaxVectorDimensions = Limits.MaxVectorDimensions
	MinVectorTopK       = Limits.MinVectorTopK
	MaxVectorTopK       = Limits.MaxVectorTopK
	// VectorBytesPerDimension is a dimension's size: vectors are stored as 32-bit floats (VectorSearchWorkingWith).
	VectorBytesPerDimension = Limits.VectorBytesPerDimension
	// VectorHashWriteBytesPerSecond is the vector writes one HASH value takes (VectorSearchBestPractices).
	VectorHashWriteBytesPerSecond = float64(Limits.VectorHashWriteBytesPerSecond)
	// VectorHashSearchBytesPerSecond is the search, in bytes examined, one HASH value takes (VectorSearchBestPractices).
	VectorHashSearchBytesPerSecond = float64(Limits.VectorHashSearchBytesPerSecond)
	// VectorResponseBytes is the largest SearchVectors response, which has no pagination (VectorSearch.Requirements).
	VectorResponseBytes = Limits.VectorResponseBytes
	// VectorRequestMinBytes is what a request is metered at least (VectorSearchMonitoring).
	VectorRequestMinBytes = Limits.VectorRequestMinBytes
)

// VectorIndex is a vector index as written (vector_indexes).
type VectorIndex struct {
	Name            string
	VectorAttribute string
	// Dimensions is the length of every vector; nil when not known at plan time.
	Dimensions       *int64
	DistanceFunction string
	// PartitionKey is the search schema's HASH attribute; nil without one (Cardinality unused).
	PartitionKey     *IndexKeyAttribute
	InlineFilters    []IndexKeyAttribute
	ProjectionType   string
	NonKeyAttributes []string
}

// VectorSearch is an access pattern that searches a vector index (access_patterns.<name>.vector_search).
type VectorSearch struct {
	Index string
	// TopK is how many neighbours one search returns; nil when not known at plan time.
	TopK *int64
}

// VectorPriceOverrides are the vector index prices a design gives (pricing.vector_prices), replacing the
// price table's unconfirmed defaults.
type VectorPriceOverrides struct {
	WriteGB        *float64
	SearchGB       *float64
	StorageGBMonth *float64
}

// VectorIndexDoc is one vector index in the document (derived.vector_indexes): the index as written, defaults
// applied, and the facts the vector rules read.
type VectorIndexDoc struct {
	Name             string        `json:"name"`
	Path             Path          `json:"path"`
	VectorAttribute  string        `json:"vector_attribute"`
	Dimensions       *int64        `json:"dimensions"`
	DistanceFunction string        `json:"distance_function"`
	PartitionKey     *IndexKeyDoc  `json:"partition_key"`
	InlineFilters    []IndexKeyDoc `json:"inline_filters"`
	ProjectionType   string        `json:"projection_type"`
	NonKeyAttributes []string      `json:"non_key_attributes"`
	// VectorBytes is one vector's size: dimensions × 4 bytes (32-bit floats).
	VectorBytes int64 `json:"vector_bytes"`
	// SharedDimensions lists the other indexes on the same vector attribute with other dimensions.
	SharedDimensions []string `json:"shared_dimensions"`
	// Entities are the kinds of item that carry the vector attribute (an entity's name; "" for a design
	// without entities), members or not.
	Entities []VectorEntityDoc `json:"entities"`
	// HashValues is how many HASH values the members write (nil when unbounded or not known); HashValuesBasis
	// says where it comes from: no_hash (one value: the index has no HASH), template, unbounded, unknown.
	HashValues      *int64 `json:"hash_values"`
	HashValuesBasis string `json:"hash_values_basis"`
	// HashUniquePerItem is true when a member's HASH template renders a value per item (its table key's
	// every placeholder): each value holds one vector. HashUniqueEntities names those members.
	HashUniquePerItem  bool     `json:"hash_unique_per_item"`
	HashUniqueEntities []string `json:"hash_unique_entities"`
	// WriteBytesPerSecond is every member's vector writes; HotHashWriteBytesPerSecond the busiest HASH
	// value's (nil when a member's rate or HASH is not known), HotHashEntities the members writing it.
	WriteBytesPerSecond        *float64 `json:"write_bytes_per_second"`
	HotHashWriteBytesPerSecond *float64 `json:"hot_hash_write_bytes_per_second"`
	HotHashEntities            []string `json:"hot_hash_entities"`
	// HashValuesNeeded is how many evenly used HASH values the writes need at the target utilization
	// (nil without WriteBytesPerSecond).
	HashValuesNeeded *int64 `json:"hash_values_needed"`
	// Searches are the access patterns that search the index.
	Searches []VectorSearchDoc `json:"searches"`
	// Cost is the index's monthly price.
	Cost VectorCostDoc `json:"cost"`
}

// VectorEntityDoc is one kind of item that carries an index's vector attribute.
type VectorEntityDoc struct {
	Entity string `json:"entity"`
	// HasHash is whether its items carry the HASH attribute (always with an index without HASH); Member is
	// whether they are indexed: an item without the HASH attribute is written and never indexed.
	HasHash bool `json:"has_hash"`
	Member  bool `json:"member"`
	// HashTemplate is its template of the HASH attribute ("" without one).
	HashTemplate string `json:"hash_template"`
	// ProjectedBytes is the item's projection into the index; WriteBytesPerItem the vector and it.
	ProjectedBytes    int64 `json:"projected_bytes"`
	WriteBytesPerItem int64 `json:"write_bytes_per_item"`
	// WritesPerSecond is its peak writes, WriteBytesPerSecond their vector bytes (members only; nil when not
	// stated), HotHashShare the share on its busiest HASH value (nil when not known).
	WritesPerSecond     *float64 `json:"writes_per_second"`
	WriteBytesPerSecond *float64 `json:"write_bytes_per_second"`
	HotHashShare        *float64 `json:"hot_hash_share"`
	// Path is where findings on it point: its entity, or vector_indexes.<name> without entities.
	Path Path `json:"path"`
}

// VectorSearchDoc is an access pattern's search of a vector index.
type VectorSearchDoc struct {
	Pattern string `json:"pattern"`
	Path    Path   `json:"path"`
	// TopK is nil when not known at plan time.
	TopK *int64 `json:"top_k"`
	// HashGiven is whether the pattern gives the HASH (in equals), which every search of an index with a
	// HASH must (VectorSearchWorkingWith).
	HashGiven bool `json:"hash_given"`
	// ProjectedItemBytes is the largest projected item of the entities it searches; ResponseBytes TopK × that.
	ProjectedItemBytes int64  `json:"projected_item_bytes"`
	ResponseBytes      *int64 `json:"response_bytes"`
	// ReadsPerSecond is its peak searches per second.
	ReadsPerSecond *float64 `json:"reads_per_second"`
}

// VectorCostDoc is a vector index's monthly price: bytes written, the bytes its searches return (a lower
// bound: a search is also metered for the data it examines) and storage. Dollar figures are nil when an input
// is missing; Prices are nil when the Region has no vector prices and none are given.
type VectorCostDoc struct {
	WriteGBPerMonth   *float64          `json:"write_gb_per_month"`
	SearchGBPerMonth  *float64          `json:"search_gb_per_month"`
	StorageGB         *float64          `json:"storage_gb"`
	WriteMonthlyUSD   *float64          `json:"write_monthly_usd"`
	SearchMonthlyUSD  *float64          `json:"search_monthly_usd"`
	StorageMonthlyUSD *float64          `json:"storage_monthly_usd"`
	MonthlyUSD        *float64          `json:"monthly_usd"`
	Region            string            `json:"region"`
	Prices            *VectorPricesUsed `json:"prices"`
}

// VectorPricesUsed are the prices a vector index's cost used and their provenance: Unconfirmed names the
// price table's prices not confirmed as list prices, Given those the design gave.
type VectorPricesUsed struct {
	WriteGB        float64  `json:"write_gb"`
	SearchGB       float64  `json:"search_gb"`
	StorageGBMonth float64  `json:"storage_gb_month"`
	Unconfirmed    []string `json:"unconfirmed"`
	Given          []string `json:"given"`
	Note           string   `json:"note"`
}
