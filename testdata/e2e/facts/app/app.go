// Package app uses lib's helpers: each finding below needs a fact of lib.
package app

import (
	"context"
	"log"
	"net"
	"os"
	"time"

	"queuecheck.example/facts/lib"
)

type server struct {
	pool *lib.Pool
	feed *lib.Feed
}

func newServer(out chan string) *server {
	return &server{
		pool: lib.NewPool(4),
		feed: lib.NewFeed(out),
	}
}

// unboundedqueue: a goroutine that only calls a send helper.
func (s *server) publish(v string) {
	go s.feed.Put(v) // want:unboundedqueue
}

// retrysend: a retry loop around a try-send helper.
func (s *server) deliver(v string) {
	for !s.feed.TryPut(v) { // want:retrysend
		lib.Pause()
	}
}

// waittiming: a measurement across the pool's acquire.
func (s *server) handle(ctx context.Context, host string) error {
	start := time.Now()
	release, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	_, err = net.LookupHost(host)
	log.Printf("lookup took %v", time.Since(start)) // want:waittiming
	return err
}

// resolverpool: slow work on the pool that handle resolves on.
func (s *server) save(ctx context.Context, data []byte) error {
	release, err := s.pool.Acquire(ctx) // want:resolverpool
	if err != nil {
		return err
	}
	defer release()
	return os.WriteFile("state", data, 0o600)
}
