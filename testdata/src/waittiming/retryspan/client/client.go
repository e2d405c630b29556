// Package client uploads with retries: its exported functions that loop
// over attempts with pauses carry a retries fact to their callers.
package client

import (
	"context"
	"errors"
	"time"

	"waittiming/retryspan/delay"
)

type Client struct{ retries int }

func put(ctx context.Context, key string) error { return errors.New("unavailable") }

// Upload retries the put with a growing sleep between attempts.
func (c *Client) Upload(ctx context.Context, key string) error {
	var err error
	backoff := 100 * time.Millisecond
	for i := 0; i < c.retries; i++ {
		if err = put(ctx, key); err == nil {
			return nil
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	return err
}

// UploadOnce makes one attempt.
func (c *Client) UploadOnce(ctx context.Context, key string) error { return put(ctx, key) }

// Hammer retries without pausing: a tight loop of attempts, another
// check's business, not time spent waiting.
func (c *Client) Hammer(ctx context.Context, key string) error {
	var err error
	for i := 0; i < c.retries; i++ {
		if err = put(ctx, key); err == nil {
			return nil
		}
	}
	return err
}

// Watch polls at an interval: a pause that paces a loop, not a retry.
func (c *Client) Watch(ctx context.Context, key string, interval time.Duration) error {
	for {
		if err := put(ctx, key); err == nil {
			return nil
		}
		time.Sleep(interval)
	}
}

// TimedUpload times each attempt itself and sleeps between them: its
// callers' spans still hold the pauses.
func TimedUpload(ctx context.Context, key string, observe func(time.Duration)) error {
	var err error
	for i := 0; i < 3; i++ {
		start := time.Now()
		err = put(ctx, key)
		observe(time.Since(start))
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A Retrier retries a callback its caller gives it.
type Retrier struct {
	attempts, max int
	next          time.Duration
}

// sleepOrDone pauses for d unless ctx ends first; it returns from the
// select's cases, as the end of the function would.
func (r *Retrier) sleepOrDone(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do calls attempt until it succeeds or the attempts run out, pausing
// between attempts: it retries, whatever the callback does.
func (r *Retrier) Do(ctx context.Context, attempt func() error) error {
	for {
		err := attempt()
		if err == nil {
			return nil
		}
		r.attempts++
		if r.attempts >= r.max {
			return err
		}
		if err := r.sleepOrDone(ctx, r.next); err != nil {
			return err
		}
	}
}

// Throttled retries as a workflow engine's throttle retry does: its pause
// gives up on cancellation with whichever error is more telling, the one
// before the last attempt or the last (the last is often the timeout).
func (r *Retrier) Throttled(ctx context.Context, attempt func() error) error {
	var err, prevErr error
	for {
		prevErr = err
		if err = attempt(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			if prevErr != nil {
				return prevErr
			}
			return err
		case <-time.After(r.next):
		}
	}
}

// Drained waits, on cancellation, for the retries in flight to drain: a
// receive in the give-up case, which is no pause that only leaves.
func (r *Retrier) Drained(ctx context.Context, attempt func() error, drained <-chan bool) error {
	for {
		err := attempt()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			if <-drained {
				return nil
			}
			return err
		case <-time.After(r.next):
		}
	}
}

// Classified returns, on cancellation, what a call classifies the error
// as: the give-up case works before it leaves.
func (r *Retrier) Classified(ctx context.Context, attempt func() error, permanent error) error {
	for {
		err := attempt()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			if errors.Is(err, permanent) {
				return err
			}
			return ctx.Err()
		case <-time.After(r.next):
		}
	}
}

// Notify waits for d and then sends, from the select's case: a wait that
// does something after the timer, not a pause.
func (r *Retrier) notify(ctx context.Context, d time.Duration, out chan<- int) error {
	select {
	case <-time.After(d):
		out <- r.attempts
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DoNotify goes round again after notify: no pause between attempts.
func (r *Retrier) DoNotify(ctx context.Context, attempt func() error, out chan<- int) error {
	for {
		err := attempt()
		if err == nil {
			return nil
		}
		if err := r.notify(ctx, r.next, out); err != nil {
			return err
		}
	}
}

// Scheduler hides its retries behind an interface: its only
// implementation retries the placement with pauses between attempts.
type Scheduler interface {
	Schedule(ctx context.Context, key string, blocklist map[string]bool)
}

type scheduler struct {
	c             *Client
	retryInterval time.Duration
}

func NewScheduler(c *Client) Scheduler { return &scheduler{c, time.Second} }

func (s *scheduler) Schedule(ctx context.Context, key string, blocklist map[string]bool) { // want Schedule:"retries between a timer"
	for i := 0; i < s.c.retries; i++ {
		// The attempt's outcome is a flag it returns, not an error.
		if _, found := place(ctx, key, blocklist); !found {
			delay.WithJitter(ctx, s.retryInterval) // an interval between retries, not a poll's
			continue
		}
		return
	}
}

func place(ctx context.Context, key string, blocklist map[string]bool) (string, bool) {
	return key, put(ctx, key) == nil && !blocklist[key]
}

// Placer has two implementations, one of which places once: a call of
// it may not retry.
type Placer interface {
	Place(ctx context.Context, key string) error
}

type retryingPlacer struct{ c *Client }

func (p retryingPlacer) Place(ctx context.Context, key string) error { return p.c.Upload(ctx, key) } // want Place:"retries between time\\.Sleep"

type oncePlacer struct{ c *Client }

func (p oncePlacer) Place(ctx context.Context, key string) error { return p.c.UploadOnce(ctx, key) }

func NewPlacer(c *Client, retrying bool) Placer {
	if retrying {
		return retryingPlacer{c}
	}
	return oncePlacer{c}
}

// Lister's implementations live elsewhere: none is known here.
type Lister interface {
	List(ctx context.Context) ([]string, error)
}

// An Op is one attempt of an operation a runner runs.
type Op func(ctx context.Context) error

// NewRunner returns a function that runs an operation with retries: the
// runner is made once, from a policy, and called for each operation.
func NewRunner(attempts int, retryInterval time.Duration) func(ctx context.Context, op Op) error { // want NewRunner:"returns a function that retries between time\\.Sleep"
	return func(ctx context.Context, op Op) error {
		var err error
		for i := 0; i < attempts; i++ {
			if err = op(ctx); err == nil {
				return nil
			}
			time.Sleep(retryInterval)
		}
		return err
	}
}

// NewOnce returns a function that runs an operation once.
func NewOnce() func(ctx context.Context, op Op) error {
	return func(ctx context.Context, op Op) error { return op(ctx) }
}

// Chain returns a runner whose literal calls Chain's own result: no
// retry by that, and no endless walk.
func Chain(n int) func(ctx context.Context, op Op) error {
	return func(ctx context.Context, op Op) error {
		if n == 0 {
			return op(ctx)
		}
		return Chain(n-1)(ctx, op)
	}
}
