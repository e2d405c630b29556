// Package rejected holds candidates the pool finder does not take for a
// pool, each with the rule -resolverpool.why says at its uses.
package rejected

import (
	"context"
	"net"
	"net/http"
	"os"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
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

func load(path string) error {
	_, err := os.ReadFile(path)
	return err
}

func resolve(ctx context.Context, host string) error {
	_, err := net.DefaultResolver.LookupHost(ctx, host)
	return err
}

// A gate takes its slot in one method and gives it back in another: what
// holds the slot is not one function's code.
type gate struct{ sem *semaphore.Weighted }

func (g *gate) enter(ctx context.Context) error {
	return g.sem.Acquire(ctx, 1) // why: no-paired-release
}

func (g *gate) leave() { g.sem.Release(1) }

// unlimited sets a limit and takes it off again: no pool.
func unlimited(ctx context.Context, urls, hosts []string) error {
	var g errgroup.Group
	g.SetLimit(-1) // why: group-without-limit
	for _, u := range urls {
		g.Go(func() error { return fetch(ctx, u) })
	}
	for _, h := range hosts {
		g.Go(func() error { return resolve(ctx, h) })
	}
	g.Go(func() error { return load("/etc/hosts") })
	return g.Wait()
}

// A job runs as a method or as its function field, by the worker.
type job struct{ fn func() }

func (j job) Run() { j.fn() }

// twoWorkers run the jobs of one channel in two ways.
func twoWorkers(jobs chan job) {
	go func() {
		for j := range jobs { // why: workers-differ
			j.Run()
		}
	}()
	go func() {
		for j := range jobs { // why: workers-differ
			j.fn()
		}
	}()
}

// A limiter hands out its slots through take, and also as the semaphore it
// embeds.
type limiter struct{ *semaphore.Weighted }

func (l limiter) take(ctx context.Context) (func(), error) {
	if err := l.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	return func() { l.Release(1) }, nil
}

// bothWays takes one slot through the helper and one directly.
func bothWays(ctx context.Context, l limiter, url, host string) error {
	release, err := l.take(ctx) // why: pool-acquired-two-ways
	if err != nil {
		return err
	}
	_ = fetch(ctx, url)
	release()
	if err := l.Acquire(ctx, 1); err != nil { // why: pool-acquired-two-ways
		return err
	}
	defer l.Release(1)
	return resolve(ctx, host)
}
