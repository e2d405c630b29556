// Package connpool declares a pool interface with two implementations: one
// queues callers for a turn before it dials, the other hands out the one
// connection it holds.
package connpool

import (
	"context"
	"net"
)

// Conn is a pooled connection.
type Conn struct{ nc net.Conn }

// Pooler hands out connections.
type Pooler interface {
	Get(ctx context.Context) (*Conn, error)
	Put(cn *Conn)
}

// ConnPool bounds the connections open at once.
type ConnPool struct {
	turns chan struct{}
	addr  string
}

// New returns a pool of n connections to addr.
func New(addr string, n int) *ConnPool {
	return &ConnPool{turns: make(chan struct{}, n), addr: addr}
}

// Get waits for a turn and then dials.
func (p *ConnPool) Get(ctx context.Context) (*Conn, error) {
	select {
	case p.turns <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		<-p.turns
		return nil, err
	}
	return &Conn{nc: nc}, nil
}

// Put closes the connection and gives the turn back.
func (p *ConnPool) Put(cn *Conn) {
	cn.nc.Close()
	<-p.turns
}

// Single hands out the connection it holds.
type Single struct{ cn *Conn }

// Get returns the connection.
func (s *Single) Get(ctx context.Context) (*Conn, error) { return s.cn, nil }

// Put keeps it.
func (s *Single) Put(cn *Conn) {}
