// Package crosspkg uses the helpers of package admission/helpers: the
// admission facts tell unboundedqueue which of their calls wait for a slot
// and which only send.
package crosspkg

import (
	"context"
	"sync"

	"admission/helpers"
)

type server struct {
	in   chan int
	q    *helpers.Queue
	agg  *helpers.Agg
	pool *helpers.Pool
	gate *helpers.Gate
}

func work(int) {}

// A goroutine per send through a helper of another package.
func (s *server) publish(x int) {
	go s.agg.Enqueue(x) // want `goroutine that only sends to s.agg.in \(in \(\*helpers.Agg\).Enqueue\) parks with its value`
}

// And through a helper of this package.
func (s *server) enqueue(x int) { s.in <- x }

func (s *server) handle(x int) {
	go s.enqueue(x) // want `goroutine that only sends to s.in \(in \(\*crosspkg.server\).enqueue\) parks with its value`
}

// A literal that only calls the helper, with the value computed before.
func (s *server) publishLit(x int) {
	go func() { s.agg.Enqueue(x) }() // want `goroutine that only sends to s.agg.in \(in \(\*helpers.Agg\).Enqueue\) parks with its value`
}

func (s *server) handleLit(x int) {
	go func(v int) { // want `goroutine that only sends to s.in \(in \(\*crosspkg.server\).enqueue\) parks with its value`
		s.enqueue(v)
	}(x)
}

func (s *server) push(v string) {
	go s.q.Push(v) // want `goroutine that only sends to s.q.ch \(in \(\*helpers.Queue\).Push\) parks with its value`
}

// The goroutine computes what it sends: it does the work.
func (s *server) publishWork(x int) {
	go func() { s.agg.Enqueue(square(x)) }()
}

func square(x int) int { return x * x }

// Under a lock the consumer may take, the goroutine keeps the send from
// deadlocking with it.
func (s *server) publishLocked(mu *sync.Mutex, x int) {
	mu.Lock()
	defer mu.Unlock()
	go func() { s.agg.Enqueue(x) }()
}

// A helper that also waits for shutdown is not a plain send.
func (s *server) enqueueOrDone(x int, done <-chan struct{}) {
	select {
	case s.in <- x:
	case <-done:
	}
}

func (s *server) handleDone(x int, done <-chan struct{}) {
	go s.enqueueOrDone(x, done)
}

// The consumer's own function would deadlock on a blocking send.
func (s *server) loopback(x int) {
	go s.enqueue(x)
	<-s.in
}

// Spawns bounded by an acquire helper of another package.
func (s *server) serve(ctx context.Context, items <-chan int) {
	for it := range items {
		release, err := s.pool.Acquire(ctx)
		if err != nil {
			return
		}
		go func() {
			defer release()
			work(it)
		}()
	}
}

func (s *server) serveGate(items <-chan int) {
	for it := range items {
		s.gate.Enter()
		go func() {
			defer s.gate.Exit()
			work(it)
		}()
	}
}

// Run holds a slot only while it runs: it does not bound the spawn after it.
func (s *server) serveRun(ctx context.Context, items <-chan int) {
	for it := range items {
		_ = s.pool.Run(ctx, func() {})
		go work(it) // want `goroutine per item`
	}
}
