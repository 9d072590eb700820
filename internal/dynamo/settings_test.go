package dynamo

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCreateTableSendsStreamEncryptionAndThroughput(t *testing.T) {
	tb := table()
	tb.Stream = &Stream{Enabled: true, ViewType: "NEW_AND_OLD_IMAGES"}
	tb.Encryption = &Encryption{Enabled: true, KMSKeyARN: "arn:aws:kms:us-east-1:111122223333:key/abc"}
	tb.OnDemand = &Throughput{Read: aws.Int64(2000)}
	tb.Warm = &Throughput{Read: aws.Int64(15000), Write: aws.Int64(5000)}
	in := expandCreateTable(tb)
	if !aws.ToBool(in.StreamSpecification.StreamEnabled) || in.StreamSpecification.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Errorf("stream = %+v", in.StreamSpecification)
	}
	if in.SSESpecification.SSEType != types.SSETypeKms || aws.ToString(in.SSESpecification.KMSMasterKeyId) != tb.Encryption.KMSKeyARN {
		t.Errorf("encryption = %+v", in.SSESpecification)
	}
	if aws.ToInt64(in.OnDemandThroughput.MaxReadRequestUnits) != 2000 || in.OnDemandThroughput.MaxWriteRequestUnits != nil {
		t.Errorf("on-demand throughput = %+v; a create leaves an uncapped side out (-1 only removes a cap)", in.OnDemandThroughput)
	}
	if aws.ToInt64(in.WarmThroughput.WriteUnitsPerSecond) != 5000 {
		t.Errorf("warm throughput = %+v", in.WarmThroughput)
	}
	plain := expandCreateTable(table())
	if plain.StreamSpecification != nil || plain.SSESpecification != nil || plain.OnDemandThroughput != nil || plain.WarmThroughput != nil {
		t.Errorf("a table without these settings must not send them: %+v", plain)
	}
}

func TestStreamUpdates(t *testing.T) {
	on := func(view string) *Stream { return &Stream{Enabled: true, ViewType: view} }
	tests := []struct {
		name     string
		old, new *Stream
		want     string // the calls, in order
	}{
		{"unchanged", on("KEYS_ONLY"), on("KEYS_ONLY"), ""},
		{"both off", &Stream{}, nil, ""},
		{"enable", &Stream{}, on("NEW_IMAGE"), "on:NEW_IMAGE"},
		{"disable", on("NEW_IMAGE"), &Stream{}, "off"},
		{"removed from config disables", on("NEW_IMAGE"), nil, "off"},
		{"view type change is off then on", on("KEYS_ONLY"), on("NEW_AND_OLD_IMAGES"), "off,on:NEW_AND_OLD_IMAGES"},
	}
	for _, tt := range tests {
		var calls []string
		for _, s := range streamUpdates(Table{Stream: tt.old}, Table{Stream: tt.new}) {
			if aws.ToBool(s.StreamEnabled) {
				calls = append(calls, "on:"+string(s.StreamViewType))
			} else {
				calls = append(calls, "off")
			}
		}
		if got := strings.Join(calls, ","); got != tt.want {
			t.Errorf("%s: calls %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestEncryptionUpdate(t *testing.T) {
	cmk := func(arn string) *Encryption { return &Encryption{Enabled: true, KMSKeyARN: arn} }
	tests := []struct {
		name      string
		old, new  *Encryption
		wantCall  bool
		wantKeyID string
	}{
		{"owned to owned", nil, nil, false, ""},
		{"owned to managed", nil, &Encryption{Enabled: true}, true, ""},
		{"managed stays managed", cmk("arn:aws:kms:us-east-1:1:key/aws-managed"), &Encryption{Enabled: true}, false, ""},
		{"switch keys in place", cmk("arn:aws:kms:us-east-1:1:key/a"), cmk("arn:aws:kms:us-east-1:1:key/b"), true, "arn:aws:kms:us-east-1:1:key/b"},
		{"same key", cmk("arn:aws:kms:us-east-1:1:key/a"), cmk("arn:aws:kms:us-east-1:1:key/a"), false, ""},
		{"back to owned", cmk("arn:aws:kms:us-east-1:1:key/a"), nil, true, ""},
	}
	for _, tt := range tests {
		spec := encryptionUpdate(Table{Encryption: tt.old}, Table{Encryption: tt.new})
		if (spec != nil) != tt.wantCall {
			t.Errorf("%s: update = %+v, want a call: %v", tt.name, spec, tt.wantCall)
			continue
		}
		if spec != nil && aws.ToString(spec.KMSMasterKeyId) != tt.wantKeyID {
			t.Errorf("%s: key = %q, want %q", tt.name, aws.ToString(spec.KMSMasterKeyId), tt.wantKeyID)
		}
	}
}

func TestWarmUpdateOnlyGrows(t *testing.T) {
	have := &Throughput{Read: aws.Int64(12000), Write: aws.Int64(4000)}
	if warmUpdate(Table{Warm: have}, Table{Warm: &Throughput{Read: aws.Int64(10000)}}) != nil {
		t.Error("a warm throughput below what the table has must not be sent (it cannot shrink)")
	}
	if warmUpdate(Table{Warm: have}, Table{}) != nil {
		t.Error("an unmanaged warm throughput must not be sent")
	}
	if w := warmUpdate(Table{Warm: have}, Table{Warm: &Throughput{Write: aws.Int64(6000)}}); w == nil || aws.ToInt64(w.WriteUnitsPerSecond) != 6000 {
		t.Errorf("more write units must be sent: %+v", w)
	}
}

func TestOnDemandCapChangeIsATableSettingsUpdate(t *testing.T) {
	old, want := table(), table()
	want.OnDemand = &Throughput{Write: aws.Int64(500)}
	in := tableSettingsUpdate(old, want, nil)
	if in == nil || aws.ToInt64(in.OnDemandThroughput.MaxWriteRequestUnits) != 500 || aws.ToInt64(in.OnDemandThroughput.MaxReadRequestUnits) != -1 {
		t.Errorf("update = %+v", in)
	}
	old.OnDemand = want.OnDemand
	want.OnDemand = nil
	if in := tableSettingsUpdate(old, want, nil); in == nil || aws.ToInt64(in.OnDemandThroughput.MaxWriteRequestUnits) != -1 {
		t.Errorf("removing the cap must send -1: %+v", in)
	}
}

func TestFlattenReadsStreamEncryptionAndThroughput(t *testing.T) {
	d := &types.TableDescription{TableName: aws.String("t"), TableStatus: types.TableStatusActive,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		LatestStreamArn:     aws.String("arn:stream/1"), LatestStreamLabel: aws.String("1"),
		SSEDescription:     &types.SSEDescription{Status: types.SSEStatusEnabled, KMSMasterKeyArn: aws.String("arn:key")},
		OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(-1), MaxWriteRequestUnits: aws.Int64(300)},
		WarmThroughput:     &types.TableWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(12000), WriteUnitsPerSecond: aws.Int64(4000)},
	}
	got := flattenTable(d)
	if got.Stream == nil || got.Stream.ViewType != "NEW_IMAGE" || got.StreamARN != "arn:stream/1" || got.StreamLabel != "1" {
		t.Errorf("stream = %+v %q %q", got.Stream, got.StreamARN, got.StreamLabel)
	}
	if got.Encryption == nil || got.Encryption.KMSKeyARN != "arn:key" {
		t.Errorf("encryption = %+v", got.Encryption)
	}
	if got.OnDemand == nil || got.OnDemand.Read != nil || aws.ToInt64(got.OnDemand.Write) != 300 {
		t.Errorf("on-demand = %+v; -1 is no cap", got.OnDemand)
	}
	if got.Warm == nil || aws.ToInt64(got.Warm.Read) != 12000 {
		t.Errorf("warm = %+v", got.Warm)
	}
	off := flattenTable(&types.TableDescription{TableName: aws.String("t"), LatestStreamArn: aws.String("arn:old")})
	if off.Stream == nil || off.Stream.Enabled || off.StreamARN != "" || off.Encryption != nil || off.OnDemand != nil {
		t.Errorf("a disabled stream has no ARN, the owned key is nil: %+v", off)
	}
}

// TestWaitFailsFastOnAStuckTable: a table whose KMS key is inaccessible stays so until someone acts; the
// wait says so at once instead of polling until its timeout. The endpoint is a real HTTP server that
// answers DescribeTable as DynamoDB does.
func TestWaitFailsFastOnAStuckTable(t *testing.T) {
	for status, fragment := range map[types.TableStatus]string{
		types.TableStatusInaccessibleEncryptionCredentials: "KMS key",
		types.TableStatusArchived:                          "archived",
		types.TableStatusDeleting:                          "being deleted",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			_, _ = fmt.Fprintf(w, `{"Table":{"TableName":"stuck","TableStatus":%q}}`, status)
		}))
		c := NewClient(Config{Region: "us-east-1", Endpoint: srv.URL, AccessKey: "a", SecretKey: "b"})
		err := c.waitTableActive(t.Context(), "stuck")
		srv.Close()
		var stuck *errTableStuck
		if !errors.As(err, &stuck) || !strings.Contains(err.Error(), fragment) {
			t.Errorf("%s: err = %v, want a stuck-table error mentioning %q", status, err, fragment)
		}
	}
}

func TestPITRUpdate(t *testing.T) {
	days := func(n int32) *int32 { return &n }
	tests := []struct {
		name     string
		old, new *PITR
		want     *PITR
	}{
		{"unmanaged", &PITR{Enabled: true}, nil, nil},
		{"enable", nil, &PITR{Enabled: true}, &PITR{Enabled: true}},
		{"default period matches any", &PITR{Enabled: true, RecoveryPeriodDays: days(35)}, &PITR{Enabled: true}, nil},
		{"shorten the period", &PITR{Enabled: true, RecoveryPeriodDays: days(35)}, &PITR{Enabled: true, RecoveryPeriodDays: days(7)}, &PITR{Enabled: true, RecoveryPeriodDays: days(7)}},
		{"back to the default period", &PITR{Enabled: true, RecoveryPeriodDays: days(7)}, &PITR{Enabled: true}, &PITR{Enabled: true, RecoveryPeriodDays: days(35)}},
		{"disable", &PITR{Enabled: true}, &PITR{}, &PITR{}},
		{"both off", &PITR{}, &PITR{}, nil},
	}
	for _, tt := range tests {
		got := pitrUpdate(Table{PointInTimeRecovery: tt.old}, Table{PointInTimeRecovery: tt.new})
		if (got == nil) != (tt.want == nil) || (got != nil && (got.Enabled != tt.want.Enabled || aws.ToInt32(got.RecoveryPeriodDays) != aws.ToInt32(tt.want.RecoveryPeriodDays))) {
			t.Errorf("%s: pitrUpdate = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAutoscaledCapacityIsNotReverted(t *testing.T) {
	provisioned := func(read, write int64) Table {
		tb := table()
		tb.BillingMode, tb.ReadCapacity, tb.WriteCapacity = BillingProvisioned, aws.Int64(read), aws.Int64(write)
		for i := range tb.GSIs {
			tb.GSIs[i].ReadCapacity, tb.GSIs[i].WriteCapacity = aws.Int64(read), aws.Int64(write)
		}
		return tb
	}
	// The autoscaler raised reads to 50; the configuration still says 5, with reads autoscaled.
	old, want := provisioned(50, 5), provisioned(5, 5)
	want.Autoscaled.Read = true
	for i := range want.GSIs {
		want.GSIs[i].Autoscaled.Read = true
	}
	if in := tableSettingsUpdate(old, want, nil); in != nil {
		t.Errorf("an autoscaled capacity was sent back: %+v", in.ProvisionedThroughput)
	}
	if _, _, throughput := diffGSIs(old, want); len(throughput) != 0 {
		t.Errorf("an autoscaled index capacity was sent back: %+v", throughput)
	}
	// Writes are Terraform's: a change is sent, with the reads the autoscaler set.
	want.WriteCapacity = aws.Int64(10)
	in := tableSettingsUpdate(old, want, nil)
	if in == nil || aws.ToInt64(in.ProvisionedThroughput.WriteCapacityUnits) != 10 || aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits) != 50 {
		t.Errorf("update = %+v, want writes 10 and the autoscaler's 50 reads", in)
	}
	// Switching from on-demand sends the configured capacity: there is none to keep.
	ondemand := table()
	if in := tableSettingsUpdate(ondemand, want, nil); in == nil || aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits) != 5 {
		t.Errorf("billing switch = %+v, want the configured 5 reads", in)
	}
}

func TestIndexOnDemandAndWarmThroughput(t *testing.T) {
	tb := table()
	tb.GSIs[0].OnDemand = &Throughput{Write: aws.Int64(300)}
	tb.GSIs[0].Warm = &Throughput{Read: aws.Int64(20000)}
	in := expandCreateTable(tb)
	g := in.GlobalSecondaryIndexes[0]
	if aws.ToInt64(g.OnDemandThroughput.MaxWriteRequestUnits) != 300 || aws.ToInt64(g.WarmThroughput.ReadUnitsPerSecond) != 20000 {
		t.Errorf("index throughput = %+v %+v", g.OnDemandThroughput, g.WarmThroughput)
	}
	old := table()
	_, _, updates := diffGSIs(old, tb)
	if len(updates) != 1 || aws.ToInt64(updates[0].Update.OnDemandThroughput.MaxWriteRequestUnits) != 300 {
		t.Errorf("on-demand cap change of an index = %+v", updates)
	}
	if w := indexWarmUpdate(old, tb.GSIs[0]); w == nil || aws.ToInt64(w.ReadUnitsPerSecond) != 20000 {
		t.Errorf("warm update of an existing index = %+v", w)
	}
	if w := indexWarmUpdate(Table{}, tb.GSIs[0]); w != nil {
		t.Errorf("a new index gets its warm throughput with the create, not an update: %+v", w)
	}
	// ...and so the UpdateTable action that adds an index to an existing table carries them.
	action := createIndexAction(expandGSI(tb, tb.GSIs[0]))
	if aws.ToInt64(action.OnDemandThroughput.MaxWriteRequestUnits) != 300 || aws.ToInt64(action.WarmThroughput.ReadUnitsPerSecond) != 20000 {
		t.Errorf("create-index action = %+v %+v, want the caps and warm throughput", action.OnDemandThroughput, action.WarmThroughput)
	}
	// Removing an index's caps is sent as "no cap" (-1), not left as it was.
	_, _, updates = diffGSIs(tb, table())
	if len(updates) != 1 || aws.ToInt64(updates[0].Update.OnDemandThroughput.MaxWriteRequestUnits) != -1 {
		t.Errorf("removing an index's caps = %+v", updates)
	}
}

func TestContributorInsightsChanges(t *testing.T) {
	mode := func(m string) *string { return &m }
	old, want := table(), table()
	want.ContributorInsights = mode("THROTTLED_KEYS")
	want.GSIs[1].ContributorInsights = mode("ACCESSED_AND_THROTTLED_KEYS")
	old.GSIs[0].ContributorInsights = mode("THROTTLED_KEYS")
	want.GSIs[0].ContributorInsights = mode("")
	var got []string
	for _, ch := range contributorInsightsChanges(old, want) {
		got = append(got, aws.ToString(ch.index)+"="+ch.mode)
	}
	if strings.Join(got, ",") != "=THROTTLED_KEYS,by_customer=,by_tenant_region=ACCESSED_AND_THROTTLED_KEYS" {
		t.Errorf("changes = %v", got)
	}
	if ch := contributorInsightsChanges(want, want); len(ch) != 0 {
		t.Errorf("no change must make no call: %v", ch)
	}
	if ch := contributorInsightsChanges(old, table()); len(ch) != 0 {
		t.Errorf("an unmanaged setting must make no call: %v", ch)
	}
	// CreateTable compares with a table that has nothing on: every index that asks for it gets a call.
	if ch := contributorInsightsChanges(Table{Name: want.Name}, want); len(ch) != 2 {
		t.Errorf("on create, changes = %v; want the table's and by_tenant_region's", ch)
	}
	// An index created again (its key changed) starts with Contributor Insights off.
	recreated := table()
	recreated.GSIs[1].PartitionKey = []KeyAttribute{{Name: "other", Type: "S"}}
	recreated.GSIs[1].ContributorInsights = mode("THROTTLED_KEYS")
	before := table()
	before.GSIs[1].ContributorInsights = mode("THROTTLED_KEYS")
	if ch := contributorInsightsChanges(before, recreated); len(ch) != 1 || aws.ToString(ch[0].index) != "by_tenant_region" {
		t.Errorf("a recreated index's Contributor Insights = %v, want it enabled again", ch)
	}
}
