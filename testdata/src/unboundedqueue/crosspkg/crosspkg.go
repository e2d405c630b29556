// Package crosspkg uses the helpers of package admission/helpers: the
// admission facts tell unboundedqueue which of their calls wait for a slot
// and which only send.
package crosspkg

import (
	"context"

	"admission/helpers"
)

type server struct {
	in   chan int
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
