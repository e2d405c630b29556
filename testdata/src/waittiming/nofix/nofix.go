// Package nofix has hazards whose evidence is complete but for which no
// safe edit exists: each is reported without a fix, and a related note
// says why and what to do by hand.
package nofix

import (
	"context"
	"log"
	"time"

	metrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

var (
	sem     = semaphore.NewWeighted(4)
	lim     = rate.NewLimiter(10, 1)
	latency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "latency_seconds"})
)

func work(ctx context.Context) error { return nil }

// DeferElsewhere defers its measurement in the function's block and waits
// in an inner one: the fix would have to move the defer into that block.
func DeferElsewhere(ctx context.Context, inner bool) error {
	defer metrics.MeasureSince([]string{"api", "call"}, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	if inner {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		defer sem.Release(1)
		return work(ctx)
	}
	return nil
}

// TimerElsewhere starts a Prometheus timer in the function's block and
// waits in an inner one.
func TimerElsewhere(ctx context.Context, inner bool) error {
	timer := prometheus.NewTimer(latency)
	defer timer.ObserveDuration() // want `the Prometheus timer timer spans the wait in \(\*rate\.Limiter\)\.Wait`
	if inner {
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		return work(ctx)
	}
	return nil
}

// SameStatement waits and works in one expression: there is no statement
// boundary between them for the second timestamp.
func SameStatement(ctx context.Context) bool {
	start := time.Now()
	ok := lim.Wait(ctx) == nil && work(ctx) == nil
	log.Printf("call took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*rate\.Limiter\)\.Wait`
	return ok
}

// RetryTimer times retries with a Prometheus timer: a timer cannot leave
// the pauses out.
func RetryTimer(ctx context.Context) error { // want RetryTimer:"retries between time\\.Sleep"
	timer := prometheus.NewTimer(latency)
	defer timer.ObserveDuration() // want `the Prometheus timer timer spans the retries`
	var err error
	for i := 0; i < 3; i++ {
		if err = work(ctx); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// ForwardGoto retries and jumps forward over where the fix would declare
// its variables.
func ForwardGoto(ctx context.Context) error { // want ForwardGoto:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	for i := 0; i < 3; i++ {
		if err = work(ctx); err == nil {
			goto done
		}
		time.Sleep(time.Second)
	}
	return err
done:
	log.Printf("call took %v", time.Since(start)) // want `the duration since start spans the retries`
	return nil
}

// DeferredLocal defers a recorder whose other argument is a local value: a
// closure would read it later, not at the defer.
func DeferredLocal(ctx context.Context, op string) error { // want DeferredLocal:"retries between time\\.Sleep"
	key := []string{"api", op}
	defer metrics.MeasureSince(key, time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the retries`
	var err error
	for i := 0; i < 3; i++ {
		if err = work(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return err
}

// SkipsWait jumps from before the wait to after the work: the second
// timestamp the fix would declare after the wait would be jumped over.
func SkipsWait(ctx context.Context, cached bool) error {
	start := time.Now()
	if cached {
		goto out
	}
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	_ = work(ctx)
out:
	log.Printf("took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	return nil
}
