// Package paramwait times work from a start its callers hand in: the time
// a request arrived, taken before the function runs. When the function
// waits for admission before its work, the figure holds the wait whatever
// the caller did before the call: the start precedes the whole body.
package paramwait

import (
	"context"
	"log"
	"os"
	"time"

	"golang.org/x/sync/semaphore"

	"waittiming/paramwait/pool"
)

// Server runs requests behind a limit of its own and a pool of package
// pool.
type Server struct {
	sem  *semaphore.Weighted
	pool *pool.Pool
}

// process waits for a slot, then works, and records the time since the
// caller's start: the wait is in the figure.
func (s *Server) process(ctx context.Context, req string, start time.Time) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	err := work(req)
	log.Printf("processed %s in %v", req, time.Since(start)) // want `the duration since start, a start the caller takes before this function runs, spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// run hands the request to the pool of package pool, which queues for a
// slot before the work.
func (s *Server) run(ctx context.Context, req string, start time.Time) {
	_ = s.pool.Do(ctx, req)
	log.Printf("ran %s in %v", req, time.Since(start)) // want `the duration since start, a start the caller takes before this function runs, spans \(\*pool.Pool\).Do, which waits for admission`
}

// deferred records the time since the caller's start when it returns.
func (s *Server) deferred(ctx context.Context, req string, start time.Time) error {
	defer func() { log.Printf("%s took %v", req, time.Since(start)) }() // want `a start the caller takes before this function runs, spans the wait`
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	return work(req)
}

// queued records the wait alone, the time from the caller's start to the
// slot: a figure of the queue, with the work after it.
func (s *Server) queued(ctx context.Context, req string, start time.Time) error {
	if err := s.sem.Acquire(ctx, 1); err != nil { // why: callee-elsewhere no-work-after
		return err
	}
	defer s.sem.Release(1)
	log.Printf("queued for %v", time.Since(start))
	return work(req)
}

// split takes a timestamp of its own after the wait: the run is measured
// apart from the caller's start.
func (s *Server) split(ctx context.Context, req string, start time.Time) error {
	if err := s.sem.Acquire(ctx, 1); err != nil { // why: callee-elsewhere no-work-after
		return err
	}
	defer s.sem.Release(1)
	began := time.Now()
	err := work(req)
	log.Printf("queued %v, ran %v", began.Sub(start), time.Since(began)) // why: no-wait-in-span
	return err
}

// done records when the caller's request finished: nothing here waits.
func done(req string, start time.Time) { // want done:"bookkeeping"
	log.Printf("%s took %v", req, time.Since(start)) // why: no-wait-in-span
}

// batch waits once per item of a batch that the caller's start precedes.
func (s *Server) batch(ctx context.Context, reqs []string, start time.Time) {
	for _, r := range reqs {
		_ = s.sem.Acquire(ctx, 1) // why: wait-per-iteration
		_ = work(r)
		s.sem.Release(1)
	}
	log.Printf("batch took %v", time.Since(start))
}

// handler is a function literal that takes the start: it is timed from
// its caller's start too.
var handler = func(s *Server, ctx context.Context, req string, start time.Time) {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return
	}
	defer s.sem.Release(1)
	_ = work(req)
	log.Printf("handled in %v", time.Since(start)) // want `a start the caller takes before this function runs, spans the wait`
}

// Store reads spans of a time range.
type Store interface {
	Find(ctx context.Context, id string, start, end time.Time) error
}

// find hands the bounds of the query's time range to the store: start is
// no clock reading, and the store's parameter named start records nothing.
func (s *Server) find(ctx context.Context, st Store, id string, start, end time.Time) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	return st.Find(ctx, id, start, end) // why: start-elsewhere
}

// deliver retries with pauses and records the time since the caller's
// start: the pauses are in the figure.
func deliver(req string, start time.Time) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = work(req); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	log.Printf("delivered after %v", time.Since(start)) // want `the duration since start, a start the caller takes before this function runs, spans the retries at line \d+, whose attempts are separated by time\.Sleep`
	return err
}

// retryUntil spends the caller's budget on attempts: the time since the
// start is read to stop, in the loop, and recorded nowhere.
func retryUntil(req string, start time.Time, budget time.Duration) error {
	for time.Since(start) < budget { // why: ends-in-loop no-wait-in-span
		if err := work(req); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return os.ErrDeadlineExceeded
}

func work(req string) error {
	_, err := os.Stat(req)
	return err
}

// refresh logs how stale the entry was: lastSeen is when it was last seen,
// not a start the caller took, and the time since it is an age.
func (s *Server) refresh(ctx context.Context, key string, lastSeen time.Time) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	err := work(key)
	log.Printf("refreshed %s, stale for %v", key, time.Since(lastSeen)) // why: start-elsewhere
	return err
}
