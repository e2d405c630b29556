// Package deadline has timeouts derived before an admission wait and used
// by the work after it.
package deadline

import (
	"context"
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

// Deadline uses an absolute deadline and a semaphore channel in a select.
func Deadline(ctx context.Context, slots chan struct{}, at time.Time, host string) ([]string, error) {
	if true {
		ctx, cancel := context.WithDeadline(ctx, at) // want `the deadline from context\.WithDeadline starts before the wait in the send to semaphore channel slots`
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
	ctx, cancel := context.WithTimeout(parent, time.Second)
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
