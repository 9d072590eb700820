package keydesign

// Measured traffic: what CloudWatch and Contributor Insights saw of a table or one of its GSIs, read from
// the JSON the AWS CLI prints (observed_parse.go), and the facts the DK70x rules compare with the design
// (observed_facts.go). contributing/capacity-model.md ("Measured traffic") describes the figures.

// Observation is the measured traffic of a table or of one GSI: the `observed` object of the
// dynamokeys_observed_traffic data source, which the keydesign data source and the resource take back as
// input. Nil numbers were not measured (a metric not exported, Contributor Insights off).
type Observation struct {
	TableName string `json:"table_name"`
	// IndexName is the GSI the figures are of; empty for the table.
	IndexName string          `json:"index_name"`
	Traffic   ObservedTraffic `json:"traffic"`
	// TopKeys are the busiest partition-key values, busiest first, then keys that were only throttled;
	// nil without Contributor Insights.
	TopKeys        []ObservedKey  `json:"top_keys"`
	ThrottleEvents ThrottleTotals `json:"throttle_events"`
	Window         ObservedWindow `json:"window"`
	// Complete is false when CloudWatch reported partial data or the window has minutes without datapoints.
	Complete bool `json:"complete"`
}

// ObservedTraffic has the field names of the traffic input. The rates are consumed capacity units per
// second at the busiest minute (the largest per-minute Sum / 60): for items up to 1 KB written and 4 KB read
// strongly consistent, that is requests per second.
type ObservedTraffic struct {
	WritesPerSecond *float64 `json:"writes_per_second"`
	ReadsPerSecond  *float64 `json:"reads_per_second"`
	// AverageWritesPerSecond and AverageReadsPerSecond are the window's consumed units over its length: the
	// rates the cost model scales to a month; nil when not measured.
	AverageWritesPerSecond *float64 `json:"average_writes_per_second"`
	AverageReadsPerSecond  *float64 `json:"average_reads_per_second"`
	// HotKeyShare is the busiest partition-key value's share of requests at the busiest time of the
	// Contributor Insights report; nil without it.
	HotKeyShare *float64 `json:"hot_key_share"`
}

// ObservedKey is one partition-key value Contributor Insights reported.
type ObservedKey struct {
	Key string `json:"key"`
	// Share is the key's share of all requests over the window; nil for a key seen only as throttled.
	Share *float64 `json:"share"`
	// ThrottleEvents are the key's throttled requests in the window (0 when it was never throttled).
	ThrottleEvents float64 `json:"throttle_events"`
}

// ThrottleTotals are the throttle events of the window; nil when the metric was not exported.
type ThrottleTotals struct {
	Read  *float64 `json:"read"`
	Write *float64 `json:"write"`
}

// ObservedWindow is the time the figures cover: RFC 3339 start and end (the end of the last minute) and the
// number of per-minute datapoints.
type ObservedWindow struct {
	Start      string `json:"start"`
	End        string `json:"end"`
	Datapoints int64  `json:"datapoints"`
}
