package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// describe reads the table description alone; a missing table is ErrTableNotFound.
func (c *Client) describe(ctx context.Context, name string) (*Table, error) {
	api, err := c.API(ctx)
	if err != nil {
		return nil, err
	}
	out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if isNotFound(err) {
		return nil, ErrTableNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("describing table %s: %w", name, err)
	}
	return flattenTable(out.Table), nil
}

// FindTable reads a table with its TTL, point-in-time recovery, Contributor Insights and tags. Settings the endpoint does not
// implement (UnknownOperationException) are left nil. A missing table is ErrTableNotFound.
func (c *Client) FindTable(ctx context.Context, name string) (*Table, error) {
	t, err := c.describe(ctx, name)
	if err != nil {
		return nil, err
	}
	t, err = c.readSettings(ctx, t)
	if isNotFound(err) {
		return nil, ErrTableNotFound // deleted between the calls, e.g. while a list pages through the account
	}
	return t, err
}

// readSettings reads what DescribeTable does not report: TTL, point-in-time recovery, Contributor Insights
// and tags.
func (c *Client) readSettings(ctx context.Context, t *Table) (*Table, error) {
	name := t.Name
	api, _ := c.API(ctx)
	ttl, err := api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	switch {
	case err == nil && ttl.TimeToLiveDescription != nil:
		d := ttl.TimeToLiveDescription
		t.TTL = &TTL{AttributeName: aws.ToString(d.AttributeName),
			Enabled: d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling}
	case err != nil && !IsUnknownOperation(err):
		return nil, fmt.Errorf("reading the TTL of %s: %w", name, err)
	}
	backups, err := api.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(name)})
	switch {
	case err == nil && backups.ContinuousBackupsDescription != nil && backups.ContinuousBackupsDescription.PointInTimeRecoveryDescription != nil:
		d := backups.ContinuousBackupsDescription.PointInTimeRecoveryDescription
		t.PointInTimeRecovery = &PITR{Enabled: d.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled}
		if t.PointInTimeRecovery.Enabled {
			t.PointInTimeRecovery.RecoveryPeriodDays = d.RecoveryPeriodInDays
		}
	case err != nil && !IsUnknownOperation(err):
		return nil, fmt.Errorf("reading point-in-time recovery of %s: %w", name, err)
	}
	if err := c.readContributorInsights(ctx, t); err != nil {
		return nil, err
	}
	if t.ARN != "" {
		tags, err := c.listTags(ctx, t.ARN)
		switch {
		case err == nil:
			t.Tags = tags
		case !IsUnknownOperation(err):
			return nil, fmt.Errorf("reading the tags of %s: %w", name, err)
		}
	}
	return t, nil
}

func (c *Client) listTags(ctx context.Context, arn string) (map[string]string, error) {
	api, _ := c.API(ctx)
	tags := map[string]string{}
	var next *string
	for {
		out, err := api.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn), NextToken: next})
		if err != nil {
			return nil, err
		}
		for _, tag := range out.Tags {
			tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
		}
		if out.NextToken == nil {
			return tags, nil
		}
		next = out.NextToken
	}
}

// readContributorInsights sets the Contributor Insights mode of the table and of each GSI; an endpoint
// without the operation leaves them nil (not reported).
func (c *Client) readContributorInsights(ctx context.Context, t *Table) error {
	mode := func(index *string) (*string, error) {
		api, _ := c.API(ctx)
		out, err := api.DescribeContributorInsights(ctx, &dynamodb.DescribeContributorInsightsInput{TableName: aws.String(t.Name), IndexName: index})
		switch {
		case IsUnknownOperation(err):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("reading Contributor Insights of %s: %w", t.Name, err)
		case out.ContributorInsightsStatus == types.ContributorInsightsStatusEnabled || out.ContributorInsightsStatus == types.ContributorInsightsStatusEnabling:
			m := string(out.ContributorInsightsMode)
			if m == "" {
				m = string(types.ContributorInsightsModeAccessedAndThrottledKeys)
			}
			return &m, nil
		}
		off := ""
		return &off, nil
	}
	var err error
	if t.ContributorInsights, err = mode(nil); err != nil || t.ContributorInsights == nil {
		return err // not implemented by the endpoint: no index has it either
	}
	for i := range t.GSIs {
		if t.GSIs[i].ContributorInsights, err = mode(aws.String(t.GSIs[i].Name)); err != nil {
			return err
		}
	}
	return nil
}
