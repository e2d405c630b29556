// Package handlers times HTTP handlers from their top to their end: the
// latency users see, which should include the queueing. The check keeps
// such a total and adds the wait beside it; it never takes the wait out.
package handlers

import (
	"context"
	"io"
	"log"
	"net/http"
	"time"

	metrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
)

var (
	sem             = semaphore.NewWeighted(16)
	requestDuration = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "http_request_duration_seconds"})
	stageDuration   = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "stage_seconds"}, []string{"stage"})
)

func render(ctx context.Context, w io.Writer) error { return nil }

// Serve logs the request's latency: the total stays, the wait joins it.
func Serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if err := sem.Acquire(r.Context(), 1); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer sem.Release(1)
	err := render(r.Context(), w)
	log.Printf("%s %s took %v err=%v", r.Method, r.URL.Path, time.Since(start), err) // want `the duration since start is the latency users see and includes the wait in \(\*semaphore\.Weighted\)\.Acquire, which no figure shows apart; keep the total and record the wait separately`
}

// Deferred observes the request's latency in a deferred closure.
func Deferred(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() {
		requestDuration.Observe(time.Since(start).Seconds()) // want `the duration since start is the latency users see`
	}()
	if err := sem.Acquire(r.Context(), 1); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer sem.Release(1)
	_ = render(r.Context(), w)
}

type server struct{}

// ServeHTTP measures with a deferred go-metrics call.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer metrics.MeasureSince([]string{"http", "request"}, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) is the latency users see`
	if err := sem.Acquire(r.Context(), 1); err != nil {
		return
	}
	defer sem.Release(1)
	_ = render(r.Context(), w)
}

// Timer uses a Prometheus timer over the whole handler.
func Timer(w http.ResponseWriter, r *http.Request) {
	timer := prometheus.NewTimer(stageDuration.WithLabelValues("total"))
	defer timer.ObserveDuration() // want `the Prometheus timer timer is the latency users see`
	if err := sem.Acquire(r.Context(), 1); err != nil {
		return
	}
	defer sem.Release(1)
	_ = render(r.Context(), w)
}

// Total is not a handler, but its figure says it is the whole call's.
func Total(ctx context.Context, w io.Writer) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := render(ctx, w)
	log.Printf("total latency %v", time.Since(start)) // want `the duration since start is the latency users see`
	return err
}

// Counter adds seconds to a counter whose name ends in _total: a
// Prometheus counter, not a total of the request. The run is split.
func Counter(ctx context.Context, w io.Writer) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := render(ctx, w)
	log.Printf("render_seconds_total += %v", time.Since(start)) // want `the duration since start spans the wait in \(\*semaphore\.Weighted\)\.Acquire and the work after it`
	return err
}

// Stage times a stage of the handler after the wait: right as it is.
func Stage(w http.ResponseWriter, r *http.Request) {
	if err := sem.Acquire(r.Context(), 1); err != nil {
		return
	}
	defer sem.Release(1)
	start := time.Now()
	_ = render(r.Context(), w)
	stageDuration.WithLabelValues("render").Observe(time.Since(start).Seconds())
}

// Body waits for the request's own I/O, not for admission.
func Body(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	_, _ = w.Write(b)
	log.Printf("echo took %v", time.Since(start))
}

// Result waits for the result of the request's own goroutine.
func Result(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- render(r.Context(), w) }()
	err := <-done
	log.Printf("%s took %v: %v", r.URL.Path, time.Since(start), err)
}

// Callee has the wait in a callee: the handler's total is all there is.
func Callee(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	_ = process(r.Context(), w)
	log.Printf("%s took %v", r.URL.Path, time.Since(start))
}

func process(ctx context.Context, w io.Writer) error {
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return render(ctx, w)
}

// Ticks paces a loop with a ticker and times each tick's work.
func Ticks(ctx context.Context, w io.Writer, t *time.Ticker) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		start := time.Now()
		_ = render(ctx, w)
		stageDuration.WithLabelValues("tick").Observe(time.Since(start).Seconds())
	}
}

// Middleware bounds the requests before the next handler and times the
// whole request in the handler it returns.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if err := sem.Acquire(r.Context(), 1); err != nil {
			http.Error(w, err.Error(), http.StatusTooManyRequests)
			return
		}
		defer sem.Release(1)
		next.ServeHTTP(w, r)
		requestDuration.Observe(time.Since(start).Seconds()) // want `the duration since start is the latency users see`
	})
}
