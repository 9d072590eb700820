package model

// MigrationInput is the design's `migration`; nil means no migration.
type MigrationInput struct {
	Phase string
	From  LayoutInput
	// BackfillWriteUnitsPerSecond is the backfill's rate in table write units per second; nil uses the
	// headroom the design leaves (BackfillDoc.HeadroomWriteUnitsPerSecond).
	BackfillWriteUnitsPerSecond *float64
}

// LayoutInput is a layout being migrated from: what differs from the design. Nil templates and sharding,
// and entities not listed, are as in the design.
type LayoutInput struct {
	PartitionKeyTemplate *string
	SortKeyTemplate      *string
	// Entities are old key templates by entity, then by key attribute.
	Entities map[string]map[string]string
	Sharding *Sharding
}

// LayoutDoc is the layout a document's items are written in (derived.layout): every key template, the
// sharding, what each access pattern reads, and the `migration.from` that states it.
type LayoutDoc struct {
	// Keys are the templates of each entity by key attribute; a table without entities is the entity "".
	Keys map[string]map[string]string `json:"keys"`
	// Sharding is the routing items are written with (its count the shard count).
	Sharding Routing `json:"sharding"`
	// Patterns say what each access pattern's key reads, as "entity attribute=template" (and "{shard}=..."
	// for a sharded table key): a pattern whose reads differ between two layouts misses the items of the
	// other.
	Patterns map[string][]string `json:"patterns"`
	// From is this layout as a `from` value of a migration block, to paste when migrating away from it.
	From string `json:"from"`
}

// MigrationDoc is what derived.migration says of a migration.
type MigrationDoc struct {
	Phase string `json:"phase"`
	// PhaseIndex is the phase's place in MigrationPhases, from 0; ReachedPhaseIndex the furthest phase this
	// migration has reached (the prior state's, carried forward), so that a phase before it is a rollback.
	PhaseIndex        int `json:"phase_index"`
	ReachedPhaseIndex int `json:"reached_phase_index"`
	// From is the old layout, New the design's (derived.layout).
	From LayoutDoc `json:"from"`
	// OldRouting and NewRouting are the routing specs of both layouts, so that code can compute either.
	OldRouting Routing `json:"old_routing"`
	NewRouting Routing `json:"new_routing"`
	// Changed lists the entities whose keys change ("" for a table without entities).
	Changed  []string           `json:"changed"`
	Entities []MigrationEntity  `json:"entities"`
	Patterns []MigrationPattern `json:"patterns"`
	// Overlap is set when the old and new layouts can render the same primary key: a reader of the new
	// layout then also reads old copies, and deleting old items must skip the keys that did not move.
	Overlap  *LayoutOverlap `json:"overlap"`
	Backfill BackfillDoc    `json:"backfill"`
	Steps    []StepDoc      `json:"steps"`
}

// MigrationEntity is one entity's old and new keys and what its writers write in each phase.
type MigrationEntity struct {
	Name    string            `json:"name"`
	OldKeys map[string]string `json:"old_keys"`
	NewKeys map[string]string `json:"new_keys"`
	Changed bool              `json:"changed"`
	// Moves is true when its items get another primary key; a change of index keys alone updates them in
	// place. KeptShare is the share of them whose key does not change (LayoutOverlap).
	Moves     bool    `json:"moves"`
	KeptShare float64 `json:"kept_share"`
	// Items is the entity's item count (traffic.item_count); nil when not stated.
	Items *int64 `json:"items"`
	// Writes are the layouts its writers write, phase by phase.
	Writes []PhaseLayouts `json:"writes"`
}

// PhaseLayouts are the layouts used in one phase.
type PhaseLayouts struct {
	Phase   string   `json:"phase"`
	Layouts []string `json:"layouts"`
}

// MigrationPattern is one access pattern's keys in both layouts and what its readers query in each phase.
type MigrationPattern struct {
	Name string `json:"name"`
	Path Path   `json:"path"`
	// Changed is true when the pattern's key reads items the old layout keeps elsewhere: a reader of one
	// layout misses the items only the other holds.
	Changed  bool   `json:"changed"`
	OldIndex string `json:"old_index"`
	NewIndex string `json:"new_index"`
	// OldKey and NewKey are the templates its key reads, as in LayoutDoc.Patterns.
	OldKey []string `json:"old_key"`
	NewKey []string `json:"new_key"`
	// Queries per call in each layout; BothQueriesPerCall is a reader that reads both (a fan-out over the
	// old shards and the new, or new first and old on a miss at worst).
	OldQueriesPerCall  int64 `json:"old_queries_per_call"`
	NewQueriesPerCall  int64 `json:"new_queries_per_call"`
	BothQueriesPerCall int64 `json:"both_queries_per_call"`
	// Partition read units of the busiest key in each layout, and of a reader of both.
	OldPartitionReadUnits  float64 `json:"old_partition_read_units"`
	NewPartitionReadUnits  float64 `json:"new_partition_read_units"`
	BothPartitionReadUnits float64 `json:"both_partition_read_units"`
	// Reads is the layout its readers read in each phase, and the queries per call that takes.
	Reads []PatternPhaseRead `json:"reads"`
	// IndexDuplicates is true when the pattern reads a secondary index that holds both copies of a
	// re-keyed item until the old one is deleted: the Query returns each item twice.
	IndexDuplicates bool `json:"index_duplicates"`
}

// PatternPhaseRead is what a pattern's readers query in one phase.
type PatternPhaseRead struct {
	Phase          string `json:"phase"`
	Layout         string `json:"layout"`
	QueriesPerCall int64  `json:"queries_per_call"`
}

// LayoutOverlap is a primary key both layouts can render.
type LayoutOverlap struct {
	Example string `json:"example"`
	// KeptShare is the share of the re-keyed items whose key does not change (a shard count change whose
	// suffixes coincide for some ids); they are neither rewritten nor deleted.
	KeptShare float64 `json:"kept_share"`
}

// BackfillDoc is the rewrite of the old items under the new keys, and the deletion of the old items.
type BackfillDoc struct {
	// Items is the number of items to rewrite; ScannedItems every item the Scan reads (the whole table).
	// Both nil when an item count is not stated.
	Items        *float64 `json:"items"`
	ScannedItems *float64 `json:"scanned_items"`
	// ScanReadUnits is the eventually consistent Scan of the table: ceil(bytes / 4 KB) × 0.5.
	ScanReadUnits *float64 `json:"scan_read_units"`
	// PutWriteUnits are the table's write units of the rewrites (LSI entries included, which share its
	// capacity); IndexPutWriteUnits each GSI's. DeleteWriteUnits and IndexDeleteWriteUnits are the same for
	// deleting the old items. WriteUnits is their sum.
	PutWriteUnits         *float64           `json:"put_write_units"`
	IndexPutWriteUnits    map[string]float64 `json:"index_put_write_units"`
	DeleteWriteUnits      *float64           `json:"delete_write_units"`
	IndexDeleteWriteUnits map[string]float64 `json:"index_delete_write_units"`
	WriteUnits            *float64           `json:"write_units"`
	// Cost is the on-demand price of the Scan, the rewrites and the deletes; nil without prices or items.
	// Regions is the number of Regions that perform the writes (every replica of a global table), and
	// PricesConfirmed whether the request prices are confirmed list prices (not estimates or given ones).
	Cost            *float64 `json:"cost"`
	Regions         int      `json:"regions"`
	PricesConfirmed bool     `json:"prices_confirmed"`
	// Rate is the backfill's table write units per second: the declared rate, else the headroom.
	// RateSource is "declared" or "headroom".
	Rate       float64 `json:"rate"`
	RateSource string  `json:"rate_source"`
	// HeadroomWriteUnitsPerSecond is the rate that fits beside the production peak during the backfill
	// (dual writes included) at target_utilization: under a partition's and the table's throughput, and
	// each provisioned or capped GSI's.
	HeadroomWriteUnitsPerSecond float64 `json:"headroom_write_units_per_second"`
	// HeadroomLimit names what sets the headroom.
	HeadroomLimit string `json:"headroom_limit"`
	// Hours is the rewrite at Rate; DeleteHours the deletion of the old items at the same rate.
	Hours       *float64 `json:"hours"`
	DeleteHours *float64 `json:"delete_hours"`
	// RateForMaxHours is the rate that finishes the rewrite within the limits' backfill_max_hours.
	RateForMaxHours *float64 `json:"rate_for_max_hours"`
	// Throttles are the limits the backfill at Rate and the production peak exceed together.
	Throttles []BackfillThrottle `json:"throttles"`
}

// BackfillThrottle is a limit exceeded by the backfill and production together.
type BackfillThrottle struct {
	What   string  `json:"what"`
	Demand float64 `json:"demand"`
	Limit  float64 `json:"limit"`
}

// StepDoc is one step of the migration as the report lists it.
type StepDoc struct {
	Phase string `json:"phase"`
	Step  string `json:"step"`
	// State is "done", "current" or "next".
	State string `json:"state"`
}
