package dynamo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The CloudWatch side of a table's measured traffic: the AWS/DynamoDB metrics at one-minute sums and the
// reports of the table's Contributor Insights rules (metrics-dimensions.html; contributorinsights_HowItWorks).
const (
	metricsNamespace = "AWS/DynamoDB"
	metricPeriod     = 60
	metricStat       = "Sum"
	// maxContributors is the most contributors GetInsightRuleReport returns (API_GetInsightRuleReport).
	maxContributors = 100
	// maxReportDatapoints keeps a report's per-period datapoints to a day of minutes: the period grows with
	// the window (a 14-day window is read hourly).
	maxReportDatapoints = 1440
)

// The Contributor Insights rules DynamoDB creates for a table or index: DynamoDBContributorInsights-PKC-…
// counts requests per partition key, …-PKT-… throttled requests per partition key (…-SKC-/-SKT- are
// partition and sort key together).
const (
	RuleAccessedKeys  = "-PKC-"
	RuleThrottledKeys = "-PKT-"
)

// TrafficQuery names what to read and over which window.
type TrafficQuery struct {
	TableName string
	IndexName string
	Start     time.Time
	End       time.Time
	// MetricNames maps each query id to its AWS/DynamoDB metric.
	MetricNames map[string]string
}

// TrafficExport is the measured traffic as JSON in the shapes of the API reference, the same as the AWS
// CLI prints: GetMetricData's MetricDataResults (one entry per query and page) and the GetInsightRuleReport
// of the most accessed and most throttled keys rules. A nil report means the rule is not there.
type TrafficExport struct {
	MetricData          []byte
	AccessedKeysReport  []byte
	ThrottledKeysReport []byte
	// InsightsStatus is the Contributor Insights status of the table or index (ENABLED, DISABLED, …);
	// empty when the endpoint does not implement DescribeContributorInsights.
	InsightsStatus string
	// InsightsMode is ACCESSED_AND_THROTTLED_KEYS or THROTTLED_KEYS when enabled.
	InsightsMode string
	// RuleNames are the Contributor Insights rules of the table or index.
	RuleNames []string
}

// lazyCloudWatch builds the CloudWatch client on first use, like the DynamoDB one.
type lazyCloudWatch struct {
	once sync.Once
	api  *cloudwatch.Client
	err  error
}

// CloudWatch returns the CloudWatch client, built on the first call from the same configuration as the
// DynamoDB client; CloudWatchEndpoint (or AWS_ENDPOINT_URL_CLOUDWATCH) overrides its endpoint.
func (c *Client) CloudWatch(ctx context.Context) (*cloudwatch.Client, error) {
	c.cloudwatch.once.Do(func() {
		awsCfg, err := c.loadConfig(ctx)
		if err != nil {
			c.cloudwatch.err = err
			return
		}
		c.cloudwatch.api = cloudwatch.NewFromConfig(awsCfg, func(o *cloudwatch.Options) {
			if c.cfg.CloudWatchEndpoint != "" {
				o.BaseEndpoint = aws.String(c.cfg.CloudWatchEndpoint)
			}
		})
	})
	return c.cloudwatch.api, c.cloudwatch.err
}

// ExportTraffic reads a table's or index's measured traffic: its Contributor Insights rules
// (DescribeContributorInsights), the consumed capacity and throttle metrics (GetMetricData, every page),
// and the reports of the most accessed and most throttled keys rules (GetInsightRuleReport).
func (c *Client) ExportTraffic(ctx context.Context, q TrafficQuery) (*TrafficExport, error) {
	what := "table " + q.TableName
	if q.IndexName != "" {
		what = fmt.Sprintf("index %s of table %s", q.IndexName, q.TableName)
	}
	out := &TrafficExport{}
	if err := c.findInsightsRules(ctx, q, out); err != nil {
		return nil, fmt.Errorf("reading the Contributor Insights rules of %s: %w", what, err)
	}
	cw, err := c.CloudWatch(ctx)
	if err != nil {
		return nil, err
	}
	if out.MetricData, err = exportMetricData(ctx, cw, q); err != nil {
		return nil, fmt.Errorf("reading the CloudWatch metrics of %s: %w", what, err)
	}
	for _, rule := range out.RuleNames {
		var into *[]byte
		switch {
		case strings.Contains(rule, RuleAccessedKeys):
			into = &out.AccessedKeysReport
		case strings.Contains(rule, RuleThrottledKeys):
			into = &out.ThrottledKeysReport
		default:
			continue
		}
		if *into, err = exportInsightRuleReport(ctx, cw, rule, q.Start, q.End); err != nil {
			return nil, fmt.Errorf("reading Contributor Insights rule %s of %s: %w", rule, what, err)
		}
	}
	return out, nil
}

func (c *Client) findInsightsRules(ctx context.Context, q TrafficQuery, out *TrafficExport) error {
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	in := &dynamodb.DescribeContributorInsightsInput{TableName: aws.String(q.TableName)}
	if q.IndexName != "" {
		in.IndexName = aws.String(q.IndexName)
	}
	desc, err := api.DescribeContributorInsights(ctx, in)
	switch {
	case IsUnknownOperation(err):
		return nil
	case isNotFound(err):
		return ErrTableNotFound
	case err != nil:
		return err
	}
	out.InsightsStatus = string(desc.ContributorInsightsStatus)
	out.InsightsMode = string(desc.ContributorInsightsMode)
	if desc.ContributorInsightsStatus == types.ContributorInsightsStatusEnabled {
		out.RuleNames = desc.ContributorInsightsRuleList
	}
	return nil
}

// metricDataJSON is GetMetricData's response as the AWS CLI prints it after joining the pages.
type metricDataJSON struct {
	MetricDataResults []cwtypes.MetricDataResult `json:"MetricDataResults"`
	Messages          []cwtypes.MessageData      `json:"Messages"`
}

func exportMetricData(ctx context.Context, cw *cloudwatch.Client, q TrafficQuery) ([]byte, error) {
	dims := []cwtypes.Dimension{{Name: aws.String("TableName"), Value: aws.String(q.TableName)}}
	if q.IndexName != "" {
		dims = append(dims, cwtypes.Dimension{Name: aws.String("GlobalSecondaryIndexName"), Value: aws.String(q.IndexName)})
	}
	in := &cloudwatch.GetMetricDataInput{StartTime: aws.Time(q.Start), EndTime: aws.Time(q.End), ScanBy: cwtypes.ScanByTimestampDescending}
	for _, id := range slices.Sorted(maps.Keys(q.MetricNames)) {
		in.MetricDataQueries = append(in.MetricDataQueries, cwtypes.MetricDataQuery{
			Id: aws.String(id), ReturnData: aws.Bool(true),
			MetricStat: &cwtypes.MetricStat{Period: aws.Int32(metricPeriod), Stat: aws.String(metricStat),
				Metric: &cwtypes.Metric{Namespace: aws.String(metricsNamespace), MetricName: aws.String(q.MetricNames[id]), Dimensions: dims}},
		})
	}
	joined := metricDataJSON{MetricDataResults: []cwtypes.MetricDataResult{}, Messages: []cwtypes.MessageData{}}
	pages := cloudwatch.NewGetMetricDataPaginator(cw, in, func(o *cloudwatch.GetMetricDataPaginatorOptions) { o.StopOnDuplicateToken = true })
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		joined.MetricDataResults = append(joined.MetricDataResults, page.MetricDataResults...)
		joined.Messages = append(joined.Messages, page.Messages...)
	}
	return marshalExport(joined)
}

func exportInsightRuleReport(ctx context.Context, cw *cloudwatch.Client, rule string, start, end time.Time) ([]byte, error) {
	out, err := cw.GetInsightRuleReport(ctx, &cloudwatch.GetInsightRuleReportInput{
		RuleName: aws.String(rule), StartTime: aws.Time(start), EndTime: aws.Time(end),
		Period: aws.Int32(reportPeriod(end.Sub(start))), MaxContributorCount: aws.Int32(maxContributors),
		Metrics: []string{"Sum", "MaxContributorValue", "UniqueContributors"}, OrderBy: aws.String("Sum"),
	})
	if err != nil {
		return nil, err
	}
	return marshalExport(struct {
		KeyLabels              []string                             `json:"KeyLabels"`
		AggregationStatistic   *string                              `json:"AggregationStatistic"`
		AggregateValue         *float64                             `json:"AggregateValue"`
		ApproximateUniqueCount *int64                               `json:"ApproximateUniqueCount"`
		Contributors           []cwtypes.InsightRuleContributor     `json:"Contributors"`
		MetricDatapoints       []cwtypes.InsightRuleMetricDatapoint `json:"MetricDatapoints"`
	}{out.KeyLabels, out.AggregationStatistic, out.AggregateValue, out.ApproximateUniqueCount, orEmpty(out.Contributors), out.MetricDatapoints})
}

// reportPeriod is the shortest of one minute, five minutes, an hour or a day that keeps the report within
// maxReportDatapoints.
func reportPeriod(window time.Duration) int32 {
	for _, p := range []time.Duration{time.Minute, 5 * time.Minute, time.Hour} {
		if window/p <= maxReportDatapoints {
			return int32(p / time.Second)
		}
	}
	return int32(24 * time.Hour / time.Second)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// marshalExport writes an answer as JSON; a value JSON cannot hold (NaN) is an error, not a silent null.
func marshalExport(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	var unsupported *json.UnsupportedValueError
	if errors.As(err, &unsupported) {
		return nil, fmt.Errorf("CloudWatch returned %s, which is not a finite number", unsupported.Str)
	}
	return b, err
}
