// Package paths times requests whose other timestamps and early returns
// lie on some paths only: a slow-query log behind a flag splits nothing,
// and a handler that leaves once an earlier wait has failed (writing the
// error) still times the later wait on every path that does the work.
package paths

import (
	"context"
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
)

var (
	logSlowQueries = flag.Duration("logSlowQueries", 0, "log queries slower than this")

	concurrencyLimitCh = make(chan struct{}, 8)
	global             = semaphore.NewWeighted(64)
	perUser            = semaphore.NewWeighted(4)

	querySeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "query_seconds"})
	serveSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "serve_seconds"})
)

func run(ctx context.Context, q string) error { return nil }

func process(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }

// Query logs slow queries from a second timestamp, behind a flag: the
// figure recorded still holds the wait for a slot.
func Query(ctx context.Context, q string) error {
	start := time.Now()
	concurrencyLimitCh <- struct{}{}
	defer func() { <-concurrencyLimitCh }()
	if *logSlowQueries > 0 {
		actual := time.Now()
		defer func() {
			if d := time.Since(actual); d > *logSlowQueries {
				log.Printf("slow query %q: %v", q, d)
			}
		}()
	}
	err := run(ctx, q)
	querySeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans the wait in the send to semaphore channel concurrencyLimitCh and the work after it`
	return err
}

// QueryEach times each query of a batch from a timestamp of its own, in
// the loop: those figures are the queries', and the batch's figure, from
// before the wait for a slot, still holds the wait.
func QueryEach(ctx context.Context, qs []string) error {
	start := time.Now()
	concurrencyLimitCh <- struct{}{}
	defer func() { <-concurrencyLimitCh }()
	for _, q := range qs {
		t := time.Now()
		if err := run(ctx, q); err != nil {
			return err
		}
		log.Printf("query %q took %v", q, time.Since(t))
	}
	querySeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans the wait in the send to semaphore channel concurrencyLimitCh and the work after it`
	return nil
}

// QuerySplit takes the second timestamp on every path and records the run
// apart: wait and run time are measured apart.
func QuerySplit(ctx context.Context, q string) error {
	start := time.Now()
	concurrencyLimitCh <- struct{}{}
	defer func() { <-concurrencyLimitCh }()
	actual := time.Now()
	err := run(ctx, q)
	log.Printf("query ran %v", time.Since(actual))
	querySeconds.Observe(time.Since(start).Seconds()) // why: split-timestamp
	return err
}

// Serve waits for a global slot and then for the user's; a failed wait
// writes the error and returns, and every path that does the work holds
// both waits.
func Serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { serveSeconds.Observe(time.Since(start).Seconds()) }() // want `the duration since start is the latency users see and includes the wait in \(\*semaphore\.Weighted\)\.Acquire`
	if err := global.Acquire(r.Context(), 1); err != nil {
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	}
	defer global.Release(1)
	if err := perUser.Acquire(r.Context(), 1); err != nil {
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	}
	defer perUser.Release(1)
	process(w, r)
}

// ServeAll also times the requests it answers before any wait: an
// end-to-end figure of every path, not of the waits.
func ServeAll(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { serveSeconds.Observe(time.Since(start).Seconds()) }() // why: end-to-end
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if err := perUser.Acquire(r.Context(), 1); err != nil {
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	}
	defer perUser.Release(1)
	process(w, r)
}
