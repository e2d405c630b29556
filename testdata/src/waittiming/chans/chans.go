// Package chans has waits on channels used as semaphores, token channels
// and worker pools, waits before goroutines, and errgroups with a limit.
package chans

import (
	"context"
	"log"
	"time"

	"golang.org/x/sync/errgroup"
)

func work(ctx context.Context, n int) error { return nil }

var slots = make(chan struct{}, 16)

// Send acquires a slot of a semaphore channel.
func Send(ctx context.Context, n int) error {
	start := time.Now()
	slots <- struct{}{}
	defer func() { <-slots }()
	err := work(ctx, n)
	log.Printf("work %d took %v", n, time.Since(start)) // want `the duration since start spans the wait in the send to semaphore channel slots`
	return err
}

// Select acquires in a select that gives up on cancellation.
func Select(ctx context.Context, n int) error {
	start := time.Now()
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-slots }()
	err := work(ctx, n)
	log.Printf("work %d took %v", n, time.Since(start)) // want `spans the wait in the send to semaphore channel slots`
	return err
}

type Pool struct {
	tokens chan int
	conns  chan *conn
}

type conn struct{}

func (c *conn) do(ctx context.Context) error { return nil }

func NewPool(n int) *Pool {
	p := &Pool{tokens: make(chan int, n), conns: make(chan *conn, n)}
	for i := 0; i < n; i++ {
		p.tokens <- i
	}
	for range n {
		p.conns <- new(conn)
	}
	return p
}

// Token takes a token from a pre-filled channel.
func (p *Pool) Token(ctx context.Context, n int) error {
	start := time.Now()
	tok := <-p.tokens
	defer func() { p.tokens <- tok }()
	err := work(ctx, n)
	log.Printf("work %d took %v", n, time.Since(start)) // want `spans the wait in the receive from token channel tokens`
	return err
}

// Conn takes a connection from a pool and puts it back.
func (p *Pool) Conn(ctx context.Context) error {
	start := time.Now()
	c := <-p.conns
	err := c.do(ctx)
	p.conns <- c
	log.Printf("do took %v", time.Since(start)) // want `spans the wait in the receive from token channel conns`
	return err
}

type job struct {
	n    int
	done chan error
}

// Workers runs jobs handed over an unbuffered channel.
type Workers struct {
	jobs chan job
}

func NewWorkers(n int) *Workers {
	w := &Workers{jobs: make(chan job)}
	for range n {
		go w.loop()
	}
	return w
}

func (w *Workers) loop() {
	for j := range w.jobs {
		j.done <- work(context.Background(), j.n)
	}
}

// Submit hands a job to the pool and waits for its result.
func (w *Workers) Submit(n int) error {
	start := time.Now()
	j := job{n: n, done: make(chan error, 1)}
	w.jobs <- j
	err := <-j.done
	log.Printf("job %d took %v", n, time.Since(start)) // want `spans the wait in the hand-off to the workers of jobs`
	return err
}

// Goroutine waits for a slot, then starts the work in a goroutine that
// reports the duration from before the wait.
func Goroutine(ctx context.Context, n int) {
	start := time.Now()
	slots <- struct{}{}
	go func() {
		defer func() { <-slots }()
		err := work(ctx, n)
		log.Printf("work %d took %v: %v", n, time.Since(start), err) // want `spans the wait in the send to semaphore channel slots`
	}()
}

// Inside waits and measures inside a goroutine.
func Inside(ctx context.Context, ns []int) {
	for _, n := range ns {
		go func() {
			start := time.Now()
			slots <- struct{}{}
			defer func() { <-slots }()
			err := work(ctx, n)
			log.Printf("work %d took %v: %v", n, time.Since(start), err) // want `spans the wait in the send to semaphore channel slots`
		}()
	}
}

// Group times each item from before g.Go, which blocks at the limit.
func Group(ctx context.Context, ns []int) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, n := range ns {
		start := time.Now()
		g.Go(func() error {
			err := work(ctx, n)
			log.Printf("work %d took %v", n, time.Since(start)) // want `spans the wait in \(\*errgroup\.Group\)\.Go on a group with a limit`
			return err
		})
	}
	return g.Wait()
}

// Backoff times each attempt, which includes the backoff before it.
func Backoff(ctx context.Context, n int) error { // want Backoff:"retries between time\\.Sleep"
	var err error
	backoff := 10 * time.Millisecond
	for attempt := 0; attempt < 3; attempt++ {
		start := time.Now()
		if attempt > 0 {
			time.Sleep(backoff)
			backoff *= 2
		}
		err = work(ctx, n)
		log.Printf("attempt %d took %v", attempt, time.Since(start)) // want `spans the wait in a backoff sleep`
		if err == nil {
			return nil
		}
	}
	return err
}
