package dynamo

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/smithy-go"
)

func TestPollBacksOffToTheCap(t *testing.T) {
	saved := sleep
	t.Cleanup(func() { sleep = saved })
	var intervals []time.Duration
	sleep = func(_ context.Context, d time.Duration) error {
		intervals = append(intervals, d)
		return nil
	}
	calls := 0
	err := poll(t.Context(), "test", func(context.Context) (bool, error) {
		calls++
		return calls == 20, nil
	})
	if err != nil || len(intervals) != 19 {
		t.Fatalf("poll = %v with %d sleeps", err, len(intervals))
	}
	if intervals[0] > 250*time.Millisecond {
		t.Errorf("first interval %v; polling must start at 250ms or less", intervals[0])
	}
	for i := 1; i < len(intervals); i++ {
		if intervals[i] < intervals[i-1] || intervals[i] > 5*time.Second {
			t.Errorf("interval %d = %v after %v: must grow to the 5s cap", i, intervals[i], intervals[i-1])
		}
	}
	if intervals[len(intervals)-1] != 5*time.Second {
		t.Errorf("last interval %v, want the 5s cap", intervals[len(intervals)-1])
	}
}

func TestPollStopsAtDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	err := poll(ctx, "table x to become ACTIVE", func(context.Context) (bool, error) { return false, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
}

func TestRetryTransientRetriesOnlyTransientErrors(t *testing.T) {
	saved := sleep
	t.Cleanup(func() { sleep = saved })
	sleep = func(context.Context, time.Duration) error { return nil }
	inUse := &smithy.GenericAPIError{Code: "ResourceInUseException", Message: "busy"}
	calls := 0
	err := retryTransient(t.Context(), "x", func(context.Context) error {
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
	if err := retryTransient(t.Context(), "x", func(context.Context) error { calls++; return validation }); !errors.Is(err, validation) || calls != 1 {
		t.Errorf("a validation error must not be retried: %v after %d calls", err, calls)
	}
}
