package model

import (
	"strings"
	"unicode"
)

// Entity is one item type of a table: the template of each key attribute it writes, and its traffic.
type Entity struct {
	Name    string
	Keys    map[string]string
	Traffic EntityTraffic
	// VectorAttributes are the vector attributes its items carry (vector_attributes); nil carries none.
	VectorAttributes []string
}

// EntityTraffic is one entity's traffic; nil means not stated.
type EntityTraffic struct {
	WritesPerSecond         *float64
	AverageWritesPerSecond  *float64
	ReadsPerSecond          *float64
	ItemSizeBytes           *int64
	ItemCount               *int64
	MaxItemsPerPartitionKey *int64
	TransactionalWrites     *bool
}

// EntitiesDoc is what the document says of a table's entities.
type EntitiesDoc struct {
	Items       []EntityDoc       `json:"items"`
	Collisions  []EntityCollision `json:"collisions"`
	Collections []CollectionDoc   `json:"collections"`
	// Busiest is the index in Collections of the collection with the most write (then read) units per
	// second on one partition-key value: the busiest key the capacity rules read.
	Busiest int `json:"busiest"`
	// Characters says what an id segment without declared characters may hold, for the collision check.
	IDCharacters string `json:"id_characters"`
}

// EntityDoc is one entity with its derived figures.
type EntityDoc struct {
	Name string            `json:"name"`
	Keys map[string]string `json:"keys"`
	// Indexes are the GSIs and LSIs its items land in: those whose every key attribute it writes.
	Indexes []string `json:"indexes"`
	// IndexKeys are its templates of index key attributes, with the parts DK111 reads.
	IndexKeys     []EntityIndexKey `json:"index_keys"`
	ItemSizeBytes int64            `json:"item_size_bytes"`
	// WriteUnitsPerWrite and the peak units follow the capacity model's units per request.
	WriteUnitsPerWrite float64  `json:"write_units_per_write"`
	WriteUnits         *float64 `json:"write_units"`
	ReadUnits          *float64 `json:"read_units"`
	// HotKeyShare is the share of its traffic on one partition-key value, from its partition-key template.
	HotKeyShare float64 `json:"hot_key_share"`
	// MaxBytes bounds each key attribute's rendered value; nil when a placeholder is undeclared.
	MaxBytes   map[string]*int64 `json:"max_bytes"`
	Collection int               `json:"collection"`
	// PartitionKey and SortKey are the facts of its table-key templates, which the key rules read.
	PartitionKey KeyFacts  `json:"partition_key"`
	SortKey      *KeyFacts `json:"sort_key"`
	// HotKeyWriteUnits and HotKeyReadUnits are its own demand on its busiest partition-key value (a global
	// table's replicated TTL deletes included); Shards is how many shards that value spreads over.
	HotKeyWriteUnits *float64 `json:"hot_key_write_units"`
	HotKeyReadUnits  *float64 `json:"hot_key_read_units"`
	Shards           int64    `json:"shards"`
	// ItemsPerKey bounds its items under one partition-key value: stated, or from the sort-key template
	// (ItemsBasis "template": no placeholder is one item, bounded segments the product of their values);
	// nil when nothing bounds them.
	ItemsPerKey *int64 `json:"items_per_key"`
	ItemsBasis  string `json:"items_basis"`
}

// EntityIndexKey is an entity's template of one index key attribute.
type EntityIndexKey struct {
	Index     string   `json:"index"`
	Attribute string   `json:"attribute"`
	Type      string   `json:"type"`
	Template  string   `json:"template"`
	Literals  []string `json:"literals"`
	Segments  []string `json:"segments"`
}

// EntityCollision is a pair of entities whose table keys can render the same primary key.
type EntityCollision struct {
	Entities []string `json:"entities"`
	Example  string   `json:"example"`
}

// CollectionDoc is a group of entities whose partition keys can render the same value: the items and the
// demand of one partition-key value are the sums of theirs.
type CollectionDoc struct {
	Entities []string `json:"entities"`
	// WriteUnits and ReadUnits are the demand on its busiest partition-key value; nil when an entity's
	// rate is not stated.
	WriteUnits *float64 `json:"write_units"`
	ReadUnits  *float64 `json:"read_units"`
	// ItemsPerKey and Bytes are one value's items and their bytes with their LSI entries; nil when an
	// entity's max_items_per_partition_key is not stated.
	ItemsPerKey *float64 `json:"items_per_key"`
	Bytes       *float64 `json:"bytes"`
	// PerShardWriteUnits and PerShardReadUnits are the demand on one shard of its busiest value: each
	// entity's busiest value over its own shards, summed; RequiredShards is what that demand needs at the
	// target utilization, and Shards the most shards an entity's value spreads over.
	PerShardWriteUnits *float64 `json:"per_shard_write_units"`
	PerShardReadUnits  *float64 `json:"per_shard_read_units"`
	RequiredShards     int64    `json:"required_shards"`
	Shards             int64    `json:"shards"`
	// Hottest is the entity with the most demand on its busiest value, where the heat rules point.
	Hottest string `json:"hottest"`
}

// ValidEntityName accepts what Terraform map keys commonly hold: letters, digits, underscores, hyphens.
func ValidEntityName(name string) bool {
	return name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	}) < 0
}

// TimeShape is the rendered form of a granularity, its digits standing for any digit: the examples of
// measured/match.go, and 13 digits for an epoch in milliseconds.
func TimeShape(granularity string) string {
	if granularity == "millisecond" {
		return "1700000000000"
	}
	return TimeExamples[granularity]
}

// DelimiterList names the delimiters an id never holds, for EntitiesDoc.IDCharacters.
func DelimiterList(chars string) string {
	if chars == "" {
		return "the attribute separator"
	}
	return strings.Join(strings.Split(chars, ""), " ")
}
