package dynamo

import (
	"errors"

	"github.com/aws/smithy-go"
)

// ErrTableNotFound is returned by FindTable when the table does not exist.
var ErrTableNotFound = errors.New("table not found")

// apiErrorCode returns the AWS error code of err, or "".
func apiErrorCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// IsUnknownOperation reports whether the endpoint does not implement the operation, as DynamoDB-compatible
// stores answer for PITR or TTL.
func IsUnknownOperation(err error) bool { return apiErrorCode(err) == "UnknownOperationException" }

func isNotFound(err error) bool { return apiErrorCode(err) == "ResourceNotFoundException" }

// isRetryable covers the control-plane conditions that clear with time: another operation on the table or
// an index is in progress, too many concurrent control-plane operations, or throttling.
func isRetryable(err error) bool {
	switch apiErrorCode(err) {
	case "ResourceInUseException", "LimitExceededException", "ThrottlingException",
		"ProvisionedThroughputExceededException", "RequestLimitExceeded":
		return true
	}
	return false
}
