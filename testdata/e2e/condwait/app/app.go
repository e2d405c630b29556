// Package app calls lib: each finding below needs a fact of lib.
package app

import (
	"context"
	"log"
	"time"

	"queuecheck.example/condwait/lib"
)

// drain reads the clock before Take waits for items, and ages them by it.
func drain(s *lib.Store) {
	now := time.Now() // want:staletime
	items := s.Take()
	for _, it := range items {
		if now.Sub(it.At) > time.Minute {
			log.Print("stale item")
		}
	}
}

// query hands its deadline to Do, which first waits for a slot on it.
func query(ctx context.Context, c *lib.Client) error {
	qctx, cancel := context.WithTimeout(ctx, time.Second) // want:deadline
	defer cancel()
	return c.Do(qctx, "q")
}

// scan times a call through lib.Scanner, whose implementation queues the
// scan behind other callers' jobs on a shared pool.
func scan(ctx context.Context, s lib.Scanner, ids []string) error {
	start := time.Now()
	err := s.Scan(ctx, ids)
	log.Printf("scan took %v", time.Since(start)) // want:jobqueue
	return err
}
