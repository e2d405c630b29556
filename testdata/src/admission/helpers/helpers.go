// Package helpers declares functions that are admission waits, sends,
// try-sends and pauses; its test checks the facts the admission analyzer
// exports for them, and package callers uses them from another package.
package helpers

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// Pool bounds concurrent work with a weighted semaphore.
type Pool struct {
	sem     *semaphore.Weighted
	waiting int
}

func NewPool(n int64) *Pool { return &Pool{sem: semaphore.NewWeighted(n)} }

// Acquire waits for a slot and returns its release.
func (p *Pool) Acquire(ctx context.Context) (release func(), err error) { // want Acquire:"wait Semaphore \\(\\*semaphore.Weighted\\).Acquire strict on .sem release result 0"
	p.waiting++
	if err := p.sem.Acquire(ctx, 1); err != nil {
		p.waiting--
		return nil, err
	}
	p.waiting--
	return func() { p.sem.Release(1) }, nil
}

// Enter waits for a slot; Leave gives it back.
func (p *Pool) Enter(ctx context.Context) error { // want Enter:"wait Semaphore \\(\\*semaphore.Weighted\\).Acquire strict on .sem release method Leave"
	if p == nil {
		return errors.New("no pool")
	}
	return p.sem.Acquire(ctx, 1)
}

func (p *Pool) Leave() { p.sem.Release(1) }

// Run does its work while it holds the slot: it is not a wait.
func (p *Pool) Run(ctx context.Context, f func()) error {
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	f()
	return nil
}

// Throttle wraps a rate limiter.
type Throttle struct{ lim *rate.Limiter }

func (t *Throttle) Wait(ctx context.Context) error { // want Wait:"wait RateLimiter \\(\\*rate.Limiter\\).Wait strict on .lim"
	return t.lim.Wait(ctx)
}

// Gate is a counting semaphore channel behind two methods.
type Gate struct{ slots chan struct{} }

func NewGate(n int) *Gate { return &Gate{slots: make(chan struct{}, n)} }

func (g *Gate) Enter() { g.slots <- struct{}{} } // want Enter:"wait SemaphoreChan the send to semaphore channel slots strict on .slots release method Exit"

func (g *Gate) Exit() { <-g.slots }

// enterAll calls a helper: it is a wait too (a helper of a helper).
func (g *Gate) EnterTwice() { // want EnterTwice:"wait SemaphoreChan the send to semaphore channel slots strict on .slots release method Exit"
	g.Enter()
}

// Agg sends what it is given to its consumer.
type Agg struct{ in chan int }

func (a *Agg) Enqueue(x int) { a.in <- x } // want Enqueue:"send param 0 on a.in"

// TryPush tries to queue v; Push waits for room.
type Queue struct{ ch chan string }

func (q *Queue) TryPush(v string) bool { // want TryPush:"trysend param 0 on q.ch blocking Push"
	select {
	case q.ch <- v:
		return true
	default:
		return false
	}
}

func (q *Queue) Push(v string) { q.ch <- v } // want Push:"send param 0 on q.ch"

// Backoff pauses between attempts.
func Backoff(attempt int) { // want Backoff:"pause time.Sleep"
	d := time.Duration(attempt) * 10 * time.Millisecond
	time.Sleep(d)
}

// Pause pauses for a timer or until the context ends.
func Pause(ctx context.Context, d time.Duration) error { // want Pause:"pause a timer ctx"
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// Poll sleeps and then works: not a pause.
func Poll(d time.Duration, f func()) {
	time.Sleep(d)
	f()
}

// A Batch is filled by appends and swapped out whole.
type Batch []string

// NewBatch only returns a new empty batch: a queue reset to its result is
// emptied.
func NewBatch(n int) Batch { return make(Batch, 0, n) } // want NewBatch:"newempty"

// EmptyBatch returns a nil batch.
func EmptyBatch() Batch { return nil } // want EmptyBatch:"newempty"

// Zeroed returns a batch of n empty strings, to be filled by index: not
// empty.
func Zeroed(n int) Batch { return make(Batch, n) }

// Copied returns a copy: not new and empty.
func Copied(b Batch) Batch { return append(Batch(nil), b...) }
