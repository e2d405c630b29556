// Package app times pings of package client: only the facts of client and
// connpool show that a ping queues for a turn of the pool first.
package app

import (
	"context"
	"log"
	"time"

	"queuecheck.example/dispatch/client"
)

func probe(ctx context.Context, c *client.Client) {
	start := time.Now()
	err := c.Ping(ctx)
	log.Printf("ping took %v: %v", time.Since(start), err) // want:waittiming
}

func loading(c *client.Client) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // want:waittiming
	defer cancel()
	return c.Ping(ctx) != nil
}
