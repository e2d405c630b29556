// Package connpool is a connection pool whose checkout waits on a list of
// waiters of its own: no semaphore, limiter or channel of tokens the
// vocabulary knows, only the shape of the API (Get(ctx) on a pool).
package connpool

import (
	"context"
	"sync"
)

// A Conn is a connection to a backend.
type Conn struct{ id int }

// Exec runs a statement on the connection.
func (c *Conn) Exec(ctx context.Context, stmt string) error { return ctx.Err() }

// Recycle gives the connection back to its pool.
func (c *Conn) Recycle() {}

// ConnPool hands out at most a fixed number of connections.
type ConnPool struct {
	mu      sync.Mutex
	idle    []*Conn
	waiters []chan *Conn
}

// Get returns an idle connection, or waits until one is recycled or ctx is
// done.
func (p *ConnPool) Get(ctx context.Context) (*Conn, error) {
	return p.get(ctx)
}

// Checkout is Get under another name: its fact carries the checkout to
// the packages that call it.
func (p *ConnPool) Checkout(ctx context.Context) (*Conn, error) { // want Checkout:`wait PoolCheckout \(\*connpool.ConnPool\).Get`
	return p.Get(ctx)
}

func (p *ConnPool) get(ctx context.Context) (*Conn, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	ch := make(chan *Conn, 1)
	p.waiters = append(p.waiters, ch)
	p.mu.Unlock()
	select {
	case c := <-ch:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Cache looks keys up; its Get waits for nothing the caller shares.
type Cache struct{ m map[string]string }

// Get returns the value of key.
func (c *Cache) Get(ctx context.Context, key string) (string, error) { return c.m[key], ctx.Err() }

// NodePoolInterface reads NodePool resources: its name ends in no pool,
// and its Get waits for no connection.
type NodePoolInterface interface {
	Get(ctx context.Context, name string) (*Conn, error)
}
