// Package observed reads what CloudWatch and Contributor Insights measured of a DynamoDB table or one of its
// global secondary indexes — the JSON the AWS CLI prints for `get-metric-data` and `get-insight-rule-report`,
// which the live path rebuilds from the API's answers — into measured facts in DynamoDB's own units. It is
// pure Go: no Terraform, AWS SDK or OPA; internal/keydesign compares its facts with a design.
//
// The units follow the DynamoDB Developer Guide:
//   - metrics ("DynamoDB Metrics and dimensions"): one-minute Sums of consumed capacity units and of throttle
//     events, overall and by cause (key range, provisioned capacity, on-demand maximum, account limit);
//   - Contributor Insights ("CloudWatch Contributor Insights for DynamoDB: How it works"): the most accessed
//     keys rule (…-PKC-…) sums ConsumedThroughputUnits per partition key, 3 × write units + read units, and
//     only its MaxContributorValue and Maximum statistics are meaningful; the most throttled keys rule
//     (…-PKT-…) counts throttled requests per partition key.
package observed

// Observation is the measured traffic of a table or of one GSI: the `observed` object of the
// dynamokeys_observed_traffic data source, which the keydesign data source and the resource take back as
// input. Nil numbers were not measured (a metric not exported, Contributor Insights off).
type Observation struct {
	TableName string `json:"table_name"`
	// IndexName is the GSI the figures are of; empty for the table.
	IndexName string  `json:"index_name"`
	Traffic   Traffic `json:"traffic"`
	// TopKeys are the busiest partition-key values, busiest first, then keys that were only throttled; nil
	// without Contributor Insights.
	TopKeys []Key `json:"top_keys"`
	// KeyAttributes is how many key values each contributor lists (the reports' KeyLabels): 1 for a table,
	// the number of partition-key attributes for a multi-attribute GSI key; nil without Contributor Insights.
	KeyAttributes  *int64    `json:"key_attributes"`
	ThrottleEvents Throttles `json:"throttle_events"`
	Window         Window    `json:"window"`
	// AverageOverSpan is true when the window is the span of the datapoints (an offline export, which does
	// not say the window it was asked for) rather than the window asked for: idle minutes at either end of
	// the export are not in it, so the averages may be higher than over the whole export.
	AverageOverSpan bool `json:"-"`
	// Complete is false when CloudWatch did not answer StatusCode Complete (PartialData), pages are missing,
	// or an export without StatusCode has minutes without datapoints. With Complete, a minute without a
	// datapoint was idle: CloudWatch publishes none for a minute without traffic.
	Complete bool `json:"complete"`
}

// Traffic is the peak demand. The rates are consumed capacity units per second at the busiest minute
// (the largest one-minute Sum / 60).
type Traffic struct {
	WritesPerSecond *float64 `json:"writes_per_second"`
	ReadsPerSecond  *float64 `json:"reads_per_second"`
	// AverageWritesPerSecond and AverageReadsPerSecond are the window's consumed units over its length, idle
	// minutes included: the rates the cost model scales to a month; nil when not measured. Live, the window
	// is the one asked for; offline, the span of the datapoints (see Observation.AverageOverSpan).
	AverageWritesPerSecond *float64 `json:"average_writes_per_second"`
	AverageReadsPerSecond  *float64 `json:"average_reads_per_second"`
	// HotKeyUnitsPerSecond is the busiest partition-key value's ConsumedThroughputUnits (3 × WCU + RCU) per
	// second at its busiest minute: the most accessed keys rule's MaxContributorValue / period. Nil without
	// that rule's report.
	HotKeyUnitsPerSecond *float64 `json:"hot_key_units_per_second"`
	// HotKeyUnitShare is that key's share of the table's (or index's) units, 3 × WCU + RCU, in the same
	// minute; nil when the metrics have no datapoint for it.
	HotKeyUnitShare *float64 `json:"hot_key_unit_share"`
}

// Key is one partition-key value Contributor Insights reported.
type Key struct {
	// Key is the value; a multi-attribute GSI key lists its values joined with ", ".
	Key string `json:"key"`
	// UnitsPerSecond are the key's ConsumedThroughputUnits (3 × WCU + RCU) per second at its busiest
	// minute; nil for a key seen only as throttled.
	UnitsPerSecond *float64 `json:"units_per_second"`
	// ThrottleEvents are the key's throttled requests in the window (0 when it was never throttled).
	ThrottleEvents float64 `json:"throttle_events"`
}

// Throttles are the throttle events of the window, in total and by cause; nil when the metric was not
// exported.
type Throttles struct {
	Read  *float64 `json:"read"`
	Write *float64 `json:"write"`
	// A partition's key range was over its 3,000 RCU / 1,000 WCU (Read/WriteKeyRangeThroughputThrottleEvents).
	ReadKeyRange  *float64 `json:"read_key_range"`
	WriteKeyRange *float64 `json:"write_key_range"`
	// The table or index was over its provisioned capacity (…ProvisionedThroughputThrottleEvents).
	ReadProvisioned  *float64 `json:"read_provisioned"`
	WriteProvisioned *float64 `json:"write_provisioned"`
	// The table or index was over its on-demand maximum (…MaxOnDemandThroughputThrottleEvents).
	ReadMaxOnDemand  *float64 `json:"read_max_on_demand"`
	WriteMaxOnDemand *float64 `json:"write_max_on_demand"`
	// The account's throughput quota was reached (…AccountLimitThrottleEvents).
	ReadAccountLimit  *float64 `json:"read_account_limit"`
	WriteAccountLimit *float64 `json:"write_account_limit"`
}

// Window is the time the figures cover: RFC 3339 start and end and the number of one-minute datapoints.
// Live, start and end are the window asked for; offline, the first datapoint's minute and the end of the
// last one.
type Window struct {
	Start      string `json:"start"`
	End        string `json:"end"`
	Datapoints int64  `json:"datapoints"`
}

// Throttle causes, in the order the facts and the report list them.
const (
	CauseKeyRange     = "key_range"
	CauseProvisioned  = "provisioned"
	CauseMaxOnDemand  = "max_on_demand"
	CauseAccountLimit = "account_limit"
)

// Cause is the throttle events of one cause.
type Cause struct {
	Cause string   `json:"cause"`
	Read  *float64 `json:"read"`
	Write *float64 `json:"write"`
}

// Causes lists the throttle events by cause, in a fixed order; a cause whose metrics were not exported has
// nil sides.
func (t Throttles) Causes() []Cause {
	return []Cause{
		{CauseKeyRange, t.ReadKeyRange, t.WriteKeyRange},
		{CauseProvisioned, t.ReadProvisioned, t.WriteProvisioned},
		{CauseMaxOnDemand, t.ReadMaxOnDemand, t.WriteMaxOnDemand},
		{CauseAccountLimit, t.ReadAccountLimit, t.WriteAccountLimit},
	}
}

// Problem is bad input or a warning on one of the attributes the exports arrive in.
type Problem struct {
	Attribute string
	Message   string
}

func (p *Problem) Error() string { return p.Attribute + ": " + p.Message }
