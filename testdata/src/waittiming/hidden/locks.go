package hidden

import (
	"context"
	"log"
	"time"

	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/semaphore"
)

// strategy runs under two locks, its own and its parent's.
type strategy struct{ own, parent *semaphore.Weighted }

// acquireLocks takes both, giving the first back when the second fails: a
// wait as a whole, with no work after it.
func (st *strategy) acquireLocks(ctx context.Context) bool {
	if st.own.Acquire(ctx, 1) != nil {
		return false
	}
	if st.parent.Acquire(ctx, 1) != nil {
		st.own.Release(1)
		return false
	}
	return true
}

// acquireAndLoad takes both and then loads the strategy: it works after
// its waits.
func (st *strategy) acquireAndLoad(ctx context.Context, s *store) error {
	if !st.acquireLocks(ctx) {
		return ctx.Err()
	}
	return s.query(ctx, "load")
}

// Loop runs the strategy on every tick under both locks. It times the
// acquisition alone and logs it when it fails: the wait is the figure.
// Ending the tick's span first is bookkeeping.
func (st *strategy) Loop(ctx context.Context, ticks <-chan time.Time, s *store) {
	for range ticks {
		span := trace.SpanFromContext(ctx)
		lockStart := time.Now()
		if acquired := st.acquireLocks(ctx); !acquired { // why: no-work-after
			span.End()
			log.Printf("could not acquire the strategy locks in %s", time.Since(lockStart))
			continue
		}
		_ = s.query(ctx, "run")
		st.own.Release(1)
		st.parent.Release(1)
		span.End()
	}
}

// Load times both locks and the load behind them.
func (st *strategy) Load(ctx context.Context, s *store) {
	start := time.Now()
	err := st.acquireAndLoad(ctx, s)
	latency.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*hidden.strategy\).acquireAndLoad, which waits for admission`
	_ = err
}
