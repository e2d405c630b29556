// Package connpool declares a connection pool interface with two
// implementations: a pool whose Get queues for a turn before it dials, and
// a single connection handed out as it is.
package connpool

import (
	"context"
	"net"

	"golang.org/x/sync/semaphore"
)

// Conn is a pooled connection.
type Conn struct{ nc net.Conn }

// Pooler hands out connections.
type Pooler interface {
	Get(ctx context.Context) (*Conn, error) // want Get:`waits Semaphore \(\*semaphore.Weighted\).Acquire at connpool.go:\d+ on ctx param 0 before work in \(\*connpool.ConnPool\).Get$`
	Put(cn *Conn)
}

// ConnPool bounds the connections open at once: a caller waits for a turn.
type ConnPool struct {
	turns *semaphore.Weighted
	addr  string
}

// Get waits for a turn and then dials.
func (p *ConnPool) Get(ctx context.Context) (*Conn, error) { // want Get:`waits Semaphore \(\*semaphore.Weighted\).Acquire at connpool.go:\d+ on ctx param 0 before work$`
	if err := p.turns.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		p.turns.Release(1)
		return nil, err
	}
	return &Conn{nc: nc}, nil
}

// Put gives the turn back.
func (p *ConnPool) Put(cn *Conn) {
	cn.nc.Close()
	p.turns.Release(1)
}

// SingleConn hands out the one connection it holds.
type SingleConn struct{ cn *Conn }

// Get returns the connection.
func (p *SingleConn) Get(ctx context.Context) (*Conn, error) { return p.cn, nil }

// Put keeps it.
func (p *SingleConn) Put(cn *Conn) {}
