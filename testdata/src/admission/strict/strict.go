// Package strict exercises analyzers/internal/admission with Strict: its test
// reports every wait where time is spent queueing.
package strict

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type server struct {
	sem    chan struct{}
	one    chan struct{}
	tokens chan *conn
	jobs   chan func()
	done   chan struct{}
}

type conn struct{}

func newServer(n int) *server {
	s := &server{
		sem:    make(chan struct{}, n),
		one:    make(chan struct{}, 1),
		tokens: make(chan *conn, n),
		jobs:   make(chan func()),
		done:   make(chan struct{}, 4),
	}
	for range 4 {
		go func() {
			for job := range s.jobs {
				job()
			}
		}()
	}
	return s
}

func (s *server) handle(ctx context.Context, w *semaphore.Weighted, l *rate.Limiter) {
	s.sem <- struct{}{} // want `SemaphoreChan sem blocking`
	defer func() { <-s.sem }()

	s.one <- struct{}{} // a one-slot channel is a mutex
	<-s.one

	c := <-s.tokens // want `TokenChan tokens blocking`
	defer func() { s.tokens <- c }()

	s.jobs <- func() {} // want `Pool jobs blocking`

	select { // want `SemaphoreChan sem blocking`
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	<-s.sem

	select { // a try, not a wait
	case s.sem <- struct{}{}:
		<-s.sem
	default:
	}

	_ = w.Acquire(ctx, 1) // want `Semaphore w blocking`
	_ = w.TryAcquire(1)
	_ = l.Wait(ctx)                 // want `RateLimiter l blocking`
	time.Sleep(l.Reserve().Delay()) // want `RateLimiter - blocking`
}

// A completion signal sent by a goroutine and received by its parent is not
// a semaphore.
func (s *server) signal() {
	go func() { s.done <- struct{}{} }()
	<-s.done
}

func retry(ctx context.Context, backoff time.Duration) {
	time.Sleep(backoff)            // want `Backoff - blocking`
	<-time.After(backoff)          // want `Backoff - blocking`
	time.Sleep(100 * time.Millisecond) // a poll interval is not an admission
}

// A limiter of another library, named like one.
type RateLimiter struct{}

func (*RateLimiter) Wait(ctx context.Context) error { return nil }

// A reference count: Acquire cannot block.
type page struct{ refs int }

func (p *page) Acquire() { p.refs++ }
func (p *page) Release() { p.refs-- }

// An acquire that can block: it takes a context.
type slots struct{ ch chan struct{} }

func (s *slots) Acquire(ctx context.Context) error { return nil }
func (s *slots) Release()                          {}

// A Start/Done pair counts only on a gate.
type gate struct{ ch chan struct{} }

// Start and Done take and give back a token of g.ch, and are called as a
// pair: g.ch is a semaphore channel too.
func (g *gate) Start() { g.ch <- struct{}{} } // want `SemaphoreChan ch blocking`
func (g *gate) Done()  { <-g.ch }

type service struct{}

func (*service) Start() {}
func (*service) Done()  {}

func shapes(ctx context.Context, rl *RateLimiter, p *page, sl *slots, g *gate, svc *service, mu *sync.Mutex) {
	_ = rl.Wait(ctx) // want `RateLimiter rl blocking`
	p.Acquire()
	p.Release()
	_ = sl.Acquire(ctx) // want `Semaphore sl blocking`
	sl.Release()
	g.Start() // want `Gate g blocking`
	g.Done()
	svc.Start()
	svc.Done()
	mu.Lock() // only with Mutex
	mu.Unlock()
}

func groups(ctx context.Context) {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(2)
	g.Go(func() error { return nil }) // want `LimitedGroup g blocking`
	_ = g.Wait()
}
