package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Poll intervals: start short, so that a wait ends soon after the server's transition, and back off to a cap
// so that a long wait does not hammer a real endpoint.
var (
	pollInitial = 100 * time.Millisecond
	pollMax     = 5 * time.Second
	pollFactor  = 1.5
)

// sleep waits for d or until ctx ends; tests replace it to observe the intervals.
var sleep = func(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// poll calls check until it reports done, fails, or ctx ends.
func poll(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	interval := pollInitial
	for {
		done, err := check(ctx)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if err := sleep(ctx, interval); err != nil {
			return fmt.Errorf("timed out waiting for %s: %w", what, err)
		}
		interval = min(time.Duration(float64(interval)*pollFactor), pollMax)
	}
}

// retryTransient runs call until it succeeds or fails with an error that does not clear with time, backing off like
// poll; ctx bounds the whole.
func retryTransient(ctx context.Context, what string, call func(context.Context) error) error {
	interval := pollInitial
	for {
		err := call(ctx)
		if err == nil || !isRetryable(err) {
			return err
		}
		if sleepErr := sleep(ctx, interval); sleepErr != nil {
			return fmt.Errorf("%s: still failing when the timeout ran out: %w", what, err)
		}
		interval = min(time.Duration(float64(interval)*pollFactor)*2, pollMax)
	}
}

// waitTableActive waits until the table and every one of its indexes are ACTIVE.
func (c *Client) waitTableActive(ctx context.Context, name string) error {
	return poll(ctx, "table "+name+" to become ACTIVE", func(ctx context.Context) (bool, error) {
		t, err := c.describe(ctx, name)
		if err != nil {
			return false, err
		}
		if t.Status != "ACTIVE" {
			return false, nil
		}
		for _, g := range t.GSIs {
			if g.Status != "" && g.Status != "ACTIVE" {
				return false, nil
			}
		}
		return true, nil
	})
}

// waitIndexDeleted waits until the named GSI is gone and the table is ACTIVE again.
func (c *Client) waitIndexDeleted(ctx context.Context, table, index string) error {
	return poll(ctx, "index "+index+" of "+table+" to be deleted", func(ctx context.Context) (bool, error) {
		t, err := c.describe(ctx, table)
		if err != nil {
			return false, err
		}
		for _, g := range t.GSIs {
			if g.Name == index {
				return false, nil
			}
		}
		return t.Status == "ACTIVE", nil
	})
}

// waitTableDeleted waits until DescribeTable says the table does not exist.
func (c *Client) waitTableDeleted(ctx context.Context, name string) error {
	return poll(ctx, "table "+name+" to be deleted", func(ctx context.Context) (bool, error) {
		_, err := c.describe(ctx, name)
		if errors.Is(err, ErrTableNotFound) {
			return true, nil
		}
		return false, err
	})
}
