// Package lib holds a store whose Take waits on a condition variable and a
// client whose Do first waits for a slot on the caller's context: the
// admission facts say so to package app.
package lib

import (
	"context"
	"sync"
	"time"
)

type Item struct{ At time.Time }

type Store struct {
	cond   *sync.Cond
	items  []Item
	closed bool
}

func NewStore() *Store { return &Store{cond: sync.NewCond(&sync.Mutex{})} }

func (s *Store) Push(it Item) {
	s.cond.L.Lock()
	if len(s.items) < 1024 {
		s.items = append(s.items, it)
	}
	s.cond.L.Unlock()
	s.cond.Signal()
}

// Take waits until the store holds items, then takes them all.
func (s *Store) Take() []Item {
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for len(s.items) == 0 && !s.closed {
		s.cond.Wait()
	}
	out := s.items
	s.items = nil
	return out
}

type Client struct{ slots chan struct{} }

func NewClient(n int) *Client { return &Client{slots: make(chan struct{}, n)} }

// Do waits for a slot or for ctx, then sends.
func (c *Client) Do(ctx context.Context, q string) error {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.slots }()
	return send(ctx, q)
}

func send(ctx context.Context, q string) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(len(q)) * time.Millisecond):
		return nil
	}
}

// Scanner is what callers hold; *Pool, its one implementation here, hands
// each scan to the workers shared by every caller and waits for it.
type Scanner interface {
	Scan(ctx context.Context, ids []string) error
}

type job struct {
	ctx context.Context
	id  string
	wg  *sync.WaitGroup
}

type Pool struct{ queue chan job }

func NewPool(workers int) *Pool {
	q := make(chan job, 1000)
	p := &Pool{queue: q}
	for range workers {
		go work(q)
	}
	return p
}

func work(q <-chan job) {
	for j := range q {
		_ = j.ctx.Err()
		j.wg.Done()
	}
}

func (p *Pool) Scan(ctx context.Context, ids []string) error {
	wg := &sync.WaitGroup{}
	for _, id := range ids {
		wg.Add(1)
		p.queue <- job{ctx: ctx, id: id, wg: wg}
	}
	wg.Wait()
	return ctx.Err()
}
