// Package flags has waits that count only with -waittiming.mutex and
// -waittiming.waits.
package flags

import (
	"context"
	"log"
	"sync"
	"time"

	"waittiming/flags/pool"
)

func work(ctx context.Context) error { return nil }

var mu sync.RWMutex

// Mutex waits for a lock.
func Mutex(ctx context.Context) error {
	start := time.Now()
	mu.RLock()
	defer mu.RUnlock()
	err := work(ctx)
	log.Printf("took %v", time.Since(start)) // want `spans the wait in \(\*sync\.RWMutex\)\.RLock`
	return err
}

var lock = make(chan struct{}, 1)

// ChanLock waits for a one-slot channel used as a lock.
func ChanLock(ctx context.Context) error {
	start := time.Now()
	lock <- struct{}{}
	defer func() { <-lock }()
	err := work(ctx)
	log.Printf("took %v", time.Since(start)) // want `spans the wait in the send to semaphore channel lock`
	return err
}

// Conn waits for a connection of a listed pool.
func Conn(ctx context.Context, p *pool.Pool) error {
	start := time.Now()
	c, err := p.Get(ctx)
	if err != nil {
		return err
	}
	defer p.Put(c)
	err = c.Query(ctx)
	log.Printf("query took %v", time.Since(start)) // want `spans the wait in \(\*pool\.Pool\)\.Get`
	return err
}

// Submit hands a function to a listed pool that blocks for a worker.
func Submit(ctx context.Context, p *pool.Pool) {
	start := time.Now()
	p.Submit(func() {
		err := work(ctx)
		log.Printf("task took %v: %v", time.Since(start), err) // want `spans the wait in \(\*pool\.Pool\)\.Submit`
	})
}

// Gate waits at a listed gate function.
func Gate(ctx context.Context) error {
	start := time.Now()
	if err := pool.Enter(ctx); err != nil {
		return err
	}
	err := work(ctx)
	log.Printf("took %v", time.Since(start)) // want `spans the wait in pool\.Enter`
	return err
}
