package testutil

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestScaledFollowsTheKnob(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{"", time.Minute},
		{"3", 3 * time.Minute},
		{"1.5", 90 * time.Second},
		{"0.5", time.Minute}, // never shorter than the default
		{"-2", time.Minute},
		{"fast", time.Minute},
	} {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv(WaitScaleEnv, tc.value)
			if got := Scaled(time.Minute); got != tc.want {
				t.Errorf("%s=%q: Scaled(1m) = %v, want %v", WaitScaleEnv, tc.value, got, tc.want)
			}
		})
	}
}

// lockedBuilder is a strings.Builder that the watcher's goroutine and the test may use at once.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWatchReportsASlowWaitUntilStopped(t *testing.T) {
	var out lockedBuilder
	stop := watch(&out, "waiting for the server", 5*time.Millisecond)
	for !strings.Contains(out.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // a second stop is harmless
	if got := out.String(); !strings.HasPrefix(got, "dynamokeys: still waiting for the server after ") {
		t.Errorf("progress line = %q", got)
	}
	reported := out.String()
	time.Sleep(30 * time.Millisecond)
	if out.String() != reported {
		t.Errorf("the watcher reported after stop: %q", strings.TrimPrefix(out.String(), reported))
	}
}
