package dynamo

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/smithy-go"
)

func TestPollBacksOffToTheCap(t *testing.T) {
	saved := pollInitial
	t.Cleanup(func() { pollInitial = saved })
	pollInitial = time.Millisecond

	var calls []time.Time
	err := poll(context.Background(), "test", func(context.Context) (bool, error) {
		calls = append(calls, time.Now())
		return len(calls) == 6, nil
	})
	if err != nil || len(calls) != 6 {
		t.Fatalf("poll = %v after %d calls", err, len(calls))
	}
	for i := 2; i < len(calls); i++ {
		if calls[i].Sub(calls[i-1]) < calls[i-1].Sub(calls[i-2]) {
			t.Errorf("interval %d shrank: %v after %v", i, calls[i].Sub(calls[i-1]), calls[i-1].Sub(calls[i-2]))
		}
	}
	if pollMax != 5*time.Second || saved > 250*time.Millisecond {
		t.Errorf("polling starts at %v and caps at %v; want ≤ 250ms and 5s", saved, pollMax)
	}
}

func TestPollStopsAtDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	err := poll(ctx, "table x to become ACTIVE", func(context.Context) (bool, error) { return false, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
}

func TestRetryTransientRetriesOnlyTransientErrors(t *testing.T) {
	inUse := &smithy.GenericAPIError{Code: "ResourceInUseException", Message: "busy"}
	calls := 0
	err := retryTransient(context.Background(), "x", func(context.Context) error {
		calls++
		if calls < 3 {
			return inUse
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("retry = %v after %d calls; want success after 3", err, calls)
	}
	calls = 0
	validation := &smithy.GenericAPIError{Code: "ValidationException", Message: "bad"}
	if err := retryTransient(context.Background(), "x", func(context.Context) error { calls++; return validation }); !errors.Is(err, validation) || calls != 1 {
		t.Errorf("a validation error must not be retried: %v after %d calls", err, calls)
	}
}
