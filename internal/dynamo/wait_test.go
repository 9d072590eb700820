package dynamo

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// recordingPolling is DefaultPolling with a sleep that records the intervals instead of waiting.
func recordingPolling(intervals *[]time.Duration) Polling {
	p := DefaultPolling()
	p.Sleep = func(_ context.Context, d time.Duration) error {
		*intervals = append(*intervals, d)
		return nil
	}
	return p
}

func TestPollBacksOffToTheCap(t *testing.T) {
	var intervals []time.Duration
	calls := 0
	err := recordingPolling(&intervals).poll(t.Context(), "test", func(context.Context) (bool, error) {
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
	err := DefaultPolling().poll(ctx, "table x to become ACTIVE", func(context.Context) (bool, error) { return false, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
}

func TestRetryWhileInUseRetriesOnlyInUse(t *testing.T) {
	var intervals []time.Duration
	p := recordingPolling(&intervals)
	inUse := &types.ResourceInUseException{Message: aws.String("busy")}
	calls := 0
	err := p.retryWhileInUse(t.Context(), "x", func(context.Context) error {
		calls++
		if calls < 3 {
			return inUse
		}
		return nil
	})
	if err != nil || calls != 3 || len(intervals) != 2 {
		t.Errorf("retry = %v after %d calls and %d sleeps; want success after 3 calls", err, calls, len(intervals))
	}
	// Throttling is the SDK retryer's job: retrying it here as well would multiply the attempts.
	for _, other := range []error{
		&types.LimitExceededException{Message: aws.String("too many")},
		&types.ResourceNotFoundException{Message: aws.String("gone")},
		errors.New("validation"),
	} {
		calls = 0
		if err := p.retryWhileInUse(t.Context(), "x", func(context.Context) error { calls++; return other }); !errors.Is(err, other) || calls != 1 {
			t.Errorf("%T must not be retried here: %v after %d calls", other, err, calls)
		}
	}
}

func TestRetryWhileInUseEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := DefaultPolling().retryWhileInUse(ctx, "deleting table x", func(context.Context) error {
		return &types.ResourceInUseException{Message: aws.String("busy")}
	})
	if err == nil || !isInUse(err) {
		t.Errorf("err = %v, want the in-use error wrapped once the context ended", err)
	}
}
