package dynamo

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeDynamoDB is an HTTP server that answers DynamoDB's JSON protocol from answer(operation, call number
// of that operation), and records the operations in order. The client it returns polls with a recording
// sleep, so waits take no time.
type fakeDynamoDB struct {
	mu    sync.Mutex
	ops   []string
	calls map[string]int
}

func newFakeDynamoDB(t *testing.T, answer func(op string, n int) (int, string), polling Polling) (*Client, *fakeDynamoDB) {
	t.Helper()
	f := &fakeDynamoDB{calls: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
		f.mu.Lock()
		f.ops = append(f.ops, op)
		n := f.calls[op]
		f.calls[op]++
		f.mu.Unlock()
		code, body := answer(op, n)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10))
		w.WriteHeader(code)
		_, _ = fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	zero := 0
	return NewClient(Config{Region: "us-east-1", Endpoint: srv.URL, AccessKey: "a", SecretKey: "b", MaxRetries: &zero, Polling: polling}), f
}

func (f *fakeDynamoDB) sequence() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.ops, ",")
}

const unknownOperation = `{"__type":"com.amazon.coral.service#UnknownOperationException","message":"not implemented"}`

// statuses answers the Describe call with each status in turn, repeating the last one.
func statuses(describe, format string, list ...string) func(op string, n int) (int, string) {
	return func(op string, n int) (int, string) {
		if op != describe {
			return http.StatusOK, `{}`
		}
		return http.StatusOK, fmt.Sprintf(format, list[min(n, len(list)-1)])
	}
}

const (
	ttlFormat  = `{"TimeToLiveDescription":{"AttributeName":"expires_at","TimeToLiveStatus":%q}}`
	pitrFormat = `{"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"ENABLED","PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":%q}}}`
)

func TestUpdateTTLWaitsUntilTheStatusSettles(t *testing.T) {
	tests := []struct {
		name    string
		enabled bool
		seen    []string
		want    string // the calls, in order
		wantErr string
	}{
		{"enable", true, []string{"DISABLED", "ENABLING", "ENABLED"},
			"UpdateTimeToLive,DescribeTimeToLive,DescribeTimeToLive,DescribeTimeToLive", ""},
		{"disable", false, []string{"DISABLING", "DISABLED"}, "UpdateTimeToLive,DescribeTimeToLive,DescribeTimeToLive", ""},
		{"already settled", true, []string{"ENABLED"}, "UpdateTimeToLive,DescribeTimeToLive", ""},
		{"a status that does not lead there", true, []string{"ENABLING", "DISABLING"},
			"UpdateTimeToLive,DescribeTimeToLive,DescribeTimeToLive", "the TTL of table events is DISABLING while it should become ENABLED"},
	}
	for _, tt := range tests {
		var sleeps []time.Duration
		c, f := newFakeDynamoDB(t, statuses("DescribeTimeToLive", ttlFormat, tt.seen...), recordingPolling(&sleeps))
		warnings, err := c.updateTTL(t.Context(), "events", TTL{AttributeName: "expires_at", Enabled: tt.enabled})
		if got := f.sequence(); got != tt.want {
			t.Errorf("%s: calls %s, want %s", tt.name, got, tt.want)
		}
		if len(warnings) > 0 || (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: warnings %v, err %v, want error %q", tt.name, warnings, err, tt.wantErr)
		}
		if tt.wantErr == "" && len(sleeps) != len(tt.seen)-1 {
			t.Errorf("%s: slept %d times, want once between each Describe call", tt.name, len(sleeps))
		}
	}
}

func TestUpdatePITRWaitsUntilTheStatusSettles(t *testing.T) {
	tests := []struct {
		name    string
		enabled bool
		seen    []string
		want    string
		wantErr string
	}{
		{"enable", true, []string{"DISABLED", "ENABLING", "ENABLED"},
			"UpdateContinuousBackups,DescribeContinuousBackups,DescribeContinuousBackups,DescribeContinuousBackups", ""},
		{"disable", false, []string{"ENABLED", "DISABLED"}, "UpdateContinuousBackups,DescribeContinuousBackups,DescribeContinuousBackups", ""},
		{"a status that does not lead there", false, []string{"ENABLING"}, "UpdateContinuousBackups,DescribeContinuousBackups",
			"point-in-time recovery of table events is ENABLING while it should become DISABLED"},
	}
	for _, tt := range tests {
		var sleeps []time.Duration
		c, f := newFakeDynamoDB(t, statuses("DescribeContinuousBackups", pitrFormat, tt.seen...), recordingPolling(&sleeps))
		_, err := c.updatePITR(t.Context(), "events", PITR{Enabled: tt.enabled})
		if got := f.sequence(); got != tt.want {
			t.Errorf("%s: calls %s, want %s", tt.name, got, tt.want)
		}
		if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: err %v, want error %q", tt.name, err, tt.wantErr)
		}
	}
}

// TestSettleWaitsEndWithTheOperationsContext: a status stuck on its way ends the wait when the operation's
// context does (the resource's timeout), with an error that says what was awaited.
func TestSettleWaitsEndWithTheOperationsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	polls := 0
	polling := DefaultPolling()
	polling.Sleep = func(ctx context.Context, _ time.Duration) error {
		if polls++; polls == 3 {
			cancel()
		}
		return ctx.Err()
	}
	c, _ := newFakeDynamoDB(t, statuses("DescribeTimeToLive", ttlFormat, "ENABLING"), polling)
	_, err := c.updateTTL(ctx, "events", TTL{AttributeName: "expires_at", Enabled: true})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "timed out waiting for the TTL of table events to become ENABLED") {
		t.Errorf("err = %v, want the end of the context while waiting for ENABLED", err)
	}
}

// TestSettleSkippedWithoutDescribe: an endpoint that implements the update but not the Describe call is not
// waited for, and that is not an error.
func TestSettleSkippedWithoutDescribe(t *testing.T) {
	answer := func(op string, _ int) (int, string) {
		if strings.HasPrefix(op, "Describe") {
			return http.StatusBadRequest, unknownOperation
		}
		return http.StatusOK, `{}`
	}
	var sleeps []time.Duration
	c, f := newFakeDynamoDB(t, answer, recordingPolling(&sleeps))
	if _, err := c.updateTTL(t.Context(), "events", TTL{AttributeName: "expires_at", Enabled: true}); err != nil {
		t.Errorf("TTL: %v", err)
	}
	if _, err := c.updatePITR(t.Context(), "events", PITR{Enabled: true}); err != nil {
		t.Errorf("PITR: %v", err)
	}
	if got, want := f.sequence(), "UpdateTimeToLive,DescribeTimeToLive,UpdateContinuousBackups,DescribeContinuousBackups"; got != want || len(sleeps) != 0 {
		t.Errorf("calls %s (%d sleeps), want %s without sleeping", got, len(sleeps), want)
	}
}

// TestSettleNotAttemptedWhenTheUpdateIsUnknown: an endpoint without the update call gets the existing
// warning (or nothing, for turning PITR off) and no Describe call.
func TestSettleNotAttemptedWhenTheUpdateIsUnknown(t *testing.T) {
	c, f := newFakeDynamoDB(t, func(string, int) (int, string) { return http.StatusBadRequest, unknownOperation }, DefaultPolling())
	w, err := c.updatePITR(t.Context(), "events", PITR{Enabled: true})
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "UpdateContinuousBackups") {
		t.Errorf("warnings %v, err %v, want one warning about UpdateContinuousBackups", w, err)
	}
	if got := f.sequence(); got != "UpdateContinuousBackups" {
		t.Errorf("calls %s, want the update alone", got)
	}
}

// TestTTLSettlesOnDynoxide: dynoxide implements DescribeTimeToLive and reports the settled status, so the
// wait ends (enabling and disabling) and the read after it agrees; it lacks PITR, whose update is a warning
// with no wait.
func TestTTLSettlesOnDynoxide(t *testing.T) {
	c := localClient(t)
	ctx := t.Context()
	tb := Table{Name: "ttl-settle", BillingMode: BillingPayPerRequest, PartitionKey: KeyAttribute{Name: "pk", Type: "S"}}
	if _, _, err := c.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	for _, enabled := range []bool{true, false} {
		if w, err := c.updateTTL(ctx, tb.Name, TTL{AttributeName: "expires_at", Enabled: enabled}); err != nil || len(w) > 0 {
			t.Fatalf("TTL enabled=%v: warnings %v, err %v", enabled, w, err)
		}
		got, err := c.FindTable(ctx, tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got.TTL == nil || got.TTL.Enabled != enabled {
			t.Errorf("after the wait, TTL = %+v, want enabled=%v", got.TTL, enabled)
		}
	}
	if w, err := c.updatePITR(ctx, tb.Name, PITR{Enabled: true}); err != nil || len(w) != 1 {
		t.Errorf("PITR on dynoxide: warnings %v, err %v, want the UnknownOperationException warning", w, err)
	}
}
