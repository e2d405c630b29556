// Package closures times calls of local closures that wait for admission
// inside and then work: a proposal taken through a budget limiter by a
// closure that the function calls once, or once per attempt of a loop
// that leaves as soon as an attempt goes through.
package closures

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"
)

type budget struct {
	inflight, max int
	c             *sync.Cond
}

var limiter budget

// incr waits until the budget has room for weight more.
func (b *budget) incr(ctx context.Context, weight int) error {
	b.c.L.Lock()
	for {
		if b.inflight+weight <= b.max {
			b.inflight += weight
			b.c.L.Unlock()
			return nil
		}
		b.c.Wait()
		if err := ctx.Err(); err != nil {
			b.c.L.Unlock()
			return err
		}
	}
}

func (b *budget) decr(weight int) {
	b.c.L.Lock()
	b.inflight -= weight
	b.c.L.Unlock()
	b.c.Broadcast()
}

func propose(ctx context.Context, timeout time.Duration) error {
	time.Sleep(timeout / 10)
	return ctx.Err()
}

var errRetry = errors.New("retry the proposal")

func record(d time.Duration) { log.Println(d) } // want record:"bookkeeping"

// The closure waits for the budget and then proposes; the loop leaves on
// the first attempt that is not to be retried, so the first attempt's wait
// is on every path to the end.
func proposeAndWait(ctx context.Context) (err error) {
	start := time.Now()
	defer func() { record(time.Since(start)) }() // want `the duration since start spans the closure withLimit, which waits for a budget \(b.c.Wait\(\) until b.inflight \+ weight <= b.max, closures.go:25\) before its work, so time spent queueing is reported as work; record the wait apart inside the closure withLimit`
	withLimit := func(i int) error {
		if err := limiter.incr(ctx, 1<<i); err != nil {
			return err
		}
		defer limiter.decr(1 << i)
		return propose(ctx, time.Duration(i+1)*time.Second)
	}
	for i := range 3 {
		if err := withLimit(i); err != errRetry {
			return err
		}
	}
	return errRetry
}

// The same closure called once.
func proposeOnce(ctx context.Context) error {
	start := time.Now()
	withLimit := func() error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		return propose(ctx, time.Second)
	}
	err := withLimit()
	record(time.Since(start)) // want `the duration since start spans the closure withLimit, which waits for a budget`
	return err
}

// Attempts that leave on success, written with errors.Is.
func proposeUntilDone(ctx context.Context) error {
	start := time.Now()
	defer func() { record(time.Since(start)) }() // want `the duration since start spans the closure attempt, which waits for a budget`
	attempt := func() error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		return propose(ctx, time.Second)
	}
	for {
		if err := attempt(); !errors.Is(err, errRetry) {
			return err
		}
	}
}

// Safe twins.

// A batch: one call per item, leaving on the first failure. The figure is
// the batch's, its items' waits a part of it.
func proposeAll(ctx context.Context, items []int) error {
	start := time.Now()
	defer func() { record(time.Since(start)) }()
	withLimit := func(i int) error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		return propose(ctx, time.Duration(i)*time.Second)
	}
	for _, it := range items {
		if err := withLimit(it); err != nil { // why: callee-elsewhere wait-per-iteration
			return err
		}
	}
	return nil
}

// The wait is timed apart: the closure is not in the span.
func proposeTimedAfterWait(ctx context.Context) error {
	withLimit := func() error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		start := time.Now()
		err := propose(ctx, time.Second)
		record(time.Since(start))
		return err
	}
	return withLimit()
}

// A closure variable assigned twice may hold either function.
func proposeEither(ctx context.Context, fast bool) error {
	start := time.Now()
	do := func() error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		return propose(ctx, time.Second)
	}
	if fast {
		do = func() error { return propose(ctx, time.Millisecond) }
	}
	err := do()
	record(time.Since(start))
	return err
}

// A closure that does no work after its wait is a wait helper: the
// figure's wait and work are the function's own, split by it.
func proposeSplit(ctx context.Context) error {
	acquire := func() error { return limiter.incr(ctx, 1) }
	if err := acquire(); err != nil {
		return err
	}
	defer limiter.decr(1)
	start := time.Now()
	err := propose(ctx, time.Second)
	record(time.Since(start))
	return err
}

type proposal struct{ urgent bool }

// Most proposals take the budget; urgent ones skip it. On the common path
// the closure waits and then works.
func proposeMost(ctx context.Context, p proposal) error {
	start := time.Now()
	defer func() { record(time.Since(start)) }() // want `the duration since start spans the closure withLimit, which waits for a budget`
	withLimit := func(i int) error {
		switch {
		case p.urgent:
			// Never held back.
		default:
			if err := limiter.incr(ctx, 1<<i); err != nil {
				return err
			}
			defer limiter.decr(1 << i)
		}
		return propose(ctx, time.Second)
	}
	for i := 0; i < 3; i++ {
		if err := withLimit(i); err != errRetry {
			return err
		}
	}
	return errRetry
}

// The budget is taken only to retry after a failure: no wait on the way to
// the first attempt's work.
func proposeRetryBudget(ctx context.Context) error {
	start := time.Now()
	attempt := func(prev error) error {
		if prev != nil {
			if err := limiter.incr(ctx, 1); err != nil {
				return err
			}
			defer limiter.decr(1)
		}
		return propose(ctx, time.Second)
	}
	err := attempt(nil)
	record(time.Since(start))
	return err
}

// The branch that waits leaves: the path to the work never waits.
func proposeOrShed(ctx context.Context, busy bool) error {
	start := time.Now()
	attempt := func() error {
		if busy {
			_ = limiter.incr(ctx, 1)
			return errRetry
		}
		return propose(ctx, time.Second)
	}
	err := attempt()
	record(time.Since(start))
	return err
}

type counter struct{ n int }

// A loop that counts in a field is no count from a constant: not taken for
// attempts, and not a panic.
func proposeCountingField(ctx context.Context, c *counter) error {
	start := time.Now()
	defer func() { record(time.Since(start)) }()
	withLimit := func() error {
		if err := limiter.incr(ctx, 1); err != nil {
			return err
		}
		defer limiter.decr(1)
		return propose(ctx, time.Second)
	}
	for c.n = 0; c.n < 3; c.n++ {
		if err := withLimit(); err == nil {
			return nil
		}
	}
	return errRetry
}
