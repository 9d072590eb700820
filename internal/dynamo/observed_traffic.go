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
	"github.com/aws/smithy-go"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// The CloudWatch side of a table's measured traffic: the AWS/DynamoDB metrics at one-minute sums (DynamoDB
// Developer Guide, "DynamoDB Metrics and dimensions") and the reports of the table's Contributor Insights
// rules ("CloudWatch Contributor Insights for DynamoDB: How it works"). Every call stays within the limit
// AWS documents for it.
const (
	metricsNamespace = "AWS/DynamoDB"
	metricStat       = "Sum"
	// metricPeriodSeconds is the period of every metric query and report, the one the parser reads them at
	// (observed.MetricPeriodSeconds): the busiest minute is what a partition's per-second limit is held against.
	metricPeriodSeconds = observed.MetricPeriodSeconds
	// maxContributorCount is the most contributors GetInsightRuleReport returns for DynamoDB's rules, which
	// refuse more ("CloudWatch Contributor Insights for DynamoDB: How it works": at most 25; the API's own
	// bound for other rules is 100); the observation lists as many (observed.MaxTopKeys).
	maxContributorCount = observed.MaxTopKeys
	// MaxReportWindow is the longest time one report covers: the CloudWatch User Guide ("Viewing Contributor
	// Insights reports") shows reports of at most 24 hours within the last 15 days; the API reference is
	// silent, so the reader stitches a longer window from day-long reports either way.
	MaxReportWindow = 24 * time.Hour
	// reportConcurrency bounds the reports read at once; they are joined in time order whatever order they
	// finish in.
	reportConcurrency = 4
	// MaxMetricDataQueries and MaxMetricDatapoints bound one GetMetricData call (CloudWatch API Reference,
	// GetMetricData: at most 500 MetricDataQueries; MaxDatapoints at most 100,800, the rest is paged with
	// NextToken).
	MaxMetricDataQueries = 500
	MaxMetricDatapoints  = 100800
	// reportOrderBy ranks contributors by their largest period, the one ranking statistic DynamoDB's rules
	// give a meaning to (Maximum; "How it works": only MaxContributorValue and Maximum are useful).
	reportOrderBy = "Maximum"
)

// ReportMetrics are the report statistics asked for: the only ones DynamoDB's rules give a meaning to
// (MaxContributorValue, Maximum), and the count of keys per period (UniqueContributors).
var ReportMetrics = []string{"MaxContributorValue", "Maximum", "UniqueContributors"}

// The Contributor Insights rules DynamoDB creates for a table or index are named
// DynamoDBContributorInsights-PKC-<table>… (ConsumedThroughputUnits per partition key) and
// DynamoDBContributorInsights-PKT-<table>… (throttled requests per partition key); -SKC-/-SKT- count
// partition and sort key together. Matched as prefixes: a table or index name may itself contain "-PKC-".
const (
	RuleAccessedKeysPrefix  = "DynamoDBContributorInsights-PKC-"
	RuleThrottledKeysPrefix = "DynamoDBContributorInsights-PKT-"
)

// The IAM actions of the live path; a denied optional one leaves the metrics and a warning.
const (
	ActionDescribeContributorInsights = "dynamodb:DescribeContributorInsights"
	ActionGetInsightRuleReport        = "cloudwatch:GetInsightRuleReport"
	ActionGetMetricData               = "cloudwatch:GetMetricData"
	ActionDescribeTable               = "dynamodb:DescribeTable"
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
// CLI prints: GetMetricData's MetricDataResults (one entry per query and page) and, per rule, a JSON list
// of the reports of each day of the window. A nil report means the rule was not read.
type TrafficExport struct {
	MetricData          []byte
	AccessedKeysReport  []byte
	ThrottledKeysReport []byte
	// InsightsStatus is the Contributor Insights status of the table or index (ENABLED, ENABLING,
	// DISABLING, DISABLED, FAILED); empty when the endpoint does not implement DescribeContributorInsights
	// or the call was denied.
	InsightsStatus string
	// InsightsMode is ACCESSED_AND_THROTTLED_KEYS or THROTTLED_KEYS when enabled.
	InsightsMode string
	// InsightsFailure is why Contributor Insights FAILED, as DescribeContributorInsights reports it.
	InsightsFailure string
	// RuleNames are the Contributor Insights rules of the table or index.
	RuleNames []string
	// ItemCount and SizeBytes are the table's (or the index's) item count and size as DescribeTable reports
	// them (AWS updates them about every six hours); nil when the endpoint does not report them or the call
	// was denied.
	ItemCount *int64
	SizeBytes *int64
	// Denied are the optional calls' IAM actions that were refused: the export has the metrics only.
	Denied []string
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
// (DescribeContributorInsights), its item count and size (DescribeTable), the consumed capacity and throttle metrics (GetMetricData, every page), and
// the reports of the most accessed and most throttled keys rules (GetInsightRuleReport, a day at a time).
// Access denied on DescribeContributorInsights, DescribeTable or GetInsightRuleReport leaves the metrics, with
// the action in Denied.
func (c *Client) ExportTraffic(ctx context.Context, q TrafficQuery) (*TrafficExport, error) {
	what := "table " + q.TableName
	if q.IndexName != "" {
		what = fmt.Sprintf("index %s of table %s", q.IndexName, q.TableName)
	}
	out := &TrafficExport{}
	if err := c.findInsightsRules(ctx, q, out); err != nil {
		return nil, fmt.Errorf("reading the Contributor Insights rules of %s: %w", what, err)
	}
	if err := c.describeSize(ctx, q, out); err != nil {
		return nil, fmt.Errorf("describing %s: %w", what, err)
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
		case strings.HasPrefix(rule, RuleAccessedKeysPrefix):
			into = &out.AccessedKeysReport
		case strings.HasPrefix(rule, RuleThrottledKeysPrefix):
			into = &out.ThrottledKeysReport
		default:
			continue
		}
		report, err := exportInsightRuleReports(ctx, cw, rule, q.Start, q.End)
		switch {
		case IsAccessDenied(err):
			out.Denied = appendOnce(out.Denied, ActionGetInsightRuleReport)
			out.AccessedKeysReport, out.ThrottledKeysReport = nil, nil
			return out, nil
		case err != nil:
			return nil, fmt.Errorf("reading Contributor Insights rule %s of %s: %w", rule, what, err)
		}
		*into = report
	}
	return out, nil
}

// describeSize reads the item count and size of the table, or of its index, from DescribeTable. An endpoint
// that does not implement it, or a denied call (with the action in Denied), leaves them nil.
func (c *Client) describeSize(ctx context.Context, q TrafficQuery, out *TrafficExport) error {
	api, err := c.API(ctx)
	if err != nil {
		return err
	}
	desc, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(q.TableName)})
	switch {
	case IsUnknownOperation(err):
		return nil
	case IsAccessDenied(err):
		out.Denied = appendOnce(out.Denied, ActionDescribeTable)
		return nil
	case isNotFound(err):
		return ErrTableNotFound
	case err != nil:
		return err
	}
	t := desc.Table
	if t == nil {
		return nil
	}
	if q.IndexName == "" {
		out.ItemCount, out.SizeBytes = t.ItemCount, t.TableSizeBytes
		return nil
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == q.IndexName {
			out.ItemCount, out.SizeBytes = g.ItemCount, g.IndexSizeBytes
		}
	}
	return nil
}

// IsAccessDenied reports whether AWS refused a call for lack of permission.
func IsAccessDenied(err error) bool {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.ErrorCode() {
	case "AccessDeniedException", "AccessDenied", "UnauthorizedOperation":
		return true
	}
	return false
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
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
	case IsAccessDenied(err):
		out.Denied = appendOnce(out.Denied, ActionDescribeContributorInsights)
		return nil
	case isNotFound(err):
		return ErrTableNotFound
	case err != nil:
		return err
	}
	out.InsightsStatus = string(desc.ContributorInsightsStatus)
	out.InsightsMode = string(desc.ContributorInsightsMode)
	if f := desc.FailureException; f != nil {
		out.InsightsFailure = strings.TrimSpace(aws.ToString(f.ExceptionName) + ": " + aws.ToString(f.ExceptionDescription))
	}
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

// exportMetricData asks for every metric at one-minute Sums, at most MaxMetricDataQueries queries and
// MaxMetricDatapoints datapoints per call, and joins every page.
func exportMetricData(ctx context.Context, cw *cloudwatch.Client, q TrafficQuery) ([]byte, error) {
	dims := []cwtypes.Dimension{{Name: aws.String("TableName"), Value: aws.String(q.TableName)}}
	if q.IndexName != "" {
		dims = append(dims, cwtypes.Dimension{Name: aws.String("GlobalSecondaryIndexName"), Value: aws.String(q.IndexName)})
	}
	var queries []cwtypes.MetricDataQuery
	for _, id := range slices.Sorted(maps.Keys(q.MetricNames)) {
		queries = append(queries, cwtypes.MetricDataQuery{
			Id: aws.String(id), ReturnData: aws.Bool(true),
			MetricStat: &cwtypes.MetricStat{Period: aws.Int32(metricPeriodSeconds), Stat: aws.String(metricStat),
				Metric: &cwtypes.Metric{Namespace: aws.String(metricsNamespace), MetricName: aws.String(q.MetricNames[id]), Dimensions: dims}},
		})
	}
	joined := metricDataJSON{MetricDataResults: []cwtypes.MetricDataResult{}, Messages: []cwtypes.MessageData{}}
	for chunk := range slices.Chunk(queries, MaxMetricDataQueries) {
		in := &cloudwatch.GetMetricDataInput{StartTime: aws.Time(q.Start), EndTime: aws.Time(q.End), ScanBy: cwtypes.ScanByTimestampDescending,
			MaxDatapoints: aws.Int32(MaxMetricDatapoints), MetricDataQueries: chunk}
		pages := cloudwatch.NewGetMetricDataPaginator(cw, in, func(o *cloudwatch.GetMetricDataPaginatorOptions) { o.StopOnDuplicateToken = true })
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, err
			}
			joined.MetricDataResults = append(joined.MetricDataResults, page.MetricDataResults...)
			joined.Messages = append(joined.Messages, page.Messages...)
		}
	}
	return marshalExport(joined)
}

// ReportWindows splits [start, end) into windows of at most MaxReportWindow, oldest first.
func ReportWindows(start, end time.Time) [][2]time.Time {
	var out [][2]time.Time
	for from := start; from.Before(end); from = from.Add(MaxReportWindow) {
		out = append(out, [2]time.Time{from, minTime(from.Add(MaxReportWindow), end)})
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// insightReportJSON is GetInsightRuleReport's response as the AWS CLI prints it.
type insightReportJSON struct {
	KeyLabels              []string                             `json:"KeyLabels"`
	AggregationStatistic   *string                              `json:"AggregationStatistic"`
	AggregateValue         *float64                             `json:"AggregateValue"`
	ApproximateUniqueCount *int64                               `json:"ApproximateUniqueCount"`
	Contributors           []cwtypes.InsightRuleContributor     `json:"Contributors"`
	MetricDatapoints       []cwtypes.InsightRuleMetricDatapoint `json:"MetricDatapoints"`
}

// exportInsightRuleReports reads a rule's report for each day of the window, reportConcurrency at a time,
// and joins them in time order as a JSON list.
func exportInsightRuleReports(ctx context.Context, cw *cloudwatch.Client, rule string, start, end time.Time) ([]byte, error) {
	windows := ReportWindows(start, end)
	reports := make([]insightReportJSON, len(windows))
	errs := make([]error, len(windows))
	sem := make(chan struct{}, reportConcurrency)
	var wg sync.WaitGroup
	for i, w := range windows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out, err := cw.GetInsightRuleReport(ctx, &cloudwatch.GetInsightRuleReportInput{
				RuleName: aws.String(rule), StartTime: aws.Time(w[0]), EndTime: aws.Time(w[1]),
				Period: aws.Int32(metricPeriodSeconds), MaxContributorCount: aws.Int32(maxContributorCount),
				Metrics: ReportMetrics, OrderBy: aws.String(reportOrderBy),
			})
			if err != nil {
				errs[i] = err
				return
			}
			reports[i] = insightReportJSON{out.KeyLabels, out.AggregationStatistic, out.AggregateValue, out.ApproximateUniqueCount,
				orEmpty(out.Contributors), orEmpty(out.MetricDatapoints)}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if IsAccessDenied(err) {
			return nil, err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return marshalExport(reports)
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
