// Package awaited times work that runs in a goroutine the timed function
// waits for: its own (fetch) or a callee's in package client (the facts
// carry the goroutine's wait and retries across).
package awaited

import (
	"context"
	"log"
	"os"
	"time"

	"golang.org/x/sync/semaphore"

	"waittiming/awaited/client"
)

// Server bounds the reads in flight.
type Server struct {
	sem *semaphore.Weighted
	c   *client.Client
}

// fetch starts one goroutine that waits for a slot and reads, and waits
// for it: the figure holds the wait.
func (s *Server) fetch(ctx context.Context, name string) error {
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		if err := s.sem.Acquire(ctx, 1); err != nil {
			done <- err
			return
		}
		defer s.sem.Release(1)
		_, err := os.ReadFile(name)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	log.Printf("fetch took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// warm starts a goroutine and does not wait for it: nothing in the figure
// waits.
func (s *Server) warm(ctx context.Context, name string) {
	start := time.Now()
	go func() {
		if err := s.sem.Acquire(ctx, 1); err != nil {
			return
		}
		defer s.sem.Release(1)
		_, _ = os.ReadFile(name)
	}()
	log.Printf("warm took %v", time.Since(start)) // why: no-wait-in-span
}

// batch starts a goroutine per name, each waiting for a slot, and waits
// for them all: a batch, as a limited group's Wait is.
func (s *Server) batch(ctx context.Context, names []string) {
	start := time.Now()
	done := make(chan error, len(names))
	for _, name := range names {
		go func() {
			if err := s.sem.Acquire(ctx, 1); err != nil {
				done <- err
				return
			}
			defer s.sem.Release(1)
			_, err := os.ReadFile(name)
			done <- err
		}()
	}
	for range names {
		<-done
	}
	log.Printf("batch took %v", time.Since(start)) // why: no-wait-in-span
}

// get times a read of package client, which waits for a slot in the
// goroutine Get waits for.
func (s *Server) get(ctx context.Context, name string) {
	start := time.Now()
	_, err := s.c.Get(ctx, name)
	log.Printf("get took %v: %v", time.Since(start), err) // want `the duration since start spans \(\*client.Client\).Get, which waits for admission \(\(\*semaphore.Weighted\).Acquire, client.go:\d+\) before its work`
}

// lookup times a lookup of package client, which retries in the goroutine
// Lookup waits for.
func (s *Server) lookup(ctx context.Context, name string) {
	start := time.Now()
	err := s.c.Lookup(ctx, name)
	log.Printf("lookup took %v: %v", time.Since(start), err) // want `the duration since start spans \(\*client.Client\).Lookup, whose attempts are separated by time\.Sleep`
}

// warmed times a call that starts a read and returns at once.
func (s *Server) warmed(ctx context.Context, name string) {
	start := time.Now()
	err := s.c.Warm(ctx, name)
	log.Printf("warm took %v: %v", time.Since(start), err) // why: callee-elsewhere no-wait-in-span
}

// serve starts a goroutine that says it began and then waits for a slot
// and reads: the function waits for the signal only, and the rest runs
// after the figure.
func (s *Server) serve(ctx context.Context, name string) {
	start := time.Now()
	ready := make(chan struct{})
	go func() {
		close(ready)
		if err := s.sem.Acquire(ctx, 1); err != nil {
			return
		}
		defer s.sem.Release(1)
		_, _ = os.ReadFile(name)
	}()
	<-ready
	log.Printf("serve started in %v", time.Since(start)) // why: no-wait-in-span
}
