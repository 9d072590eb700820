package testutil

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// WaitScaleEnv names the one knob for every bounded wait of the tests: a machine that is slower or busier
// than a quiet 2-core one raises it (DYNAMOKEYS_TEST_WAIT_SCALE=3), and every bound that Scaled computes
// grows with it. Nothing else in the tests kills or fails on wall-clock time: the whole run is bounded by
// `go test -timeout`.
const WaitScaleEnv = "DYNAMOKEYS_TEST_WAIT_SCALE"

// WaitScale is the factor of WaitScaleEnv: a number of at least 1 (default 1). A value that is not a
// number, or below 1, counts as 1, so a typo cannot make the bounds shorter.
func WaitScale() float64 {
	f, err := strconv.ParseFloat(os.Getenv(WaitScaleEnv), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
}

// Scaled is d times WaitScale: the bound to use for a wait that a slow machine stretches.
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * WaitScale())
}

// progressEvery is how often Watch reports a wait that is still going on.
const progressEvery = 30 * time.Second

// Watch reports on standard error, every 30 seconds (scaled), that what is still going on and how long it
// has waited, until the returned stop is called. It never ends the wait: it is there so that a run that is
// slow, or killed by `go test -timeout`, shows where the time went.
func Watch(what string) (stop func()) {
	return watch(os.Stderr, what, Scaled(progressEvery))
}

func watch(w io.Writer, what string, every time.Duration) (stop func()) {
	start := time.Now()
	done, finished := make(chan struct{}), make(chan struct{})
	var once sync.Once
	go func() {
		defer close(finished)
		ticker := time.NewTicker(every)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				_, _ = fmt.Fprintf(w, "dynamokeys: still %s after %s\n", what, time.Since(start).Round(time.Second))
			}
		}
	}()
	return func() {
		once.Do(func() { close(done) })
		<-finished // nothing is reported after stop returns
	}
}
