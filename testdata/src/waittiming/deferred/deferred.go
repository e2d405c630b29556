// Package deferred has measurements that start in a defer statement, and
// Prometheus timers.
package deferred

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"

	armon "github.com/armon/go-metrics"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type Store struct {
	sem *semaphore.Weighted
}

func (s *Store) read(ctx context.Context, key string) ([]byte, error) { return nil, nil }

// Get is the go-metrics idiom: the whole call, wait included, lands in one
// key. The fix measures the run under the key and the wait under key+wait.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	defer metrics.MeasureSince([]string{"store", "get"}, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer s.sem.Release(1)
	return s.read(ctx, key)
}

var putKey = []string{"store", "put"}

// Put keeps its key in a variable and uses armon's go-metrics.
func (s *Store) Put(ctx context.Context, key string) error {
	defer armon.MeasureSince(putKey, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

// Labels measures with labels.
func (s *Store) Labels(ctx context.Context, key string) error {
	defer metrics.MeasureSinceWithLabels([]string{"store", "labels"}, time.Now(), []metrics.Label{{Name: "key", Value: key}}) // want `spans the wait`
	_ = s.sem.Acquire(ctx, 1)
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

func observe(name string, start time.Time) { log.Println(name, time.Since(start)) } // why: no-wait-in-span // want observe:"bookkeeping"

// Named uses the package's own recorder with a string key.
func (s *Store) Named(ctx context.Context, key string) error {
	defer observe("store.named", time.Now()) // want `spans the wait`
	_ = s.sem.Acquire(ctx, 1)
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

// Lit passes the start to a deferred literal.
func (s *Store) Lit(ctx context.Context, key string) error {
	defer func(start time.Time) { // want `the measurement deferred with a start of time\.Now\(\) spans`
		log.Printf("lit %s took %v", key, time.Since(start))
	}(time.Now())
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

// StartVar defers a recorder of a start variable.
func (s *Store) StartVar(ctx context.Context, key string) error {
	start := time.Now()
	defer metrics.MeasureSince([]string{"store", "startvar"}, start) // want `the duration since start spans`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

var (
	latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "store_seconds"}, []string{"op", "stage"})
	plain   = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "plain_seconds"})
)

// Timer uses a Prometheus timer on a *Vec with a stage label: the wait is
// observed under stage "wait".
func (s *Store) Timer(ctx context.Context, key string) error {
	timer := prometheus.NewTimer(latency.WithLabelValues("timer", "run"))
	defer timer.ObserveDuration() // want `the Prometheus timer timer spans the wait`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

// DeferTimer starts and observes the timer in one defer, on a plain
// histogram.
func (s *Store) DeferTimer(ctx context.Context, key string) error {
	defer prometheus.NewTimer(plain).ObserveDuration() // want `the deferred Prometheus timer spans the wait`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	return err
}

// Vec observes a duration on a *Vec with a stage label, set with With.
func (s *Store) Vec(ctx context.Context, key string) error {
	start := time.Now()
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := s.read(ctx, key)
	latency.With(prometheus.Labels{"op": "vec", "stage": "run"}).Observe(time.Since(start).Seconds()) // want `the duration since start spans`
	return err
}

// Explicit observes the timer at the end, not deferred.
func (s *Store) Explicit(ctx context.Context, key string) error {
	t := prometheus.NewTimer(latency.WithLabelValues("explicit", "total"))
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	_, err := s.read(ctx, key)
	s.sem.Release(1)
	t.ObserveDuration() // want `the Prometheus timer t spans`
	return err
}

var errStopped = errors.New("stopped")

type configs struct {
	mu      sync.Mutex
	stopped bool
	limiter *rate.Limiter
}

func (c *configs) write(ctx context.Context, entry string) error { return nil }

// Set returns errors before the wait: those exits are not runs of the
// work, so the measurement still times the wait and the write.
func (c *configs) Set(ctx context.Context, entry string) error {
	defer metrics.MeasureSince([]string{"configs", "set"}, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the wait in \(\*rate\.Limiter\)\.Wait`

	c.mu.Lock()
	stopped := c.stopped
	c.mu.Unlock()

	if stopped {
		return errStopped
	}

	// ensure we are under our rate limit
	if err := c.limiter.Wait(ctx); err != nil {
		return err
	}

	return c.write(ctx, entry)
}
