package awsstub

import (
	"fmt"
	"time"
)

// The workloads the tests and the example exports are generated from. Each ends at end and starts 15 days
// before it, peaks daily at 11:00 UTC, and is served for table "orders" (and its index by_status).
const (
	ScenarioCalm = "calm"
	// ScenarioReadHeavyWriteHotKey is a read-heavy table (1,500 WCU/s and 9,000 RCU/s at peak) whose
	// busiest customer writes 950 WCU/s at the peak: 2,850 units/s, 95% of a partition, throttled on key
	// range; another key is written in lower case, outside the design's template.
	ScenarioReadHeavyWriteHotKey = "read-heavy-write-hot-key"
	// ScenarioWriteHeavyReadHotKey is a write-heavy table (4,000 WCU/s, 600 RCU/s at peak) whose busiest
	// customer reads 5,200 RCU/s: 5,200 units/s against its 30 writes.
	ScenarioWriteHeavyReadHotKey = "write-heavy-read-hot-key"
	// ScenarioKeyRangeThrottled is a table throttled on key range (and a little on its on-demand maximum)
	// with Contributor Insights off.
	ScenarioKeyRangeThrottled = "key-range-throttled"
	// ScenarioThrottledKeysOnly is the key-range-throttled table with Contributor Insights in THROTTLED_KEYS
	// mode: the throttled key is named, the busiest key's units are not measured.
	ScenarioThrottledKeysOnly = "throttled-keys-only"
	// ScenarioHotIndex is the status index of orders: "shipped" takes 2,000 of its 2,500 WCU/s.
	ScenarioHotIndex = "hot-index"
)

// Rule names of the scenarios' tables and indexes.
const (
	OrdersAccessedRule  = "DynamoDBContributorInsights-PKC-orders-1764500000000"
	OrdersThrottledRule = "DynamoDBContributorInsights-PKT-orders-1764500000000"
	IndexAccessedRule   = "DynamoDBContributorInsights-PKC-orders-by_status-1764500000000"
	IndexThrottledRule  = "DynamoDBContributorInsights-PKT-orders-by_status-1764500000000"
)

// Scenario serves a named workload on s, ending at end; it returns the target it is served for
// ("orders" or "orders/by_status").
func (s *Server) Scenario(name string, end time.Time) string {
	start := end.Add(-15 * 24 * time.Hour)
	minutes := int(end.Sub(start) / time.Minute)
	both := Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: []string{OrdersAccessedRule, OrdersThrottledRule}}
	w := &Workload{Start: start, Minutes: minutes, KeyLabels: []string{"pk"}, Throttles: map[string]Series{}}
	target := "orders"
	switch name {
	case ScenarioCalm:
		w.Keys = Spread(10, "CUSTOMER#c-", DailyPeak(100, 300, 11), DailyPeak(400, 900, 11))
		s.Insights[target] = both
	case ScenarioReadHeavyWriteHotKey:
		w.Keys = append(Spread(200, "CUSTOMER#c-", DailyPeak(100, 500, 11), DailyPeak(1500, 9000, 11)),
			KeyLoad{Key: []string{"CUSTOMER#c-1001"}, WCU: DailyPeak(60, 950, 11), RCU: Constant(0), Throttled: DailyPeak(0, 240, 11)},
			KeyLoad{Key: []string{"customer#c-77"}, WCU: Constant(50)})
		w.Throttles["WriteKeyRangeThroughputThrottleEvents"] = DailyPeak(0, 240, 11)
		s.Insights[target] = both
	case ScenarioWriteHeavyReadHotKey:
		w.Keys = append(Spread(200, "CUSTOMER#c-", DailyPeak(1000, 3970, 11), DailyPeak(100, 600, 11)),
			KeyLoad{Key: []string{"CUSTOMER#c-2002"}, WCU: Constant(30), RCU: DailyPeak(400, 5200, 11)})
		s.Insights[target] = both
	case ScenarioKeyRangeThrottled, ScenarioThrottledKeysOnly:
		w.Keys = append(Spread(100, "CUSTOMER#c-", DailyPeak(50, 200, 11), DailyPeak(200, 800, 11)),
			KeyLoad{Key: []string{"CUSTOMER#c-3003"}, WCU: DailyPeak(20, 1000, 11), RCU: Constant(5), Throttled: DailyPeak(0, 600, 11)})
		w.Throttles["WriteKeyRangeThroughputThrottleEvents"] = DailyPeak(0, 600, 11)
		w.Throttles["WriteMaxOnDemandThroughputThrottleEvents"] = DailyPeak(0, 12, 11)
		s.Insights[target] = Insights{Status: "DISABLED"}
		if name == ScenarioThrottledKeysOnly {
			s.Insights[target] = Insights{Status: "ENABLED", Mode: "THROTTLED_KEYS", Rules: []string{OrdersThrottledRule}}
		}
	case ScenarioHotIndex:
		target = "orders/by_status"
		w.KeyLabels = []string{"status"}
		w.Keys = []KeyLoad{
			{Key: []string{"shipped"}, WCU: DailyPeak(300, 2000, 11), RCU: Constant(40)},
			{Key: []string{"pending"}, WCU: DailyPeak(100, 400, 11), RCU: Constant(40)},
			{Key: []string{"new"}, WCU: DailyPeak(30, 100, 11), RCU: Constant(20)},
		}
		s.Insights[target] = Insights{Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: []string{IndexAccessedRule, IndexThrottledRule}}
	default:
		panic(fmt.Sprintf("awsstub: no scenario %q", name))
	}
	s.Workloads[target] = w
	return target
}
