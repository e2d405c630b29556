// Package timeclash times calls with Prometheus timers in a file that does
// not import time. The fix takes timestamps with time.Now() and adds the
// import, unless a declaration called time is in scope where the
// timestamps go: then no fix compiles, and the finding comes without one.
package timeclash

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
)

var (
	sem     = semaphore.NewWeighted(4)
	latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "latency_seconds"}, []string{"stage"})
)

func work(context.Context) {}

// Fetch is reported: its fix imports time.
func Fetch(ctx context.Context) error {
	timer := prometheus.NewTimer(latency.WithLabelValues("run"))
	defer timer.ObserveDuration() // want `the Prometheus timer timer spans the wait`
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	work(ctx)
	return nil
}

// Retry names its attempt budget time: time.Now() would not compile here,
// so the finding has no fix.
func Retry(ctx context.Context, time int) error {
	timer := prometheus.NewTimer(latency.WithLabelValues("retry"))
	defer timer.ObserveDuration() // want `the Prometheus timer timer spans the wait`
	if err := sem.Acquire(ctx, int64(time)); err != nil {
		return err
	}
	defer sem.Release(int64(time))
	work(ctx)
	return nil
}
