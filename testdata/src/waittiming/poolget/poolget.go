// Package poolget sets deadlines and takes measurements around checkouts
// from a connection pool known only by the shape of its API.
package poolget

import (
	"context"
	"log"
	"time"

	"waittiming/poolget/connpool"
)

// Kill gives a kill statement a budget that the pool's queue spends first.
func Kill(p *connpool.ConnPool, id int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `the 1s timeout from context.WithTimeout is handed to poolget.kill, whose first step waits on it \(\(\*connpool.ConnPool\).Get, poolget.go:\d+\)`
	defer cancel()
	return kill(ctx, p, id)
}

func kill(ctx context.Context, p *connpool.ConnPool, id int) error {
	log.Printf("killing %d", id)
	conn, err := p.Get(ctx)
	if err != nil {
		return err
	}
	defer conn.Recycle()
	return conn.Exec(ctx, "kill")
}

// Query bounds the statement and, before it, the checkout.
func Query(ctx context.Context, p *connpool.ConnPool) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second) // want `the 2s timeout from context.WithTimeout starts before the wait in \(\*connpool.ConnPool\).Get`
	defer cancel()
	conn, err := p.Get(ctx)
	if err != nil {
		return err
	}
	defer conn.Recycle()
	return conn.Exec(ctx, "select 1")
}

// QueryVia checks out through a wrapper of another package.
func QueryVia(ctx context.Context, p *connpool.ConnPool) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second) // want `the 2s timeout from context.WithTimeout starts before the wait in \(\*connpool.ConnPool\).Checkout`
	defer cancel()
	conn, err := p.Checkout(ctx)
	if err != nil {
		return err
	}
	defer conn.Recycle()
	return conn.Exec(ctx, "select 1")
}

// TimedQuery times the checkout and the statement: the pool keeps its
// own wait statistics.
func TimedQuery(ctx context.Context, p *connpool.ConnPool) error {
	start := time.Now()
	conn, err := p.Get(ctx) // why: pool-keeps-wait-stats
	if err != nil {
		return err
	}
	defer conn.Recycle()
	err = conn.Exec(ctx, "select 1")
	log.Printf("query took %v", time.Since(start))
	return err
}

// TimedKill times a call that checks out first.
func TimedKill(ctx context.Context, p *connpool.ConnPool) error {
	start := time.Now()
	err := kill(ctx, p, 1) // why: pool-keeps-wait-stats
	log.Printf("kill took %v", time.Since(start))
	return err
}

// Lookup bounds a cache's Get, which waits for no one: the budget is the
// lookup's from its first statement.
func Lookup(ctx context.Context, c *connpool.Cache) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	v, err := c.Get(ctx, "k")
	if err != nil {
		return err
	}
	log.Print(v)
	return nil
}

// Describe bounds a read of a resource whose kind is named a pool: no
// checkout, so the budget is the read's from its first statement.
func Describe(ctx context.Context, np connpool.NodePoolInterface) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second) // why: used-before-wait
	defer cancel()
	n, err := np.Get(ctx, "a")
	if err != nil {
		return err
	}
	return n.Exec(ctx, "describe")
}
