// Package shapes has admission waits known by the shape of their API rather
// than by their package: a limiter interface of the service's own, a gate, a
// semaphore type with Acquire and Release.
package shapes

import (
	"context"
	"errors"
	"log"
	"strings"
	"sync"
	"time"

	"waittiming/shapes/gate"
	"waittiming/shapes/quotas"
)

type Recorder interface {
	Record(d time.Duration, tags ...string)
}

type archiver struct {
	rateLimiter quotas.RateLimiter
	latency     Recorder
}

func (a *archiver) upload(ctx context.Context, target string) error { return nil }

// Archive waits for the limiter inside a deferred measurement whose
// recorder takes typed tags: the wait goes to a debug log.
func (a *archiver) Archive(ctx context.Context, targets []string) (err error) {
	defer func(start time.Time) { // want `the measurement deferred with a start of time\.Now\(\) spans the wait in \(quotas\.RateLimiter\)\.WaitN`
		status := "ok"
		if err != nil {
			status = "err"
		}
		a.latency.Record(time.Since(start), status)
	}(time.Now())

	if err := a.rateLimiter.WaitN(ctx, len(targets)); err != nil {
		return errors.New("archival rate limited")
	}
	var wg sync.WaitGroup
	for _, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.upload(ctx, t)
		}()
	}
	wg.Wait()
	return nil
}

type reader struct {
	queries *gate.Gate
}

func (r *reader) read(ctx context.Context) error { return nil }

// Read waits at a gate.
func (r *reader) Read(ctx context.Context) error {
	start := time.Now()
	if err := r.queries.Start(ctx); err != nil {
		return err
	}
	defer r.queries.Done()
	err := r.read(ctx)
	log.Printf("read took %v", time.Since(start)) // want `spans the wait in \(\*gate\.Gate\)\.Start`
	return err
}

type prioritySemaphore struct{ n int }

func (s *prioritySemaphore) Acquire(ctx context.Context, priority, n int) error { return nil }
func (s *prioritySemaphore) Release(n int)                                      {}

type shard struct {
	io *prioritySemaphore
}

func (s *shard) persist(ctx context.Context) error { return nil }

// Persist acquires a semaphore of the service's own type.
func (s *shard) Persist(ctx context.Context) error {
	start := time.Now()
	if err := s.io.Acquire(ctx, 1, 1); err != nil {
		return err
	}
	defer s.io.Release(1)
	err := s.persist(ctx)
	log.Printf("persist took %v", time.Since(start)) // want `spans the wait in \(\*shapes\.prioritySemaphore\)\.Acquire`
	return err
}

// AcquireOnly times the acquire alone: the split itself.
func (s *shard) AcquireOnly(ctx context.Context) (err error) {
	start := time.Now()
	defer func() {
		log.Printf("semaphore latency %v", time.Since(start))
	}()
	return s.io.Acquire(ctx, 1, 1)
}

type service struct{ done chan struct{} }

func (s *service) Start(ctx context.Context) error { return nil }
func (s *service) Done() <-chan struct{}           { return s.done }
func (s *service) Serve(ctx context.Context) error { return nil }

// Boot starts a service: Start and Done are its lifecycle, not a gate.
func Boot(ctx context.Context, s *service) error {
	start := time.Now()
	if err := s.Start(ctx); err != nil {
		return err
	}
	err := s.Serve(ctx)
	log.Printf("served for %v", time.Since(start))
	return err
}

// Labeled logs failures from the named result in the deferred closure: the
// closure stays, so failed waits are still logged.
func (s *shard) Labeled(ctx context.Context) (err error) {
	start := time.Now()
	defer func() {
		log.Printf("labeled took %v err=%v", time.Since(start), err) // want `the duration since start spans the wait in \(\*shapes\.prioritySemaphore\)\.Acquire`
	}()
	if err = s.io.Acquire(ctx, 1, 1); err != nil {
		return err
	}
	defer s.io.Release(1)
	return s.persist(ctx)
}

type handler interface{ Tagged(tags ...string) Recorder }

var waitLatency handler

// WaitTime records the wait alone through a recorder chain: the With-style
// call in the recording statement is bookkeeping, not work.
func WaitTime(ctx context.Context, lim quotas.RateLimiter, run func(context.Context)) {
	t0 := time.Now()
	if err := lim.Wait(ctx); err != nil {
		return
	}
	waitLatency.Tagged("op").Record(time.Since(t0))
	run(ctx)
}

// WaitErr records the wait alone, before looking at its error.
func WaitErr(ctx context.Context, lim quotas.RateLimiter, op string) error {
	start := time.Now()
	err := lim.Wait(ctx)
	waitLatency.Tagged(strings.ToLower(op)).Record(time.Since(start), op)
	if err != nil && ctx.Err() == nil {
		return errors.New("busy")
	}
	return ctx.Err()
}

type page struct{ refs int32 }

func (p *page) Acquire() { p.refs++ }
func (p *page) Release() { p.refs-- }

type chanSem struct{ ch chan struct{} }

func (s *chanSem) Acquire() { s.ch <- struct{}{} }
func (s *chanSem) Release() { <-s.ch }

var downloads = &chanSem{ch: make(chan struct{}, 4)}

// RefCount takes a reference, which does not wait.
func RefCount(ctx context.Context, p *page, s *shard) error {
	start := time.Now()
	p.Acquire()
	err := s.persist(ctx)
	p.Release()
	log.Printf("took %v", time.Since(start))
	return err
}

// Wrapped acquires a semaphore channel wrapped in a type of this package.
func Wrapped(ctx context.Context, s *shard) error {
	start := time.Now()
	downloads.Acquire()
	defer downloads.Release()
	err := s.persist(ctx)
	log.Printf("took %v", time.Since(start)) // want `spans the wait in \(\*shapes\.chanSem\)\.Acquire`
	return err
}
