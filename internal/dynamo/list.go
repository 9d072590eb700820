package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// listPageSize is the most table names one ListTables call returns (the API's maximum).
const listPageSize = 100

// Region is the Region the client calls: the provider's region, else the AWS chain's (AWS_REGION, the
// profile). It builds the client, without any call.
func (c *Client) Region(ctx context.Context) (string, error) {
	api, err := c.API(ctx)
	if err != nil {
		return "", err
	}
	return api.Options().Region, nil
}

// ListTableNames pages through the names of the tables in the client's account and Region, calling each
// until it returns false. Throttled pages are retried by the client's retryer, as every other call.
func (c *Client) ListTableNames(ctx context.Context, each func(name string) bool) error {
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	pages := dynamodb.NewListTablesPaginator(api, &dynamodb.ListTablesInput{Limit: aws.Int32(listPageSize)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("listing tables: %w", err)
		}
		for _, name := range page.TableNames {
			if !each(name) {
				return nil
			}
		}
	}
	return nil
}

// ARN is what a table's ARN says: arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME.
type ARN struct {
	Partition, Region, Account, Table string
}

// ParseTableARN reads a table ARN as DescribeTable reports it. Local servers report one too, with their own
// account (000000000000 or a configured one) and, for DynamoDB Local, the Region "ddblocal".
func ParseTableARN(arn string) (ARN, error) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "dynamodb" || parts[4] == "" || !strings.HasPrefix(parts[5], "table/") {
		return ARN{}, fmt.Errorf("%q is not a DynamoDB table ARN (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME)", arn)
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(parts[5], "table/"), "/") // a stream or index ARN has more after the name
	return ARN{Partition: parts[1], Region: parts[3], Account: parts[4], Table: name}, nil
}
