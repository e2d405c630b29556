// Package pool is a connection pool and a task pool whose blocking calls
// the tests list in -waittiming.waits.
package pool

import "context"

type Conn struct{}

func (c *Conn) Query(ctx context.Context) error { return nil }

type Pool struct{}

// Get waits for a free connection.
func (p *Pool) Get(ctx context.Context) (*Conn, error) { return new(Conn), nil }

// Put returns a connection.
func (p *Pool) Put(c *Conn) {}

// Submit waits for a free worker and runs f on it.
func (p *Pool) Submit(f func()) { go f() }

// Enter waits at a gate.
func Enter(ctx context.Context) error { return nil }
