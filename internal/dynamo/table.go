package dynamo

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// KeyAttribute is one key attribute: a name and a scalar type (S, N or B).
type KeyAttribute struct {
	Name string
	Type string
}

// Index is a secondary index. LSIs have exactly one sort key attribute and no partition key here (they
// share the table's); GSIs have 1–4 partition and 0–4 sort attributes.
type Index struct {
	Name             string
	PartitionKey     []KeyAttribute
	SortKey          []KeyAttribute
	ProjectionType   string
	NonKeyAttributes []string
	ReadCapacity     *int64 // PROVISIONED tables only
	WriteCapacity    *int64
	Status           string // read back only

	// Autoscaled says that an autoscaler owns the index's provisioned capacity: it is sent when the index
	// is created or the table switches to PROVISIONED, and never otherwise, so that a capacity the autoscaler
	// moved is not reverted.
	Autoscaled Autoscaled
	OnDemand   *Throughput // on-demand caps of the index; nil when not managed
	Warm       *Throughput // warm throughput of the index; nil when not managed
	// ItemCount and SizeBytes are DescribeTable's ItemCount and TableSizeBytes, which DynamoDB updates about
	// every six hours; nil when not reported (only on read).
	ItemCount *int64
	SizeBytes *int64
	// ContributorInsights is the Contributor Insights mode, "" when off; nil when not managed or not
	// reported.
	ContributorInsights *string
}

// VectorIndex is a vector index (approximate nearest-neighbour search with SearchVectors). Every field but
// the read-back ones is fixed at creation: a change is a delete and a create under the same name.
type VectorIndex struct {
	Name             string
	VectorAttribute  string // not a key attribute: it holds a list of numbers, not in AttributeDefinitions
	Dimensions       int64
	DistanceFunction string        // COSINE, DOT_PRODUCT or EUCLIDEAN
	PartitionKey     *KeyAttribute // the search schema's HASH; nil for an index searched as a whole
	InlineFilters    []KeyAttribute
	ProjectionType   string
	NonKeyAttributes []string

	// Read back only: IndexStatus, and Backfilling while an index added to a live table is filled.
	Status      string
	Backfilling bool
}

// Autoscaled says which sides of a provisioned capacity an autoscaler owns.
type Autoscaled struct {
	Read  bool
	Write bool
}

// TTL is a table's time-to-live setting.
type TTL struct {
	AttributeName string
	Enabled       bool
}

// Table is a DynamoDB table as dynamokeys manages it. On read, nil pointers mean the endpoint did not
// report the setting (e.g. a local server without PITR).
type Table struct {
	Name          string
	ARN           string
	Status        string
	BillingMode   string
	TableClass    string
	ReadCapacity  *int64
	WriteCapacity *int64

	PartitionKey KeyAttribute
	SortKey      *KeyAttribute
	LSIs         []Index
	GSIs         []Index
	// VectorIndexes are searched with SearchVectors; nothing of one changes in place.
	VectorIndexes []VectorIndex

	TTL                 *TTL
	PointInTimeRecovery *PITR
	DeletionProtection  *bool
	Tags                map[string]string

	// Stream is nil when not managed; on read it is always set. StreamARN and StreamLabel are read back
	// only, and only while the stream is enabled.
	Stream      *Stream
	StreamARN   string
	StreamLabel string
	// Encryption is nil when not managed; on read, nil means the AWS owned key (the default).
	Encryption *Encryption
	// OnDemand caps an on-demand table's request units; nil when not managed or not capped.
	OnDemand *Throughput
	// Warm is the throughput the table is pre-warmed for; nil when not managed.
	Warm *Throughput
	// Autoscaled says which sides of the table's provisioned capacity an autoscaler owns (see Index).
	Autoscaled Autoscaled
	// ItemCount and SizeBytes are DescribeTable's ItemCount and TableSizeBytes, which DynamoDB updates about
	// every six hours; nil when not reported (only on read).
	ItemCount *int64
	SizeBytes *int64
	// ContributorInsights is the Contributor Insights mode (ACCESSED_AND_THROTTLED_KEYS or
	// THROTTLED_KEYS), "" when off; nil when not managed or not reported.
	ContributorInsights *string
}

// Point-in-time recovery keeps MinRecoveryPeriodDays to MaxRecoveryPeriodDays days, the longest
// period by default (PointInTimeRecovery.html); the numbers come from the policy bundle's data file.
var (
	MinRecoveryPeriodDays = int32(policies.Bundle.Limits.MinRecoveryPeriodDays)
	MaxRecoveryPeriodDays = int32(policies.Bundle.Limits.MaxRecoveryPeriodDays)
)

// PITR is a table's point-in-time recovery: continuous backups kept for RecoveryPeriodDays (nil means
// DynamoDB's default).
type PITR struct {
	Enabled            bool
	RecoveryPeriodDays *int32
}

// Stream is a table's DynamoDB stream setting.
type Stream struct {
	Enabled  bool
	ViewType string // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES
}

// Encryption is a table's server-side encryption: disabled means the AWS owned key; enabled with no key
// ARN means the AWS managed key (aws/dynamodb); with a key ARN, that customer managed key.
type Encryption struct {
	Enabled   bool
	KMSKeyARN string
}

// Throughput is a pair of read and write unit figures; a nil side is not set.
type Throughput struct {
	Read  *int64
	Write *int64
}

// Billing modes.
const (
	BillingPayPerRequest = string(types.BillingModePayPerRequest)
	BillingProvisioned   = string(types.BillingModeProvisioned)
)

// StreamViewTypes are what a stream record can hold (KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES).
func StreamViewTypes() []string { return enumValues(types.StreamViewType("").Values()) }

// ContributorInsightsModes are the modes of CloudWatch Contributor Insights (ACCESSED_AND_THROTTLED_KEYS,
// THROTTLED_KEYS).
func ContributorInsightsModes() []string {
	return enumValues(types.ContributorInsightsMode("").Values())
}

// VectorDistanceFunctions are how a vector index measures neighbours (COSINE, DOT_PRODUCT, EUCLIDEAN).
func VectorDistanceFunctions() []string { return enumValues(types.VectorDistanceFunction("").Values()) }

func enumValues[E ~string](values []E) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// Table classes.
const (
	TableClassStandard                 = string(types.TableClassStandard)
	TableClassStandardInfrequentAccess = string(types.TableClassStandardInfrequentAccess)
)

// Warnings are things the user should know that did not stop the operation, such as an optional feature
// the endpoint does not implement.
type Warnings []string

// String is the pair as a sentence fragment, an unset side as 0.
func (t Throughput) String() string {
	return fmt.Sprintf("%d read and %d write units per second", aws.ToInt64(t.Read), aws.ToInt64(t.Write))
}
