// Package ctxfirst holds clients whose calls first wait for admission on
// the caller's context and only then work: the admission facts say so to
// the packages that call them.
package ctxfirst

import (
	"context"
	"net"
	"net/http"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type Client struct {
	lim   *rate.Limiter
	sem   *semaphore.Weighted
	slots chan struct{}
}

func (c *Client) send(ctx context.Context, q string) error { return ctx.Err() }

// Query waits for the limiter on ctx, then sends.
func (c *Client) Query(ctx context.Context, q string) error { // want Query:`waits RateLimiter \(\*rate.Limiter\).Wait at ctxfirst.go:\d+ on ctx param 0 before work`
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return c.send(ctx, q)
}

// Fetch takes a slot of the semaphore on ctx, then sends.
func (c *Client) Fetch(ctx context.Context, q string) error { // want Fetch:`waits Semaphore .* on ctx param 0 before work`
	if err := c.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer c.sem.Release(1)
	return c.send(ctx, q)
}

// Put waits for a slot or for ctx, then sends.
func (c *Client) Put(ctx context.Context, q string) error { // want Put:`waits SemaphoreChan the send to semaphore channel slots at ctxfirst.go:\d+ on ctx param 0 before work`
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.slots }()
	return c.send(ctx, q)
}

// Direct works first: no wait.
func (c *Client) Direct(ctx context.Context, q string) error {
	return c.send(ctx, q)
}

// Late works with ctx before it waits: the deadline is for that work too.
func (c *Client) Late(ctx context.Context, q string) error { // want Late:`waits RateLimiter \(\*rate.Limiter\).Wait at ctxfirst.go:\d+$`
	if err := c.send(ctx, "hello"); err != nil {
		return err
	}
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return c.send(ctx, q)
}

// Redial dials a new connection before it waits on ctx: that work never
// sees the context, so a deadline on ctx is still spent first in the
// limiter's queue, and then on the send.
func (c *Client) Redial(ctx context.Context, addr, q string) error { // want Redial:`waits RateLimiter \(\*rate.Limiter\).Wait at ctxfirst.go:\d+ on ctx param 0 before work`
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return c.send(ctx, q)
}

// Drained waits for a channel before it waits on ctx: the first block is
// not the context's.
func (c *Client) Drained(ctx context.Context, done <-chan struct{}, q string) error { // want Drained:`waits RateLimiter \(\*rate.Limiter\).Wait at ctxfirst.go:\d+$`
	<-done
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return c.send(ctx, q)
}

// Get binds ctx to its request and reads a value of it before it waits:
// neither works, so its first blocking step is still the wait on ctx.
func (c *Client) Get(ctx context.Context, url string) (*http.Request, error) { // want Get:`waits RateLimiter \(\*rate.Limiter\).Wait at ctxfirst.go:\d+ on ctx param 0 before work`
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	if ctx.Value("trace") != nil {
		req.Header.Set("X-Trace", "1")
	}
	if err := c.lim.Wait(ctx); err != nil {
		return nil, err
	}
	return req, c.send(ctx, url)
}

// Conn is a store's connection, as its callers hold it. The package
// declares one implementation, a stats decorator that takes a slot of a
// process-wide read semaphore on the caller's context before it hands the
// call to the connection it wraps: the method waits on ctx first, whatever
// the wrapped connection is.
type Conn interface {
	List(ctx context.Context, dir string) ([]string, error) // want List:`waits Semaphore \(\*semaphore.Weighted\).Acquire at ctxfirst.go:\d+ on ctx param 0 before work$`
}

type StatsConn struct {
	conn    Conn
	readSem *semaphore.Weighted
	reads   int
}

func (st *StatsConn) List(ctx context.Context, dir string) ([]string, error) { // want List:`waits Semaphore \(\*semaphore.Weighted\).Acquire at ctxfirst.go:\d+ on ctx param 0 before work`
	if err := st.readSem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer st.readSem.Release(1)
	st.reads++
	return st.conn.List(ctx, dir)
}

// Store reads through its read-only connection, held as the interface.
type Store struct{ readOnly Conn }

// KnownCells lists the cells: its first step is the connection's wait.
func (s *Store) KnownCells(ctx context.Context) ([]string, error) { // want KnownCells:`waits Semaphore \(\*semaphore.Weighted\).Acquire at ctxfirst.go:\d+ on ctx param 0 before work`
	return s.readOnly.List(ctx, "/cells")
}

// Lister's one implementation only counts and passes the call on: no wait
// of its own.
type Lister interface {
	List(ctx context.Context, dir string, full bool) ([]string, error) // want List:"work"
}

type countingLister struct {
	next  Lister
	calls int
}

func (c *countingLister) List(ctx context.Context, dir string, full bool) ([]string, error) { // want List:"work"
	c.calls++
	return c.next.List(ctx, dir, full)
}
