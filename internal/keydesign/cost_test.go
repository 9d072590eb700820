package keydesign

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"
)

// pricedOrders is the cost guide's worked example: an orders table with an ALL and a KEYS_ONLY GSI.
func pricedOrders(billing string) *model.Input {
	return &model.Input{
		Kind: "sharded_table", TableName: "orders", BillingMode: billing,
		PartitionKey: model.Key{Name: "pk", Type: "S", Template: p("CUSTOMER#{customer_id}")},
		SortKey:      &model.Key{Name: "sk", Type: "S", Template: p("ORDER#{order_id}")},
		Segments: map[string]model.Segment{
			"customer_id": {Kind: model.KindID, MaxLength: p(int64(36))},
			"order_id":    {Kind: model.KindID, MaxLength: p(int64(36))},
		},
		Traffic: model.Traffic{WritesPerSecond: p(200.0), AverageWritesPerSecond: p(50.0), ReadsPerSecond: p(1000.0),
			AverageReadsPerSecond: p(300.0), ItemSizeBytes: p(int64(2500)), ItemCount: p(int64(10_000_000))},
		GlobalSecondaryIndexes: []model.GlobalSecondaryIndex{
			{Name: "by_date", PartitionKey: []model.IndexKeyAttribute{{Name: "day", Type: "S"}}, ProjectionType: model.ProjectionAll},
			{Name: "by_status", PartitionKey: []model.IndexKeyAttribute{{Name: "status", Type: "S"}}, ProjectionType: model.ProjectionKeysOnly},
		},
		Pricing: &model.PricingInput{Region: "us-east-1", PointInTimeRecovery: true},
	}
}

// provisionedOrders is the worked example as a PROVISIONED table with the guide's configured capacities.
func provisionedOrders() *model.Input {
	in := pricedOrders("PROVISIONED")
	in.WriteCapacity, in.ReadCapacity = p(int64(800)), p(int64(700))
	in.GlobalSecondaryIndexes[0].WriteCapacity, in.GlobalSecondaryIndexes[0].ReadCapacity = p(int64(800)), p(int64(10))
	in.GlobalSecondaryIndexes[1].WriteCapacity, in.GlobalSecondaryIndexes[1].ReadCapacity = p(int64(300)), p(int64(10))
	return in
}

func costOf(t *testing.T, in *model.Input) *model.CostEstimate {
	t.Helper()
	c := analyze(t, in).Derived.Cost
	if c == nil {
		t.Fatal("no cost estimate")
	}
	return c
}

func cents(f float64) string { return "$" + strconv.FormatFloat(math.Round(f*100)/100, 'f', 2, 64) }

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want)) }

// TestCostWorkedExampleInTheGuide recomputes the cost guide's tables from the price table, to the cent.
func TestCostWorkedExampleInTheGuide(t *testing.T) {
	rows := guideRows(t)
	od := costOf(t, pricedOrders("PAY_PER_REQUEST"))
	pv := costOf(t, provisionedOrders())
	want := map[string][]string{
		"Table writes": {cents(od.OnDemand.TableWrites), cents(od.Provisioned.TableWrites)},
		"Index writes": {cents(od.OnDemand.IndexWrites), cents(od.Provisioned.IndexWrites)},
		"Reads":        {cents(od.OnDemand.Reads), cents(od.Provisioned.Reads)},
		"Storage":      {cents(*od.OnDemand.Storage), cents(*od.Provisioned.Storage)},
		"PITR":         {cents(*od.OnDemand.PITR), cents(*od.Provisioned.PITR)},
		"Total":        {cents(*od.OnDemand.Total), cents(*od.Provisioned.Total)},
	}
	for _, ic := range od.Indexes {
		want[ic.Name] = []string{strconv.FormatFloat(ic.WriteUnitsPerWrite, 'f', -1, 64), cents(*ic.OnDemandWriteCost),
			strconv.FormatFloat(math.Round(*ic.ShareOfTableWrites*100), 'f', 0, 64) + "%"}
	}
	want["Break-even utilization"] = []string{report.FormatShare(*od.BreakEvenUtilization)}
	want["Utilization"] = []string{report.FormatShare(*od.Utilization)}
	want["PROVISIONED with the capacities below costs more by"] = []string{cents(*pv.ChosenExcessMonthly), report.FormatShare(*pv.ChosenExcessShare)}
	// The prose after the table quotes the configured table's capacity and figures.
	for _, quoted := range []string{
		fmt.Sprintf("%s WCU and %s RCU every hour cost %s a month, %s (%s) more than on-demand",
			report.FormatNumber(*pv.ProvisionedWriteCapacity), report.FormatNumber(*pv.ProvisionedReadCapacity), report.FormatUSD(*pv.Provisioned.Total),
			report.FormatUSD(*pv.ChosenExcessMonthly), report.FormatShare(*pv.ChosenExcessShare)),
		fmt.Sprintf("write_capacity = %d\nread_capacity  = %d", *provisionedOrders().WriteCapacity, *provisionedOrders().ReadCapacity),
	} {
		if !strings.Contains(guideText(t), quoted) {
			t.Errorf("the guide does not say %q", quoted)
		}
	}
	if *pv.ChosenExcessShare <= model.BillingModeCostExcessShare {
		t.Errorf("the guide's PROVISIONED table must get DK901: excess %v", *pv.ChosenExcessShare)
	}
	for label, cells := range want {
		got, ok := rows[label]
		if !ok {
			t.Errorf("the guide has no row %q", label)
			continue
		}
		if strings.Join(got, " | ") != strings.Join(cells, " | ") {
			t.Errorf("guide row %q = %v, the price table gives %v", label, got, cells)
		}
	}
	// Hand arithmetic of the same figures (us-east-1 Standard, 730 h): the model, not only the guide.
	sec := 730.0 * 3600
	for name, pair := range map[string][2]float64{
		"table writes":                        {od.OnDemand.TableWrites, 50 * 3 * sec / 1e6 * 0.625},
		"reads":                               {od.OnDemand.Reads, 300 * 0.5 * sec / 1e6 * 0.125},
		"provisioned table writes (750 WCU)":  {od.Provisioned.TableWrites, 750 * 730 * 0.00065},
		"provisioned reads (625 + 1 + 1 RCU)": {od.Provisioned.Reads, 627 * 730 * 0.00013},
		"storage":                             {*od.OnDemand.Storage, 10e6 * (2600 + 2600 + 261) / (1 << 30) * 0.25},
		"PITR":                                {*od.OnDemand.PITR, 10e6 * 2600 / (1 << 30) * 0.20},
	} {
		if !near(pair[0], pair[1]) {
			t.Errorf("%s = %v, want %v", name, pair[0], pair[1])
		}
	}
	if od.ChosenExcessShare == nil || *od.ChosenExcessShare != 0 || od.CheaperMode != model.CostModeOnDemand {
		t.Errorf("on-demand is the cheaper mode and chosen: excess %v, cheaper %s", od.ChosenExcessShare, od.CheaperMode)
	}
}

func guideText(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../templates/guides/cost.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// guideRows reads the `| label | cell | ... |` rows between the worked example's markers in the guide.
func guideRows(t *testing.T) map[string][]string {
	t.Helper()
	src, err := os.ReadFile("../../templates/guides/cost.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	in := false
	row := regexp.MustCompile(`^\|(.+)\|\s*$`)
	for line := range strings.Lines(string(src)) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.Contains(line, "worked-example:begin"):
			in = true
		case strings.Contains(line, "worked-example:end"):
			in = false
		case in && row.MatchString(line):
			var cells []string
			for _, c := range strings.Split(row.FindStringSubmatch(line)[1], "|") {
				cells = append(cells, strings.Trim(strings.TrimSpace(c), "`*"))
			}
			rows[cells[0]] = cells[1:]
		}
	}
	return rows
}

func TestCostIndexWriteAmplificationByProjection(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes,
		model.GlobalSecondaryIndex{Name: "by_total", PartitionKey: []model.IndexKeyAttribute{{Name: "customer_id", Type: "S"}},
			ProjectionType: model.ProjectionInclude, NonKeyAttributes: []string{"total", "currency"}},
		model.GlobalSecondaryIndex{Name: "sparse", PartitionKey: []model.IndexKeyAttribute{{Name: "flag", Type: "S"}},
			ProjectionType: model.ProjectionAll, ItemShare: p(0.1)})
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{{Name: "by_updated", SortKey: model.IndexKeyAttribute{Name: "updated", Type: "N"}, ProjectionType: model.ProjectionAll}}
	c := costOf(t, in)
	byName := map[string]model.IndexCost{}
	for _, ic := range c.Indexes {
		byName[ic.Name] = ic
	}
	keys := int64(2 + 45 + 2 + 42) // pk and sk names and their longest values
	for name, want := range map[string]struct {
		entry int64
		units float64
		share float64
	}{
		"by_date":    {2500, 3, 1},
		"by_status":  {keys + 6 + 64, 1, 1.0 / 3},
		"by_total":   {keys + 11 + 36 + 5 + 64 + 8 + 64, 1, 1.0 / 3},
		"sparse":     {2500, 3, 0.1},
		"by_updated": {2500, 3, 1},
	} {
		ic := byName[name]
		if ic.EntryBytes != want.entry || ic.WriteUnitsPerWrite != want.units || !near(*ic.ShareOfTableWrites, want.share) {
			t.Errorf("%s: entry %d B, %v units per write, %v of the table's writes; want %d, %v, %v",
				name, ic.EntryBytes, ic.WriteUnitsPerWrite, *ic.ShareOfTableWrites, want.entry, want.units, want.share)
		}
	}
	if byName["by_date"].ReducibleWriteUnits != 2 || byName["by_status"].ReducibleWriteUnits != 0 || byName["sparse"].ReducibleWriteUnits != 2 {
		t.Errorf("reducible units: by_date %v, by_status %v, sparse %v", byName["by_date"].ReducibleWriteUnits,
			byName["by_status"].ReducibleWriteUnits, byName["sparse"].ReducibleWriteUnits)
	}
	if byName["by_updated"].Kind != "lsi" || byName["by_date"].Kind != "gsi" {
		t.Error("index kinds")
	}
	// Storage counts every index entry with its overhead; PITR the table and its LSI only.
	items := 10e6
	wantStorage := items * (2600 + 2600 + float64(keys+70+100) + float64(keys+188+100) + 0.1*2600 + 2600) / (1 << 30)
	if !near(*c.StorageGB, wantStorage) || !near(*c.PITRGB, items*(2600+2600)/(1<<30)) {
		t.Errorf("storage %v GB, PITR %v GB", *c.StorageGB, *c.PITRGB)
	}
	// Transactional writes double the index entries' units too.
	in.Traffic.TransactionalWrites = true
	for _, ic := range costOf(t, in).Indexes {
		if ic.WriteUnitsPerWrite != 2*byName[ic.Name].WriteUnitsPerWrite {
			t.Errorf("%s: transactional %v units per write, want twice %v", ic.Name, ic.WriteUnitsPerWrite, byName[ic.Name].WriteUnitsPerWrite)
		}
	}
}

func TestCostDeclaredPeakIsAnUpperBound(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Traffic.AverageWritesPerSecond, in.Traffic.AverageReadsPerSecond = nil, nil
	c := costOf(t, in)
	if c.WritesBasis != model.BasisDeclaredPeak || c.ReadsBasis != model.BasisDeclaredPeak {
		t.Fatalf("bases = %s, %s", c.WritesBasis, c.ReadsBasis)
	}
	// At the peak held all month provisioned is cheaper, but that does not show on-demand costs more.
	if c.CheaperMode != model.CostModeProvisioned || c.ChosenExcessShare != nil {
		t.Errorf("cheaper %s, chosen excess %v: an upper bound must not establish an excess", c.CheaperMode, c.ChosenExcessShare)
	}
	// A PROVISIONED table at peak-only traffic: provisioned is the cheaper one, no excess.
	in.BillingMode = model.BillingProvisioned
	if c := costOf(t, in); c.ChosenExcessShare == nil || *c.ChosenExcessShare != 0 {
		t.Errorf("provisioned chosen and cheaper: excess %v", c.ChosenExcessShare)
	}
}

// TestCostCheaperModeHeldOut checks the excess on designs the worked example does not cover.
func TestCostCheaperModeHeldOut(t *testing.T) {
	steady := func(in *model.Input) { // averages at 90% of the peak: provisioned wins
		in.Traffic.AverageWritesPerSecond, in.Traffic.AverageReadsPerSecond = p(180.0), p(900.0)
	}
	spiky := func(in *model.Input) { // averages at 2% of the peak: on-demand wins
		in.Traffic.AverageWritesPerSecond, in.Traffic.AverageReadsPerSecond = p(4.0), p(20.0)
	}
	for _, tt := range []struct {
		name, billing string
		shape         func(*model.Input)
		excess        bool
	}{
		{"steady on on-demand", "PAY_PER_REQUEST", steady, true},
		{"steady on provisioned", "PROVISIONED", steady, false},
		{"spiky on provisioned", "PROVISIONED", spiky, true},
		{"spiky on on-demand", "PAY_PER_REQUEST", spiky, false},
		{"no billing mode (data source)", "", spiky, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := pricedOrders(tt.billing)
			tt.shape(in)
			c := costOf(t, in)
			got := c.ChosenExcessShare != nil && *c.ChosenExcessShare > model.BillingModeCostExcessShare
			if got != tt.excess {
				t.Errorf("excess share %v (on-demand %v, provisioned %v); want above the threshold: %v", c.ChosenExcessShare, *c.OnDemand.Total, *c.Provisioned.Total, tt.excess)
			}
			if (c.CheaperMode == model.CostModeOnDemand) != (*c.Utilization < *c.BreakEvenUtilization) {
				t.Errorf("cheaper %s but utilization %v vs break-even %v", c.CheaperMode, *c.Utilization, *c.BreakEvenUtilization)
			}
		})
	}
}

func TestCostProvisionedCapacitySources(t *testing.T) {
	in := pricedOrders(model.BillingProvisioned)
	in.GlobalSecondaryIndexes = nil
	in.WriteCapacity, in.ReadCapacity = p(int64(400)), p(int64(900))
	c := costOf(t, in)
	if *c.ProvisionedWriteCapacity != 400 || *c.ProvisionedReadCapacity != 900 || c.CapacityBasis != "configured capacity" {
		t.Errorf("configured capacity: %v WCU, %v RCU (%s)", *c.ProvisionedWriteCapacity, *c.ProvisionedReadCapacity, c.CapacityBasis)
	}
	// Autoscaling follows the average demand over the target utilisation, within its range.
	in.Autoscaling = &model.Autoscaling{Write: &model.CapacityRange{Min: 10, Max: 1000}, Read: &model.CapacityRange{Min: 200, Max: 2000}}
	c = costOf(t, in)
	if *c.ProvisionedWriteCapacity != math.Ceil(50*3/0.8) || *c.ProvisionedReadCapacity != 200 {
		t.Errorf("autoscaled: %v WCU (want %v), %v RCU (want the range's minimum 200)", *c.ProvisionedWriteCapacity, math.Ceil(50*3/0.8), *c.ProvisionedReadCapacity)
	}
}

func TestCostMeasuredTrafficChangesTheFigures(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	declared := costOf(t, in)
	in.Observed = []model.ObservedInput{
		{Path: model.Path{"observed"}, Observation: observed.Observation{Traffic: observed.Traffic{WritesPerSecond: p(300.0), ReadsPerSecond: p(200.0),
			AverageWritesPerSecond: p(30.0), AverageReadsPerSecond: p(60.0)}}},
		{Path: model.Path{"observed_indexes", "by_date"}, Observation: observed.Observation{IndexName: "by_date",
			Traffic: observed.Traffic{WritesPerSecond: p(90.0), AverageWritesPerSecond: p(12.0)}}},
	}
	c := costOf(t, in)
	sec := 730.0 * 3600
	if c.WritesBasis != model.BasisMeasuredAverage || c.ReadsBasis != model.BasisMeasuredAverage {
		t.Fatalf("bases %s, %s", c.WritesBasis, c.ReadsBasis)
	}
	// Measured units are units: 30 WCU/s of 3-unit items is 10 writes/s.
	if !near(*c.TableMonthlyWriteUnits, 30*sec) || !near(*c.MonthlyReadRequestUnits, 60*sec) {
		t.Errorf("table write units %v (want %v), read units %v (want %v)", *c.TableMonthlyWriteUnits, 30*sec, *c.MonthlyReadRequestUnits, 60*sec)
	}
	for _, ic := range c.Indexes {
		want := map[string]float64{"by_date": 12 * sec, "by_status": 10 * sec}[ic.Name]
		if !near(*ic.MonthlyWriteUnits, want) {
			t.Errorf("%s: %v write units, want %v (basis %s)", ic.Name, *ic.MonthlyWriteUnits, want, ic.WritesBasis)
		}
	}
	if *c.OnDemand.Total >= *declared.OnDemand.Total {
		t.Errorf("lower measured traffic must cost less: %v vs declared %v", *c.OnDemand.Total, *declared.OnDemand.Total)
	}
	// The measured peak prices provisioned capacity: 300 WCU/s over 0.8.
	if got := c.Provisioned.TableWrites; !near(got, math.Ceil(300/0.8)*730*0.00065) {
		t.Errorf("provisioned table writes %v", got)
	}
	// Without the averages, the measured peak prices the month: an upper bound, said so.
	in.Observed[0].Traffic.AverageWritesPerSecond = nil
	if c := costOf(t, in); c.WritesBasis != model.BasisMeasuredPeak || !near(*c.TableMonthlyWriteUnits, 300*sec) {
		t.Errorf("measured peak basis: %s, %v", c.WritesBasis, *c.TableMonthlyWriteUnits)
	}
}

func TestCostMeasuredUnitsIncludeLSIWrites(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.GlobalSecondaryIndexes = nil
	in.LocalSecondaryIndexes = []model.LocalSecondaryIndex{{Name: "by_updated", SortKey: model.IndexKeyAttribute{Name: "updated", Type: "N"}, ProjectionType: model.ProjectionAll}}
	in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: observed.Observation{Traffic: observed.Traffic{
		WritesPerSecond: p(60.0), AverageWritesPerSecond: p(60.0)}}}}
	c := costOf(t, in)
	sec := 730.0 * 3600
	// 60 units/s = 10 writes/s × (3 table + 3 LSI units).
	if !near(*c.TableMonthlyWriteUnits, 30*sec) || !near(*c.Indexes[0].MonthlyWriteUnits, 30*sec) || !near(*c.MonthlyWriteRequestUnits, 60*sec) {
		t.Errorf("table %v, LSI %v, total %v", *c.TableMonthlyWriteUnits, *c.Indexes[0].MonthlyWriteUnits, *c.MonthlyWriteRequestUnits)
	}
}

func TestCostRegionsAndOverrides(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Pricing = &model.PricingInput{Region: "sa-east-1"}
	c := costOf(t, in)
	if c.Prices != nil || c.OnDemand != nil || !strings.Contains(c.Problem, "sa-east-1") || !strings.Contains(c.Problem, "pricing.prices.write_request_units_per_million") {
		t.Errorf("unknown region: prices %v, problem %q", c.Prices, c.Problem)
	}
	all := model.PriceOverrides{WriteRequestUnitsPerMillion: p(1.0), ReadRequestUnitsPerMillion: p(0.2), WriteCapacityUnitHour: p(0.001),
		ReadCapacityUnitHour: p(0.0002), StorageGBMonth: p(0.3), PITRGBMonth: p(0.25)}
	in.Pricing.Prices = all
	c = costOf(t, in)
	if c.Problem != "" || c.PriceSource != model.CostPriceSourceOverride || !near(c.OnDemand.TableWrites, 50*3*730*3600/1e6*1.0) {
		t.Errorf("overrides: %q %s %v", c.Problem, c.PriceSource, c.OnDemand)
	}
	// A negotiated rate in a listed region replaces that one price.
	in.Pricing = &model.PricingInput{Region: "eu-west-1", TableClass: model.TableClassInfrequentAccess, Prices: model.PriceOverrides{StorageGBMonth: p(0.05)}}
	c = costOf(t, in)
	ia := model.PriceTable.Regions["eu-west-1"][model.TableClassInfrequentAccess]
	if c.PriceSource != model.CostPriceSourceTableOverride || c.Prices.StorageGBMonth != 0.05 || c.Prices.WriteRequestUnitsPerMillion != ia.WriteRequestUnitsPerMillion {
		t.Errorf("partial override: %s %+v", c.PriceSource, c.Prices)
	}
	// No region at all: the default region, said so.
	in.Pricing = nil
	if c := costOf(t, in); c.Region != "us-east-1" || c.RegionSource != model.CostRegionSourceDefault {
		t.Errorf("default region %s (%s)", c.Region, c.RegionSource)
	}
}

func TestCostPriceTableIsComplete(t *testing.T) {
	for _, region := range []string{"us-east-1", "eu-west-1", "ap-northeast-1"} {
		for _, class := range model.TableClasses {
			pr, ok := model.PriceTable.Regions[region][class]
			if !ok || pr.WriteRequestUnitsPerMillion <= 0 || pr.ReadRequestUnitsPerMillion <= 0 || pr.WriteCapacityUnitHour <= 0 ||
				pr.ReadCapacityUnitHour <= 0 || pr.StorageGBMonth <= 0 || pr.PITRGBMonth <= 0 || pr.Note == "" {
				t.Errorf("%s %s: %+v", region, class, pr)
			}
		}
	}
	if model.PriceTable.Retrieved == "" || len(model.PriceTable.Sources) == 0 || model.PriceTable.Currency != "USD" {
		t.Errorf("the price table needs a date, sources and a currency: %+v", model.PriceTable)
	}
}

func TestCostWithoutTrafficOrItems(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Traffic = model.Traffic{}
	c := costOf(t, in)
	if c.WritesBasis != model.BasisNone || c.OnDemand != nil || c.Problem == "" || c.StorageGB != nil || len(c.Indexes) != 2 {
		t.Errorf("no traffic: %+v", c)
	}
	in = pricedOrders("PAY_PER_REQUEST")
	in.Traffic.ItemCount = nil
	c = costOf(t, in)
	if c.StorageGB != nil || c.OnDemand.Storage != nil || c.OnDemand.PITR != nil || *c.OnDemand.Total != c.OnDemand.TableWrites+c.OnDemand.IndexWrites+c.OnDemand.Reads {
		t.Errorf("no item count: storage %v, %+v", c.StorageGB, c.OnDemand)
	}
	if u := c.InfracostUsage(); u["storage_gb"] != 0 || len(u) != 2 {
		t.Errorf("infracost usage without storage: %v", u)
	}
}

func TestInfracostUsage(t *testing.T) {
	c := costOf(t, pricedOrders("PAY_PER_REQUEST"))
	sec := int64(730 * 3600)
	want := map[string]int64{
		"monthly_write_request_units": (50*3 + 50*3 + 50*1) * sec, "monthly_read_request_units": 150 * sec,
		"storage_gb": 51, "pitr_backup_storage_gb": 25,
	}
	got := c.InfracostUsage()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("keys %v", got)
	}
}

func TestCostBadInputNamesTheAttribute(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*model.Input)
		path string
	}{
		{"average above peak", func(in *model.Input) { in.Traffic.AverageWritesPerSecond = p(500.0) }, "traffic.average_writes_per_second"},
		{"negative average", func(in *model.Input) { in.Traffic.AverageReadsPerSecond = p(-1.0) }, "traffic.average_reads_per_second"},
		{"negative items", func(in *model.Input) { in.Traffic.ItemCount = p(int64(-5)) }, "traffic.item_count"},
		{"share above 1", func(in *model.Input) { in.GlobalSecondaryIndexes[0].ItemShare = p(1.5) }, "global_secondary_indexes.by_date.item_share"},
		{"bad class", func(in *model.Input) { in.Pricing.TableClass = "GLACIER" }, "pricing.table_class"},
		{"negative price", func(in *model.Input) { in.Pricing.Prices.StorageGBMonth = p(-0.1) }, "pricing.prices.storage_gb_month"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := pricedOrders("PAY_PER_REQUEST")
			tt.edit(in)
			_, errs := Analyze(in)
			if len(errs) != 1 || errs[0].Path.String() != tt.path {
				t.Errorf("errors %v, want one on %s", errs, tt.path)
			}
		})
	}
}

func TestUnknownPricingMarksCostUnknown(t *testing.T) {
	for _, u := range []model.Path{{"traffic", "average_writes_per_second"}, {"pricing", "region"}, {"pricing", "table_class"},
		{"pricing", "prices", "storage_gb_month"}, {"pricing", "point_in_time_recovery"}, {"table_class"}, {"point_in_time_recovery"}} {
		in := pricedOrders("PAY_PER_REQUEST")
		in.Unknown = []model.Path{u}
		doc := analyze(t, in)
		if doc.Derived.Cost != nil || !strings.Contains(strings.Join(doc.Unknown, ","), "derived.cost") {
			t.Errorf("%s unknown: cost %v, unknown %v", u, doc.Derived.Cost, doc.Unknown)
		}
	}
}

func TestCostReportLines(t *testing.T) {
	doc := analyze(t, pricedOrders("PAY_PER_REQUEST"))
	r := report.Text(doc, nil)
	for _, want := range []string{
		"Monthly cost (us-east-1, STANDARD)",
		"  prices: confirmed list prices (sources as of " + model.PriceTable.Retrieved + ") for write request units, read request units, " +
			"write capacity units, read capacity units; estimates, not confirmed list prices, for storage, PITR",
		"  table writes        $246.38      $355.88",
		"  total               $641.71      $907.44",
		"  index by_date: 3 write units per write, $246.38 on-demand (100% of the table's writes)",
		"on-demand is cheaper: on-demand wins below 28.9% average use of the provisioned capacity; this design uses 20.3%",
		"writes priced at the declared average, reads at the declared average",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

// TestCostAveragesAreBounded: a hand-given or declared average is finite, between 0 and
// MaxRequestsPerSecond, and not above its peak, else an error on its attribute and no figure from it.
func TestCostAveragesAreBounded(t *testing.T) {
	measured := func(avgW, avgR, peakW, peakR *float64) func(*model.Input) {
		return func(in *model.Input) {
			in.Observed = []model.ObservedInput{{Path: model.Path{"observed"}, Observation: observed.Observation{Traffic: observed.Traffic{
				AverageWritesPerSecond: avgW, AverageReadsPerSecond: avgR, WritesPerSecond: peakW, ReadsPerSecond: peakR}}}}
		}
	}
	for _, tt := range []struct {
		name string
		edit func(*model.Input)
		path string
	}{
		{"measured negative writes", measured(p(-50.0), nil, nil, nil), "observed.traffic.average_writes_per_second"},
		{"measured huge reads", measured(nil, p(1e300), nil, nil), "observed.traffic.average_reads_per_second"},
		{"measured NaN writes", measured(p(math.NaN()), nil, nil, nil), "observed.traffic.average_writes_per_second"},
		{"measured infinite reads", measured(nil, p(math.Inf(1)), nil, nil), "observed.traffic.average_reads_per_second"},
		{"measured average above peak", measured(p(90.0), nil, p(10.0), nil), "observed.traffic.average_writes_per_second"},
		{"measured read average above peak", measured(nil, p(7.65), nil, p(1.0)), "observed.traffic.average_reads_per_second"},
		{"declared average without a peak too large", func(in *model.Input) {
			in.Traffic.WritesPerSecond, in.Traffic.AverageWritesPerSecond = nil, p(1e305)
		}, "traffic.average_writes_per_second"},
		{"declared read average above peak", func(in *model.Input) { in.Traffic.AverageReadsPerSecond = p(1000.5) }, "traffic.average_reads_per_second"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := pricedOrders("PAY_PER_REQUEST")
			tt.edit(in)
			_, errs := Analyze(in)
			if len(errs) != 1 || errs[0].Path.String() != tt.path {
				t.Errorf("errors %v, want one on %s", errs, tt.path)
			}
		})
	}
	// At the bound and at the peak are accepted.
	in := pricedOrders("PAY_PER_REQUEST")
	measured(p(10.0), p(float64(model.MaxRequestsPerSecond)), p(10.0), nil)(in)
	if _, errs := Analyze(in); len(errs) != 0 {
		t.Errorf("averages at their bounds: %v", errs)
	}
}

// TestCostStaysFinite: prices are bounded, and an estimate with an infinite figure is refused on `pricing`
// instead of reaching JSON encoding.
func TestCostStaysFinite(t *testing.T) {
	for _, name := range []string{"write_request_units_per_million", "read_capacity_unit_hour", "storage_gb_month"} {
		in := pricedOrders("PROVISIONED")
		v := p(1e307)
		switch name {
		case "write_request_units_per_million":
			in.Pricing.Prices.WriteRequestUnitsPerMillion = v
		case "read_capacity_unit_hour":
			in.Pricing.Prices.ReadCapacityUnitHour = v
		default:
			in.Pricing.Prices.StorageGBMonth = v
		}
		_, errs := Analyze(in)
		if len(errs) != 1 || errs[0].Path.String() != "pricing.prices."+name {
			t.Errorf("price 1e307 for %s: %v", name, errs)
		}
	}
	// The largest accepted inputs give a finite, encodable estimate.
	in := pricedOrders("PAY_PER_REQUEST")
	in.Traffic.WritesPerSecond, in.Traffic.AverageWritesPerSecond = nil, p(float64(model.MaxRequestsPerSecond))
	in.Traffic.ItemSizeBytes, in.Traffic.TransactionalWrites = p(model.MaxItemSizeBytes), true
	in.Traffic.ItemCount = p(int64(math.MaxInt64))
	big := p(model.MaxPriceUSD)
	in.Pricing.Prices = model.PriceOverrides{WriteRequestUnitsPerMillion: big, ReadRequestUnitsPerMillion: big, WriteCapacityUnitHour: big,
		ReadCapacityUnitHour: big, StorageGBMonth: big, PITRGBMonth: big}
	doc, errs := Analyze(in)
	if len(errs) != 0 {
		t.Fatalf("largest inputs: %v", errs)
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Errorf("largest inputs do not encode: %v", err)
	}
	// The guard itself: an infinite figure anywhere in the estimate is refused with a path.
	for _, spoil := range []func(*model.CostEstimate){
		func(c *model.CostEstimate) { c.OnDemand.Total = p(math.Inf(1)) },
		func(c *model.CostEstimate) { c.Indexes[0].OnDemandWriteCost = p(math.Inf(1)) },
		func(c *model.CostEstimate) { c.Reads[0].ProvisionedCost = math.NaN() },
		func(c *model.CostEstimate) { c.StorageGB = p(math.Inf(1)) },
	} {
		doc := analyze(t, pricedOrders("PAY_PER_REQUEST"))
		spoil(doc.Derived.Cost)
		if errs := checkFinite(doc); len(errs) != 1 || errs[0].Path.String() != "pricing" {
			t.Errorf("an infinite cost figure: %v", errs)
		}
	}
}

// TestCostUnknownReadsAreLeftOut: without the table's reads neither the monthly read units (Infracost's
// monthly_read_request_units) nor provisioned read capacity is given, in either billing mode, with or
// without indexes; an index's own measured reads are still priced.
func TestCostUnknownReadsAreLeftOut(t *testing.T) {
	for _, billing := range []string{"PAY_PER_REQUEST", "PROVISIONED"} {
		in := pricedOrders(billing)
		in.Traffic.ReadsPerSecond, in.Traffic.AverageReadsPerSecond = nil, nil
		c := costOf(t, in)
		if c.ReadsBasis != model.BasisNone || c.MonthlyReadRequestUnits != nil || c.ReadUnitsPerSecond != nil || len(c.Reads) != 0 {
			t.Errorf("%s, reads unknown: basis %s, monthly %v, reads %+v", billing, c.ReadsBasis, c.MonthlyReadRequestUnits, c.Reads)
		}
		if _, ok := c.InfracostUsage()["monthly_read_request_units"]; ok {
			t.Errorf("%s: infracost usage gives reads it does not know: %v", billing, c.InfracostUsage())
		}
		in.Observed = []model.ObservedInput{{Path: model.Path{"observed_indexes", "by_date"}, Observation: observed.Observation{IndexName: "by_date",
			Traffic: observed.Traffic{AverageReadsPerSecond: p(4.0), ReadsPerSecond: p(8.0)}}}}
		c = costOf(t, in)
		if len(c.Reads) != 1 || c.Reads[0].Source != "index by_date" || c.Reads[0].AverageUnitsPerSec != 4 || c.MonthlyReadRequestUnits != nil {
			t.Errorf("%s, an index's measured reads: %+v, monthly %v", billing, c.Reads, c.MonthlyReadRequestUnits)
		}
	}
}

// TestCostOneSidedTrafficIsNotCompared: with only writes or only reads known, the modes' totals, the cheaper
// mode, the excess (DK901) and the break-even utilization stay null, the unknown side's capacity too, and
// the report says why.
func TestCostOneSidedTrafficIsNotCompared(t *testing.T) {
	for _, side := range []string{"writes", "reads"} {
		for _, billing := range []string{"PAY_PER_REQUEST", "PROVISIONED"} {
			in := pricedOrders(billing)
			if side == "writes" {
				in.Traffic.WritesPerSecond, in.Traffic.AverageWritesPerSecond = nil, nil
			} else {
				in.Traffic.ReadsPerSecond, in.Traffic.AverageReadsPerSecond = nil, nil
			}
			doc := analyze(t, in)
			c := doc.Derived.Cost
			if c.OnDemand == nil || c.OnDemand.Total != nil || c.Provisioned.Total != nil || c.CheaperMode != "" ||
				c.ChosenExcessShare != nil || c.ChosenExcessMonthly != nil || c.BreakEvenUtilization != nil || c.Utilization != nil {
				t.Errorf("%s unknown, %s: compared anyway: %+v", side, billing, c)
			}
			if (side == "writes") != (c.ProvisionedWriteCapacity == nil) || (side == "reads") != (c.ProvisionedReadCapacity == nil) {
				t.Errorf("%s unknown, %s: capacities %v WCU, %v RCU", side, billing, c.ProvisionedWriteCapacity, c.ProvisionedReadCapacity)
			}
			for _, ic := range c.Indexes {
				if (side == "writes") != (ic.ProvisionedCost == nil) {
					t.Errorf("%s unknown: index %s provisioned write cost %v", side, ic.Name, ic.ProvisionedCost)
				}
			}
			if r := report.Text(doc, nil); !strings.Contains(r, "the modes are not compared") || !strings.Contains(r, "no "+side+" (") || strings.Contains(r, "  total ") {
				t.Errorf("%s unknown: report does not say why:\n%s", side, r)
			}
		}
	}
}

// TestCostIncludedAttributeUsesTheIDLimit: an INCLUDE entry's non-key value is bounded by the limits'
// default_id_max_length, so changing the limit changes the entry.
func TestCostIncludedAttributeUsesTheIDLimit(t *testing.T) {
	saved := model.DefaultIDMaxLength
	t.Cleanup(func() { model.DefaultIDMaxLength = saved })
	for _, limit := range []int64{saved, 100, 300} {
		model.DefaultIDMaxLength = limit
		if got, want := capacity.ProjectedEntryBytes(model.ProjectionInclude, 4000, 50, []string{"status", "total"}), 50+int64(len("status")+len("total"))+2*limit; got != want {
			t.Errorf("default_id_max_length %d: INCLUDE entry %d bytes, want %d", limit, got, want)
		}
	}
}

// TestUSDFormatsNegatives: dollars to the cent with the sign before the dollar sign.
func TestUSDFormatsNegatives(t *testing.T) {
	for f, want := range map[float64]string{-82.12: "-$82.12", -1234.5: "-$1,234.50", -0.004: "$0.00", -0.005: "-$0.01",
		0: "$0.00", 1234.567: "$1,234.57", 0.995: "$1.00", -1999.999: "-$2,000.00"} {
		if got := report.FormatUSD(f); got != want {
			t.Errorf("report.FormatUSD(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestIndexDeclaredWritesInItsOwnUnits: an index's declared write demand (DK601's hot partition, DK701's
// declared units) counts each table write in the index's own write units, the cost model's figure: a
// KEYS_ONLY entry of a large item costs fewer than the item, an ALL entry the same, transactional twice.
func TestIndexDeclaredWritesInItsOwnUnits(t *testing.T) {
	for _, txn := range []bool{false, true} {
		for _, size := range []int64{700, 2500, 9000} {
			in := pricedOrders("PAY_PER_REQUEST")
			in.Traffic.ItemSizeBytes, in.Traffic.TransactionalWrites = p(size), txn
			in.GlobalSecondaryIndexes[1].PartitionKey[0].Cardinality = p(int64(4))
			in.Observed = []model.ObservedInput{{Path: model.Path{"observed_indexes", "by_status"}, Observation: observed.Observation{IndexName: "by_status"}}}
			doc := analyze(t, in)
			if doc.Table.GSIs[0].PeakSource != model.PeakDeclared {
				t.Fatalf("by_date is not observed: its peak is declared, got %q", doc.Table.GSIs[0].PeakSource)
			}
			units := map[string]float64{}
			for _, ic := range doc.Derived.Cost.Indexes {
				units[ic.Name] = ic.WriteUnitsPerWrite
			}
			for _, g := range doc.Table.GSIs {
				want := 200 * units[g.Name]
				if g.PeakSource == model.PeakDeclared && !near(*g.PeakWriteUnits, want) {
					t.Errorf("%d B, txn %v: %s peak write units %v, want %v", size, txn, g.Name, g.PeakWriteUnits, want)
				}
				if g.Name == "by_status" && (g.HotPartitionWriteUnits == nil || !near(*g.HotPartitionWriteUnits, want/4)) {
					t.Errorf("%d B, txn %v: by_status hot partition %v, want %v", size, txn, g.HotPartitionWriteUnits, want/4)
				}
			}
			for _, o := range doc.Observed {
				if o.IndexName == "by_status" && (o.Measured.DeclaredWriteUnits == nil || !near(*o.Measured.DeclaredWriteUnits, 200*units["by_status"])) {
					t.Errorf("%d B, txn %v: by_status declared write units %v, want %v", size, txn, o.Measured.DeclaredWriteUnits, 200*units["by_status"])
				}
			}
		}
	}
}

// TestCostPricesAccessPatternReads: without declared reads, the reads of the declared access patterns are
// priced (held all month, an upper bound), on the table and on the GSI that serves a pattern; a declared
// peak below them is raised to them, and a declared average is kept.
func TestCostPricesAccessPatternReads(t *testing.T) {
	in := pricedOrders("PAY_PER_REQUEST")
	in.Traffic.ReadsPerSecond, in.Traffic.AverageReadsPerSecond = nil, nil
	in.AccessPatterns = []model.AccessPattern{
		// 10 items of 2,500 B: ceil(25,000 / 4,096) = 7 units, halved for eventual reads: 3.5 per call.
		{Name: "orders_of_customer", Equals: []string{"customer_id"}, ReadsPerSecond: p(400.0), Items: p(int64(10))},
		// One KEYS_ONLY entry read strongly would be refused on a GSI; eventually: 0.5 units per call.
		{Name: "by_status", Index: p("by_status"), Equals: []string{"status"}, ReadsPerSecond: p(100.0), ItemSizeBytes: p(int64(100))},
		{Name: "by_date", Index: p("by_date"), Equals: []string{"day"}, ReadsPerSecond: p(20.0)},
	}
	c := costOf(t, in)
	sec := (model.HoursPerMonth * model.SecondsPerHour)
	if c.ReadsBasis != model.BasisPatternPeak {
		t.Fatalf("reads basis %q, want %q", c.ReadsBasis, model.BasisPatternPeak)
	}
	want := map[string]float64{"table": 400 * 3.5, "index by_status": 100 * 0.5, "index by_date": 20 * 0.5}
	for _, r := range c.Reads {
		w, ok := want[r.Source]
		if !ok {
			t.Errorf("unexpected read source %q", r.Source)
			continue
		}
		if r.Basis != model.BasisPatternPeak || !near(r.MonthlyReadUnits, w*sec) {
			t.Errorf("%s: %v units a month on %q, want %v on %q", r.Source, r.MonthlyReadUnits, r.Basis, w*sec, model.BasisPatternPeak)
		}
		delete(want, r.Source)
	}
	if len(want) > 0 {
		t.Errorf("read sources missing: %v", want)
	}
	if c.OnDemand.Total == nil || c.ChosenExcessShare != nil {
		t.Errorf("patterns held all month are an upper bound: a total, and no excess (total %v, excess %v)", c.OnDemand.Total, c.ChosenExcessShare)
	}

	// A declared peak below the patterns' reads is raised to them; a declared average stays the figure.
	in.Traffic.ReadsPerSecond = p(100.0)
	if c := costOf(t, in); !near(c.Reads[0].MonthlyReadUnits, 1400*sec) || c.ReadsBasis != model.BasisPatternPeak {
		t.Errorf("declared peak below the patterns: %v units on %q, want %v", c.Reads[0].MonthlyReadUnits, c.ReadsBasis, 1400*sec)
	}
	in.Traffic.AverageReadsPerSecond = p(50.0)
	if c := costOf(t, in); !near(c.Reads[0].MonthlyReadUnits, 50*0.5*sec) || c.ReadsBasis != model.BasisDeclaredAverage {
		t.Errorf("declared average: %v units on %q, want %v on %q", c.Reads[0].MonthlyReadUnits, c.ReadsBasis, 50*0.5*sec, model.BasisDeclaredAverage)
	}
}

// TestCostIndexProjectionAPatternReadsIsNotReducible: DK902's "project less" applies to an index no
// declared pattern reads for more than the keys; one that a pattern reads whole (no attributes, or
// attributes outside the keys) keeps its projection.
func TestCostIndexProjectionAPatternReadsIsNotReducible(t *testing.T) {
	reducible := func(in *model.Input, index string) float64 {
		t.Helper()
		for _, ic := range costOf(t, in).Indexes {
			if ic.Name == index {
				return ic.ReducibleWriteUnits
			}
		}
		t.Fatalf("no index %s", index)
		return 0
	}
	in := pricedOrders("PAY_PER_REQUEST")
	if r := reducible(in, "by_date"); r <= 0 {
		t.Fatalf("an ALL index of 2,500-byte items that no pattern reads: reducible %v, want > 0", r)
	}
	for name, tc := range map[string]struct {
		attributes []string
		reducible  bool
	}{
		"the whole item":         {nil, false},
		"an attribute not a key": {[]string{"total"}, false},
		"only keys and segments": {[]string{"day", "customer_id", "pk"}, true},
	} {
		t.Run(name, func(t *testing.T) {
			in := pricedOrders("PAY_PER_REQUEST")
			in.AccessPatterns = []model.AccessPattern{{Name: "orders_of_day", Index: p("by_date"), Equals: []string{"day"}, ReadsPerSecond: p(10.0), Attributes: tc.attributes}}
			if got := reducible(in, "by_date") > 0; got != tc.reducible {
				t.Errorf("reducible = %v, want %v", got, tc.reducible)
			}
		})
	}
}
