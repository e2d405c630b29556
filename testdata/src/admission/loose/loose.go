// Package loose exercises analyzers/internal/admission without Strict: its
// test reports every acquire with its kind.
package loose

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type server struct {
	sem    chan struct{}
	tokens chan *conn
	events chan int
	done   chan struct{}
	notify chan struct{}
}

type conn struct{}

func newServer(n int) *server {
	s := &server{
		sem:    make(chan struct{}, n),
		tokens: make(chan *conn, n),
		events: make(chan int, 16),
		done:   make(chan struct{}),
		notify: make(chan struct{}, 1),
	}
	for i := 0; i < n; i++ {
		s.tokens <- new(conn)
	}
	return s
}

func (s *server) use(ctx context.Context, w *semaphore.Weighted, l *rate.Limiter, items []int) {
	s.sem <- struct{}{} // want `SemaphoreChan sem blocking`
	<-s.sem
	select {
	case s.sem <- struct{}{}: // want `SemaphoreChan sem try`
		<-s.sem
	default:
	}
	c := <-s.tokens // want `TokenChan tokens blocking`
	s.tokens <- c
	_ = w.Acquire(ctx, 1) // want `Semaphore w blocking`
	_ = w.TryAcquire(1)   // want `Semaphore w try`
	_ = l.Wait(ctx)       // want `RateLimiter l blocking`
	_ = l.WaitN(ctx, 2)   // want `RateLimiter l blocking`

	// A stream and a signal channel are not limiters.
	for _, it := range items {
		s.events <- it
	}
	<-s.events
	close(s.done)
	<-s.done
	select {
	case s.notify <- struct{}{}:
	default:
	}
	<-s.notify
	_ = l.Allow()
}

// Custom limiters with a matching release.
type bucket struct{}

func (b *bucket) Take() {}
func (b *bucket) Give() {}

type pacer struct{}

func (p pacer) Take() time.Time { return time.Time{} }

type gate struct{}

func (g *gate) Start() {}
func (g *gate) Done()  {}

type sema struct{}

func (s *sema) Acquire()           {}
func (s *sema) Release()           {}
func (s *sema) TryAcquire() bool   { return true }
func (s *sema) Take() (int, error) { return 0, nil }

// A variant of acquire that reports whether it got a slot (staticcheck's
// internal Semaphore.AcquireMaybe), on a value receiver.
type maybeSem chan struct{}

func (s maybeSem) AcquireMaybe() bool { return true }
func (s maybeSem) AcquireContext()    {}
func (s maybeSem) Release()           {}

func maybe(s maybeSem) {
	s.AcquireMaybe()   // want `Semaphore s try`
	s.AcquireContext() // want `Semaphore s blocking`
}

// Look-alikes without a release are not limiters.
type server2 struct{}

func (s *server2) Start()          {}
func (s *server2) Take() int       { return 0 }
func (s *server2) Acquire() string { return "" }

func custom(b *bucket, p pacer, g *gate, s *sema, s2 *server2) {
	b.Take()        // want `Semaphore b blocking`
	p.Take()        // want `RateLimiter p blocking`
	g.Start()       // want `Gate g blocking`
	s.Acquire()     // want `Semaphore s blocking`
	s.TryAcquire()  // want `Semaphore s try`
	_, _ = s.Take() // want `Semaphore s blocking`
	s2.Start()
	s2.Take()
	s2.Acquire()
}

// errgroups: Go blocks only on a group with a limit.
func groups(ctx context.Context) {
	var limited errgroup.Group
	limited.SetLimit(4)
	limited.Go(func() error { return nil }) // want `LimitedGroup limited blocking`

	var free errgroup.Group
	free.Go(func() error { return nil })

	var removed errgroup.Group
	removed.SetLimit(-1)
	removed.Go(func() error { return nil })

	g, _ := errgroup.WithContext(ctx)
	n := 3
	g.SetLimit(n)
	g.Go(func() error { return nil }) // want `LimitedGroup g blocking`
}

// An unbuffered channel is a rendezvous, not a semaphore.
func rendezvous() {
	ch := make(chan struct{})
	go func() { <-ch }()
	ch <- struct{}{}
}

// A loop over a slice that sends each element feeds a stream; it does not
// fill a pool.
func feed(out chan *conn, cs []*conn) {
	for _, c := range cs {
		out <- c
	}
	<-out
}

// Filling with range over an integer.
func fill(n int) chan int {
	pool := make(chan int, n)
	for i := range n {
		pool <- i
	}
	<-pool // want `TokenChan pool blocking`
	return pool
}

// A listed call.
func enter() {}

func listed() {
	enter() // want `Listed - blocking`
}

// A constructor fills a local and stores it in a field: the field holds the
// tokens, and a receive from it acquires (gostatsd's merging semaphore).
type forwarder struct {
	mergeSem chan struct{}
	unfilled chan struct{}
}

func newForwarder(n int) *forwarder {
	mergeSem := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		mergeSem <- struct{}{}
	}
	unfilled := make(chan struct{}, n)
	return &forwarder{mergeSem: mergeSem, unfilled: unfilled}
}

func (f *forwarder) acquireMerge() { <-f.mergeSem } // want `TokenChan mergeSem blocking`
func (f *forwarder) releaseMerge() { f.mergeSem <- struct{}{} }

// The unfilled field is a semaphore: the send acquires, the receive gives
// the slot back.
func (f *forwarder) enter() { f.unfilled <- struct{}{} } // want `SemaphoreChan unfilled blocking`
func (f *forwarder) exit()  { <-f.unfilled }

func (f *forwarder) merge() {
	f.acquireMerge() // want `TokenChan mergeSem blocking via \(\*loose.forwarder\).acquireMerge`
	f.releaseMerge()
	f.enter() // want `SemaphoreChan unfilled blocking via \(\*loose.forwarder\).enter`
	f.exit()
}
