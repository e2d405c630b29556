// Package ctxfirst sets deadlines before calls of admission/ctxfirst's
// clients, whose first step waits on the context they are given.
package ctxfirst

import (
	"context"
	"time"

	"admission/ctxfirst"
)

func query(ctx context.Context, c *ctxfirst.Client) error {
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second) // want `the 2s timeout from context.WithTimeout is handed to \(\*ctxfirst.Client\).Query, whose first step waits on it \(\(\*rate.Limiter\).Wait, ctxfirst.go:\d+\) before its work`
	defer cancel()
	return c.Query(qctx, "q")
}

func fetch(ctx context.Context, c *ctxfirst.Client, d time.Duration) error {
	fctx, cancel := context.WithTimeout(ctx, d) // want `the timeout from context.WithTimeout is handed to \(\*ctxfirst.Client\).Fetch, whose first step waits on it`
	defer cancel()
	err := c.Fetch(fctx, "q")
	return err
}

func put(ctx context.Context, c *ctxfirst.Client) error {
	pctx, cancel := context.WithTimeout(ctx, time.Second) // want `is handed to \(\*ctxfirst.Client\).Put, whose first step waits on it`
	defer cancel()
	return c.Put(pctx, "q")
}

// The callee dials before it waits, but never with the context: the
// deadline is still spent in its limiter's queue first.
func redial(ctx context.Context, c *ctxfirst.Client) error {
	rctx, cancel := context.WithTimeout(ctx, time.Second) // want `is handed to \(\*ctxfirst.Client\).Redial, whose first step waits on it`
	defer cancel()
	return c.Redial(rctx, "db:3306", "q")
}

// The callee blocks on a channel before its wait on the context.
func drained(ctx context.Context, c *ctxfirst.Client, done <-chan struct{}) error {
	dctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return c.Drained(dctx, done, "q")
}

// The callee works first: the deadline is the work's.
func direct(ctx context.Context, c *ctxfirst.Client) error {
	dctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return c.Direct(dctx, "q")
}

// The callee works with the context before it waits.
func late(ctx context.Context, c *ctxfirst.Client) error {
	lctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return c.Late(lctx, "q")
}

// The deadline goes to another call; the waiting callee gets the parent.
func other(ctx context.Context, c *ctxfirst.Client) error {
	octx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	if err := c.Direct(octx, "a"); err != nil {
		return err
	}
	return c.Query(ctx, "b")
}

// Safe twin: the callee gets the caller's context; the deadline is set
// after the call for the work that follows.
func twin(ctx context.Context, c *ctxfirst.Client) error {
	if err := c.Query(ctx, "q"); err != nil {
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return c.Direct(tctx, "q2")
}

// get sets a deadline before a call that binds the context to its request
// and then waits on it.
func get(ctx context.Context, c *ctxfirst.Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // want `the 1s timeout from context.WithTimeout is handed to \(\*ctxfirst.Client\).Get, whose first step waits on it`
	defer cancel()
	_, err := c.Get(ctx, "/x")
	return err
}

type traceKey struct{}

// rebound derives the deadline, then a context with a value from it (which
// keeps the deadline) before the wait in the callee.
func rebound(ctx context.Context, c *ctxfirst.Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // want `the 1s timeout from context.WithTimeout is handed to \(\*ctxfirst.Client\).Query, whose first step waits on it`
	defer cancel()
	ctx = context.WithValue(ctx, traceKey{}, "t1")
	return c.Query(ctx, "q")
}

// cells gives the store's read a budget that the read semaphore of the
// connection's stats decorator spends first.
func cells(ctx context.Context, s *ctxfirst.Store) ([]string, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second) // want `the 1s timeout from context.WithTimeout is handed to \(\*ctxfirst.Store\).KnownCells, whose first step waits on it \(\(\*semaphore.Weighted\).Acquire, ctxfirst.go:\d+\) before its work`
	defer cancel()
	return s.KnownCells(cctx)
}

// listed hands its budget to a lister that only counts before passing the
// call on: nothing waits first.
func listed(ctx context.Context, l ctxfirst.Lister) ([]string, error) {
	lctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return l.List(lctx, "/", false)
}

// within gives what it is handed a budget of its own. Every call of it, all
// in this package, hands it a client's Query, which waits on the context
// first: the queue eats the budget.
func within(ctx context.Context, do func(context.Context, string) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // want `the 1s timeout from context.WithTimeout is handed to \(\*ctxfirst.Client\).Query via do, whose first step waits on it`
	defer cancel()
	return do(ctx, "q")
}

// withinTaken is taken as a value below: it may be called with anything,
// out of view.
func withinTaken(ctx context.Context, do func(context.Context, string) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return do(ctx, "q")
}

// Within is exported: its callers may be in other packages.
func Within(ctx context.Context, do func(context.Context, string) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return do(ctx, "q")
}

func callWithin(ctx context.Context, c *ctxfirst.Client) {
	_ = within(ctx, c.Query)
	_ = within(ctx, c.Query)
	_ = withinTaken(ctx, c.Query)
	_ = Within(ctx, c.Query)
	run := withinTaken
	_ = run(ctx, c.Query)
}
