// Package leaving times calls of package store whose one-name path calls a
// function that waits for a slot and then reads, and leaves: the figure
// holds the queueing on that path.
package leaving

import (
	"context"
	"log"
	"time"

	"waittiming/leaving/store"
)

// Read times a batch read whose one-name path queues for a slot first.
func Read(ctx context.Context, s *store.Store, names []string) error {
	start := time.Now()
	err := s.GetAll(ctx, names)
	log.Printf("read took %v", time.Since(start)) // want `the duration since start spans \(\*store.Store\).GetAll, which waits for admission \(\(\*semaphore.Weighted\).Acquire, store.go:\d+\) before its work`
	return err
}

// readWithin gives the batch read a budget that the slot's queue spends
// first on the one-name path.
func readWithin(ctx context.Context, s *store.Store, names []string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // want `the 1s timeout from context.WithTimeout is handed to \(\*store.Store\).GetAll, whose first step waits on it`
	defer cancel()
	return s.GetAll(ctx, names)
}

// ReadShed times a call whose waiting path leaves without work.
func ReadShed(ctx context.Context, s *store.Store, names []string) error {
	start := time.Now()
	err := s.Shed(ctx, names)
	log.Printf("read took %v", time.Since(start)) // why: no-wait-in-span
	return err
}

// ReadCached times a call whose leaving path does not wait, and whose
// other path waits once per name.
func ReadCached(ctx context.Context, s *store.Store, names []string) error {
	start := time.Now()
	err := s.GetCached(ctx, names)
	log.Printf("read took %v", time.Since(start)) // why: no-wait-in-span
	return err
}

// readFresh gives its budget to a read whose condition uses the context
// before the slot's queue does: no wait is the first step that takes it.
func readFresh(ctx context.Context, s *store.Store, names []string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	return s.GetFresh(ctx, names)
}

var _, _ = readWithin, readFresh
