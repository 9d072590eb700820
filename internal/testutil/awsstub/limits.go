package awsstub

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The limits the stand-in holds the reader to, each as AWS documents it.
const (
	// maxMetricDataQueries: "You can include up to 500 MetricDataQuery structures in one GetMetricData
	// operation" (CloudWatch API Reference, GetMetricData, MetricDataQueries).
	maxMetricDataQueries = 500
	// maxMetricDatapoints: "A GetMetricData call can return as many as 100,800 data points"; MaxDatapoints
	// defaults to it and more come with NextToken (CloudWatch API Reference, GetMetricData, MaxDatapoints).
	maxMetricDatapoints = 100800
	// regularResolutionPeriod: a period of a regular-resolution metric "can be as short as one minute (60
	// seconds) and must be a multiple of 60" (CloudWatch API Reference, MetricStat, Period); DynamoDB's
	// metrics are regular resolution ("DynamoDB Metrics and dimensions").
	regularResolutionPeriod = 60
	// oneMinuteRetention: "Data points with a period of 60 seconds (1 minute) are available for 15 days"
	// (CloudWatch User Guide, "Metrics concepts", Metrics retention). Contributor Insights reports cover "the
	// last 15 days" too (CloudWatch User Guide, "Viewing Contributor Insights reports").
	oneMinuteRetention = 15 * 24 * time.Hour
	// maxDynamoDBContributors: DynamoDB's Contributor Insights rules return at most 25 contributors
	// (DynamoDB Developer Guide, "CloudWatch Contributor Insights for DynamoDB: How it works"); the API's
	// own bound, for other rules, is 100 (CloudWatch API Reference, GetInsightRuleReport,
	// MaxContributorCount).
	maxDynamoDBContributors = 25
	maxContributorCount     = 100
	// maxReportWindow: reports show "up to 24 hours" of data at a time (CloudWatch User Guide, "Viewing
	// Contributor Insights reports"). The API reference is silent; the stand-in enforces the guide so a
	// reader that asks for more fails here rather than on AWS.
	maxReportWindow = 24 * time.Hour
	// dynamoDBRulePrefix names the rules DynamoDB creates ("How it works": DynamoDBContributorInsights-PKC-…).
	dynamoDBRulePrefix = "DynamoDBContributorInsights-"
)

// reportStatistics are the Metrics GetInsightRuleReport accepts (CloudWatch API Reference,
// GetInsightRuleReport, Metrics); meaningless are those DynamoDB's page says carry no useful value for its
// rules ("only MaxContributorValue and Maximum"): AWS returns them, the stand-in refuses them so that a
// reader relying on them fails its tests.
var (
	reportStatistics    = []string{"UniqueContributors", "MaxContributorValue", "SampleCount", "Average", "Sum", "Minimum", "Maximum"}
	meaninglessForRules = []string{"SampleCount", "Average", "Sum", "Minimum"}
	// reportOrderBy are the values OrderBy takes (GetInsightRuleReport, OrderBy: "Sum" and "Maximum").
	reportOrderBy = []string{"Sum", "Maximum"}
	// metricStatistics are the statistics of MetricStat.Stat (CloudWatch User Guide, "CloudWatch statistics
	// definitions"); percentiles and the other extended statistics are left out, as the reader asks for Sum.
	metricStatistics = []string{"SampleCount", "Average", "Sum", "Minimum", "Maximum"}
)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkReportRequest refuses a GetInsightRuleReport that AWS refuses, and for DynamoDB's rules the
// statistics its page calls meaningless.
func (s *Server) checkReportRequest(rule string, start, end time.Time, period, maxContributors float64, metrics []string, orderBy string) error {
	now := s.Now()
	switch {
	case rule == "":
		return errors.New("RuleName is required")
	case !start.Before(end):
		return fmt.Errorf("StartTime %s is not before EndTime %s", start.Format(time.RFC3339), end.Format(time.RFC3339))
	case period <= 0 || period != float64(int64(period)):
		return fmt.Errorf("the Period %v is not a whole number of seconds > 0", period)
	case maxContributors > maxContributorCount:
		return fmt.Errorf("MaxContributorCount %v is above %d", maxContributors, maxContributorCount)
	case strings.HasPrefix(rule, dynamoDBRulePrefix) && maxContributors > maxDynamoDBContributors:
		return fmt.Errorf("MaxContributorCount %v is above %d, the most DynamoDB's Contributor Insights rules return", maxContributors, maxDynamoDBContributors)
	case end.Sub(start) > maxReportWindow:
		return fmt.Errorf("the report window %s is longer than %s", end.Sub(start), maxReportWindow)
	case start.Before(now.Add(-oneMinuteRetention)):
		return fmt.Errorf("StartTime %s is more than 15 days ago", start.Format(time.RFC3339))
	case orderBy != "" && !contains(reportOrderBy, orderBy):
		return fmt.Errorf("OrderBy %q is not Sum or Maximum", orderBy)
	}
	for _, m := range metrics {
		switch {
		case !contains(reportStatistics, m):
			return fmt.Errorf("the Metrics have %q, which is not a statistic of a report", m)
		case strings.HasPrefix(rule, dynamoDBRulePrefix) && contains(meaninglessForRules, m):
			return fmt.Errorf("the Metrics have %q, which DynamoDB's Contributor Insights rules give no meaning to (only MaxContributorValue and Maximum)", m)
		}
	}
	return nil
}

// checkMetricQuery refuses a metric query AWS refuses.
func checkMetricQuery(id string, period float64, stat string) error {
	switch {
	case id == "":
		return errors.New("a MetricDataQuery has no Id")
	case period < regularResolutionPeriod || int64(period)%regularResolutionPeriod != 0:
		return fmt.Errorf("query %s: Period %v is not a multiple of %d", id, period, regularResolutionPeriod)
	case !contains(metricStatistics, stat):
		return fmt.Errorf("query %s: Stat %q is not a statistic", id, stat)
	}
	return nil
}
