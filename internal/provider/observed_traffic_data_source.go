package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

var (
	_ datasource.DataSource                     = (*observedTrafficDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*observedTrafficDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*observedTrafficDataSource)(nil)
)

// Defaults and bounds of the live window.
const (
	defaultLookback = 14 * 24 * time.Hour
	// maxLookback is how long CloudWatch keeps one-minute datapoints ("Data points with a period of 60
	// seconds (1 minute) are available for 15 days", CloudWatch User Guide, "Metrics concepts"): a longer
	// window would read nothing, or coarser sums that understate the peak.
	maxLookback                = 15 * 24 * time.Hour
	defaultObservedReadTimeout = 5 * time.Minute
)

// NewObservedTrafficDataSource returns the dynamokeys_observed_traffic data source.
func NewObservedTrafficDataSource() datasource.DataSource { return &observedTrafficDataSource{} }

type observedTrafficDataSource struct {
	data *providerData
}

type observedTrafficSourceModel struct {
	MetricData          types.String   `tfsdk:"metric_data"`
	AccessedKeysReport  types.String   `tfsdk:"accessed_keys_report"`
	ThrottledKeysReport types.String   `tfsdk:"throttled_keys_report"`
	TableName           types.String   `tfsdk:"table_name"`
	IndexName           types.String   `tfsdk:"index_name"`
	Lookback            types.String   `tfsdk:"lookback"`
	End                 types.String   `tfsdk:"end"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
	Observed            types.Object   `tfsdk:"observed"`
	Report              types.String   `tfsdk:"report"`
	ItemCount           types.Int64    `tfsdk:"item_count"`
	TableSizeBytes      types.Int64    `tfsdk:"table_size_bytes"`
}

func (d *observedTrafficDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_observed_traffic"
}

func (d *observedTrafficDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	optional := func(desc string) dschema.StringAttribute {
		return dschema.StringAttribute{Optional: true, Description: desc}
	}
	resp.Schema = dschema.Schema{
		Description: "Reads a table's (or a global secondary index's) measured traffic from CloudWatch and Contributor Insights: the peak " +
			"writes and reads per second, the busiest partition keys in Contributor Insights' units (3 × WCU + RCU per second), throttling " +
			"by cause. Offline from the JSON the AWS CLI printed (metric_data and the reports), with no credentials; or live (table_name, " +
			"lookback) with the provider's credentials. " +
			"Give observed to dynamokeys_keydesign or dynamokeys_sharded_table to check the design against it (rules DK701–DK704).",
		Attributes: map[string]dschema.Attribute{
			"metric_data": optional("Offline: the output of `aws cloudwatch get-metric-data` run with the query file of the docs (AWS/DynamoDB, " +
				"Period 60, Stat Sum: consumed capacity, throttle events and the throttle events by cause), e.g. file(\"metric-data.json\"). " +
				"Several outputs may be given joined: a JSON list, or the outputs concatenated."),
			"accessed_keys_report": optional("Offline: the output of `aws cloudwatch get-insight-rule-report` for the table's (or index's) " +
				"DynamoDBContributorInsights-PKC-… rule (most accessed partition keys), with --period 60 and --max-contributor-count 25; a report " +
				"covers at most 24 hours, so give one per day, joined (a JSON list, or the outputs concatenated). Optional: without it the key figures are null."),
			"throttled_keys_report": optional("Offline: the output of `aws cloudwatch get-insight-rule-report` for the …-PKT-… rule (most throttled " +
				"partition keys), one report per day joined like accessed_keys_report. Optional."),
			"table_name": optional("The table. Live: required, the table to read; offline: a label for the report."),
			"index_name": optional("A global secondary index of the table to read instead of the table."),
			"lookback": optional(fmt.Sprintf("Live: how far back to read, a duration such as \"14d\", \"36h\" or \"90m\"; default 14d, at most %dd "+
				"(CloudWatch keeps one-minute datapoints for 15 days). A window that would start more than 15 days ago is clipped, with a warning.",
				int(maxLookback.Hours()/24))),
			"end": optional("Live: the end of the window, RFC 3339, truncated to the minute (2026-11-30T12:00:59Z reads up to 12:00:00); " +
				"default now, truncated likewise. Pinning it reads the same window on every plan " +
				"until it is more than 15 days old, when CloudWatch has no one-minute datapoints for it and the read fails: move it forward then. " +
				"An end in the future is an error."),
			"timeouts": timeouts.Attributes(ctx),
			"observed": observedOutputAttribute(),
			"report":   dschema.StringAttribute{Computed: true, Description: "A readable text report of the measured traffic."},
			"item_count": dschema.Int64Attribute{Computed: true, Description: "Live: the table's (or the index's) item count as DescribeTable " +
				"reports it (AWS updates it about every six hours); null offline, or when the endpoint does not report it. The policy bundle " +
				"takes it as the item count of the AWS provider's table of the same name in the same plan, to size what a change backfills (rule DK003)."},
			"table_size_bytes": dschema.Int64Attribute{Computed: true, Description: "Live: the table's (or the index's) size in bytes as " +
				"DescribeTable reports it (updated about every six hours); null offline, or when the endpoint does not report it."},
		},
	}
}

// ConfigValidators: offline and live are exclusive, and one of them is needed.
func (d *observedTrafficDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{modeValidator{}}
}

type modeValidator struct{}

func (modeValidator) Description(context.Context) string {
	return "set metric_data (offline) or table_name without metric_data (live)"
}

func (v modeValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (modeValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m observedTrafficSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.MetricData.IsUnknown() || m.TableName.IsUnknown() {
		return
	}
	offline := !m.MetricData.IsNull()
	switch {
	case !offline && m.TableName.IsNull():
		resp.Diagnostics.AddError("Missing measured traffic source",
			"Set metric_data (and optionally accessed_keys_report, throttled_keys_report) to read an AWS CLI export offline, "+
				"or table_name to read CloudWatch with the provider's credentials.")
	case !offline:
		for attrName, v := range map[string]types.String{"accessed_keys_report": m.AccessedKeysReport, "throttled_keys_report": m.ThrottledKeysReport} {
			if !v.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(attrName), "Report without metric_data",
					attrName+" is an offline export: give metric_data with it, or remove it to read the table live.")
			}
		}
	default:
		for attrName, v := range map[string]types.String{"lookback": m.Lookback, "end": m.End} {
			if !v.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(attrName), "Live setting with an offline export",
					attrName+" applies when the data source reads CloudWatch live; with metric_data the export's own window counts. Remove it.")
			}
		}
	}
	if !m.Lookback.IsNull() && !m.Lookback.IsUnknown() {
		if _, err := parseLookback(m.Lookback.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("lookback"), "Invalid lookback", err.Error())
		}
	}
	if !m.End.IsNull() && !m.End.IsUnknown() {
		if _, err := time.Parse(time.RFC3339, m.End.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("end"), "Invalid end", fmt.Sprintf("end must be an RFC 3339 time such as 2026-11-30T12:00:00Z, got %q.", m.End.ValueString()))
		}
	}
}

// parseLookback reads a duration with an optional day unit ("14d", "1d12h") and checks its bounds.
func parseLookback(s string) (time.Duration, error) {
	days := time.Duration(0)
	rest := s
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			return 0, fmt.Errorf("lookback %q is not a duration such as \"14d\", \"36h\" or \"90m\"", s)
		}
		days, rest = time.Duration(n)*24*time.Hour, s[i+1:]
	}
	d := time.Duration(0)
	if rest != "" {
		var err error
		if d, err = time.ParseDuration(rest); err != nil {
			return 0, fmt.Errorf("lookback %q is not a duration such as \"14d\", \"36h\" or \"90m\"", s)
		}
	}
	d += days
	switch {
	case d < time.Minute:
		return 0, fmt.Errorf("lookback %q is shorter than a minute, the metrics' period", s)
	case d > maxLookback:
		return 0, fmt.Errorf("lookback %q is longer than 15 days: CloudWatch keeps one-minute datapoints for 15 days, and a longer window would understate the peak", s)
	}
	return d, nil
}

func (d *observedTrafficDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	data, diags := providerDataFrom(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	d.data = data
}

func (d *observedTrafficDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m observedTrafficSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	export := observed.Export{TableName: m.TableName.ValueString(), IndexName: m.IndexName.ValueString()}
	var diags diag.Diagnostics
	var obs *observed.Observation
	m.ItemCount, m.TableSizeBytes = types.Int64Null(), types.Int64Null()
	if !m.MetricData.IsNull() {
		export.MetricData = []byte(m.MetricData.ValueString())
		export.AccessedKeysReport = []byte(m.AccessedKeysReport.ValueString())
		export.ThrottledKeysReport = []byte(m.ThrottledKeysReport.ValueString())
		obs, diags = observeExport(export, nil)
	} else {
		obs, diags = d.readLive(ctx, &m, export)
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Observed, diags = flattenObserved(ctx, obs)
	resp.Diagnostics.Append(diags...)
	m.Report = types.StringValue(observed.Report(obs))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// observeExport computes the figures and reports bad input on the attribute that holds it; attrOf remaps
// the export attributes (the live path reports them on table_name).
func observeExport(export observed.Export, attrOf func(string) string) (*observed.Observation, diag.Diagnostics) {
	var diags diag.Diagnostics
	if attrOf == nil {
		attrOf = func(a string) string { return a }
	}
	obs, warnings, errs := observed.Observe(export)
	for _, w := range warnings {
		diags.AddAttributeWarning(path.Root(attrOf(w.Attribute)), "Measured traffic: "+w.Attribute, w.Error())
	}
	for _, e := range errs {
		diags.AddAttributeError(path.Root(attrOf(e.Attribute)), "Invalid measured traffic", e.Error())
	}
	return obs, diags
}

// liveWindow is the window a live read covers: it ends at end (default now, to the minute) and starts
// lookback earlier, clipped to the one-minute datapoints CloudWatch still holds. An end in the future or
// older than that retention is an error on end.
func liveWindow(m observedTrafficSourceModel, now time.Time) (start, end time.Time, diags diag.Diagnostics) {
	lookback := defaultLookback
	if !m.Lookback.IsNull() {
		var err error
		if lookback, err = parseLookback(m.Lookback.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("lookback"), "Invalid lookback", err.Error())
			return start, end, diags
		}
	}
	end = now.UTC().Truncate(time.Minute)
	// The oldest whole minute CloudWatch still holds at one-minute resolution.
	oldest := now.UTC().Add(-maxLookback).Truncate(time.Minute).Add(time.Minute)
	if !m.End.IsNull() {
		var err error
		if end, err = time.Parse(time.RFC3339, m.End.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("end"), "Invalid end", fmt.Sprintf("end must be an RFC 3339 time such as 2026-11-30T12:00:00Z, got %q.", m.End.ValueString()))
			return start, end, diags
		}
		// To the minute, as the default end: the metrics are one-minute sums, and a window that ends inside a
		// minute would count that minute whole while its length counted it in part.
		end = end.UTC().Truncate(time.Minute)
		switch {
		case end.After(now):
			diags.AddAttributeError(path.Root("end"), "End in the future",
				fmt.Sprintf("end %s is after now (%s): CloudWatch has no datapoints for the future. Remove end to read up to now, or give a past time.",
					m.End.ValueString(), now.UTC().Format(time.RFC3339)))
			return start, end, diags
		case !end.After(oldest):
			diags.AddAttributeError(path.Root("end"), "End too old for one-minute data",
				fmt.Sprintf("end %s is more than 15 days ago: CloudWatch keeps one-minute datapoints for 15 days, and the busiest minute is what "+
					"the rules compare with a partition's limit. Move end to after %s, or remove it to read up to now.",
					m.End.ValueString(), oldest.Format(time.RFC3339)))
			return start, end, diags
		}
	}
	start = end.Add(-lookback)
	if start.Before(oldest) {
		diags.AddAttributeWarning(path.Root("lookback"), "Window clipped to 15 days",
			fmt.Sprintf("The window would start at %s, more than 15 days ago; CloudWatch keeps one-minute datapoints for 15 days, so it starts at %s instead.",
				start.Format(time.RFC3339), oldest.Format(time.RFC3339)))
		start = oldest
	}
	return start, end, diags
}

func (d *observedTrafficDataSource) readLive(ctx context.Context, m *observedTrafficSourceModel, export observed.Export) (*observed.Observation, diag.Diagnostics) {
	start, end, diags := liveWindow(*m, time.Now())
	if diags.HasError() {
		return nil, diags
	}
	if d.data == nil || d.data.dynamo == nil {
		diags.AddError("Provider not configured", "Reading measured traffic live needs the provider's AWS configuration; configure the dynamokeys provider.")
		return nil, diags
	}
	timeout, dg := m.Timeouts.Read(ctx, defaultObservedReadTimeout)
	diags.Append(dg...)
	if diags.HasError() {
		return nil, diags
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	names := make(map[string]string, len(observed.MetricQueries))
	for _, q := range observed.MetricQueries {
		names[q.ID] = q.Metric
	}
	q := dynamo.TrafficQuery{TableName: export.TableName, IndexName: export.IndexName, Start: start, End: end, MetricNames: names}
	live, err := d.data.dynamo.ExportTraffic(ctx, q)
	switch {
	case errors.Is(err, dynamo.ErrTableNotFound):
		diags.AddAttributeError(path.Root("table_name"), "Table not found",
			fmt.Sprintf("Table %s (index %q) was not found in the provider's region and account: check table_name, index_name and the provider's region.", q.TableName, q.IndexName))
		return nil, diags
	case dynamo.IsAccessDenied(err):
		diags.AddAttributeError(path.Root("table_name"), "Reading measured traffic was denied",
			fmt.Sprintf("%v. The live read needs %s; the IAM permissions guide lists every action it calls.", err, dynamo.ActionGetMetricData))
		return nil, diags
	case err != nil:
		diags.AddAttributeError(path.Root("table_name"), "Reading measured traffic failed", fmt.Sprintf("%v. Check the provider's credentials (%s, %s, %s) and region.",
			err, dynamo.ActionGetMetricData, dynamo.ActionGetInsightRuleReport, dynamo.ActionDescribeContributorInsights))
		return nil, diags
	}
	export.MetricData, export.AccessedKeysReport, export.ThrottledKeysReport = live.MetricData, live.AccessedKeysReport, live.ThrottledKeysReport
	m.ItemCount, m.TableSizeBytes = types.Int64PointerValue(live.ItemCount), types.Int64PointerValue(live.SizeBytes)
	// The window asked for, not the span of the datapoints: CloudWatch publishes none for an idle minute, and
	// the averages spread the units over every minute of the window.
	export.Start, export.End = start, end
	// The reports' period is the one asked for: a key active every few minutes leaves datapoints as far apart
	// as a coarser period would.
	export.ReportPeriodSeconds = observed.MetricPeriodSeconds
	diags.Append(insightsWarnings(export, live)...)
	toTable := func(string) string { return "table_name" }
	obs, dg := observeExport(export, toTable)
	if dg.HasError() && export.AccessedKeysReport != nil {
		// A report without contributors (Contributor Insights just turned on, or no request since) does not
		// make the metrics unusable: read them without the key figures and say why.
		retry := export
		retry.AccessedKeysReport = nil
		if obs2, dg2 := observeExport(retry, toTable); !dg2.HasError() {
			diags.AddAttributeWarning(path.Root("table_name"), "No key figures",
				fmt.Sprintf("The most accessed keys report of %s could not be used (%s); the key figures are null.", liveTarget(export), firstError(dg)))
			diags.Append(dg2...)
			return obs2, diags
		}
	}
	diags.Append(dg...)
	return obs, diags
}

func liveTarget(e observed.Export) string {
	if e.IndexName != "" {
		return fmt.Sprintf("index %s of table %s", e.IndexName, e.TableName)
	}
	return "table " + e.TableName
}

// insightsWarnings say what the live read could not see: Contributor Insights off, changing state, failed,
// or in throttled-keys mode, and optional calls the credentials may not make.
func insightsWarnings(export observed.Export, live *dynamo.TrafficExport) diag.Diagnostics {
	var diags diag.Diagnostics
	attr := path.Root("table_name")
	if export.IndexName != "" {
		attr = path.Root("index_name")
	}
	what := liveTarget(export)
	insightsDenied := false
	for _, action := range live.Denied {
		if action == dynamo.ActionDescribeTable {
			diags.AddAttributeWarning(attr, "Permission missing for the item count",
				fmt.Sprintf("The credentials may not call %s: item_count and table_size_bytes of %s are null, so a plan's change of the table "+
					"is not sized by them. Grant %s (the IAM permissions guide lists every action the live read calls).", action, what, action))
			continue
		}
		insightsDenied = true
		diags.AddAttributeWarning(attr, "Permission missing for Contributor Insights",
			fmt.Sprintf("The credentials may not call %s: the figures of %s are the metrics only, without key figures. Grant %s (the IAM permissions guide "+
				"lists every action the live read calls) to name the busiest and throttled keys.", action, what, action))
	}
	turnOn := "Turn it on with contributor_insights = { mode = \"ACCESSED_AND_THROTTLED_KEYS\" } on the dynamokeys_sharded_table (or its index), " +
		"or `aws dynamodb update-contributor-insights`."
	switch live.InsightsStatus {
	case "ENABLED":
		if live.AccessedKeysReport == nil && live.ThrottledKeysReport != nil {
			diags.AddAttributeWarning(attr, "Contributor Insights counts throttled keys only",
				fmt.Sprintf("Contributor Insights of %s runs in mode %s: throttled keys are listed, but the busiest key's units per second need "+
					"mode = \"ACCESSED_AND_THROTTLED_KEYS\".", what, live.InsightsMode))
		}
	case "ENABLING", "DISABLING":
		diags.AddAttributeWarning(attr, "Contributor Insights is "+strings.ToLower(live.InsightsStatus),
			fmt.Sprintf("Contributor Insights of %s is %s: its rules are not read until it is ENABLED, so the key figures are null. Read again once it is.",
				what, live.InsightsStatus))
	case "FAILED":
		diags.AddAttributeWarning(attr, "Contributor Insights failed",
			fmt.Sprintf("Contributor Insights of %s is FAILED (%s): the key figures are null. Fix the cause, then turn Contributor Insights off and "+
				"on again (`aws dynamodb update-contributor-insights`, or contributor_insights on the dynamokeys_sharded_table).",
				what, cmp.Or(live.InsightsFailure, "no failure reported")))
	case "":
	default:
		if !insightsDenied {
			diags.AddAttributeWarning(attr, "Contributor Insights is off",
				fmt.Sprintf("Contributor Insights is not enabled for %s (status %q): the key figures (hot_key_units_per_second, top_keys) are null and rules "+
					"DK702 and DK703 cannot check keys; key-range throttling still shows in the metrics. %s", what, live.InsightsStatus, turnOn))
		}
	}
	return diags
}

func firstError(d diag.Diagnostics) string {
	for _, e := range d.Errors() {
		return e.Detail()
	}
	return ""
}
