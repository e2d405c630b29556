// Package broker is the client: Request waits for a slot of the requests
// in flight, then writes the request.
package broker

import (
	"context"
	"net"
)

// Client issues requests on one connection, four at once.
type Client struct {
	slots chan struct{}
	conn  net.Conn
}

// New returns a Client on conn.
func New(conn net.Conn) *Client { return &Client{slots: make(chan struct{}, 4), conn: conn} }

// Request waits for a slot, then writes the request.
func (c *Client) Request(ctx context.Context, req string) (string, error) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-c.slots }()
	_, err := c.conn.Write([]byte(req))
	return req, err
}
