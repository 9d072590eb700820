package dynamo

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TTL and point-in-time recovery change asynchronously: UpdateTimeToLive answers ENABLING or DISABLING and
// UpdateContinuousBackups may answer before the status has moved. As the AWS provider does, an update waits
// until the Describe call reports the wanted status, so that the read after the apply records the settled
// value. A status that is neither the wanted one nor on the way to it ends the wait with an error. An
// endpoint that does not implement the Describe call (UnknownOperationException) is not waited for.

// pitrEnabling is the transitional PITR status DynamoDB reports; the SDK has no constant for it.
const pitrEnabling = "ENABLING"

// settle polls status until it reports want, accepting the statuses in pending on the way.
func (c *Client) settle(ctx context.Context, what, want string, pending []string, status func(context.Context) (string, bool, error)) error {
	return c.cfg.Polling.poll(ctx, what+" to become "+want, func(ctx context.Context) (bool, error) {
		got, reported, err := status(ctx)
		switch {
		case err != nil:
			return false, err
		case !reported || got == want:
			return true, nil
		case slices.Contains(pending, got):
			return false, nil
		}
		return false, fmt.Errorf("%s is %s while it should become %s: check the table in the AWS console and apply again", what, got, want)
	})
}

// waitTTL waits until the TTL of the table is ENABLED or DISABLED, as enabled says.
func (c *Client) waitTTL(ctx context.Context, name string, enabled bool) error {
	want, pending := types.TimeToLiveStatusDisabled, []string{string(types.TimeToLiveStatusEnabled), string(types.TimeToLiveStatusDisabling)}
	if enabled {
		want, pending = types.TimeToLiveStatusEnabled, []string{string(types.TimeToLiveStatusDisabled), string(types.TimeToLiveStatusEnabling)}
	}
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	return c.settle(ctx, "the TTL of table "+name, string(want), pending, func(ctx context.Context) (string, bool, error) {
		out, err := api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
		switch {
		case IsUnknownOperation(err):
			return "", false, nil
		case err != nil:
			return "", false, fmt.Errorf("reading the TTL of %s: %w", name, err)
		case out.TimeToLiveDescription == nil:
			return "", false, nil
		}
		return string(out.TimeToLiveDescription.TimeToLiveStatus), true, nil
	})
}

// waitPITR waits until point-in-time recovery of the table is ENABLED or DISABLED, as enabled says.
func (c *Client) waitPITR(ctx context.Context, name string, enabled bool) error {
	want, pending := types.PointInTimeRecoveryStatusDisabled, []string{string(types.PointInTimeRecoveryStatusEnabled)}
	if enabled {
		want, pending = types.PointInTimeRecoveryStatusEnabled, []string{string(types.PointInTimeRecoveryStatusDisabled), pitrEnabling}
	}
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	return c.settle(ctx, "point-in-time recovery of table "+name, string(want), pending, func(ctx context.Context) (string, bool, error) {
		out, err := api.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(name)})
		switch {
		case IsUnknownOperation(err):
			return "", false, nil
		case err != nil:
			return "", false, fmt.Errorf("reading point-in-time recovery of %s: %w", name, err)
		case out.ContinuousBackupsDescription == nil || out.ContinuousBackupsDescription.PointInTimeRecoveryDescription == nil:
			return "", false, nil
		}
		return string(out.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus), true, nil
	})
}
