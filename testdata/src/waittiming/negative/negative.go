// Package negative has timings real services get right, which the check
// must leave alone.
package negative

import (
	"context"
	"errors"
	"log"
	"net/http"
	"sync"
	"time"

	metrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

var (
	sem      = semaphore.NewWeighted(8)
	lim      = rate.NewLimiter(10, 1)
	waitHist = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "wait_seconds"})
	runHist  = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "run_seconds"})
)

func work(ctx context.Context) error { return nil }

// WaitOnly times the wait alone: that timer is the split.
func WaitOnly(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	waitHist.Observe(time.Since(start).Seconds())
	return work(ctx)
}

// WaitOnlyLogged logs the wait and nothing else.
func WaitOnlyLogged(ctx context.Context) error {
	start := time.Now()
	if err := lim.Wait(ctx); err != nil {
		log.Printf("gave up after %v: %v", time.Since(start), err)
		return err
	}
	log.Printf("waited %v", time.Since(start))
	return work(ctx)
}

// Reassigned restarts the clock after the wait.
func Reassigned(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	start = time.Now()
	err := work(ctx)
	runHist.Observe(time.Since(start).Seconds())
	return err
}

// Split takes a second timestamp after the wait and keeps an end-to-end
// figure beside the per-stage ones.
func Split(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	acquired := time.Now()
	waitHist.Observe(acquired.Sub(start).Seconds())
	err := work(ctx)
	runHist.Observe(time.Since(acquired).Seconds())
	log.Printf("total %v", time.Since(start))
	return err
}

// PerStage observes the wait from the same start, then the total.
func PerStage(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	waitHist.Observe(time.Since(start).Seconds())
	err := work(ctx)
	log.Printf("total %v", time.Since(start))
	return err
}

// ErrorBranch waits only to retry after a failure.
func ErrorBranch(ctx context.Context) error {
	start := time.Now()
	err := work(ctx)
	if err != nil {
		if werr := lim.Wait(ctx); werr != nil { // why: error-branch-wait
			return werr
		}
		err = work(ctx)
	}
	log.Printf("took %v", time.Since(start))
	return err
}

// EarlyExit waits only on a path that returns before the end.
func EarlyExit(ctx context.Context, cached bool) error {
	start := time.Now()
	if !cached {
		sem.Acquire(ctx, 1) // why: returns-before-end
		defer sem.Release(1)
		return work(ctx)
	}
	log.Printf("cache hit in %v", time.Since(start))
	return nil
}

var mu sync.Mutex

// Mutex waits for a lock: not an admission wait unless -waittiming.mutex.
func Mutex(ctx context.Context) error {
	start := time.Now()
	mu.Lock()
	defer mu.Unlock()
	err := work(ctx)
	log.Printf("took %v", time.Since(start))
	return err
}

func flush(ctx context.Context) error { return nil }

// Loop receives from ctx.Done() and a ticker in the select that is the
// work loop itself.
func Loop(ctx context.Context, jobs <-chan int) {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		start := time.Now()
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			flush(ctx)
		case <-jobs:
			work(ctx)
		}
		log.Printf("iteration took %v", time.Since(start))
	}
}

func process(ctx context.Context, r *http.Request) error {
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}

// Handler times the whole request end to end; the wait is in a callee.
func Handler(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if err := process(r.Context(), r); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
	log.Printf("%s %s %v", r.Method, r.URL.Path, time.Since(start))
}

// Batch times a whole fan-out: waits per item are the batch's own.
func Batch(ctx context.Context, n int) error {
	start := time.Now()
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for range n {
		g.Go(func() error { return work(ctx) })
	}
	err := g.Wait()
	log.Printf("batch took %v", time.Since(start))
	return err
}

// Serial acquires per item in a loop the start precedes.
func Serial(ctx context.Context, n int) error {
	start := time.Now()
	for range n {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		err := work(ctx)
		sem.Release(1)
		if err != nil {
			return err
		}
	}
	metrics.MeasureSince([]string{"serial"}, start)
	return nil
}

// Unlimited starts goroutines on a group without a limit: Go never blocks.
func Unlimited(ctx context.Context, n int) error {
	var g errgroup.Group
	g.SetLimit(-1)
	for range n {
		start := time.Now()
		g.Go(func() error {
			err := work(ctx)
			log.Printf("took %v", time.Since(start)) // why: end-elsewhere
			return err
		})
	}
	return g.Wait()
}

type cache struct{ m map[string][]byte }

// Fetch times every path, including the cache hits that never wait: an
// end-to-end figure.
func (c *cache) Fetch(ctx context.Context, key string) ([]byte, error) {
	defer metrics.MeasureSince([]string{"cache", "fetch"}, time.Now())
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	if err := sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer sem.Release(1)
	return nil, work(ctx)
}

var errBusy = errors.New("busy")

var slots = make(chan struct{}, 4)

// Try takes a slot without waiting.
func Try(ctx context.Context) error {
	start := time.Now()
	select {
	case slots <- struct{}{}:
	default:
		return errBusy
	}
	defer func() { <-slots }()
	err := work(ctx)
	log.Printf("took %v", time.Since(start))
	return err
}

// TryAcquire does not wait either.
func TryAcquire(ctx context.Context) error {
	start := time.Now()
	if !sem.TryAcquire(1) {
		return errBusy
	}
	defer sem.Release(1)
	err := work(ctx)
	log.Printf("took %v", time.Since(start))
	return err
}

// Completion signals the end of each goroutine on a buffered channel: the
// goroutine's send is not an acquire.
func Completion(ctx context.Context, n int) {
	done := make(chan struct{}, n)
	for range n {
		go func() {
			start := time.Now()
			work(ctx)
			done <- struct{}{}
			flush(ctx)
			log.Printf("took %v", time.Since(start))
		}()
	}
	for range n {
		<-done
	}
}

var notify = make(chan struct{}, 1)

// Notify wakes a flusher: a one-slot channel coalesces wake-ups.
func Notify(ctx context.Context) {
	start := time.Now()
	notify <- struct{}{}
	flush(ctx)
	log.Printf("took %v", time.Since(start))
}

func Flusher(ctx context.Context) {
	for range notify {
		flush(ctx)
	}
}

// Poll sleeps for a poll interval, not a backoff.
func Poll(ctx context.Context, interval time.Duration) error {
	start := time.Now()
	for {
		if err := work(ctx); err == nil {
			break
		}
		time.Sleep(interval)
	}
	log.Printf("ready after %v", time.Since(start))
	return nil
}

// Result waits for the result of its own goroutine: a receive is not an
// admission wait.
func Result(ctx context.Context) error {
	start := time.Now()
	done := make(chan error)
	go func() { done <- work(ctx) }()
	err := <-done
	flush(ctx)
	log.Printf("took %v", time.Since(start))
	return err
}

type server struct {
	start time.Time
}

// Field keeps the start in a field: shared state, not this call's timing.
func (s *server) Field(ctx context.Context) error {
	s.start = time.Now()
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	err := work(ctx)
	log.Printf("took %v", time.Since(s.start)) // why: start-in-field
	return err
}

type timedServer struct {
	timer *prometheus.Timer
}

// FieldTimer stops a timer held in a field: another call may have started
// it, so the span is not this call's.
func (s *timedServer) FieldTimer(ctx context.Context) error {
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	err := work(ctx)
	s.timer.ObserveDuration() // why: start-elsewhere
	return err
}

// Deferred waits in a deferred call and in a goroutine: neither delays
// the work.
func Deferred(ctx context.Context) error {
	start := time.Now()
	defer lim.Wait(ctx)
	go sem.Acquire(ctx, 1)
	err := work(ctx)
	log.Printf("took %v", time.Since(start))
	return err
}

// Callback measures inside a callback that runs who knows when.
func Callback(ctx context.Context, mux *http.ServeMux) {
	start := time.Now()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		sem.Acquire(ctx, 1)
		defer sem.Release(1)
		work(ctx)
		log.Printf("up %v", time.Since(start))
	})
}

// Workless times the wait and a log line: no work after the wait.
func Workless(ctx context.Context) {
	defer metrics.MeasureSince([]string{"workless"}, time.Now())
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	log.Println("acquired")
}

type shared struct{ memMu chan *[]byte }

func newShared() shared {
	memMu := make(chan *[]byte, 1)
	memMu <- new([]byte)
	return shared{memMu: memMu}
}

// Lock takes shared memory from a one-slot channel made into a variable and
// stored in a field: a mutex, not an admission wait.
func (s shared) Lock(ctx context.Context) (d time.Duration) {
	start := time.Now()
	defer func() { d = time.Since(start) }()
	mem := <-s.memMu
	defer func() { s.memMu <- mem }()
	work(ctx)
	return d
}

type walker struct{ sem chan struct{} }

func (w *walker) walk(dir string) {
	select {
	case w.sem <- struct{}{}:
		go func() { defer func() { <-w.sem }(); w.walk(dir + "/x") }()
	default:
		w.walk(dir + "/y")
	}
}

// Fresh acquires a semaphore it has just made: nobody else holds a slot,
// so the send does not wait; the timing is of the whole scan.
func Fresh(root string, n int) {
	start := time.Now()
	w := &walker{sem: make(chan struct{}, n)}
	w.sem <- struct{}{} // why: fresh-limiter
	w.walk(root)
	<-w.sem
	log.Printf("scanned %s in %v", root, time.Since(start))
}

// FreshLocal does the same with a local semaphore.
func FreshLocal(ctx context.Context) error {
	start := time.Now()
	s := semaphore.NewWeighted(2)
	if err := s.Acquire(ctx, 1); err != nil {
		return err
	}
	err := work(ctx)
	s.Release(1)
	log.Printf("took %v", time.Since(start))
	return err
}
