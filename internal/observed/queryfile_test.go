package observed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestQueryFilesAskForEveryMetric: the query files the guide's get-metric-data command uses ask for every
// metric the parser reads, with the ids it recognises, at one-minute Sums.
func TestQueryFilesAskForEveryMetric(t *testing.T) {
	for file, dims := range map[string][]string{"metric-data-queries.json": {"TableName"}, "metric-data-queries-index.json": {"TableName", "GlobalSecondaryIndexName"}} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "observed-traffic", file))
		if err != nil {
			t.Fatal(err)
		}
		var queries []struct {
			ID         string `json:"Id"`
			MetricStat struct {
				Metric struct {
					Namespace, MetricName string
					Dimensions            []struct{ Name, Value string }
				}
				Period int
				Stat   string
			}
		}
		if err := json.Unmarshal(raw, &queries); err != nil {
			t.Fatal(err)
		}
		var got []MetricQuery
		for _, q := range queries {
			got = append(got, MetricQuery{q.ID, q.MetricStat.Metric.MetricName})
			var names []string
			for _, d := range q.MetricStat.Metric.Dimensions {
				names = append(names, d.Name)
			}
			if q.MetricStat.Period != MetricPeriodSeconds || q.MetricStat.Stat != "Sum" || q.MetricStat.Metric.Namespace != "AWS/DynamoDB" || !reflect.DeepEqual(names, dims) {
				t.Errorf("%s: query %s = %+v", file, q.ID, q.MetricStat)
			}
		}
		if !reflect.DeepEqual(got, MetricQueries) {
			t.Errorf("%s asks for %v, want %v", file, got, MetricQueries)
		}
	}
}
