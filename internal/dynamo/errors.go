package dynamo

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// ErrTableNotFound is returned by FindTable when the table does not exist.
var ErrTableNotFound = errors.New("table not found")

// TableExistsError is returned by CreateTable when a table of that name already exists in the account and
// region. The existing table belongs to someone else as far as this operation knows: it is never adopted.
type TableExistsError struct{ Name string }

func (e *TableExistsError) Error() string {
	return fmt.Sprintf("a table named %s already exists in this account and region. To manage it with Terraform, import it "+
		"(an import block or terraform import, by its name); otherwise choose another name", e.Name)
}

// IsUnknownOperation reports whether the endpoint does not implement the operation, as DynamoDB-compatible
// stores answer for PITR or TTL. The SDK has no type for it: it is not a DynamoDB error.
func IsUnknownOperation(err error) bool {
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode() == "UnknownOperationException"
}

func isNotFound(err error) bool {
	var notFound *types.ResourceNotFoundException
	return errors.As(err, &notFound)
}

func isInUse(err error) bool {
	var inUse *types.ResourceInUseException
	return errors.As(err, &inUse)
}
