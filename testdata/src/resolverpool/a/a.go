// Package a exercises semaphore pools held in local variables.
package a

import (
	"context"
	"net/http"
	"os"
	"time"

	"golang.org/x/sync/semaphore"

	"resolverpool/lib"
)

func fetch(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func compress(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path+".gz", data, 0o644)
}

// shared runs fetches and compressions on one semaphore.
func shared(ctx context.Context, urls, paths []string) error {
	sem := semaphore.NewWeighted(8)
	for _, u := range urls {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		go func() {
			defer sem.Release(1)
			_ = fetch(ctx, u)
		}()
	}
	for _, p := range paths {
		if err := sem.Acquire(ctx, 1); err != nil { // want `semaphore sem of 8 runs slow work \(compress → os.ReadFile\) beside work that resolves hostnames \(fetch → http.Client.Do\), so lookups wait behind it; give the slow work a pool of its own`
			return err
		}
		go func() {
			defer sem.Release(1)
			_ = compress(p)
		}()
	}
	return sem.Acquire(ctx, 8)
}

// crossPackage classifies its tasks through the facts of lib.
func crossPackage(ctx context.Context, hosts []string, paths []string, n int64) {
	sem := semaphore.NewWeighted(n)
	for _, h := range hosts {
		sem.Acquire(ctx, 1)
		_ = lib.Fetch(h)
		sem.Release(1)
	}
	for _, p := range paths {
		sem.Acquire(ctx, 1) // want `semaphore sem runs slow work \(lib.Archive → os.WriteFile\) beside work that resolves hostnames \(lib.Fetch → lib.get → http.Client.Do\)`
		_ = lib.Archive(p, nil)
		sem.Release(1)
	}
	for range paths {
		if !sem.TryAcquire(1) { // want `semaphore sem runs slow work \(lib.Even → lib.Odd → time.Sleep\)`
			continue
		}
		lib.Even(4)
		sem.Release(1)
	}
}

// generic classifies a method of a generic type through its fact.
func generic(ctx context.Context, c *lib.Cache[string, int], hosts []string) {
	sem := semaphore.NewWeighted(2)
	if sem.TryAcquire(1) { // want `semaphore sem of 2 runs slow work \(lib.Cache.Load → os.ReadFile\)`
		defer sem.Release(1)
		_ = c.Load("cache.db")
	}
	for _, h := range hosts {
		_ = sem.Acquire(ctx, 1)
		_, _ = lib.Resolve(ctx, h)
		sem.Release(1)
	}
}

// Negative cases.

// fanOut only resolves: an HTTP fan-out limiter.
func fanOut(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(16)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1) // why: resolving-task
		go func() {
			defer sem.Release(1)
			_ = fetch(ctx, u)
		}()
	}
}

// diskIO only does slow work.
func diskIO(ctx context.Context, paths []string) {
	sem := semaphore.NewWeighted(4)
	for _, p := range paths {
		_ = sem.Acquire(ctx, 1) // why: pool-of-one-kind
		_ = compress(p)
		sem.Release(1)
	}
}

// retry sleeps between attempts at the same network call, watching ctx: with
// no other task of the pool resolving, the wait delays no lookup but the
// retry's own.
func retry(ctx context.Context, urls, paths []string) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		for attempt := 0; attempt < 3; attempt++ {
			if fetch(ctx, u) == nil {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		sem.Release(1)
	}
	for range paths {
		_ = sem.Acquire(ctx, 1) // why: quick-task
		select {
		case <-ctx.Done():
		case <-time.After(time.Second): // a timer wait is not slow work
		}
		sem.Release(1)
	}
}

// sleepAfterFailure sleeps once after a failed fetch: no attempt follows in
// the slot, so the task is resolving work like the other.
func sleepAfterFailure(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		sem.Release(1)
	}
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		if fetch(ctx, u) != nil {
			time.Sleep(time.Second)
		}
		sem.Release(1)
	}
}

// retryHelper hands the network call to a retry helper that sleeps between
// attempts: the task resolves, but it holds its slot through every sleep,
// and the fetches of the first task wait behind it.
func retryHelper(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		sem.Release(1)
	}
	_ = sem.Acquire(ctx, 1) // want `semaphore sem of 4 holds a slot while a task waits between attempts \(lib.Retry → time.Sleep\) beside work that resolves hostnames \(fetch → http.Client.Do\), so lookups wait behind the wait; give the retrying work a pool of its own`
	_ = lib.Retry(3, ping)
	sem.Release(1)
	_ = sem.Acquire(ctx, 1) // want `semaphore sem of 4 holds a slot while a task waits between attempts \(syncAll → lib.Retry → time.Sleep\)`
	_ = syncAll()
	sem.Release(1)
}

func ping() error { return lib.Fetch("https://example.com/health") }

func syncAll() error { return lib.Retry(5, ping) }

// outside does its slow work before acquiring and after releasing.
func outside(ctx context.Context, urls []string, path string) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		sem.Release(1)
	}
	data, _ := os.ReadFile(path)
	_ = sem.Acquire(ctx, 1)
	sem.Release(1)
	time.Sleep(time.Second)
	_ = data
}

// unrelated keeps resolving and slow work on two pools.
func unrelated(ctx context.Context, urls, paths []string) {
	netSem := semaphore.NewWeighted(16)
	diskSem := semaphore.NewWeighted(2)
	for _, u := range urls {
		_ = netSem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		netSem.Release(1)
	}
	for _, p := range paths {
		_ = diskSem.Acquire(ctx, 1)
		_ = compress(p)
		diskSem.Release(1)
	}
}

// detached starts goroutines that do not hold the slot.
func detached(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		go func() { time.Sleep(time.Second) }()
		sem.Release(1)
	}
	_ = sem.Acquire(ctx, 1)  // want `semaphore sem of 4 runs slow work \(time.Sleep\) beside work that resolves hostnames \(fetch → http.Client.Do\)`
	lib.Spawn("example.com") // resolves in a goroutine of its own: this task only sleeps
	time.Sleep(time.Second)
	sem.Release(1)
}

// unknown runs function values: not classified.
func unknown(ctx context.Context, urls []string, work func() error) {
	sem := semaphore.NewWeighted(4)
	for _, u := range urls {
		_ = sem.Acquire(ctx, 1)
		_ = fetch(ctx, u)
		sem.Release(1)
	}
	_ = sem.Acquire(ctx, 1)
	_ = lib.Run(work)
	_ = work()
	sem.Release(1)
}

// param receives its pool: there is no declaration to put a sibling beside,
// so the finding has no fix and says what to do by hand.
func param(ctx context.Context, sem *semaphore.Weighted, u, p string) {
	_ = sem.Acquire(ctx, 1)
	_ = fetch(ctx, u)
	sem.Release(1)
	_ = sem.Acquire(ctx, 1) // want `semaphore sem runs slow work \(compress → os.ReadFile\) beside work that resolves hostnames \(fetch → http.Client.Do\), so lookups wait behind it; by hand, have the caller pass a second pool, with the same limit as sem, for the slow work`
	_ = compress(p)
	sem.Release(1)
}
