// Package shapes exercises analyzers/internal/pools: its test reports every
// task of every pool, with the pool's kind and the task's shape.
package shapes

import (
	"context"
	"sync"

	"admission/helpers"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

func work()             {}
func workOn(int)        {}
func named() error      { return nil }
func (s *svc) m() error { return nil }

type svc struct {
	sem  *semaphore.Weighted
	pool *helpers.Pool
}

func newSvc() *svc {
	return &svc{sem: semaphore.NewWeighted(4), pool: helpers.NewPool(2)}
}

// A weighted semaphore: the task is what runs between Acquire and Release.
func (s *svc) weighted(ctx context.Context) {
	if err := s.sem.Acquire(ctx, 1); err != nil { // want `Semaphore sem limit=4: task routable body=1`
		return
	}
	work()
	s.sem.Release(1)

	if s.sem.TryAcquire(1) { // want `Semaphore sem limit=4: task routable body=1`
		work()
		s.sem.Release(1)
	}

	// No release in sight: the task cannot be moved to another pool.
	_ = s.sem.Acquire(ctx, 1) // want `Semaphore sem limit=4: task unroutable body=1`
	work()
}

// An errgroup with a limit: each function handed to Go is a task.
func groups(ctx context.Context) {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(3)
	g.Go(func() error { work(); return nil }) // want `Group g limit=3: task routable body=1`
	g.Go(named)                               // want `Group g limit=3: task routable funcs=shapes.named`
	_ = g.Wait()

	// SetLimit(-1) removes the limit: no pool.
	var free errgroup.Group
	free.SetLimit(-1)
	free.Go(named)
}

// A buffered channel used as a semaphore, acquired by a send.
func tokens(items []int) {
	sem := make(chan struct{}, 8)
	for _, it := range items {
		sem <- struct{}{} // want `TokenChan sem limit=8: task routable body=1`
		go func() {
			defer func() { <-sem }()
			workOn(it)
		}()
	}
}

// A pre-filled channel of tokens, acquired by a receive.
func prefilled() {
	toks := make(chan int, 2)
	for i := 0; i < 2; i++ {
		toks <- i
	}
	t := <-toks // want `TokenChan toks limit=2: task routable body=1 recv`
	work()
	toks <- t
}

// Workers that run the functions sent to them.
func workers(n int) {
	jobs := make(chan func())
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				f()
			}
		}()
	}
	jobs <- work              // want `Workers jobs: task routable funcs=shapes.work`
	jobs <- func() { work() } // want `Workers jobs: task routable body=1`
	close(jobs)
	wg.Wait()
}

type job interface{ Run() }

type fetch struct{}

func (fetch) Run() {}

// Workers that call a method of what they receive, started by go worker(ch).
func worker(ch chan job) {
	for j := range ch {
		j.Run()
	}
}

func methodWorkers() {
	ch := make(chan job)
	go worker(ch)
	ch <- fetch{} // want `Workers ch: task routable funcs=\(shapes.fetch\).Run`
}

// A pool kept behind helpers of another package.
func (s *svc) behindHelpers(ctx context.Context) {
	release, err := s.pool.Acquire(ctx) // want `Semaphore pool via \(\*helpers.Pool\).Acquire: task routable body=3`
	if err != nil {
		return
	}
	defer release()
	work()
}

type kind int

const (
	get kind = iota
	put
)

type req struct {
	kind kind
	key  string
}

// Workers that switch on a field of what they receive: each case is a
// branch, and each send selects one by its literal's field.
func byKind(keys []string, k kind) {
	reqs := make(chan req, 4)
	go func() {
		for r := range reqs {
			workOn(len(r.key))
			switch r.kind {
			case get: // want `Workers reqs limit=4: branch 0 of 2 common=1`
				work()
			case put: // want `Workers reqs limit=4: branch 1 of 2 common=1`
				workOn(1)
			}
		}
	}()
	reqs <- req{kind: put, key: "a"} // want `Workers reqs limit=4: task routable branch=1`
	reqs <- req{key: "b"}            // want `Workers reqs limit=4: task routable branch=0`
	reqs <- req{k, "c"}              // want `Workers reqs limit=4: task routable`
}

// Workers that switch on the type of what they receive, in a function the
// value is handed to.
func byType(items chan any) {
	go func() {
		for it := range items {
			handle(it)
		}
	}()
	items <- 1   // want `Workers items: task routable branch=0`
	items <- "x" // want `Workers items: task routable branch=1`
}

func handle(it any) {
	switch it.(type) {
	case int: // want `Workers items: branch 0 of 2 common=0`
		work()
	default: // want `Workers items: branch 1 of 2 common=0`
	}
}

// Workers whose loop body calls an interface method: data work as a whole.
type sink interface{ put(string) }

func drain(in chan string, s sink) {
	go func() {
		for v := range in { // want `Workers in: data common=1`
			s.put(v)
		}
	}()
	in <- "v" // want `Workers in: task routable`
}

// Workers that call a method of an interface-typed value: the send's task
// is one of its implementations.
type runner struct{ jobs chan job }

func (r *runner) start() {
	go func() {
		for j := range r.jobs {
			j.Run()
		}
	}()
}

func (r *runner) submit(j job) {
	r.jobs <- j // want `Workers jobs: task routable iface=Run`
}
