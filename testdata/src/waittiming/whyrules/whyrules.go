// Package whyrules holds a case for each rule of waittiming that no other
// package of its testdata reaches: -waittiming.why says the rule at the
// line of its "// why:" comment.
package whyrules

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/semaphore"
)

var sem = semaphore.NewWeighted(4)

func work() {}

func send() error { return nil }

// outsideLiteral measures in a goroutine that the select waiting for a slot
// starts: the wait holds the literal, it does not delay the work inside.
func outsideLiteral(ctx context.Context, slots chan struct{}) {
	start := time.Now()
	select { // why: wait-outside-literal
	case slots <- struct{}{}:
		go func() {
			defer func() { <-slots }()
			work()
			log.Printf("took %v", time.Since(start))
		}()
	case <-ctx.Done():
	}
}

type dialer struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// notLocal keeps the deadline in fields: where it goes is out of sight.
func (d *dialer) notLocal(ctx context.Context) {
	d.ctx, d.cancel = context.WithTimeout(ctx, time.Second) // why: deadline-not-local
}

type key struct{}

// reassigned derives the deadline, then replaces the context before the
// wait with one derived from the caller's, without the deadline.
func reassigned(ctx context.Context, host string) ([]string, error) {
	tctx, cancel := context.WithTimeout(ctx, time.Second) // why: context-reassigned
	defer cancel()
	tctx = context.WithValue(ctx, key{}, 1)
	if err := sem.Acquire(tctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(tctx, host)
}

// noWaitAfter derives the deadline in a block that goes on to count it: no
// wait follows it there. (An if that only sets a deadline up hands it to
// the statements after the if.)
func noWaitAfter(ctx context.Context, bounded bool) (context.Context, context.CancelFunc) {
	tctx, cancel := ctx, context.CancelFunc(func() {})
	if bounded {
		tctx, cancel = context.WithTimeout(ctx, time.Second) // why: no-wait-after-deadline
		boundedCalls++
	}
	return tctx, cancel
}

var boundedCalls int

// cancelAtWait cancels at the wait when it fails: the deadline is managed
// there.
func cancelAtWait(ctx context.Context, host string) ([]string, error) {
	tctx, cancel := context.WithTimeout(ctx, time.Second) // why: cancel-at-wait
	if err := sem.Acquire(tctx, 1); err != nil {
		cancel()
		return nil, err
	}
	defer cancel()
	defer sem.Release(1)
	return net.DefaultResolver.LookupHost(tctx, host)
}

// endsInLoop times each attempt from the first: the end is inside the
// retry loop.
func endsInLoop() {
	start := time.Now()
	for attempt := 0; attempt < 3; attempt++ { // why: ends-in-loop
		err := send()
		log.Printf("attempt %d after %v", attempt, time.Since(start)) // why: no-wait-in-span
		if err == nil {
			break
		}
		time.Sleep(time.Second)
	}
}

var errFailed = errors.New("failed")

func sendWithRetry() error {
	for i := 0; i < 3; i++ {
		if err := send(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errFailed
}

// handler's figure is the latency users see: it should include the
// retries inside sendWithRetry.
func handler(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	_ = sendWithRetry()
	log.Printf("served in %v", time.Since(start)) // why: no-wait-in-span, total-latency
}

// A span keeps two starts: when its job was queued and when it began to
// run.
type span struct{ queued, began time.Time }

func enqueued() *span { return &span{queued: time.Now()} }

func (s *span) ran() { log.Printf("ran for %v", time.Since(s.began)) } // want ran:"bookkeeping"

// mismatched starts a span at its queueing and ends it with the stop of
// the run: the two are not one measurement.
func mismatched() {
	s := enqueued()
	work()
	s.ran() // why: start-end-mismatch
}

// endUnlocated measures up to a time its caller read: where that was is
// out of sight.
func endUnlocated(now time.Time) time.Duration {
	start := time.Now()
	work()
	return now.Sub(start) // why: end-unlocated
}

// dialTimed measures one call of another package, whose retries (if any)
// the check does not see.
func dialTimed(addr string) (net.Conn, error) {
	start := time.Now()
	conn, err := net.Dial("tcp", addr) // why: callee-elsewhere
	log.Printf("dialled in %v", time.Since(start))
	return conn, err
}
