// Package deadline has timeouts derived before an admission wait and used
// by the work after it.
package deadline

import (
	"context"
	"fmt"
	"log"
	"net"
	"time"

	metrics "github.com/hashicorp/go-metrics"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

var (
	sem = semaphore.NewWeighted(4)
	lim = rate.NewLimiter(10, 1)
)

const lookupTimeout = 2 * time.Second

// Lookup gives the DNS lookup a 2s budget, then spends it queueing.
func Lookup(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire, so time spent queueing comes out of the work's budget; create it after the wait`
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Renamed derives a context under another name.
func Renamed(ctx context.Context, host string) ([]string, error) {
	// Bound the lookup.
	tctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond) // want `the 500ms timeout from context\.WithTimeout starts before the wait in \(\*rate\.Limiter\)\.Wait`

	defer cancel()

	if err := lim.Wait(tctx); err != nil {
		return nil, err
	}

	return net.DefaultResolver.LookupHost(tctx, host)
}

// Deadline uses a deadline relative to now and a semaphore channel in a
// select.
func Deadline(ctx context.Context, slots chan struct{}, d time.Duration, host string) ([]string, error) {
	if true {
		ctx, cancel := context.WithDeadline(ctx, time.Now().Add(d)) // want `the deadline from context\.WithDeadline starts before the wait in the send to semaphore channel slots`
		defer cancel()
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-slots }()
		return net.DefaultResolver.LookupHost(ctx, host)
	}
	return nil, nil
}

// Absolute uses a deadline the caller set: the budget of the whole call,
// which deriving it later would not change.
func Absolute(ctx context.Context, slots chan struct{}, at time.Time, host string) ([]string, error) {
	ctx, cancel := context.WithDeadline(ctx, at)
	defer cancel()
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-slots }()
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Background derives the lookup's deadline from context.Background(): the
// wait keeps a bound of its own, and the lookup gets a fresh budget.
func Background(host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire`
	defer cancel()
	err := sem.Acquire(ctx, 1)
	if err != nil {
		return nil, fmt.Errorf("no slot: %w", ctx.Err())
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Nested derives the lookup's budget from a context with a deadline of its
// own: that deadline still bounds the wait once the lookup's moves.
func Nested(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	prepare(ctx)
	lctx, lcancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait`
	defer lcancel()
	if err := lim.Wait(lctx); err != nil {
		return nil, err
	}
	return net.DefaultResolver.LookupHost(lctx, host)
}

var slots = make(chan struct{}, 4)

// Unbounded waits on a semaphore channel that does not see the context:
// moving the derivation is the whole fix.
func Unbounded(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in the send to semaphore channel slots`
	defer cancel()
	slots <- struct{}{}
	defer func() { <-slots }()
	return net.DefaultResolver.LookupHost(ctx, host)
}

type client struct {
	base    context.Context
	timeout func() time.Duration
}

func (c *client) root() context.Context { return c.base }

// Computed derives from a context a call returns: the fix would call it
// again after the wait, so there is none.
func (c *client) Computed(host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(c.root(), lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait`
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Budgeted computes its budget with a call: no fix either.
func (c *client) Budgeted(host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(c.base, c.timeout()) // want `the timeout from context\.WithTimeout starts before the wait`
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// OneLine derives the context and defers its cancel on one line: the fix
// moves whole lines, so there is none.
func OneLine(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout); defer cancel() // want `the 2s timeout from context\.WithTimeout starts before the wait`
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// After derives the timeout after the wait: the work gets all of it.
func After(ctx context.Context, host string) ([]string, error) {
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	return net.DefaultResolver.LookupHost(ctx, host)
}

func prepare(ctx context.Context) error { return nil }

// Budget bounds work before the wait too: one budget for both.
func Budget(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	if err := prepare(ctx); err != nil {
		return nil, err
	}
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// WaitOnly bounds the wait alone and runs the work on the parent context.
func WaitOnly(parent context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(parent, time.Second) // why: unused-after-wait
	err := sem.Acquire(ctx, 1)
	cancel()
	if err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(parent, host)
}

// Loop waits per item: the deadline bounds the whole batch.
func Loop(ctx context.Context, hosts []string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, h := range hosts {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		_, err := net.DefaultResolver.LookupHost(ctx, h)
		sem.Release(1)
		if err != nil {
			return err
		}
	}
	return nil
}

// NoWork uses the derived context for nothing after the wait.
func NoWork(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	sem.Release(1)
	return nil
}

// Both times the lookup from before the wait, with a deadline from there
// too: the two fixes apply together.
func Both(ctx context.Context, host string) ([]string, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait`
	defer cancel()
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	addrs, err := net.DefaultResolver.LookupHost(ctx, host)
	log.Printf("lookup %s took %v", host, time.Since(start)) // want `the duration since start spans the wait`
	return addrs, err
}

// BothDeferred has a deadline and a deferred measurement before the wait.
func BothDeferred(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait`
	defer cancel()
	defer metrics.MeasureSince([]string{"dns", "lookup"}, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the wait`

	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}

	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Skipping jumps over the wait to the lookup: the derivation the fix would
// move below the wait would be jumped over, so there is no fix.
func Skipping(ctx context.Context, host string, cached bool) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire`
	defer cancel()
	if cached {
		goto lookup
	}
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
lookup:
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Conditional sets its deadline only when a timeout is configured (if
// timeout > 0 {…}): when set, it covers the wait after the if. No fix: the
// condition would have to move too.
func Conditional(ctx context.Context, host string, timeout time.Duration) ([]string, error) {
	lctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeout(ctx, timeout) // want `the timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire, so time spent queueing comes out of the work's budget; create it after the wait`
		defer cancel()
	}
	if err := sem.Acquire(lctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(lctx, host)
}

// ConditionalBudget is the twin: the conditional deadline bounds a lookup
// before the wait too, a budget for the whole call.
func ConditionalBudget(ctx context.Context, host string, timeout time.Duration) ([]string, error) {
	lctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if _, err := net.DefaultResolver.LookupHost(lctx, "primary."+host); err != nil {
		return nil, err
	}
	if err := sem.Acquire(lctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(lctx, host)
}

// ConditionalElse is the twin: the if has an else, so which deadline
// reaches the wait is the branches' business.
func ConditionalElse(ctx context.Context, host string, timeout time.Duration) ([]string, error) {
	var lctx context.Context
	var cancel context.CancelFunc
	if timeout > 0 {
		lctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		lctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	if err := sem.Acquire(lctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(lctx, host)
}

// Logged only logs with the context and asks whether it is done before the
// wait: nothing before the wait spends the budget, which the queue eats.
func Logged(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire`
	defer cancel()
	log.Println("lookup", host, ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// LoggedWork is the twin: the log line is given work that takes the context
// (a lookup before the wait), one budget for both.
func LoggedWork(ctx context.Context, host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout) // why: used-before-wait
	defer cancel()
	log.Println(net.DefaultResolver.LookupHost(ctx, "primary."+host))
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

// LoggedRenamed logs the derived context under a name of its own before
// the wait: reported, but moving the derivation would leave the log line
// reading a name not yet declared, so there is no fix.
func LoggedRenamed(ctx context.Context, host string) ([]string, error) {
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout) // want `the 2s timeout from context\.WithTimeout starts before the wait in \(\*semaphore\.Weighted\)\.Acquire`
	defer cancel()
	log.Println("lookup", host, lctx)
	if err := sem.Acquire(lctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(lctx, host)
}
