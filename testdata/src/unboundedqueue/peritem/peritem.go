package peritem

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type job struct{ id int }

type request struct {
	body []byte
}

func handle(j job)                          {}
func process(ctx context.Context, j job)    {}
func work(ctx context.Context, j job) error { return nil }
func decode(b []byte) job                   { return job{} }

// Positive: go f(x) per item of a range over a channel.
func consume(jobs <-chan job) {
	for j := range jobs {
		go handle(j) // want `goroutine per item received from jobs with nothing bounding how many run at once: the channel never fills, so it never pushes back on the producer; acquire a semaphore before starting each one`
	}
}

type server struct {
	in   chan request
	jobs chan job
}

// Positive: a select receive in for {}, a function literal.
func (s *server) loop(ctx context.Context) {
	for {
		select {
		case r := <-s.in:
			go func() { // want `goroutine per item received from s.in`
				j := decode(r.body)
				process(ctx, j)
			}()
		case <-ctx.Done():
			return
		}
	}
}

// Positive: a receive statement in for {}, arguments that do work.
func (s *server) receive(ctx context.Context) {
	for {
		r, ok := <-s.in
		if !ok {
			return
		}
		go process(ctx, decode(r.body)) // want `goroutine per item received from s.in`
	}
}

// Positive: an errgroup without SetLimit.
func group(ctx context.Context, jobs <-chan job) error {
	g, ctx := errgroup.WithContext(ctx)
	for j := range jobs {
		g.Go(func() error { // want `g.Go goroutine per item received from jobs`
			return work(ctx, j)
		})
	}
	return g.Wait()
}

// Positive: sync.WaitGroup.Go, a one-line literal.
func waitGroup(jobs <-chan job) {
	var wg sync.WaitGroup
	for j := range jobs {
		wg.Go(func() { handle(j) }) // want `wg.Go goroutine per item received from jobs`
	}
	wg.Wait()
}

// Positive: a method value handed to an errgroup, in a labeled loop; a
// rate.Limiter's SetLimit does not limit the group.
func (s *server) labeled(ctx context.Context, lim *rate.Limiter) error {
	var g errgroup.Group
	lim.SetLimit(10)
outer:
	for {
		select {
		case j, ok := <-s.jobs:
			if !ok {
				break outer
			}
			g.Go(j.run) // want `g.Go goroutine per item received from s.jobs`
		case <-ctx.Done():
			break outer
		}
	}
	return g.Wait()
}

func (j job) run() error { return nil }

// Positive: a generic function, a variable that changes every iteration.
func drain[T any](ch <-chan T, f func(int, T)) {
	n := 0
	for v := range ch {
		n++
		go f(n, v) // want `goroutine per item received from ch`
	}
}

// Positive: SetLimit(-1) removes the limit.
func unlimited(jobs <-chan job) {
	var g errgroup.Group
	g.SetLimit(-1)
	for j := range jobs {
		g.Go(func() error { handle(j); return nil }) // want `g.Go goroutine per item received from jobs`
	}
	_ = g.Wait()
}

// Positive: requests that carry a reply channel are still messages.
type call struct {
	j     job
	reply chan error
}

func (s *server) calls(in <-chan call) {
	for c := range in {
		go func() { // want `goroutine per item received from in`
			c.reply <- work(context.Background(), c.j)
		}()
	}
}

// Negatives.

// A loop over a slice is bounded by its input.
func overSlice(js []job) {
	for _, j := range js {
		go handle(j)
	}
}

// A semaphore acquired before the spawn.
func withSem(jobs <-chan job) {
	sem := make(chan struct{}, 8)
	for j := range jobs {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			handle(j)
		}()
	}
}

// A semaphore acquired in a select with cancellation.
func withSemSelect(ctx context.Context, jobs <-chan job) {
	sem := make(chan struct{}, 8)
	for j := range jobs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		go func() {
			defer func() { <-sem }()
			handle(j)
		}()
	}
}

// A pre-filled token channel: acquiring is a receive.
func withTokens(jobs <-chan job) {
	tokens := make(chan int, 4)
	for i := 0; i < 4; i++ {
		tokens <- i
	}
	for j := range jobs {
		t := <-tokens
		go func() {
			defer func() { tokens <- t }()
			handle(j)
		}()
	}
}

// A weighted semaphore.
func withWeighted(ctx context.Context, jobs <-chan job) {
	sem := semaphore.NewWeighted(8)
	for j := range jobs {
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		go func() {
			defer sem.Release(1)
			handle(j)
		}()
	}
}

// TryAcquire with an inline fallback.
func withTry(jobs <-chan job) {
	sem := semaphore.NewWeighted(8)
	for j := range jobs {
		if !sem.TryAcquire(1) {
			handle(j) // at the limit, the loop does the work itself
			continue
		}
		go func() {
			defer sem.Release(1)
			handle(j)
		}()
	}
}

// A semaphore whose acquire reports success, with the work done inline when
// it fails (staticcheck's runner: for item := range queue { if
// sem.AcquireMaybe() { go ... } else { ... } }).
type maybeSem chan struct{}

func (s maybeSem) AcquireMaybe() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s maybeSem) Release() { <-s }

func withAcquireMaybe(sem maybeSem, jobs <-chan job) {
	for j := range jobs {
		if sem.AcquireMaybe() {
			go func() {
				defer sem.Release()
				handle(j)
			}()
		} else {
			handle(j)
		}
	}
}

// A token bucket with Take and Give.
type bucket struct{ c chan struct{} }

func (b *bucket) Take() { <-b.c }
func (b *bucket) Give() { b.c <- struct{}{} }

func withBucket(b *bucket, jobs <-chan job) {
	for j := range jobs {
		b.Take()
		go func() {
			defer b.Give()
			handle(j)
		}()
	}
}

// A gate with Start and Done.
type gate chan struct{}

func (g gate) Start() { g <- struct{}{} }
func (g gate) Done()  { <-g }

func withGate(g gate, jobs <-chan job) {
	for j := range jobs {
		g.Start()
		go func() {
			defer g.Done()
			handle(j)
		}()
	}
}

// A rate limiter paces the spawns.
func withRate(ctx context.Context, lim *rate.Limiter, jobs <-chan job) {
	for j := range jobs {
		if err := lim.Wait(ctx); err != nil {
			return
		}
		go handle(j)
	}
}

// An acquire in a helper of this package.
type pool struct{ sem chan struct{} }

func (p *pool) acquire() { p.sem <- struct{}{} }
func (p *pool) release() { <-p.sem }

func (p *pool) run(jobs <-chan job) {
	for j := range jobs {
		p.acquire()
		go func() {
			defer p.release()
			handle(j)
		}()
	}
}

// An errgroup with SetLimit.
func limitedGroup(jobs <-chan job) error {
	var g errgroup.Group
	g.SetLimit(8)
	for j := range jobs {
		g.Go(func() error { handle(j); return nil })
	}
	return g.Wait()
}

// SetLimit on something that is not an errgroup, whose Go is not a spawn we know.
type workers struct{ n int }

func (w *workers) SetLimit(n int) { w.n = n }
func (w *workers) Go(f func())    { f() }
func customPool(jobs <-chan job) {
	w := new(workers)
	w.SetLimit(4)
	for j := range jobs {
		w.Go(func() { handle(j) })
	}
}

// An errgroup per iteration with a fixed two Go calls and a Wait.
func twoPerItem(ctx context.Context, jobs <-chan job) error {
	for j := range jobs {
		g, ctx := errgroup.WithContext(ctx)
		g.Go(func() error { return work(ctx, j) })
		g.Go(func() error { return work(ctx, j) })
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// An errgroup from the caller, who may have set a limit.
func fromCaller(g *errgroup.Group, jobs <-chan job) {
	for j := range jobs {
		g.Go(func() error { handle(j); return nil })
	}
}

// The loop waits for the goroutine before taking the next item.
func waitEach(jobs <-chan job) {
	var wg sync.WaitGroup
	for j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handle(j)
		}()
		wg.Wait()
	}
}

func resultEach(jobs <-chan job) {
	done := make(chan error)
	for j := range jobs {
		go func() { done <- work(context.Background(), j) }()
		if err := <-done; err != nil {
			return
		}
	}
}

// Per-entity goroutines: one long-lived reader per subscription.
type subscription struct {
	C chan job
}

func subscriptions(subs <-chan *subscription) {
	for s := range subs {
		go func() {
			for j := range s.C {
				handle(j)
			}
		}()
	}
}

type conn struct{ id int }

func serve(c conn) {
	for {
		time.Sleep(time.Second)
	}
}

func readLoop(c conn) {
	for {
		time.Sleep(time.Millisecond)
	}
}

func serveConn(c conn) {
	defer println("closed")
	readLoop(c)
}

func conns2(cs <-chan conn) {
	for c := range cs {
		go serveConn(c)
	}
}

func conns(cs <-chan conn) {
	for c := range cs {
		go serve(c)
	}
}

// Ticks, cancellation and signals are not items.
func ticks(ctx context.Context, t *time.Ticker, stop chan struct{}) {
	for {
		select {
		case <-t.C:
			go handle(job{})
		case <-stop:
			go handle(job{})
		case <-ctx.Done():
			return
		}
	}
}

// A spawn in a callback defined in the loop runs when the callback does.
func callbacks(jobs <-chan job, register func(func())) {
	for j := range jobs {
		register(func() { go handle(j) })
	}
}

// A goroutine that reads nothing of the item is not per item.
type killer interface{ Kill() }

func limit(in <-chan job, p killer) {
	n := 0
	for j := range in {
		if n == 100 {
			go p.Kill()
		}
		n++
		_ = j
	}
}

// The same when the goroutine declares variables of its own (dgraph's Raft
// loop campaigns once, on its first Ready): they are not the loop's.
type campaigner interface{ Campaign() error }

func firstReady(ready <-chan job, r campaigner) {
	first := true
	for rd := range ready {
		if first {
			go func() {
				if err := r.Campaign(); err != nil {
					println(err.Error())
				}
			}()
			first = false
		}
		_ = rd
	}
}

// Items that are components started with a context (controller-runtime's
// runnables, added at setup and sent to the group's loop) are entities too:
// one goroutine per component.
type runnable interface {
	Start(ctx context.Context) error
}

func startAll(ctx context.Context, added <-chan runnable) {
	for r := range added {
		go func() {
			_ = r.Start(ctx)
		}()
	}
}

// Items with a Close method are resources with a lifetime: a goroutine per
// connection is per entity.
type stream struct{ id int }

func (s *stream) Close() error { return nil }

func serveStream(s *stream) { _ = s.Close() }

func streams(newStreams <-chan *stream) {
	for s := range newStreams {
		go func() {
			serveStream(s)
		}()
	}
}

// A count of goroutines in flight guards the spawn: at the limit the loop
// does the work itself.
func counted(jobs <-chan job, max int32) {
	var inflight atomic.Int32
	for j := range jobs {
		if inflight.Load() < max {
			inflight.Add(1)
			go func() {
				defer inflight.Add(-1)
				handle(j)
			}()
			continue
		}
		handle(j)
	}
}

// The loop leaves after the spawn: one goroutine, not one per item.
func first(jobs <-chan job) {
	for j := range jobs {
		go handle(j)
		return
	}
}

func firstBreak(ctx context.Context, jobs <-chan job) {
	for {
		select {
		case j := <-jobs:
			go handle(j) // want `goroutine per item received from jobs`
			break        // leaves the select only: still one goroutine per item
		case <-ctx.Done():
			return
		}
	}
}
