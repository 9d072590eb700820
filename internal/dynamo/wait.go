package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Polling paces the waits for table and index transitions. Sleep waits for d or until ctx ends; tests
// inject one to observe the intervals without the clock.
type Polling struct {
	Initial time.Duration
	Max     time.Duration
	Factor  float64
	Sleep   func(ctx context.Context, d time.Duration) error
}

// DefaultPolling starts short, so that a wait ends soon after the server's transition, and backs off to a
// cap, so that a long wait does not hammer a real endpoint.
func DefaultPolling() Polling {
	return Polling{Initial: 100 * time.Millisecond, Max: 5 * time.Second, Factor: 1.5, Sleep: sleepContext}
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (p Polling) next(interval time.Duration) time.Duration {
	return min(time.Duration(float64(interval)*p.Factor), p.Max)
}

// poll calls check until it reports done, fails, or ctx ends.
func (p Polling) poll(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	interval := p.Initial
	for {
		done, err := check(ctx)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if err := p.Sleep(ctx, interval); err != nil {
			return fmt.Errorf("timed out waiting for %s: %w", what, err)
		}
		interval = p.next(interval)
	}
}

// retryWhileInUse runs call until it succeeds or fails with anything but ResourceInUseException, which
// UpdateTable and DeleteTable answer while another operation on the table or an index is in progress. The
// SDK's retryer already retries throttling and transport errors; this covers only what it does not. ctx
// bounds the whole.
func (p Polling) retryWhileInUse(ctx context.Context, what string, call func(context.Context) error) error {
	interval := p.Initial
	for {
		err := call(ctx)
		if err == nil || !isInUse(err) {
			return err
		}
		if sleepErr := p.Sleep(ctx, interval); sleepErr != nil {
			return fmt.Errorf("%s: the table stayed busy with another operation until the timeout ran out: %w", what, err)
		}
		interval = p.next(interval)
	}
}

// stuckStatuses are table states a wait for ACTIVE cannot leave by waiting, with what the user can do.
var stuckStatuses = map[types.TableStatus]string{
	types.TableStatusDeleting: "the table is being deleted",
	types.TableStatusInaccessibleEncryptionCredentials: "DynamoDB cannot use the table's KMS key: re-enable the key or " +
		"restore its grant, and the table becomes ACTIVE again",
	types.TableStatusArchiving: "the table is being archived because its KMS key has been inaccessible for more than seven days",
	types.TableStatusArchived:  "the table is archived because its KMS key was inaccessible: restore it from its backup",
	types.TableStatusReplicationNotAuthorized: "the table's replication is not authorized: check the permissions of the " +
		"global table's replica regions",
}

// errTableStuck reports a table in a state that waiting cannot end.
type errTableStuck struct {
	name, status, why string
}

func (e *errTableStuck) Error() string {
	return fmt.Sprintf("table %s is %s, not ACTIVE: %s", e.name, e.status, e.why)
}

// waitTableActive waits until the table and every one of its indexes are ACTIVE, and its vector indexes
// backfilled. A table status the wait cannot leave ends it at once instead of at the timeout.
func (c *Client) waitTableActive(ctx context.Context, name string) error {
	return c.cfg.Polling.poll(ctx, "table "+name+" to become ACTIVE", func(ctx context.Context) (bool, error) {
		t, err := c.describe(ctx, name)
		if err != nil {
			return false, err
		}
		status := types.TableStatus(t.Status)
		if why, stuck := stuckStatuses[status]; stuck {
			return false, &errTableStuck{name: name, status: t.Status, why: why}
		}
		if status != types.TableStatusActive {
			return false, nil // CREATING, UPDATING, or a state newer than this SDK: keep waiting
		}
		return indexesSettled(*t), nil
	})
}

// indexesSettled says whether every index of t that reports a status is ACTIVE, and no vector index is still
// backfilling (a search may answer ValidationException until it is done).
func indexesSettled(t Table) bool {
	for _, g := range t.GSIs {
		if g.Status != "" && types.IndexStatus(g.Status) != types.IndexStatusActive {
			return false
		}
	}
	for _, v := range t.VectorIndexes {
		if v.Status != "" && types.IndexStatus(v.Status) != types.IndexStatusActive || v.Backfilling {
			return false
		}
	}
	return true
}

// waitIndexDeleted waits until the named GSI or vector index is gone and the table is ACTIVE again.
func (c *Client) waitIndexDeleted(ctx context.Context, table, index string) error {
	return c.cfg.Polling.poll(ctx, "index "+index+" of "+table+" to be deleted", func(ctx context.Context) (bool, error) {
		t, err := c.describe(ctx, table)
		if err != nil {
			return false, err
		}
		if slices.ContainsFunc(t.GSIs, func(g Index) bool { return g.Name == index }) ||
			slices.ContainsFunc(t.VectorIndexes, func(v VectorIndex) bool { return v.Name == index }) {
			return false, nil
		}
		return types.TableStatus(t.Status) == types.TableStatusActive, nil
	})
}

// waitTableDeleted waits until DescribeTable says the table does not exist.
func (c *Client) waitTableDeleted(ctx context.Context, name string) error {
	return c.cfg.Polling.poll(ctx, "table "+name+" to be deleted", func(ctx context.Context) (bool, error) {
		_, err := c.describe(ctx, name)
		if errors.Is(err, ErrTableNotFound) {
			return true, nil
		}
		return false, err
	})
}
