package model

// Key types (API_KeySchemaElement). Anything else is reported by rule DK101, not rejected here, so that
// the user sees the rule and its remedy.
const (
	KeyTypeString = "S"
	KeyTypeNumber = "N"
	KeyTypeBinary = "B"
)

// Sharding strategies (sharding.strategy).
const (
	StrategyNone       = "none"
	StrategyCalculated = "calculated"
	StrategyRandom     = "random"
)

// ShardingStrategies lists the valid strategies.
var ShardingStrategies = []string{StrategyNone, StrategyCalculated, StrategyRandom}

// Projection types of secondary indexes.
const (
	ProjectionAll      = "ALL"
	ProjectionKeysOnly = "KEYS_ONLY"
	ProjectionInclude  = "INCLUDE"
)

// Input is a key design as the user wrote it. Nil pointers are values not set (defaults apply) or not
// known yet; Unknown lists the paths that are not known at plan time.
type Input struct {
	Kind string // "keydesign" (data source) or "sharded_table" (resource)
	// Address is the Terraform address of the design when the caller knows it. The provider does not:
	// Terraform sends no address in its requests, so the provider's documents leave it empty.
	Address string

	TableName     string
	BillingMode   string
	ReadCapacity  *int64
	WriteCapacity *int64
	// OnDemand, Warm and Autoscaling are the table's throughput settings the capacity rules read.
	OnDemand    *UnitPair
	Warm        *UnitPair
	Autoscaling *Autoscaling

	PartitionKey Key
	SortKey      *Key
	Segments     map[string]Segment
	Sharding     Sharding
	Traffic      Traffic
	// TargetUtilization is the share of a partition's throughput a shard may use; nil means 0.8.
	TargetUtilization *float64

	LocalSecondaryIndexes  []LocalSecondaryIndex
	GlobalSecondaryIndexes []GlobalSecondaryIndex
	// VectorIndexes are the table's vector indexes, sorted by name (the vectors stage).
	VectorIndexes []VectorIndex

	// Observed is the measured traffic of the table and of its GSIs (the measured stage).
	Observed []ObservedInput
	// Pricing is where and how the table is priced (the cost stage); nil prices the default region's Standard class.
	Pricing *PricingInput

	// AccessPatterns are the application's queries (the patterns stage).
	AccessPatterns []AccessPattern

	// Replicas are the Regions of a global table (the replicas stage); nil or empty for a single-Region table.
	Replicas *Replicas

	// Entities are the item types of a single-table design, sorted by name (entity_model.go); without them the
	// table's templates and traffic describe its one entity.
	Entities []Entity

	// Migration is a key-scheme migration from an old layout (the migration stage); nil when none.
	Migration *MigrationInput

	Unknown []Path
	// Prior is the document built from the prior state (resource updates only).
	Prior *Document
	// Change is what the plan does to the live table (resource updates and replacements); nil otherwise.
	Change *Change
}

// Key is a table key attribute with an optional value template.
type Key struct {
	Name     string
	Type     string
	Template *string
}

// IndexKeyAttribute is one attribute of a secondary index key.
type IndexKeyAttribute struct {
	Name        string
	Type        string
	Cardinality *int64
}

// LocalSecondaryIndex shares the table partition key and has its own sort key.
type LocalSecondaryIndex struct {
	Name             string
	SortKey          IndexKeyAttribute
	ProjectionType   string
	NonKeyAttributes []string
	// ItemShare is the share of items that carry the index key (a sparse index); nil means 1 (the cost stage).
	ItemShare *float64
}

// GlobalSecondaryIndex has 1–4 partition and 0–4 sort key attributes (multi-attribute keys).
type GlobalSecondaryIndex struct {
	Name             string
	PartitionKey     []IndexKeyAttribute
	SortKey          []IndexKeyAttribute
	ProjectionType   string
	NonKeyAttributes []string
	ReadCapacity     *int64
	WriteCapacity    *int64
	// ItemShare is the share of items that carry the index key (a sparse index); nil means 1 (the cost stage).
	ItemShare *float64
	// OnDemand, Warm and Autoscaling are the index's own throughput settings (DK601–DK603 per index).
	OnDemand    *UnitPair
	Warm        *UnitPair
	Autoscaling *Autoscaling
}

// Sharding describes write sharding of the partition key.
type Sharding struct {
	Strategy      string // "" means none
	Source        string
	Count         *int64 // nil: computed from traffic
	SchemeVersion *int64 // nil means 1
}

// Traffic is measured or expected peak traffic; every field is optional.
type Traffic struct {
	WritesPerSecond            *float64
	ReadsPerSecond             *float64
	ItemSizeBytes              *int64
	ReadConsistency            string
	TransactionalWrites        bool
	HotKeyShare                *float64
	HottestItemWritesPerSecond *float64
	HottestItemReadsPerSecond  *float64
	MaxItemsPerPartitionKey    *int64
	// AverageWritesPerSecond and AverageReadsPerSecond are the month's average rates, and ItemCount the
	// table's items: the cost model's inputs (the cost stage).
	AverageWritesPerSecond *float64
	AverageReadsPerSecond  *float64
	ItemCount              *int64
}

// UnitPair is a read and a write figure in units per second; a nil side is not set.
type UnitPair struct {
	Read  *int64 `json:"read"`
	Write *int64 `json:"write"`
}

// CapacityRange is an autoscaling target's range.
type CapacityRange struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
}

// Autoscaling is the autoscaling range of the read and the write capacity; a nil side is not autoscaled.
type Autoscaling struct {
	Read  *CapacityRange `json:"read"`
	Write *CapacityRange `json:"write"`
}
