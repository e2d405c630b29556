// Package store reads files through a bounded number of slots. Its batch
// reads take a one-name path that calls Get and leaves: on that path they
// queue for a slot, then read.
package store

import (
	"context"
	"errors"
	"os"

	"golang.org/x/sync/semaphore"
)

// Store reads files, a bounded number at once.
type Store struct {
	slots *semaphore.Weighted
	max   int
}

// Get waits for a slot, then reads.
func (s *Store) Get(ctx context.Context, name string) ([]byte, error) { // want Get:`work; waits Semaphore \(\*semaphore.Weighted\).Acquire at store.go:22 on ctx param 0 before work`
	if err := s.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer s.slots.Release(1)
	return os.ReadFile(name)
}

// GetAll reads one name through Get and returns; more names, each through
// Get in a loop (a wait per name, which is no queue before the batch).
func (s *Store) GetAll(ctx context.Context, names []string) error { // want GetAll:`work; waits Semaphore \(\*semaphore.Weighted\).Acquire at store.go:22 on ctx param 0 before work`
	if len(names) == 1 {
		_, err := s.Get(ctx, names[0])
		return err
	}
	for _, n := range names {
		if _, err := s.Get(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// acquire only waits for a slot.
func (s *Store) acquire(ctx context.Context) error { return s.slots.Acquire(ctx, 1) }

var errShed = errors.New("shed")

// Shed takes a slot and gives up on a batch too large, leaving at once:
// on that path nothing works after the wait. Otherwise it reads each
// name without a slot.
func (s *Store) Shed(ctx context.Context, names []string) error { // want Shed:"work"
	if len(names) > s.max {
		_ = s.acquire(ctx)
		return errShed
	}
	for _, n := range names {
		if _, err := os.ReadFile(n); err != nil {
			return err
		}
	}
	return nil
}

// GetCached reads one name at once, without a slot, and leaves; more
// names wait a slot each.
func (s *Store) GetCached(ctx context.Context, names []string) error { // want GetCached:"work"
	if len(names) == 1 {
		_, err := os.ReadFile(names[0])
		return err
	}
	for _, n := range names {
		if _, err := s.Get(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// stale asks the request whether it wants fresh data.
func (s *Store) stale(ctx context.Context) bool { return ctx.Value(s) != nil }

// GetFresh reads one name through Get when the request asks for fresh
// data; its condition reads the context before the wait does.
func (s *Store) GetFresh(ctx context.Context, names []string) error { // want GetFresh:`work; waits Semaphore \(\*semaphore.Weighted\).Acquire at store.go:22$`
	if s.stale(ctx) {
		_, err := s.Get(ctx, names[0])
		return err
	}
	for _, n := range names {
		if _, err := os.ReadFile(n); err != nil {
			return err
		}
	}
	return nil
}
