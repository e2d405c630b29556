// Package dispatch times calls whose admission wait is several calls down
// and behind func values and an interface: a command of package client
// queues for a turn of the connection pool (package connpool) before the
// round trip.
package dispatch

import (
	"context"
	"log"
	"time"

	"waittiming/dispatch/client"
)

// probe times a ping as the node's latency: the pool's queue is in it.
func probe(ctx context.Context, c *client.Client) time.Duration {
	start := time.Now()
	if err := c.Ping(ctx); err != nil {
		return 0
	}
	took := time.Since(start) // want `the duration since start spans \(client.cmdable\).Ping, which waits for admission \(\(\*semaphore.Weighted\).Acquire, connpool.go:\d+\) before its work`
	return took
}

// probeErr reads the command's error from its result, as go-redis's
// Ping(ctx).Err() does: the command runs first.
func probeErr(ctx context.Context, c *client.Client) {
	start := time.Now()
	err := c.Status(ctx).Err()
	log.Printf("status took %v: %v", time.Since(start), err) // want `the duration since start spans \(client.cmdable\).Status, which waits for admission`
}

// probeLocal times a ping of a client that answers from memory: no wait.
func probeLocal(ctx context.Context, l *client.Local) {
	start := time.Now()
	_ = l.Echo(ctx)
	log.Printf("echo took %v", time.Since(start)) // why: no-wait-in-span
}

// probeAll times a batch, which may hold no command: no wait on its main
// path.
func probeAll(ctx context.Context, c *client.Client, cmds []string) {
	start := time.Now()
	_ = c.ProcessAll(ctx, cmds)
	log.Printf("batch took %v", time.Since(start)) // why: no-wait-in-span
}

// loading bounds a command by 100ms: the pool's queue eats the budget
// before the round trip sees it.
func loading(c *client.Client) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // want `the 100ms timeout from context.WithTimeout is handed to \(client.cmdable\).Status, whose first step waits on it`
	defer cancel()
	err := c.Status(ctx).Err()
	return err != nil
}
