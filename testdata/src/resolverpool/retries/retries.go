// Package retries exercises tasks that retry a call to a named peer and wait
// between attempts while they hold their slot: the wait is slow work beside
// the other tasks' lookups.
package retries

import (
	"context"
	"math/rand"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

func lookup(ctx context.Context, host string) error {
	_, err := net.DefaultResolver.LookupHost(ctx, host)
	return err
}

func call(peer string) error {
	resp, err := http.Get("http://" + peer + "/sync")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// syncPeer retries the call to its peer, sleeping with jitter between
// attempts: every caller that holds a slot sleeps in it.
func syncPeer(peer string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = call(peer); err == nil {
			return nil
		}
		time.Sleep(100*time.Millisecond + time.Duration(rand.Intn(50))*time.Millisecond)
	}
	return err
}

// semaphores runs lookups and a peer sync on one semaphore.
func semaphores(ctx context.Context, hosts []string, peer string) {
	sem := semaphore.NewWeighted(4)
	for _, h := range hosts {
		_ = sem.Acquire(ctx, 1)
		_ = lookup(ctx, h)
		sem.Release(1)
	}
	_ = sem.Acquire(ctx, 1) // want `semaphore sem of 4 holds a slot while a task waits between attempts \(syncPeer → time.Sleep\) beside work that resolves hostnames \(lookup → net.Resolver.LookupHost\), so lookups wait behind the wait; give the retrying work a pool of its own`
	_ = syncPeer(peer)
	sem.Release(1)
}

// group retries inside the task itself, with a context-aware wait: watching
// ctx.Done() ends the wait on cancellation, not the slot it holds.
func group(ctx context.Context, hosts []string, peer string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, h := range hosts {
		g.Go(func() error { return lookup(ctx, h) })
	}
	g.Go(func() error { // want `errgroup g of 8 holds a slot while a task waits between attempts \(a timer\) beside work that resolves hostnames \(lookup → net.Resolver.LookupHost\)`
		for {
			if err := call(peer); err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	})
	return g.Wait()
}

// backoff only pauses: a helper the retry loop below waits in.
func backoff(attempt int) {
	time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
}

// workers runs functions sent to them; one of them retries through a pause
// helper.
func workers(hosts []string, peer string) {
	var wg sync.WaitGroup
	work := make(chan func(), 16)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				f()
			}
		}()
	}
	for _, h := range hosts {
		work <- func() { _ = lookup(context.Background(), h) }
	}
	work <- func() { // want `worker pool work holds a slot while a task waits between attempts \(backoff → time.Sleep\)`
		for i := range 3 {
			if call(peer) == nil {
				return
			}
			backoff(i)
		}
	}
	close(work)
	wg.Wait()
}

// Negative cases.

// fanOut retries every fetch with sleeps, but the pool runs nothing else:
// a retrying fan-out limiter, one kind of work.
func fanOut(ctx context.Context, peers []string) {
	sem := semaphore.NewWeighted(4)
	for _, p := range peers {
		_ = sem.Acquire(ctx, 1)
		go func() {
			defer sem.Release(1)
			_ = syncPeer(p)
		}()
	}
}

// contextAware waits between attempts watching ctx, and no other task of
// the pool resolves: the disk task is slow work, the retry is resolving work.
func contextAware(ctx context.Context, peer, path string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	g.Go(func() error {
		for attempt := 0; attempt < 3; attempt++ {
			if err := call(peer); err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
		return nil
	})
	g.Go(func() error { // want `errgroup g of 2 runs slow work \(os.ReadFile\) beside work that resolves hostnames \(call → http.Get\)`
		_, err := os.ReadFile(path)
		return err
	})
	return g.Wait()
}

// poller runs periodic work on a ticker: not a wait between attempts.
func poller(ctx context.Context, hosts []string, peer string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, h := range hosts {
		g.Go(func() error { return lookup(ctx, h) })
	}
	g.Go(func() error {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			_ = call(peer)
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
		}
	})
	return g.Wait()
}

// sleepOutsideLoop sleeps after its loop, not between attempts: the task
// resolves and sleeps once, like a task that both resolves and writes.
func sleepOutsideLoop(ctx context.Context, hosts []string, peer string) {
	sem := semaphore.NewWeighted(4)
	for _, h := range hosts {
		_ = sem.Acquire(ctx, 1)
		_ = lookup(ctx, h)
		sem.Release(1)
	}
	_ = sem.Acquire(ctx, 1)
	for range 3 {
		if call(peer) == nil {
			break
		}
	}
	time.Sleep(time.Second)
	sem.Release(1)
}

// consumer ranges over a channel of peers, sleeping between them: it is a
// consumer loop in a goroutine of its own, not a task of the pool.
func consumer(ctx context.Context, hosts []string, peers <-chan string) {
	sem := semaphore.NewWeighted(4)
	for _, h := range hosts {
		_ = sem.Acquire(ctx, 1)
		_ = lookup(ctx, h)
		sem.Release(1)
	}
	go func() {
		for p := range peers {
			_ = call(p)
			time.Sleep(time.Second)
		}
	}()
}
