// Package timers measures work behind admission waits with timers of the
// service's own (package stats, and one of this package): recognised by
// what they do, not by their names.
package timers

import (
	"context"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"waittiming/timers/stats"
)

type hist struct{}

func (hist) Observe(float64) {}

type otelHist struct{}

func (otelHist) Record(context.Context, float64) {}

var (
	sem      = semaphore.NewWeighted(4)
	lim      = rate.NewLimiter(10, 1)
	latency  hist
	waitHist hist
	opHist   otelHist
)

func work(ctx context.Context) error { return nil }

// Deferred is the Prometheus idiom with a timer written by hand.
func Deferred(ctx context.Context) error {
	t := stats.NewTimer(latency)
	defer t.ObserveDuration() // want `the timer t started by stats\.NewTimer spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}

// Stopped stops the timer by hand after the work.
func Stopped(ctx context.Context) error {
	t := stats.NewTimer(latency)
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	err := work(ctx)
	t.ObserveDuration() // want `the timer t started by stats\.NewTimer spans the wait in \(\*rate\.Limiter\)\.Wait`
	return err
}

// Chained starts and defers the stop in one statement.
func Chained(ctx context.Context) error {
	defer stats.NewTimer(latency).ObserveDuration() // want `the deferred timer started by stats\.NewTimer spans the wait`
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}

// Tracked uses the defer track("op")() idiom.
func Tracked(ctx context.Context) error {
	defer stats.Track("tracked")() // want `the deferred timer started by stats\.Track spans the wait`
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	return work(ctx)
}

// StopFunc keeps the stop function in a variable.
func StopFunc(ctx context.Context) error {
	stop := stats.Track("stopfunc")
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	err := work(ctx)
	stop() // want `the timer stop started by stats\.Track spans the wait`
	return err
}

// Since records through a recorder whose name and parameter say nothing
// of a start: its body measures from it.
func Since(ctx context.Context) error {
	start := time.Now()
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	err := work(ctx)
	stats.Done("since", start) // want `the duration since start spans the wait`
	return err
}

// Otel records the time since a start an operation keeps, with an
// OpenTelemetry-style histogram.
func Otel(ctx context.Context) error {
	op := stats.Begin(ctx, opHist)
	defer op.End() // want `the timer op started by stats\.Begin spans the wait`
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}

// stopwatch is a timer of this package.
type stopwatch struct {
	t0   time.Time
	name string
}

func startWatch(name string) stopwatch { return stopwatch{t0: time.Now(), name: name} }

func (s stopwatch) stop() { println(s.name, time.Since(s.t0).String()) }

// Local uses it.
func Local(ctx context.Context) error {
	w := startWatch("local")
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := work(ctx)
	w.stop() // want `the timer w started by startWatch spans the wait`
	return err
}

// After starts the timer after the wait: the right timing.
func After(ctx context.Context) error {
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	t := stats.NewTimer(latency)
	defer t.ObserveDuration()
	return work(ctx)
}

// WaitTimer times the wait alone with a timer: that timer is the split.
func WaitTimer(ctx context.Context) error {
	t := stats.NewTimer(waitHist)
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	t.ObserveDuration()
	defer sem.Release(1)
	return work(ctx)
}

// Staged has a timer of the whole call and one of the run after the wait:
// the second one is the split.
func Staged(ctx context.Context) error {
	total := stats.NewTimer(latency)
	defer total.ObserveDuration()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	run := stats.NewTimer(latency)
	defer run.ObserveDuration()
	return work(ctx)
}

// Session opens a session before the wait and checks its age after: a
// comparison with the clock, not a measurement.
func Session(ctx context.Context) error {
	s := stats.Open()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := work(ctx)
	if s.Expired(time.Minute) {
		return context.DeadlineExceeded
	}
	return err
}

type server struct{ timer *stats.Timer }

// Field keeps the timer in a field: shared state, not this call's timing.
func (s *server) Field(ctx context.Context) error {
	s.timer = stats.NewTimer(latency)
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := work(ctx)
	s.timer.ObserveDuration()
	return err
}

// Goroutine stops the timer in a goroutine that runs who knows when.
func Goroutine(ctx context.Context, done <-chan struct{}) error {
	t := stats.NewTimer(latency)
	go func() {
		<-done
		t.ObserveDuration()
	}()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}
