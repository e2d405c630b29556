// Package client runs commands through func values: a command is a method
// of a func type whose value is the client's Process, which runs the hook
// a func field holds, which takes a connection from the pool's interface
// on its first attempt.
package client

import (
	"context"
	"time"

	"queuecheck.example/dispatch/connpool"
)

type cmdable func(ctx context.Context, cmd string) error

// Ping sends a ping.
func (c cmdable) Ping(ctx context.Context) error { return c(ctx, "PING") }

type hooks struct {
	process func(ctx context.Context, cmd string) error
}

// Client runs commands on pooled connections.
type Client struct {
	cmdable
	hooks hooks
	pool  connpool.Pooler
}

// New returns a client of pool.
func New(pool connpool.Pooler) *Client {
	c := &Client{pool: pool}
	c.hooks = hooks{process: c.process}
	c.cmdable = c.Process
	return c
}

// Process runs cmd through the hook.
func (c *Client) Process(ctx context.Context, cmd string) error {
	return c.hooks.process(ctx, cmd)
}

func (c *Client) process(ctx context.Context, cmd string) error {
	var err error
	for attempt := 0; attempt <= 3; attempt++ {
		if err = c.withConn(ctx, cmd); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 10 * time.Millisecond)
	}
	return err
}

func (c *Client) withConn(ctx context.Context, cmd string) error {
	cn, err := c.pool.Get(ctx)
	if err != nil {
		return err
	}
	defer c.pool.Put(cn)
	return send(ctx, cn, cmd)
}

func send(ctx context.Context, cn *connpool.Conn, cmd string) error { return ctx.Err() }
