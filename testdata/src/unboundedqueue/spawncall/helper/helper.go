// Package helper starts goroutines for its callers: the per-call facts of
// its functions are what the spawncall test checks.
package helper

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
)

// A Client calls a backend.
type Client struct {
	hc      *http.Client
	sem     chan struct{}
	started atomic.Bool
}

// Refresh starts one goroutine per call that does a request and returns
// without waiting: it spawns per call.
func (c *Client) Refresh(url string) {
	go func() {
		resp, err := c.hc.Get(url)
		if err == nil {
			resp.Body.Close()
		}
	}()
}

// Save hands the blocking work to a named function run by go: it spawns
// per call too.
func Save(c *Client, url string) {
	go c.save(url)
}

func (c *Client) save(url string) {
	if resp, err := c.hc.Get(url); err == nil {
		resp.Body.Close()
	}
}

// RefreshWait waits for its goroutine before returning: no fact.
func (c *Client) RefreshWait(url string) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.save(url)
	}()
	wg.Wait()
}

// RefreshLimited takes a slot of a semaphore before go: no fact.
func (c *Client) RefreshLimited(url string) {
	c.sem <- struct{}{}
	go func() {
		defer func() { <-c.sem }()
		c.save(url)
	}()
}

// RefreshOnce starts its goroutine at most once: no fact.
func (c *Client) RefreshOnce(url string) {
	if c.started.CompareAndSwap(false, true) {
		go c.save(url)
	}
}

// Count starts a goroutine that only computes: no fact.
func Count(xs []int, out *int64) {
	go func() {
		var n int64
		for _, x := range xs {
			n += int64(x)
		}
		atomic.AddInt64(out, n)
	}()
}

// RefreshAll starts a goroutine per element itself: a fan-out the loop
// kinds decide where it is, not one goroutine per call.
func (c *Client) RefreshAll(urls []string) {
	for _, url := range urls {
		go c.save(url)
	}
}

// A Loader loads each path once.
type Loader struct {
	mu     sync.Mutex
	loaded map[string]chan struct{}
	c      *Client
}

// Start starts loading path unless it has started already: one goroutine
// per path, however often it is called, so no fact.
func (l *Loader) Start(url string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	done, ok := l.loaded[url]
	if !ok {
		done = make(chan struct{})
		l.loaded[url] = done
		go func() {
			l.c.save(url)
			close(done)
		}()
	}
	return done
}

// RefreshAny returns early when there is nothing to do: it starts a
// goroutine on some calls only, which the fact cannot count, so no fact.
// An early return on an error (Fetch) does not count.
func (c *Client) RefreshAny(urls []string) {
	if len(urls) == 0 {
		return
	}
	go c.save(urls[0])
}

// Fetch returns early on an error only, then spawns: it spawns per call.
func (c *Client) Fetch(url string) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	go func() {
		if resp, err := c.hc.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// Audit spawns through Save, which it calls once on every call: it spawns
// per call too, through Save.
func Audit(c *Client, url string) {
	c.hc.CloseIdleConnections()
	Save(c, url)
}

// AuditMaybe calls Save on some calls only: no fact.
func AuditMaybe(c *Client, url string, on bool) {
	if on {
		Save(c, url)
	}
}

// AuditWait waits for a result after calling Save: no fact.
func AuditWait(c *Client, url string, done <-chan struct{}) {
	Save(c, url)
	<-done
}

// RefreshCtx starts a goroutine whose request takes the caller's context:
// it spawns per call, under its context.
func (c *Client) RefreshCtx(ctx context.Context, url string) {
	go func() {
		req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err != nil {
			return
		}
		if resp, err := c.hc.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
}

// An Event is what a dispatcher hands its handlers, one per message read.
type Event struct{ Topic, Body string }

// Async makes a handler asynchronous: the function it returns starts the
// handler in a goroutine of its own on each call. Its fact says so; its
// callers say whether the handler blocks.
func Async(f func(Event)) func(Event) {
	return func(e Event) {
		go f(e)
	}
}

// AsyncRecover is Async with a recover around the handler: a fact too.
func AsyncRecover(f func(Event)) func(Event) {
	return func(e Event) {
		go func() {
			defer func() { _ = recover() }()
			f(e)
		}()
	}
}

var handlerSlots = make(chan struct{}, 8)

// AsyncLimited takes a slot before it starts the handler: no fact.
func AsyncLimited(f func(Event)) func(Event) {
	return func(e Event) {
		handlerSlots <- struct{}{}
		go func() {
			defer func() { <-handlerSlots }()
			f(e)
		}()
	}
}

// AsyncAll starts the handler once per call whatever the event, without
// it: no fact (the goroutine is not the event's).
func AsyncAll(f func()) func(Event) {
	return func(Event) {
		go f()
	}
}
