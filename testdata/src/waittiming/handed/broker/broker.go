// Package broker is the client: its Request waits for a slot of the
// requests in flight, then issues the request.
package broker

import (
	"context"
	"net"
	"time"

	"golang.org/x/sync/semaphore"
)

// Client issues requests on one connection, a bounded number at once.
type Client struct {
	inflight *semaphore.Weighted
	conn     net.Conn
}

// Request waits for a slot, then writes the request.
func (c *Client) Request(ctx context.Context, req string) (string, error) {
	if err := c.inflight.Acquire(ctx, 1); err != nil {
		return "", err
	}
	defer c.inflight.Release(1)
	_, err := c.conn.Write([]byte(req))
	return req, err
}

// Do waits for a slot, then writes the request.
func (c *Client) Do(ctx context.Context, req string) (string, error) { return c.Request(ctx, req) }

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Direct issues requests at once, on a connection of its own.
type Direct struct{ conn net.Conn }

// Request writes the request.
func (d Direct) Request(ctx context.Context, req string) (string, error) {
	_, err := d.conn.Write([]byte(req))
	return req, err
}

// Retrying issues a request again, after a pause, while it fails.
type Retrying struct{ conn net.Conn }

// Request writes the request, up to three times, a second apart.
func (r *Retrying) Request(ctx context.Context, req string) (string, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = r.conn.Write([]byte(req)); err == nil {
			return req, nil
		}
		time.Sleep(time.Second)
	}
	return "", err
}
