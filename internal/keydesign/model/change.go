package model

import "strings"

// Change is what a plan does to a live table: the facts the change rules (DK001–DK009, policies/changes.rego)
// read beside the design before the change (Document.Prior) and after it. The provider computes it for
// dynamokeys_sharded_table from the prior state and the plan; the plan adapter computes the same fields for
// the AWS provider's resources from a plan's before and after values (policies/plan/table_changes.rego).
// Nil on create and wherever no plan is judged (the data source).
type Change struct {
	// Action is ChangeUpdate, ChangeReplace or ChangeDelete.
	Action string `json:"action"`
	// Only marks a document that is judged for its change alone (a destroyed table): the design rules skip it.
	Only bool `json:"only"`
	// ReplacedBy are the attribute paths whose change forces a replacement, as Terraform's replace_paths.
	ReplacedBy [][]string `json:"replaced_by"`
	// Disposable is true for a table tagged dynamokeys:disposable = "true": its items may go.
	Disposable bool `json:"disposable"`
	// ItemCount is the table's item count as DescribeTable last reported it (ItemCountSource "table"); nil
	// when unknown, and the rules then take the design's traffic.item_count.
	ItemCount       *int64 `json:"item_count"`
	ItemCountSource string `json:"item_count_source"`
	// ReplicasRemoved are the Regions whose replica the plan deletes.
	ReplicasRemoved []string `json:"replicas_removed"`
	// Stream is the stream's view type before and after ("" when off); nil when the stream does not change
	// or was off.
	Stream *StreamChange `json:"stream"`
	// TTL is the TTL attribute before and after ("" when TTL is off); nil when it does not change.
	TTL *TTLChange `json:"ttl"`
	// TableClass is the table class before and after; nil when it does not change.
	TableClass *TableClassChange `json:"table_class"`
	// BillingModeBefore is the table's billing mode before the change.
	BillingModeBefore string `json:"billing_mode_before"`
	// CapacityResets are provisioned capacities the plan changes where Application Auto Scaling manages them.
	CapacityResets []CapacityReset `json:"capacity_resets"`
	// IndexChanges are indexes created or deleted by resources of their own (the AWS provider's standalone
	// GSIs); a table's own indexes are compared between Prior and the document.
	IndexChanges []IndexChange `json:"index_changes"`
	// VectorIndexChanges are vector indexes deleted or rebuilt by resources of their own (the AWS provider's
	// aws_dynamodb_vector_index); a table's own vector indexes are compared between Prior and the document.
	VectorIndexChanges []VectorIndexChange `json:"vector_index_changes"`
}

// The actions of a Change.
const (
	ChangeUpdate  = "update"
	ChangeReplace = "replace"
	ChangeDelete  = "delete"
)

// changeRulePrefix starts the ids of the change rules (DK001–DK009).
const changeRulePrefix = "DK00"

// IsChangeRule reports whether a rule id is one of the change rules: their findings are about the plan, not
// the design, so the provider reports them as the plan's diagnostics and keeps them out of the resource's
// findings, ok and report, which would otherwise keep a change in the state after its apply.
func IsChangeRule(id string) bool { return strings.HasPrefix(id, changeRulePrefix) }

// DisposableTag marks a table whose items may be lost: the change rules let it be replaced or destroyed.
const DisposableTag = "dynamokeys:disposable"

// StreamChange is a stream's view type before and after a change, and the consumers of the old stream the
// plan shows (the provider sees none: a consumer is another resource).
type StreamChange struct {
	Before    string   `json:"before"`
	After     string   `json:"after"`
	Consumers []string `json:"consumers"`
}

// TTLChange is the attribute TTL reads before and after a change, "" when TTL is off.
type TTLChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// CapacityReset is a provisioned capacity the plan changes under an autoscaling target.
type CapacityReset struct {
	Index     string   `json:"index"`
	Attribute string   `json:"attribute"`
	Path      []string `json:"path"`
	Before    int64    `json:"before"`
	After     int64    `json:"after"`
	ManagedBy string   `json:"managed_by"`
}

// IndexChange is an index a resource of its own creates, deletes or rebuilds.
type IndexChange struct {
	Name   string `json:"name"`
	Action string `json:"action"`
}

// VectorIndexChange is a vector index a resource of its own deletes or rebuilds, with the dimensions of the
// index it creates (nil when not known) that size the backfill.
type VectorIndexChange struct {
	Name       string `json:"name"`
	Action     string `json:"action"`
	Dimensions *int64 `json:"dimensions"`
}

// TableClassChange is a table's class (STANDARD or STANDARD_INFREQUENT_ACCESS) before and after a change.
type TableClassChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
}
