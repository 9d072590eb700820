package model

// AccessPattern is one query of the application as the user wrote it. Nil pointers are not set (defaults
// apply) or not known yet; Input.Unknown lists the unknown paths.
type AccessPattern struct {
	Name string
	// Index is the key the query reads: TableKeyIndex, an LSI or a GSI name; nil lets the analysis pick the
	// key that serves it best.
	Index *string
	// Equals are what the query knows exactly: segments of a key template, or key attribute names (a GSI's
	// attributes, a table key without a template, or a whole templated key attribute).
	Equals []string
	Sort   *SortCondition
	// ReadsPerSecond is the pattern's peak rate of calls.
	ReadsPerSecond *float64
	// Items is how many items one Query returns; nil means 1.
	Items *int64
	// ItemSizeBytes is the size of one item the query reads; nil means traffic.item_size_bytes.
	ItemSizeBytes *int64
	// Consistency is eventual (""), strong or transactional.
	Consistency string
	// Attributes are the attributes the caller needs; nil means not checked.
	Attributes []string
	// HotKeyShare is the share of the pattern's calls on its busiest partition-key value; nil derives it
	// from the cardinality of the key's values.
	HotKeyShare *float64
	// Entities are the entities of a single-table design the query reads (patterns/entities.go).
	Entities []string
	// VectorSearch makes the pattern a search of a vector index (the vectors stage), not a Query.
	VectorSearch *VectorSearch
}

// SortCondition is a condition on one sort segment or sort attribute.
type SortCondition struct {
	On        string
	Condition string
}

// AccessPatternDoc is a pattern in the design document, defaults applied.
type AccessPatternDoc struct {
	Name           string            `json:"name"`
	Index          *string           `json:"index"`
	Equals         []string          `json:"equals"`
	Sort           *SortConditionDoc `json:"sort"`
	ReadsPerSecond *float64          `json:"reads_per_second"`
	Items          int64             `json:"items"`
	ItemSizeBytes  int64             `json:"item_size_bytes"`
	Consistency    string            `json:"consistency"`
	Attributes     []string          `json:"attributes"`
	HotKeyShare    *float64          `json:"hot_key_share"`
	Entities       []string          `json:"entities"`
}

// SortConditionDoc is a pattern's sort condition in the design document.
type SortConditionDoc struct {
	On        string `json:"on"`
	Condition string `json:"condition"`
}

// PatternFacts are what the analysis derived for one access pattern (derived.access_patterns). Numbers are
// per second unless named per call or per query; they are zero when no key serves the pattern.
type PatternFacts struct {
	Name string `json:"name"`
	// Path is the pattern's attribute, where findings on it point.
	Path Path `json:"path"`
	// Requested is the index the pattern names; "" when the analysis picked the key.
	Requested string `json:"requested"`
	// Index is the key the facts describe: the requested one, else the best candidate (even one that does
	// not serve the pattern, to name what is missing); "" when the design has no key to consider.
	Index     string `json:"index"`
	IndexKind string `json:"index_kind"`
	// Serves is true when the query knows the whole partition key of Index: a Query, not a Scan.
	Serves bool `json:"serves"`
	// Unserved lists, when no key serves the pattern, each key considered and the parts of its partition
	// key the query does not know.
	Unserved []UnservedKey `json:"unserved"`
	// SortExpressible is false when the sort condition (or a known sort part) cannot be a key condition on
	// Index; SortReason says why.
	SortExpressible bool   `json:"sort_expressible"`
	SortReason      string `json:"sort_reason"`
	// SuggestedIndex is a GSI key that would serve the pattern: the known attributes as partition key and the
	// sorted-on attribute as sort key.
	SuggestedIndex SuggestedIndex `json:"suggested_index"`
	// Filtered are known values that are not part of Index's key: the query reads past them and filters.
	Filtered []string `json:"filtered"`
	// Fanout is true when the partition key is write-sharded and the query cannot compute the shard: it
	// queries every shard. QueriesPerCall is then the shard count, else 1.
	Fanout         bool  `json:"fanout"`
	QueriesPerCall int64 `json:"queries_per_call"`
	// Consistency is the pattern's read consistency; StrongOnGSI holds when it is not eventual on a GSI,
	// which DynamoDB refuses.
	Consistency string `json:"consistency"`
	StrongOnGSI bool   `json:"strong_on_gsi"`
	// ItemsPerQuery × ItemSizeBytes = BytesPerQuery, read in PagesPerQuery pages of at most 1 MB.
	ItemsPerQuery int64 `json:"items_per_query"`
	ItemSizeBytes int64 `json:"item_size_bytes"`
	BytesPerQuery int64 `json:"bytes_per_query"`
	PagesPerQuery int64 `json:"pages_per_query"`
	// ReadUnitsPerQuery is ceil(BytesPerQuery / 4 KB) × the consistency factor; per call × QueriesPerCall;
	// per second × reads_per_second.
	ReadUnitsPerQuery  float64 `json:"read_units_per_query"`
	ReadUnitsPerCall   float64 `json:"read_units_per_call"`
	ReadUnitsPerSecond float64 `json:"read_units_per_second"`
	// Projection is Index's projection type (ALL for the table); MissingAttributes the needed attributes it
	// does not project, which cost FetchReadUnitsPerSecond of table reads (one read per item).
	Projection              string   `json:"projection"`
	MissingAttributes       []string `json:"missing_attributes"`
	FetchReadUnitsPerSecond float64  `json:"fetch_read_units_per_second"`
	// KeyValues is the number of partition-key values the pattern reads (nil when unbounded); HotKeyShare
	// the share of its calls on the busiest one (given, or derived as the table's hot-key share is).
	KeyValues         *int64  `json:"key_values"`
	HotKeyShare       float64 `json:"hot_key_share"`
	HotKeyShareSource string  `json:"hot_key_share_source"`
	// HotKeyReadUnits is the busiest logical key's reads, every shard together; PartitionReadUnits the
	// busiest physical partition's: HotKeyReadUnits / the key's shards.
	HotKeyReadUnits    float64 `json:"hot_key_read_units"`
	PartitionReadUnits float64 `json:"partition_read_units"`
	// SizedBySharding is true when the reads land on the table's partition-key values one shard per call,
	// so that they join the table's hot-key read demand, which sizes the shard count (DK303).
	SizedBySharding bool `json:"sized_by_sharding"`
	// EntityOverlaps are the other entities of the collection whose items the query also reads (DK110).
	EntityOverlaps []EntityOverlap `json:"entity_overlaps"`
}

// UnservedKey is a key that cannot serve a pattern and the partition-key parts the pattern does not know.
type UnservedKey struct {
	Index   string   `json:"index"`
	Missing []string `json:"missing"`
}

// SuggestedIndex is the key of a GSI that would serve a pattern.
type SuggestedIndex struct {
	PartitionKey []string `json:"partition_key"`
	SortKey      []string `json:"sort_key"`
}

// EntityOverlap is an entity whose items a pattern's Query reads although the pattern does not name it.
type EntityOverlap struct {
	Entity string `json:"entity"`
	// ExtraItems and ExtraReadUnitsPerCall bound what it adds to one call, from its items per
	// partition-key value (max_items_per_partition_key, or what its sort-key template can render); nil when
	// nothing bounds them. ExtraReadUnitsPerSecond is that at the pattern's reads_per_second; nil without it.
	ExtraItems *int64 `json:"extra_items"`
	// ExtraItemsPerItem is, when the entity's sort key nests under the pattern's entity's
	// (ORDER#{order_id}#LINE#{line} under ORDER#{order_id}), how many of its items one returned item brings:
	// the values of the placeholders it adds. ExtraItems is then that for each item the pattern returns,
	// unless the entity's items per partition-key value bound it tighter. Absent when it does not nest.
	ExtraItemsPerItem       *int64   `json:"extra_items_per_item,omitempty"`
	ExtraReadUnitsPerCall   *float64 `json:"extra_read_units_per_call"`
	ExtraReadUnitsPerSecond *float64 `json:"extra_read_units_per_second"`
}
