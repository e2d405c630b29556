// Package helpers declares functions that are admission waits, sends,
// try-sends and pauses; its test checks the facts the admission analyzer
// exports for them, and package callers uses them from another package.
package helpers

import (
	"context"
	"errors"
	"fmt"
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
func (p *Pool) Run(ctx context.Context, f func()) error { // want Run:"work"
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	f()
	return nil
}

// Pair bounds work that needs a slot of two semaphores: its key's and its
// parent's.
type Pair struct{ key, parent *semaphore.Weighted }

// AcquireBoth takes a slot of each, giving the first back when the second
// fails: it waits twice and works not at all, a wait as a whole.
func (p *Pair) AcquireBoth(ctx context.Context) error { // want AcquireBoth:"wait Semaphore \\(\\*semaphore.Weighted\\).Acquire strict on .key"
	if err := p.key.Acquire(ctx, 1); err != nil {
		return err
	}
	if err := p.parent.Acquire(ctx, 1); err != nil {
		p.key.Release(1)
		return err
	}
	return nil
}

// AcquireThenLimit waits on a limiter after its slot: the limiter's wait is
// of another kind, for the work's pacing, so the helper is no plain wait.
func (p *Pair) AcquireThenLimit(ctx context.Context, lim *rate.Limiter) error { // want AcquireThenLimit:"work"
	if err := p.key.Acquire(ctx, 1); err != nil {
		return err
	}
	if err := lim.Wait(ctx); err != nil {
		p.key.Release(1)
		return err
	}
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

// Batcher adds items to a batch and hands the batch over when it is full:
// Add says no only when the channel is full (Prometheus's queue.Append).
type Batcher struct {
	batch []string
	out   chan []string
	stop  chan struct{}
}

func (b *Batcher) Add(v string) bool { // want Add:"trysend param -1 on b.out"
	b.batch = append(b.batch, v)
	if len(b.batch) < cap(b.batch) {
		return true
	}
	select {
	case b.out <- b.batch:
		b.batch = make([]string, 0, cap(b.batch))
		return true
	default:
		b.batch = b.batch[:len(b.batch)-1]
		return false
	}
}

// Offer says no when Add does, or once the batcher is stopped.
func (b *Batcher) Offer(v string) bool { // want Offer:"trysend param -1 on Batcher.out"
	select {
	case <-b.stop:
		return false
	default:
		ok := b.Add(v)
		if !ok {
			return false
		}
		return true
	}
}

// OfferAll says what Add says.
func OfferAll(b *Batcher, v string) bool { // want OfferAll:"trysend param -1 on Batcher.out"
	return b.Add(v)
}

// Mailbox reports a full channel as an error.
type Mailbox struct {
	ch   chan string
	stop chan struct{}
}

var ErrFull, ErrStopped = errors.New("full"), errors.New("stopped")

func (m *Mailbox) TrySend(v string) error { // want TrySend:"trysend param 0 on m.ch err"
	select {
	case m.ch <- v:
		return nil
	default:
		return ErrFull
	}
}

// Deliver says what TrySend says, or ErrStopped once stopped.
func (m *Mailbox) Deliver(v string) error { // want Deliver:"trysend param -1 on Mailbox.ch err"
	select {
	case <-m.stop:
		return ErrStopped
	default:
	}
	if err := m.TrySend(v); err != nil {
		return err
	}
	return nil
}

// Negative: Encode fails for a reason of its own.
func (m *Mailbox) Encode(v string) error {
	if v == "" {
		return fmt.Errorf("empty")
	}
	return m.TrySend(v)
}

// Negative: Validate says no for a reason of its own too.
func (b *Batcher) Validate(v string) bool {
	if v == "" {
		return false
	}
	return b.Add(v)
}

// Negative: Flush blocks on the send itself.
func (b *Batcher) Flush(v string) bool {
	b.batch = append(b.batch, v)
	if len(b.batch) == cap(b.batch) {
		b.out <- b.batch
		b.batch = nil
	}
	select {
	case <-b.stop:
		return false
	default:
		return true
	}
}

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
func Poll(d time.Duration, f func()) { // want Poll:"work"
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

// Handlers of one signature: a start handed to one that never reads it
// measures nothing. The one that reads it has no such fact.
func MetadataHandler(startTime time.Time, name string) string { // want MetadataHandler:"unread times \\[0\\]"
	return name
}

func StatusHandler(startTime time.Time, name string) string {
	return name + startTime.String()
}

func Between(from, _ time.Time, to time.Time) bool { // want Between:"unread times \\[1 2\\]"
	return from.IsZero()
}

// Time times a call of the function it is handed; Untimed runs it with no
// clock around it, and Twice calls it twice (no one call to time).
func Time(op string, f func() error) error { // want Time:"times a call of param 1"
	start := time.Now()
	defer func() { fmt.Println(op, time.Since(start)) }()
	return f()
}

func Untimed(op string, f func() error) error {
	fmt.Println(op)
	return f()
}

func Twice(f func() error) error {
	start := time.Now()
	_ = f()
	err := f()
	fmt.Println(time.Since(start))
	return err
}

// Retried calls what it is handed again while it fails, backing off more
// the longer it has been trying: the time since its start is how long it
// has tried, not the figure of one call. Looped does the same in a for
// loop.
func Retried(ctx context.Context, f func() error) error {
	start := time.Now()
	backoff := 10 * time.Millisecond
again:
	err := f()
	if err != nil {
		if time.Since(start) > time.Second {
			backoff = 200 * time.Millisecond
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return err
		}
		goto again
	}
	return nil
}

func Looped(f func() error) error {
	start := time.Now()
	var err error
	for range 3 {
		if err = f(); err == nil {
			break
		}
	}
	fmt.Println(time.Since(start))
	return err
}

// Throttle2 takes a slot in a loop that also hands back the errors its
// workers reported: the loop's first round waits for the slot.
type Throttle2 struct {
	slots chan struct{}
	errs  chan error
}

func NewThrottle2(n int) *Throttle2 {
	return &Throttle2{slots: make(chan struct{}, n), errs: make(chan error, n)}
}

func (t *Throttle2) Do() error { // want Do:"wait SemaphoreChan the send to semaphore channel slots strict on .slots release method Done"
	for {
		select {
		case t.slots <- struct{}{}:
			return nil
		case err := <-t.errs:
			if err != nil {
				return err
			}
		}
	}
}

func (t *Throttle2) Done(err error) {
	if err != nil {
		t.errs <- err
	}
	select {
	case <-t.slots:
	default:
		panic("Done without Do")
	}
}

// Offer's loop tries the slot and gives up: it does not wait.
func (t *Throttle2) Offer() bool {
	for {
		select {
		case t.slots <- struct{}{}:
			return true
		default:
			return false
		}
	}
}

// Pump's loop sends for ever: no send leaves it, so it is a producer, not
// an acquire.
func (t *Throttle2) Pump() {
	for {
		select {
		case t.slots <- struct{}{}:
		case <-t.errs:
		}
	}
}
