// Package timedcall hands functions to metrics.Time, which times a call of
// what it is handed: a function that waits for a slot, or retries with
// pauses, before its work makes that figure report the wait as work. The
// wrapper is in another package; its timer-helper fact says what it does.
package timedcall

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"golang.org/x/sync/semaphore"

	"waittiming/timedcall/metrics"
)

type store struct {
	sem *semaphore.Weighted
}

func (s *store) Write(ctx context.Context, path string) error {
	return metrics.Time("write", func() error { // want `metrics.Time times a call of the function literal it is handed, which waits for admission \(\(\*semaphore.Weighted\).Acquire, timedcall.go:\d+\) before its work`
		if err := s.sem.Acquire(ctx, 1); err != nil {
			return err
		}
		defer s.sem.Release(1)
		return os.WriteFile(path, nil, 0o644)
	})
}

// read waits for a slot and reads: handed by name, it is timed the same.
func (s *store) read(ctx context.Context) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := os.ReadFile("data")
	return err
}

func (s *store) Read(ctx context.Context) error {
	return metrics.Time("read", func() error { return s.read(ctx) }) // want `metrics.Time times a call of the function literal it is handed, which waits for admission`
}

func (s *store) fetch() error {
	_, err := os.ReadFile("remote")
	return err
}

// Fetch retries with pauses inside what Time times.
func (s *store) Fetch() error {
	return metrics.Time("fetch", func() error { // want `metrics.Time times a call of the function literal it is handed, which retries with pauses between its attempts \(time.Sleep\)`
		var err error
		for i := 0; i < 3; i++ {
			if err = s.fetch(); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		return err
	})
}

// The twins. The wait comes first, and Time gets the work alone.
func (s *store) WriteAfter(ctx context.Context, path string) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	return metrics.Time("write", func() error { return os.WriteFile(path, nil, 0o644) })
}

// A literal that only waits: Time measures the wait, and says so.
func (s *store) Admit(ctx context.Context) error {
	return metrics.Time("admission wait", func() error { return s.sem.Acquire(ctx, 1) })
}

// Run times nothing.
func (s *store) WriteUntimed(ctx context.Context, path string) error {
	return metrics.Run("write", func() error {
		if err := s.sem.Acquire(ctx, 1); err != nil {
			return err
		}
		defer s.sem.Release(1)
		return os.WriteFile(path, nil, 0o644)
	})
}

// A literal that tries once.
func (s *store) FetchOnce() error {
	return metrics.Time("fetch", func() error {
		if err := s.fetch(); err != nil {
			return errors.Join(errors.New("fetch"), err)
		}
		return nil
	})
}

// load retries, and times each attempt with metrics.Time: the attempts
// have figures of their own, and Time around all of load is a total.
func (s *store) load() error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = metrics.Time("load attempt", s.fetch); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *store) Boot() error {
	return metrics.Time("boot", func() error { return s.load() })
}

// fetchRetrying retries the fetch with a pause between attempts.
func (s *store) fetchRetrying() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.fetch(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// timed is this package's own wrapper, and every call of it is in view:
// the one below hands it fetchRetrying. The finding is at that call,
// where the function is named, and not again in timed's body, whose
// parameter the call names.
func timed(name string, f func() error) error {
	start := time.Now()
	err := f()
	log.Printf("%s took %v", name, time.Since(start)) // why: no-wait-in-span
	return err
}

func (s *store) FetchTimed() error {
	return timed("fetch", s.fetchRetrying) // want `timedcall.timed times a call of s.fetchRetrying, which retries with pauses between its attempts \(time.Sleep\)`
}
