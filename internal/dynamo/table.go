package dynamo

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

	TTL                 *TTL
	PointInTimeRecovery *bool
	DeletionProtection  *bool
	Tags                map[string]string
}

// Billing modes.
const (
	BillingPayPerRequest = "PAY_PER_REQUEST"
	BillingProvisioned   = "PROVISIONED"
)

// Table classes.
const (
	TableClassStandard                 = "STANDARD"
	TableClassStandardInfrequentAccess = "STANDARD_INFREQUENT_ACCESS"
)

// Warnings are things the user should know that did not stop the operation, such as an optional feature
// the endpoint does not implement.
type Warnings []string
