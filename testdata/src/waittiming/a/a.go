// Package a has measurements from a start variable across semaphore and
// rate-limiter waits, recorded in every way the fix knows.
package a

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

var (
	sem = semaphore.NewWeighted(8)
	lim = rate.NewLimiter(10, 1)
)

func fetch(ctx context.Context) error { return nil }

// Printf records with a printf-style call: the wait becomes a verb.
func Printf(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := fetch(ctx)
	log.Printf("fetch took %v\n", time.Since(start)) // want `the duration since start spans the wait in \(\*semaphore\.Weighted\)\.Acquire and the work after it, so queueing is reported as slow work; take a second timestamp after the wait and record wait and run time separately`
	return err
}

// Slog records key-value pairs: the wait becomes another pair.
func Slog(ctx context.Context, logger *slog.Logger) error {
	start := time.Now()
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	err := fetch(ctx)
	logger.Info("fetched", "took", time.Since(start).Seconds(), "err", err) // want `the duration since start spans the wait in \(\*rate\.Limiter\)\.Wait`
	return err
}

// Attr records an attribute: the wait becomes a sibling attribute.
func Attr(ctx context.Context) error {
	start := time.Now()
	if err := lim.WaitN(ctx, 2); err != nil {
		return err
	}
	err := fetch(ctx)
	slog.Info("fetched", slog.Duration("took", time.Since(start))) // want `spans the wait in \(\*rate\.Limiter\)\.WaitN`
	return err
}

// Alias keeps the duration in a variable first.
func Alias(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	err := fetch(ctx)
	elapsed := time.Since(start) // want `the duration since start spans`
	fmt.Println("fetch", elapsed)
	return elapsed, err
}

// Sub ends with a second clock read into a variable.
func Sub(ctx context.Context) error {
	begin := time.Now()
	r := lim.Reserve()
	time.Sleep(r.Delay())
	err := fetch(ctx)
	end := time.Now()
	log.Println("took", end.Sub(begin)) // want `spans the wait in time\.Sleep of a rate\.Reservation's delay`
	return err
}

// NowSub ends with time.Now().Sub(start), in milliseconds.
func NowSub(ctx context.Context) error {
	start := time.Now()
	_ = sem.Acquire(ctx, 1)
	err := fetch(ctx)
	sem.Release(1)
	log.Printf("took %dms", time.Now().Sub(start).Milliseconds()) // want `the duration since start spans`
	return err
}

var hist = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fetch_seconds"})

// Observe records with a plain histogram, which cannot carry a second
// figure: the wait goes to a debug log.
func Observe(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := fetch(ctx)
	hist.Observe(time.Since(start).Seconds()) // want `the duration since start spans`
	return err
}

// Closure ends in a deferred closure, which moves below the wait.
func Closure(ctx context.Context) error {
	start := time.Now()
	defer func() {
		log.Printf("fetch took %v", time.Since(start)) // want `the duration since start spans`
	}()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return fetch(ctx)
}

type clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
}

type Server struct {
	clock clock
	sem   *semaphore.Weighted
}

// Method uses an injected clock and a semaphore field.
func (s *Server) Method(ctx context.Context) error {
	t0 := s.clock.Now()
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	err := fetch(ctx)
	log.Print("took ", s.clock.Now().Sub(t0)) // want `the duration since t0 spans`
	return err
}

// SinceMethod ends with the injected clock's Since (k8s.io/utils/clock).
func (s *Server) SinceMethod(ctx context.Context) error {
	t0 := s.clock.Now()
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	err := fetch(ctx)
	log.Print("took ", s.clock.Since(t0)) // want `the duration since t0 spans`
	return err
}

// Taken has a variable named started already.
func Taken(ctx context.Context, started bool) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	err := fetch(ctx)
	log.Printf("started=%v took %v", started, time.Since(start)) // want `the duration since start spans`
	return err
}
