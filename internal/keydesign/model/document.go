package model

import (
	"encoding/json"
	"errors"
	"strings"
)

// Document is the policy input: the design as written plus the facts Go derived from it. It serialises to
// JSON with the field names the Rego rules read. Analyze (internal/keydesign) builds it; the capacity numbers come
// from the capacity stage (internal/keydesign/capacity).
type Document struct {
	SchemaVersion     int                        `json:"schema_version"`
	ProviderVersion   string                     `json:"provider_version"`
	Kind              string                     `json:"kind"`
	Address           string                     `json:"address"`
	Table             TableDoc                   `json:"table"`
	Segments          map[string]ResolvedSegment `json:"segments"`
	Sharding          ShardingDoc                `json:"sharding"`
	Traffic           TrafficDoc                 `json:"traffic"`
	TargetUtilization float64                    `json:"target_utilization"`
	Derived           Derived                    `json:"derived"`
	Prior             *Document                  `json:"prior"`
	// Change is what the plan does to the live table; absent on create and outside a plan.
	Change  *Change  `json:"change,omitempty"`
	Unknown []string `json:"unknown"`
	// Policy is how the provider applied the rules to this design, so that the policy bundle applies them
	// the same way on plan JSON; nil where no provider evaluated it (the plan adapter's AWS tables).
	Policy *PolicySettings `json:"policy,omitempty"`

	// Observed is the measured traffic of the table and its GSIs with the facts the DK70x rules read.
	Observed []ObservedDoc `json:"observed"`

	// AccessPatterns are the application's queries, defaults applied, sorted by name; what the analysis
	// derived from them is in Derived.AccessPatterns (the patterns stage).
	AccessPatterns []AccessPatternDoc `json:"access_patterns"`
}

// TableDoc is the table part of the document.
type TableDoc struct {
	Name          string `json:"name"`
	BillingMode   string `json:"billing_mode"`
	ReadCapacity  *int64 `json:"read_capacity"`
	WriteCapacity *int64 `json:"write_capacity"`
	// OnDemandThroughput caps an on-demand table's request units; nil when uncapped.
	OnDemandThroughput *UnitPair `json:"on_demand_throughput"`
	// WarmThroughput is the throughput the table is pre-warmed for; nil when not set.
	WarmThroughput *UnitPair `json:"warm_throughput"`
	// Autoscaling is the range of an autoscaled provisioned capacity; nil when not autoscaled.
	Autoscaling  *Autoscaling `json:"autoscaling"`
	PartitionKey KeyDoc       `json:"partition_key"`
	SortKey      *KeyDoc      `json:"sort_key"`
	LSIs         []LSIDoc     `json:"lsis"`
	GSIs         []GSIDoc     `json:"gsis"`
}

// KeyDoc is a table key attribute.
type KeyDoc struct {
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Template *string `json:"template"`
}

// IndexKeyDoc is a secondary index key attribute.
type IndexKeyDoc struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Cardinality *int64 `json:"cardinality"`
}

// LSIDoc is a local secondary index.
type LSIDoc struct {
	Name             string      `json:"name"`
	SortKey          IndexKeyDoc `json:"sort_key"`
	ProjectionType   string      `json:"projection_type"`
	NonKeyAttributes []string    `json:"non_key_attributes"`
}

// GSIDoc is a global secondary index with its derived facts.
type GSIDoc struct {
	Name             string        `json:"name"`
	PartitionKey     []IndexKeyDoc `json:"partition_key"`
	SortKey          []IndexKeyDoc `json:"sort_key"`
	ProjectionType   string        `json:"projection_type"`
	NonKeyAttributes []string      `json:"non_key_attributes"`
	ReadCapacity     *int64        `json:"read_capacity"`
	WriteCapacity    *int64        `json:"write_capacity"`
	// PartitionKeyCardinality is the product of the partition attributes' cardinalities; nil when one is
	// not stated.
	PartitionKeyCardinality *int64 `json:"partition_key_cardinality"`
	// TimeBucketed is true when a partition attribute is named like a time segment of the table's keys.
	TimeBucketed bool `json:"time_bucketed"`
	// HotPartitionWriteUnits is the write demand on the busiest index partition: every table write
	// lands in the index, spread over its partition-key values (all into one when time-bucketed); nil
	// without writes or a bounded cardinality.
	HotPartitionWriteUnits *float64 `json:"hot_partition_write_units"`
	// OnDemandThroughput, WarmThroughput and Autoscaling are the index's own throughput settings; nil when
	// not set.
	OnDemandThroughput *UnitPair    `json:"on_demand_throughput"`
	WarmThroughput     *UnitPair    `json:"warm_throughput"`
	Autoscaling        *Autoscaling `json:"autoscaling"`
	// PeakWriteUnits and PeakReadUnits are the index's demand: its measured traffic when observed_indexes
	// gives it (PeakSource "measured"); else the table's peak writes in the index's own write units per
	// write, since every table write may land in the index (PeakSource "declared", an upper bound: a sparse
	// index takes fewer). Nil when unknown.
	PeakWriteUnits *float64 `json:"peak_write_units"`
	PeakReadUnits  *float64 `json:"peak_read_units"`
	PeakSource     string   `json:"peak_source"`
	// PatternReadUnits are the reads of the access patterns the index serves, in read units per second; nil
	// when no pattern reads it. Without a measurement they are also its PeakReadUnits.
	PatternReadUnits *float64 `json:"pattern_read_units"`
	// Entities are the entities of a single-table design whose items the index holds, each with the
	// partitions its templates write (capacity/entities.go); absent without entities.
	Entities []GSIEntityDoc `json:"entities,omitempty"`
	// HotEntities are the entities whose writes make the busiest partition (HotPartitionWriteUnits): those
	// whose templates of its partition key write it, sorted; absent without entities or hot writes.
	HotEntities []string `json:"hot_entities,omitempty"`
}

// GSIEntityDoc is one entity's part of a GSI: its templates of the index's partition-key attributes, the
// values they can render, and its write demand on its busiest index partition.
type GSIEntityDoc struct {
	Entity       string   `json:"entity"`
	PartitionKey []string `json:"partition_key"`
	// Cardinality is the number of index partition-key values it writes; nil when unbounded or unknown.
	Cardinality *int64 `json:"cardinality"`
	// TimeBucketed is true when its index partition key is a time bucket of few values and no shard.
	TimeBucketed       bool    `json:"time_bucketed"`
	WriteUnitsPerWrite float64 `json:"write_units_per_write"`
	// HotPartitionWriteUnits is its write demand on its busiest index partition; nil without writes or
	// when its values are unbounded (spread evenly).
	HotPartitionWriteUnits *float64 `json:"hot_partition_write_units"`
}

// ShardingDoc is the sharding block with defaults applied.
type ShardingDoc struct {
	Strategy      string `json:"strategy"`
	Source        string `json:"source"`
	Count         *int64 `json:"count"`
	SchemeVersion int64  `json:"scheme_version"`
}

// TrafficDoc is the traffic block with defaults applied.
type TrafficDoc struct {
	WritesPerSecond            *float64 `json:"writes_per_second"`
	ReadsPerSecond             *float64 `json:"reads_per_second"`
	ItemSizeBytes              int64    `json:"item_size_bytes"`
	ReadConsistency            string   `json:"read_consistency"`
	TransactionalWrites        bool     `json:"transactional_writes"`
	HotKeyShare                *float64 `json:"hot_key_share"`
	HottestItemWritesPerSecond *float64 `json:"hottest_item_writes_per_second"`
	HottestItemReadsPerSecond  *float64 `json:"hottest_item_reads_per_second"`
	MaxItemsPerPartitionKey    *int64   `json:"max_items_per_partition_key"`
}

// Derived holds every fact the rules read; rules never redo this arithmetic.
type Derived struct {
	Capacity       Capacity `json:"capacity"`
	RequiredShards int64    `json:"required_shards"`
	ShardCount     int64    `json:"shard_count"`
	ShardWidth     int      `json:"shard_width"`
	Routing        Routing  `json:"routing"`

	PartitionKey KeyFacts  `json:"partition_key"`
	SortKey      *KeyFacts `json:"sort_key"`

	// Flat aliases of the partition-key facts, for rules that read them directly.
	PartitionKeyMaxBytes *int64       `json:"partition_key_max_bytes"`
	PartitionKeySegments []SegmentRef `json:"partition_key_segments"`
	HasTimeBucket        bool         `json:"has_time_bucket"`

	// Entities are the item types of a single-table design and what they share (entity_model.go); nil for a
	// table of one entity.
	Entities *EntitiesDoc `json:"entities,omitempty"`
	// UndeclaredPlaceholders lists template placeholders with no segment, as paths to the template.
	UndeclaredPlaceholders []PlaceholderRef `json:"undeclared_placeholders"`

	// KeyAttributes lists every key attribute of the table and its indexes, with its attribute path.
	KeyAttributes []KeyAttributeRef `json:"key_attributes"`
	// Conventions are the delimiters and letter cases used in the literal text of the templates.
	Conventions Conventions `json:"conventions"`

	Collection CollectionEstimate `json:"collection"`
	// ProjectedNonKeyAttributes counts INCLUDE non-key attributes across all indexes (duplicates count).
	ProjectedNonKeyAttributes int `json:"projected_non_key_attributes"`
	// Replicas are the facts of a global table (the replicas stage); nil, and absent, for a single-Region table.
	Replicas *ReplicasFacts `json:"replicas,omitempty"`
	// Cost is the monthly price of the design in each billing mode (the cost stage); nil while an input is unknown.
	Cost *CostEstimate `json:"cost"`

	// AccessPatterns are the facts of each access pattern, in the order of the document's AccessPatterns.
	AccessPatterns []PatternFacts `json:"access_patterns"`

	// Layout is the layout the design writes its items in (the migration stage); nil while a key is unknown.
	Layout *LayoutDoc `json:"layout"`
	// Migration is a key-scheme migration from an old layout; nil without one, or while it is unknown.
	Migration *MigrationDoc `json:"migration"`
	// VectorIndexes are the table's vector indexes with their facts (the vectors stage); absent without any.
	VectorIndexes []VectorIndexDoc `json:"vector_indexes,omitempty"`
}

// Capacity is the result of the capacity stage (capacity.Table). Nil values need traffic that was not given.
type Capacity struct {
	WriteUnitsPerWrite    float64  `json:"write_units_per_write"`
	ReadUnitsPerRead      float64  `json:"read_units_per_read"`
	PeakWriteUnits        *float64 `json:"peak_write_units"`
	PeakReadUnits         *float64 `json:"peak_read_units"`
	HotKeyShare           float64  `json:"hot_key_share"`
	HotKeyShareSource     string   `json:"hot_key_share_source"`
	HotKeyWriteUnits      *float64 `json:"hot_key_write_units"`
	HotKeyReadUnits       *float64 `json:"hot_key_read_units"`
	PerShardWriteUnits    *float64 `json:"per_shard_write_units"`
	PerShardReadUnits     *float64 `json:"per_shard_read_units"`
	ReadFanout            int64    `json:"read_fanout"`
	HottestItemWriteUnits *float64 `json:"hottest_item_write_units"`
	HottestItemReadUnits  *float64 `json:"hottest_item_read_units"`
}

// Routing is the calculated shard routing spec application code must follow.
type Routing struct {
	Algorithm     string `json:"algorithm"`
	Count         int64  `json:"count"`
	Width         int    `json:"width"`
	Source        string `json:"source"`
	SchemeVersion int64  `json:"scheme_version"`
}

// KeyFacts are the facts of one key template.
type KeyFacts struct {
	Template      *string      `json:"template"`
	Placeholders  []string     `json:"placeholders"`
	Literals      []string     `json:"literals"`
	Segments      []SegmentRef `json:"segments"`
	HasShard      bool         `json:"has_shard"`
	HasTimeBucket bool         `json:"has_time_bucket"`
	// MaxBytes and MinBytes bound the rendered key; nil when a placeholder is undeclared or no template.
	MaxBytes *int64 `json:"max_bytes"`
	MinBytes *int64 `json:"min_bytes"`
	// Cardinality is the number of distinct key values over the table's life (shards included); nil when
	// unbounded or unknown.
	Cardinality *int64 `json:"cardinality"`
	// Monotonic is true when the leading placeholder only grows (a time segment unless monotonic = false).
	Monotonic bool `json:"monotonic"`
}

// SegmentRef is a placeholder of a key with its resolved segment.
type SegmentRef struct {
	Name        string      `json:"name"`
	Kind        SegmentKind `json:"kind"`
	Cardinality *int64      `json:"cardinality"`
	MaxLength   int64       `json:"max_length"`
	Monotonic   bool        `json:"monotonic"`
}

// KeyAttributeRef is one key attribute of the table or an index.
type KeyAttributeRef struct {
	Path      Path   `json:"path"`
	Name      string `json:"name"`
	NameBytes int    `json:"name_bytes"`
	Type      string `json:"type"`
}

// Conventions summarises the literal text of the key templates.
type Conventions struct {
	// Delimiters are the separator characters used (#, |, :, /, ~, ;, ,), sorted.
	Delimiters []string `json:"delimiters"`
	// LetterCases are the cases of the literal words: "upper", "lower" and/or "mixed", sorted.
	LetterCases []string `json:"letter_cases"`
}

// PlaceholderRef points at a placeholder in a template.
type PlaceholderRef struct {
	Key         string `json:"key"` // partition_key or sort_key
	Placeholder string `json:"placeholder"`
}

// CollectionEstimate is the item-collection size estimate of the capacity stage (capacity.Collection).
type CollectionEstimate struct {
	// ItemsPerKey is the estimated number of items under one partition-key value; nil when unbounded.
	ItemsPerKey *float64 `json:"items_per_key"`
	// Basis says where ItemsPerKey comes from: CollectionGiven, CollectionTimeBucket or CollectionUnbounded.
	Basis string `json:"basis"`
	// EntryBytes is the item size plus every LSI entry of one item.
	EntryBytes int64 `json:"entry_bytes"`
	// Bytes is ItemsPerKey × EntryBytes; nil when unbounded.
	Bytes *float64 `json:"bytes"`
}

// DocumentSchemaVersion is the version of the document's shape, carried as schema_version. Bump it when a
// field is renamed or removed or changes meaning; adding a field keeps it (contributing/design-document.md).
const DocumentSchemaVersion = 1

// AttributeEncoding starts every design_document value: encoding 1 is this prefix followed by the document's
// compact JSON. Terraform renders a string that is valid JSON as a structured diff of every field, hundreds
// of lines per table; with the prefix the string is not JSON, and the document is one line of a plan while
// the plan JSON still carries all of it (contributing/design-document.md, "Encoding"). Compact JSON holds no
// raw line break, so the line never becomes a heredoc.
const AttributeEncoding = "dk1:"

// AttributeJSON is the document as the design_document attribute carries it, before encoding: the same JSON
// the policies evaluate, without prior and change. The prior state's document inside a planned value would
// make every plan differ from the state it planned against, and a change would stay in the state after its
// apply; the plan adapter takes both from the resource change's before and after values instead.
func (d *Document) AttributeJSON() ([]byte, error) {
	c := *d
	c.Prior, c.Change = nil, nil
	return json.Marshal(&c)
}

// Attribute is the value of the design_document attribute: AttributeJSON, encoded.
func (d *Document) Attribute() (string, error) {
	js, err := d.AttributeJSON()
	if err != nil {
		return "", err
	}
	return EncodeAttribute(js), nil
}

// EncodeAttribute encodes a document's compact JSON as the design_document attribute carries it.
func EncodeAttribute(js []byte) string {
	return AttributeEncoding + string(js)
}

// DecodeAttribute returns the JSON a design_document value holds. It also reads the plain JSON that
// providers before the encoding recorded, so a state or a plan of an older version stays readable.
func DecodeAttribute(value string) ([]byte, error) {
	encoded, ok := strings.CutPrefix(value, AttributeEncoding)
	if !ok {
		if strings.HasPrefix(strings.TrimSpace(value), "{") && json.Valid([]byte(value)) {
			return []byte(value), nil
		}
		return nil, errors.New(`not a design document: it starts neither with "` + AttributeEncoding + `" nor with a JSON object`)
	}
	js := []byte(encoded)
	if !strings.HasPrefix(encoded, "{") || !json.Valid(js) {
		return nil, errors.New("not a design document: the text after " + AttributeEncoding + " is not a JSON object")
	}
	return js, nil
}

// PolicySettings are the policy settings the provider evaluated a design under: the effective enforce (the
// block's own, else the provider's policy.enforce) and policy.disabled_rules, sorted. They travel in the
// design document so that the policy bundle on plan JSON disables the same rules and, when enforce is
// false, reports error findings as warnings, as the provider did.
type PolicySettings struct {
	Enforce       bool     `json:"enforce"`
	DisabledRules []string `json:"disabled_rules"`
}
